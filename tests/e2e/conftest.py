"""Fixtures of the end-to-end tests: the double, a world in it, and the bot started against it (on an
SQLite file; on PostgreSQL too for the scenarios marked ``on_both_stores``)."""

from __future__ import annotations

import logging

import pytest

from bot.play.clock import ManualClock
from tests.conftest import STORES, new_postgres_database
from tests.e2e.harness import Env, make_double

#: Mark a scenario that touches the storage in a store-specific way (a restart, a season's end, a prune,
#: a kept review) to run it on an SQLite file and on a PostgreSQL database; ``env`` alone is SQLite.
on_both_stores = pytest.mark.parametrize("env", STORES, indirect=True)


@pytest.fixture
async def env(tmp_path, monkeypatch, bot_errors, request):
    """The bot against the double; strong computer moves are made in a thread."""
    async for e in _env(tmp_path, monkeypatch, request, None):
        yield e


@pytest.fixture
async def pooled_env(tmp_path, monkeypatch, bot_errors, computer_pool, request):
    """``env`` with the session's worker pool for strong computer moves (the bot does not close it)."""
    async for e in _env(tmp_path, monkeypatch, request, computer_pool):
        yield e


async def _env(tmp_path, monkeypatch, request, computers):
    store = getattr(request, "param", "sqlite")
    if store == "sqlite":
        database = tmp_path / "bot.sqlite3"
    else:       # a fresh, migrated database of the run's server (skipped, in one line, where there is none)
        database = await new_postgres_database(request.getfixturevalue("postgres_cluster"))
    clock = ManualClock()
    double, guild, channel, thread, users = make_double(clock)
    await double.start()
    e = Env(double, guild, channel, thread, users, database, clock, monkeypatch, computers=computers)
    await e.start_bot()
    assert e.bot.storage.dialect.name == store
    yield e
    if e.bot is not None:
        await e.settle()
    await e.stop_bot()
    await double.stop()
    assert not double.unknown_routes, f"the bot called routes the double does not know: {double.unknown_routes}"
    assert not double.internal_errors, double.internal_errors[0]


@pytest.fixture(autouse=True)
def quiet_logs(caplog):
    """Nothing the users did may be logged as an error (or a warning of the bot's own), in any phase
    of the test (``caplog.records`` alone holds only the teardown's). A test that provokes such lines
    on purpose asserts them itself and then clears ``caplog``."""
    caplog.set_level(logging.INFO)
    yield
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    loud = [r for r in records
            if r.levelno >= logging.ERROR or (r.levelno >= logging.WARNING and r.name.startswith("spieltisch"))]
    assert not loud, [f"{r.name}: {r.getMessage()}" for r in loud]
