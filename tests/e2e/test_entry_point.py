"""``python -m bot`` as a real process: start-up mistakes end it with one sentence (exit code 2 for
the settings, 1 for a database the bot cannot use or a token Discord refuses), and a Discord it cannot
reach is tried again, a line each time, until it is stopped."""

import asyncio
import signal
import socket
import sqlite3
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.storage.migrations import LATEST
from tests.double import DiscordDouble
from tests.e2e.bot_process import clean_env, run_entry_point, write_config

TIMEOUT = 30          # only guards a hanging test; every wait ends on an event


def _one_sentence(result) -> str:
    err = result.stderr.strip()
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert len(err.splitlines()) == 1, err
    assert err.startswith("spieltisch: ") and err.endswith("."), err
    return err


@pytest.mark.long(seconds=6)
def test_start_up_mistakes_stop_the_real_entry_point_without_a_traceback(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken.toml"
    broken.write_text("token = \n", encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('token = "x"\nlobby_timeout_minutes = "soon"\n', encoding="utf-8")
    runs = {
        # No token anywhere: no config.toml in the working directory, no DISCORD_TOKEN.
        "no_token": ([], empty, clean_env()),
        "malformed": ([str(broken)], empty, clean_env()),
        # The environment's token does not excuse a malformed file.
        "malformed_env_token": ([str(broken)], empty, clean_env(DISCORD_TOKEN="x")),
        "wrong_type": ([str(wrong)], empty, clean_env()),
        "missing_named_file": ([], empty, clean_env(SPIELTISCH_CONFIG=str(tmp_path / "nope.toml"),
                                                     DISCORD_TOKEN="x")),
    }
    with ThreadPoolExecutor(len(runs)) as pool:
        futures = {name: pool.submit(run_entry_point, args, cwd=cwd, env=env)
                   for name, (args, cwd, env) in runs.items()}
        results = {name: future.result() for name, future in futures.items()}

    no_token = _one_sentence(results["no_token"])
    assert "DISCORD_TOKEN" in no_token and "config.toml" in no_token
    for name in ("malformed", "malformed_env_token"):
        text = _one_sentence(results[name])
        assert str(broken) in text and "not valid TOML" in text
    assert "`lobby_timeout_minutes`" in _one_sentence(results["wrong_type"])
    missing = _one_sentence(results["missing_named_file"])
    assert "SPIELTISCH_CONFIG" in missing and "nope.toml" in missing


@pytest.mark.long(seconds=5)
def test_a_database_the_bot_cannot_use_stops_it_with_one_sentence_naming_the_file(tmp_path):
    """Checked before the bot connects to Discord: exit code 1, no traceback, no unclosed session."""
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("a shopping list, not a database\n" * 100, encoding="utf-8")
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as raw:
        raw.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at TEXT NOT NULL)")
        raw.execute("INSERT INTO schema_migrations VALUES (?, 'future', datetime('now'))", (LATEST + 1,))
    runs = {
        junk: "it is not an SQLite database (or it is damaged)",
        tmp_path / "no-such-folder" / "db.sqlite3": f"its folder {tmp_path / 'no-such-folder'} does not exist",
        tmp_path: "it is a folder, not a file",
        newer: None,
    }
    with ThreadPoolExecutor(len(runs)) as pool:
        futures = {path: pool.submit(run_entry_point, [], cwd=tmp_path,
                                     env=clean_env(DISCORD_TOKEN="x", SPIELTISCH_DATABASE=str(path)))
                   for path in runs}
        results = {path: future.result() for path, future in futures.items()}
    for path, why in runs.items():
        result = results[path]
        assert result.returncode == 1, (path, result.returncode, result.stderr)
        assert "Traceback" not in result.stderr + result.stdout
        assert "Unclosed" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        if why is not None:
            assert result.stderr.strip() == f"spieltisch: The database {path} cannot be used: {why}."
    assert results[newer].stderr.strip() == (
        f"spieltisch: The database {newer} was written by a newer version of Spieltisch (schema {LATEST + 1}; "
        f"this version knows up to {LATEST}), so it refuses to touch it: update the bot.")
    with sqlite3.connect(newer) as raw:
        assert raw.execute("SELECT name FROM sqlite_master WHERE name = 'sessions'").fetchone() is None


async def _start(config, tmp_path) -> asyncio.subprocess.Process:
    """``python -m bot CONFIG`` without blocking the event loop the double runs on."""
    return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", str(config), cwd=tmp_path,
                                                env=clean_env(), stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)


async def test_a_token_discord_refuses_is_one_sentence_and_exit_code_1(tmp_path):
    async with DiscordDouble() as d:
        d.fault("GET", "/users/@me", status=401)          # what Discord answers a wrong token
        proc = await _start(write_config(tmp_path / "bot.toml", d, tmp_path / "bot.sqlite3"), tmp_path)
        out, err = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    assert proc.returncode == 1, err.decode()
    assert err.decode().strip() == (
        "spieltisch: Discord refused the bot token; check DISCORD_TOKEN or `token` in config.toml.")
    assert not out


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_an_unreachable_discord_is_tried_again_a_line_each_time_until_sigterm(tmp_path):
    port = _closed_port()          # nothing listens there: every connection is refused
    config = tmp_path / "bot.toml"
    config.write_text(f'token = "x"\ndatabase = "{(tmp_path / "bot.sqlite3").as_posix()}"\n'
                      f'[testing]\napi_base_url = "http://127.0.0.1:{port}/api/v10"\n', encoding="utf-8")
    proc = await _start(config, tmp_path)
    lines: list[str] = []
    try:
        while sum("WARNING" in line for line in lines) < 2:     # the first try, and the second a second later
            line = (await asyncio.wait_for(proc.stderr.readline(), TIMEOUT)).decode()
            assert line, f"the bot ended by itself: {lines}"
            lines.append(line.rstrip("\n"))
    finally:
        proc.send_signal(signal.SIGTERM)
        out, rest = await asyncio.wait_for(proc.communicate(), TIMEOUT)
    reason = f"Cannot connect to host 127.0.0.1:{port} ssl:default [Connect call failed ('127.0.0.1', {port})]"
    # Each attempt: discord.py's own line that it logs in, and ours that it failed (no traceback).
    assert [line.split(" ", 2)[2] for line in lines] == [
        "INFO discord.client: logging in using static token",
        f"WARNING spieltisch: Discord cannot be reached ({reason}); attempt 1 failed, trying again in 1 s",
        "INFO discord.client: logging in using static token",
        f"WARNING spieltisch: Discord cannot be reached ({reason}); attempt 2 failed, trying again in 2 s"]
    # Stopped while waiting to try a third time: at once, cleanly, without another line.
    assert proc.returncode == 0 and rest.decode() == "" and not out
