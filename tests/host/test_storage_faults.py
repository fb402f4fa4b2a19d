"""Storage faults: a write the database does not take raises ``StorageFault`` having written nothing,
the connection stays usable, and the log says so once per episode; a database that cannot be used
at all stops ``Storage.open`` with one sentence naming the file."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from bot.storage import store as storage_module
from bot.storage.migrations import LATEST
from bot.storage.store import ResultRow, Storage, StorageFault, StorageOpenError
from tests.host.faults import disk_full, fault_lines, locked, read_only
from tests.host.test_storage import new_session


@pytest.fixture
async def stored(tmp_path):
    path = tmp_path / "db.sqlite3"
    storage = await Storage.open(path, busy_timeout=0)
    session_id = await new_session(storage, channel=5)
    await storage.start_session(session_id, seats=[], seed="s", started_at=0.0)
    await storage.append_action(session_id, 0, 0, "pass", 1.0)
    yield path, storage, session_id
    await storage.close()


async def everything(storage: Storage, session_id: int):
    return (await storage.session(session_id, with_actions=True), await storage.timers(),
            await storage.results(session_id), await storage.live_sessions())


async def test_a_locked_database_refuses_every_kind_of_write_and_changes_nothing(stored, caplog):
    path, storage, session_id = stored
    before = await everything(storage, session_id)
    rows = [ResultRow(session_id=session_id, guild_id=1, game="toy", seat=0, user_id=1, name="A", score=None,
                      rank=None, won=False, shared=False, with_computers=False, stopped=True,
                      ended_at=2.0)]
    writes = [
        lambda: storage.append_action(session_id, 1, 0, "pass", 2.0),
        lambda: storage.update_session(session_id, messages={"table": [1]}),
        lambda: storage.end_session(session_id, "stopped", ended_at=2.0, results=rows, action=(1, 0, "pass", 2.0)),
        lambda: storage.set_timer(session_id, "turn", 9.0, {}),
        lambda: new_session(storage, channel=6),
    ]
    caplog.set_level(logging.INFO, logger="spieltisch.storage")
    with locked(path):
        for write in writes:
            with pytest.raises(StorageFault, match="locked"):
                await write()
        assert await everything(storage, session_id) == before       # reads still work meanwhile
    # One line for the whole episode, naming the file and the fault.
    (began,) = fault_lines(caplog.records)
    assert str(path) in began and "database is locked" in began
    assert [r.levelno for r in caplog.records if r.name == "spieltisch.storage"] == [logging.ERROR]

    # The lock is gone: the same writes work (the connection was left in no transaction), and the
    # first success ends the episode with one more line.
    await storage.append_action(session_id, 1, 0, "pass", 2.0)
    await storage.end_session(session_id, "stopped", ended_at=3.0, results=rows, action=(2, 0, "pass", 3.0))
    lines = fault_lines(caplog.records)
    assert len(lines) == 2 and "takes writes again" in lines[1] and str(path) in lines[1]
    assert (await storage.session(session_id)).status == "stopped"


async def test_a_read_only_database_raises_a_fault_and_a_second_episode_is_logged_again(stored, caplog):
    _, storage, session_id = stored
    caplog.set_level(logging.INFO, logger="spieltisch.storage")
    for _ in range(2):
        async with read_only(storage):
            for seq in (1, 1, 1):
                with pytest.raises(StorageFault, match="readonly"):
                    await storage.append_action(session_id, seq, 0, "pass", 2.0)
        await storage.set_timer(session_id, "turn", 9.0, {})
    assert [line.split(" (")[0].split(";")[0] for line in fault_lines(caplog.records)] == [
        f"the database {storage.path} refuses writes", f"the database {storage.path} takes writes again",
    ] * 2
    assert await storage.actions(session_id) == [(0, "pass")]


async def test_a_full_disk_raises_a_fault_and_a_failed_transaction_is_rolled_back(stored):
    _, storage, session_id = stored
    rows = [ResultRow(session_id=session_id, guild_id=1, game="toy", seat=0, user_id=1, name="A", score=None,
                      rank=None, won=False, shared=False, with_computers=False, stopped=True,
                      ended_at=2.0)]
    before = await everything(storage, session_id)
    with disk_full(storage):
        with pytest.raises(StorageFault, match="full"):
            await storage.end_session(session_id, "stopped", ended_at=2.0, results=rows)
        with pytest.raises(StorageFault, match="full"):
            await storage.append_action(session_id, 1, 0, "pass", 2.0)
    assert await everything(storage, session_id) == before
    await storage.end_session(session_id, "stopped", ended_at=2.0, results=rows)
    assert await storage.results(session_id) == rows


async def test_sqlites_own_full_error_is_a_fault_too(tmp_path):
    storage = await Storage.open(tmp_path / "db.sqlite3", busy_timeout=0)
    try:
        session_id = await new_session(storage)
        await storage.start_session(session_id, seats=[], seed="s", started_at=0.0)
        pages = await storage.pragma("page_count")
        await storage._sql.db.execute(f"PRAGMA max_page_count={pages + 1}")
        with pytest.raises(StorageFault, match="full"):
            for seq in range(10_000):
                await storage.append_action(session_id, seq, 0, "x" * 500, float(seq))
        stored = len(await storage.actions(session_id))
        assert 0 < stored < 10_000
        with pytest.raises(StorageFault, match="full"):
            await storage.append_action(session_id, stored, 0, "x" * 500, 0.0)
        assert len(await storage.actions(session_id)) == stored
    finally:
        await storage.close()


async def test_integrity_errors_are_not_storage_faults(stored, caplog):
    _, storage, session_id = stored
    with pytest.raises(sqlite3.IntegrityError):
        await storage.append_action(session_id, 0, 0, "pass", 9.0)       # seq 0 exists
    assert not fault_lines(caplog.records)


# ------------------------------------------------------------------------------------- opening


async def test_open_names_the_file_and_what_is_wrong_with_it(tmp_path):
    junk = tmp_path / "junk.sqlite3"
    junk.write_text("these are not the pages of a database\n" * 200, encoding="utf-8")
    cases = {
        junk: "it is not an SQLite database (or it is damaged)",
        tmp_path / "missing" / "db.sqlite3": f"its folder {tmp_path / 'missing'} does not exist",
        tmp_path: "it is a folder, not a file",
    }
    for path, why in cases.items():
        with pytest.raises(StorageOpenError) as caught:
            await Storage.open(path)
        assert str(caught.value) == f"The database {path} cannot be used: {why}."


async def test_open_refuses_a_schema_newer_than_this_version(tmp_path):
    path = tmp_path / "db.sqlite3"
    storage = await Storage.open(path)
    await storage.close()
    with sqlite3.connect(path) as raw:
        raw.execute("INSERT INTO schema_migrations VALUES (?, 'from the future', datetime('now'))", (LATEST + 1,))
    with pytest.raises(StorageOpenError) as caught:
        await Storage.open(path)
    assert str(caught.value) == (
        f"The database {path} was written by a newer version of Spieltisch (schema {LATEST + 1}; this version "
        f"knows up to {LATEST}), so it refuses to touch it: update the bot.")
    with sqlite3.connect(path) as raw:         # and it wrote nothing
        assert raw.execute("SELECT MAX(version) FROM schema_migrations").fetchone() == (LATEST + 1,)


async def test_open_refuses_a_locked_database_without_waiting_for_ever(tmp_path):
    path = tmp_path / "db.sqlite3"
    await (await Storage.open(path)).close()
    with sqlite3.connect(path, isolation_level=None) as other:
        other.execute("PRAGMA journal_mode=DELETE")
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(StorageOpenError) as caught:
            await Storage.open(path, busy_timeout=0)
        other.execute("ROLLBACK")
    assert str(caught.value) == (f"The database {path} cannot be used: another program (another copy of the "
                                 "bot?) holds it locked.")


async def test_open_refuses_a_read_only_database_at_once(tmp_path, monkeypatch):
    path = tmp_path / "db.sqlite3"
    await (await Storage.open(path)).close()
    real = storage_module.aiosqlite.connect

    def read_only_connect(database, **kwargs):       # the file as a read-only mount would show it
        return real(f"file:{database}?mode=ro", uri=True, **kwargs)

    monkeypatch.setattr(storage_module.aiosqlite, "connect", read_only_connect)
    with pytest.raises(StorageOpenError) as caught:
        await Storage.open(path)
    assert str(caught.value) == (f"The database {path} cannot be used: it is read-only; the bot needs to "
                                 "write to it and to its folder.")
