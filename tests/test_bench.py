"""The benchmark's quick mode, as CI runs it: it must finish, print every row with a figure and exit 0.

It runs as a subprocess exactly as a person would type it (``python -m bench --quick``), so the
bot's own entry point, the double and the players are all exercised end to end.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import postgres
from bench.cpu import loop_cpu, threads_cpu, workers_cpu
from bench.load import KEEP_INTERACTIONS, BenchError, LoadDouble
from bench.postgres import unavailable
from bench.report import (
    BOT_CPU,
    CAPACITY_CPU,
    CAPACITY_ROWS,
    LATENCY_MEDIAN,
    POSTGRESQL,
    POSTGRESQL_ROWS,
    RAW_SQLITE,
    REPLAY_STEP,
    REVIEW_CPU,
    SKIPPED,
    TARGET_ROWS,
    Row,
    beside,
)
from bench.run import QUICK, _postgres_rows
from bot.registry import with_pictures
from games import REGISTRY
from tests.postgres import NoServer, required

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^  (?P<label>.+?)\s{2,}(?P<figure>[\d.,]+ ?(?:ms|s|KB|MB|/s|/move|%)|-)\s{2,}(?P<target>\S.*?)\s{2,}"
                 r"(?P<status>ok\*?|missed\*?|info|skipped)(?:\s|$)")


#: Seconds before the quick run counts as hung: a guard, not a measure of speed (it takes well under
#: a minute on a quiet machine of two cores and several times that on a loaded one).
HUNG = 600


@pytest.mark.long(seconds=40)
def test_quick_mode_prints_every_row(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--tmpdir", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=HUNG)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {m["label"]: m for line in done.stdout.splitlines() if (m := ROW.match(line))}
    for label in TARGET_ROWS:
        assert label in rows, f"no row {label!r} in:\n{done.stdout}"
        assert rows[label]["status"] in ("ok*", "missed*"), rows[label].group(0)
    assert rows[RAW_SQLITE]["status"] == "info"
    # Issue 24: the per-move CPU is a figure without a target, actions/s is gone, and the capacity rows
    # measured real moves at the quick run's 20 tables.
    assert rows[BOT_CPU]["status"] == "info" and rows[BOT_CPU]["target"] == "-", rows[BOT_CPU].group(0)
    assert not any(label.startswith("actions/s") for label in rows), sorted(rows)
    assert all(rows[label]["status"] in ("ok*", "missed*") for label in CAPACITY_ROWS)
    capacity = rows[CAPACITY_CPU].string       # the whole line, its conditions included
    assert "20 live tables" in capacity, capacity
    moved = re.search(r"([\d.]+) moves/s \((\d+) of (\d+) by computers\)", capacity)
    assert moved and int(moved[3]) > 0, capacity
    # the bot's CPU a move, and its worker processes' CPU beside (work moved there must show)
    assert re.search(r"[\d.]+ ms of bot CPU a move \(\d+% of a core in its event loop\); its worker processes "
                     r"\(computer players\) used \d+% of a core beside", capacity), capacity
    assert "capacity, 20 tables: set up in" in done.stdout and "still in play" in done.stdout
    safaru = [label for label in rows if label.startswith("Safarü legal moves + hand")]
    assert len(safaru) == 4 and all(rows[label]["status"] in ("ok*", "missed*") for label in safaru), safaru
    # Issue 27: a replay step of a long match, its picture drawn, for each game with pictures.
    replays = [label for label in rows if label.startswith(REPLAY_STEP)]
    assert sorted(label.rpartition(", ")[2] for label in replays) == sorted(with_pictures()), replays
    assert all(rows[label]["status"] in ("ok*", "missed*") and rows[label]["target"] == "<= 50 ms"
               for label in replays), replays
    # Issue 27: a coach's review of a four-player match, its CPU time per game against 30 s.
    reviews = {label.rpartition(", ")[2]: rows[label] for label in rows if label.startswith(REVIEW_CPU)}
    assert sorted(reviews) == sorted(REGISTRY), sorted(rows)
    for row in reviews.values():
        assert row["status"] in ("ok*", "missed*") and row["target"] == "<= 30 s", row.group(0)
        assert row["figure"].endswith(" s") and "4 easy computer players, its first 12 moves" in row.string
    assert float(rows[LATENCY_MEDIAN]["figure"].removesuffix(" ms")) > 0
    assert "QUICK MODE" in done.stdout and "synchronous=NORMAL" in done.stdout
    assert "request validation off" in done.stdout
    assert "the bot logged" not in done.stdout, done.stdout
    assert " 0 clicks refused" in done.stdout, "a simulated move was refused"
    assert not list(tmp_path.iterdir()), "the benchmark left files behind"
    # Issue 17: the PostgreSQL rows, each printed right after its SQLite row, the same target.
    labels = [m["label"] for line in done.stdout.splitlines() if (m := ROW.match(line))]
    for label in POSTGRESQL_ROWS:
        sqlite = label.removesuffix(POSTGRESQL)
        assert labels.index(label) == labels.index(sqlite) + 1, labels
        assert rows[label]["target"] == rows[sqlite]["target"]
        if rows[label]["status"] == SKIPPED:       # no server here: the line says why; never under CI
            assert not required(os.environ) and "skipped: " in rows[label].group(0), rows[label].group(0)
        else:
            assert rows[label]["status"] in ("ok*", "missed*") and rows[label]["figure"] != "-", rows[label].group(0)
            assert "on PostgreSQL: " in done.stdout and " 0 clicks refused" in done.stdout.split("on PostgreSQL: ")[1]
    assert float(rows[LATENCY_MEDIAN + POSTGRESQL]["figure"].removesuffix(" ms")) > 0


def test_no_postgresql_server_skips_its_rows_with_the_reason_but_fails_under_ci():
    reason = unavailable(NoServer("no PostgreSQL server is installed"), {})
    assert reason == "skipped: no PostgreSQL server is installed"
    rows = _postgres_rows(QUICK, None, reason)
    assert [r.label for r in rows] == list(POSTGRESQL_ROWS)
    assert {(r.figure, r.status, r.conditions) for r in rows} == {("-", SKIPPED, reason)}
    assert [r.target for r in rows] == ["<= 5 ms", "<= 20 ms", "<= 2 s", "<= 250 MB"]
    with pytest.raises(BenchError, match="CI runs the benchmark on PostgreSQL too, but no PostgreSQL server"):
        unavailable(NoServer("no PostgreSQL server is installed"), {"CI": "true"})


async def test_a_server_that_cannot_start_gives_its_reason_and_fails_only_under_ci(monkeypatch):
    def refuse(settings):
        raise NoServer("initdb failed: out of disk")

    monkeypatch.setattr(postgres.Cluster, "start", refuse)
    server = postgres.Server({})
    server.start()
    assert await server.cluster() is None and server.reason == "skipped: initdb failed: out of disk"
    await server.stop()
    under_ci = postgres.Server({"CI": "true"})
    with pytest.raises(BenchError, match="out of disk"):
        await under_ci.cluster()
    await under_ci.stop()


def test_store_rows_go_beside_their_sqlite_rows():
    rows = [Row("a", "1 ms", "-", "info"), Row("b", "2 ms", "-", "info"), Row("c", "3 ms", "-", "info")]
    more = [Row("a [postgresql]", "4 ms", "-", "info"), Row("c [postgresql]", "5 ms", "-", "info"),
            Row("written", "6 s", "-", "info"), Row("a [other]", "7 ms", "-", "info")]
    assert [r.label for r in beside(rows, more)] == ["a", "a [postgresql]", "a [other]", "b", "c", "c [postgresql]",
                                                     "written"]


def test_the_capacity_row_counts_the_bot_workers_cpu_beside_its_own(tmp_path):
    """Work the bot hands its worker processes is not in its own CPU: the capacity row reads each
    child process's CPU apart (a child that spins for a while shows at least that), and the event
    loop's thread apart from the bot's other threads."""
    me = SimpleNamespace(pid=os.getpid())
    child = subprocess.Popen([sys.executable, "-c", "import time\nend = time.process_time() + 0.3\n"
                              "while time.process_time() < end: pass\ntime.sleep(30)"])
    try:
        deadline = time.monotonic() + 60
        while workers_cpu(me).get(child.pid, 0.0) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert workers_cpu(me).get(child.pid, 0.0) >= 0.3
    finally:
        child.kill()
        child.wait()
    assert child.pid not in threads_cpu(os.getpid())
    assert 0 < loop_cpu(me) <= sum(threads_cpu(os.getpid()).values())


def test_the_load_double_keeps_the_tokens_the_bot_may_still_use():
    """The bot edits an open hand through its player's newest click and a table message through the
    newest click on it for up to 15 minutes, as Discord lets it: the load double keeps those records
    past ``KEEP_INTERACTIONS`` (a dropped one answers the edit 404, and the bot stops following the
    hand), and drops every other old one, and those as soon as a newer click replaces them."""
    load = LoadDouble()
    interactions = load.double.world.interactions
    old = time.time() - KEEP_INTERACTIONS - 5

    def click(token: str, user: str, message: str | None, created: float) -> None:
        interactions[token] = record = SimpleNamespace(
            token=token, created=created, user=SimpleNamespace(id=user),
            source=SimpleNamespace(id=message) if message else None)
        load._forget_old(record)

    click("hand-of-ann", "ann", None, old - 2)             # replaced by her newer click below
    click("ann-opens-hand", "ann", "table", old - 1)       # her newest, and the newest on the table
    click("bob-moves", "bob", None, old)                   # his newest
    click("cem-moves", "cem", None, time.time())           # a fresh one: makes the others overdue
    assert set(interactions) == {"ann-opens-hand", "bob-moves", "cem-moves"}
    click("bob-again", "bob", None, time.time())           # a newer one of bob's: the old one goes
    assert set(interactions) == {"ann-opens-hand", "cem-moves", "bob-again"}
    click("ann-in-hand", "ann", None, time.time())         # still the newest click on the table message
    assert "ann-opens-hand" in interactions
    click("dan-on-table", "dan", "table", time.time())     # now replaced there too
    assert "ann-opens-hand" not in interactions
