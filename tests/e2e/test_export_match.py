"""``python -m bot export-match ID [--out FILE]`` as a real process, on SQLite and on PostgreSQL: the
record of an ended match on stdout or in a file, and one line with exit code 1 for a match whose moves
were pruned or that has no record."""

from __future__ import annotations

import json

import pytest

from bot.replays.record import MatchRecord
from bot.replays.retention import DAY, Retention
from bot.storage.store import Storage
from tests.e2e.bot_process import clean_env, run_entry_point
from tests.host.test_retention import NOW, played


def _only_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


@pytest.mark.long(seconds=4)
async def test_export_match_writes_the_record_or_says_in_one_line_why_not(database, tmp_path):
    storage = await Storage.open(database)
    try:
        kept = await played(storage, ended=NOW - 10 * DAY)
        pruned = await played(storage, ended=NOW - 300 * DAY, status="stopped")
        live = await played(storage, ended=None)
        await Retention(storage, 180).prune(NOW)
    finally:
        await storage.close()
    url = database if "://" in database else f"sqlite:///{database}"
    env = clean_env(SPIELTISCH_DATABASE_URL=url)

    out = run_entry_point(["export-match", str(kept)], cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    record = MatchRecord.model_validate_json(out.stdout)
    assert (record.match, record.game, record.status, len(record.moves)) == (kept, "mu", "finished", 3)
    assert [s.name for s in record.seats] == ["Ann", "Bob"] and "user_id" not in out.stdout

    target = tmp_path / "match.json"
    written = run_entry_point(["export-match", str(kept), "--out", str(target)], cwd=tmp_path, env=env)
    assert written.returncode == 0, written.stderr
    assert _only_line(written.stdout) == f"spieltisch: Wrote the record of match {kept} (mu, 3 moves) to {target}."
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(out.stdout)

    gone = run_entry_point(["export-match", str(pruned)], cwd=tmp_path, env=env)
    assert gone.returncode == 1 and not gone.stdout
    assert _only_line(gone.stderr) == (
        f"spieltisch: The moves of match {pruned} (Mü) are no longer kept: the bot keeps them for a while after a "
        "match ends, then only the result. The leaderboard still counts it.")

    playing = run_entry_point(["export-match", str(live)], cwd=tmp_path, env=env)
    assert playing.returncode == 1 and not playing.stdout
    assert _only_line(playing.stderr) == (
        f"spieltisch: Match {live} is still being played; its record can be had once it has ended.")
