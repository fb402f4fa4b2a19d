"""The command line as a real process: ``--help``, ``--config``, ``check-config`` and ``backup`` (the
last one while a bot plays on the same database)."""

from __future__ import annotations

import asyncio
import sqlite3
import sys

from tests.e2e.bot_process import clean_env, run_entry_point
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory


def _only_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


def test_help_names_every_command(tmp_path):
    result = run_entry_point(["--help"], cwd=tmp_path, env=clean_env())
    assert result.returncode == 0, result.stderr
    for words in ("--config PATH", "run", "check-config", "backup", "SPIELTISCH_", "DISCORD_TOKEN"):
        assert words in result.stdout, words


def test_a_missing_config_file_fails_with_one_sentence(tmp_path):
    for args in (["--config", "nope.toml"], ["--config", "nope.toml", "check-config"], ["nope.toml"]):
        result = run_entry_point(args, cwd=tmp_path, env=clean_env(DISCORD_TOKEN="x"))
        assert result.returncode == 2, (args, result.stderr)
        assert _only_line(result.stderr) == "spieltisch: The config file nope.toml named by --config does not exist."


def test_check_config_reports_ok_or_the_problem(tmp_path):
    config = tmp_path / "bot.toml"
    config.write_text('token = "file-token"\ndatabase = "/data/games.sqlite3"\ncommand_guild_id = 42\n',
                      encoding="utf-8")
    ok = run_entry_point(["--config", str(config), "check-config"], cwd=tmp_path,
                         env=clean_env(SPIELTISCH_METRICS_PORT="9108"))
    assert ok.returncode == 0, ok.stderr
    assert _only_line(ok.stdout) == (
        "spieltisch: The settings are OK: database /data/games.sqlite3, commands registered in server 42, "
        "log level INFO (text), metrics on 127.0.0.1:9108.")
    assert "file-token" not in ok.stdout + ok.stderr

    bad = run_entry_point(["--config", str(config), "check-config"], cwd=tmp_path,
                          env=clean_env(SPIELTISCH_COMPUTER_DELAY_SECONDS="slow"))
    assert bad.returncode == 2 and not bad.stdout
    assert _only_line(bad.stderr).startswith(
        "spieltisch: The environment variable SPIELTISCH_COMPUTER_DELAY_SECONDS is invalid: ")

    no_token = run_entry_point(["check-config"], cwd=tmp_path, env=clean_env())
    assert no_token.returncode == 2 and "No Discord bot token" in _only_line(no_token.stderr)


async def _run(*args: str, cwd, env) -> tuple[int, str, str]:
    """``python -m bot`` without blocking the event loop the bot under test runs on."""
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", *args, cwd=cwd, env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode, out.decode(), err.decode()


async def test_backup_copies_the_database_of_a_running_bot(env, tmp_path):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    await drive.flip(drive.face_down(5))
    moves = list(session.log)
    target = tmp_path / "copy.sqlite3"
    child_env = clean_env(SPIELTISCH_DATABASE=str(env.database))        # no token: a backup needs none

    code, out, err = await _run("backup", str(target), cwd=tmp_path, env=child_env)

    assert code == 0, err
    assert _only_line(out) == f"spieltisch: Copied {env.database} to {target} (1 sessions, 0 result rows)."
    assert env.bot.storage is not None          # the bot still holds its database open, and plays on
    await drive.flip(drive.face_down(6))
    assert len(session.log) == len(moves) + 1
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        stored = copy.execute("SELECT seat, action FROM actions WHERE session_id = ? ORDER BY seq",
                              (session.id,)).fetchall()
        assert stored == moves
        assert copy.execute("SELECT status FROM sessions").fetchall() == [("playing",)]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []     # no partial file left

    again, _, err = await _run("backup", str(target), cwd=tmp_path, env=child_env)
    assert again == 1 and _only_line(err) == f"spieltisch: {target} already exists; name a new file for the backup."
    absent = tmp_path / "absent.sqlite3"
    code, _, err = await _run("backup", str(tmp_path / "x.sqlite3"), cwd=tmp_path,
                              env=clean_env(SPIELTISCH_DATABASE=str(absent)))
    assert code == 1 and _only_line(err) == (
        f"spieltisch: The database {absent} does not exist, so there is nothing to back up.")
    assert not absent.exists()
