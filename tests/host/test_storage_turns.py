"""The SQLite writer connection's turns (``bot.storage.database.Exclusive``): single statements (a
move's INSERT, a ping's UPDATE) go to aiosqlite's thread without queueing behind one another, and
never into a transaction or a read that holds the connection."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from bot.storage.store import Storage
from tests.host.test_storage import new_session


class Rollback(Exception):
    pass


@pytest.fixture
async def storage(tmp_path):
    storage = await Storage.open(str(tmp_path / "turns.sqlite3"))
    yield storage
    await storage.close()


async def _playing(storage: Storage) -> int:
    session_id = await new_session(storage)
    await storage.start_session(session_id, seats=[], seed="s", started_at=0.0)
    return session_id


async def test_moves_in_flight_are_handed_to_the_database_thread_together(storage):
    """Each waited for the one before it to come back through the event loop: at a thousand tables
    that queue set the click latency's 99th percentile."""
    session_id = await _playing(storage)
    db = storage._sql.db
    gate = threading.Event()
    await db.create_function("hold", 0, lambda: gate.wait(10))
    held = asyncio.ensure_future(db.execute("SELECT hold()"))      # the thread is busy meanwhile
    await asyncio.sleep(0)
    moves = [asyncio.ensure_future(storage.append_action(session_id, seq, 0, "pass", 0.0)) for seq in range(3)]
    for _ in range(5):
        await asyncio.sleep(0)
    counted = asyncio.ensure_future(db.execute_fetchall("SELECT COUNT(*) FROM actions"))   # behind what was handed over
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(held, *moves)
    assert list(await counted) == [(3,)], "the moves were handed over one at a time"


async def test_a_read_in_flight_makes_no_move_wait(storage):
    """The timers' reads (a computer player's every move) held the connection for their trip to the
    thread, and every move and ping waited behind them."""
    session_id = await _playing(storage)
    db = storage._sql.db
    gate = threading.Event()
    await db.create_function("hold", 0, lambda: gate.wait(10))
    held = asyncio.ensure_future(db.execute("SELECT hold()"))
    await asyncio.sleep(0)
    read = asyncio.ensure_future(storage.timers())
    moves = [asyncio.ensure_future(storage.append_action(session_id, seq, 0, "pass", 0.0)) for seq in range(2)]
    for _ in range(5):
        await asyncio.sleep(0)
    counted = asyncio.ensure_future(db.execute_fetchall("SELECT COUNT(*) FROM actions"))
    await asyncio.sleep(0)
    gate.set()
    await asyncio.gather(held, read, *moves)
    assert list(await counted) == [(2,)], "the moves waited for the read"


async def test_a_single_statement_waits_for_the_transaction_that_holds_the_connection(storage):
    """Handed over inside another write's transaction, it would be rolled back with it."""
    session_id = await _playing(storage)
    driver = storage._sql
    move = None
    with pytest.raises(Rollback):
        async with driver.transaction() as run:
            await run.execute("INSERT INTO actions (session_id, seq, seat, action, at) VALUES (?, 0, 0, 'x', 0)",
                              (session_id,))
            move = asyncio.ensure_future(storage.append_action(session_id, 1, 0, "pass", 0.0))
            for _ in range(5):
                await asyncio.sleep(0)
            assert not move.done()
            raise Rollback()
    await move
    assert await storage.actions(session_id) == [(0, "pass")]


async def test_a_write_cancelled_while_it_commits_ends_cancelled_and_committed(storage, caplog):
    """COMMIT handed to aiosqlite's thread runs there even once the task awaiting it is cancelled. The
    transaction sent ROLLBACK after it when the connection still looked inside the transaction, which
    the thread ran after the COMMIT: "cannot rollback - no transaction is active", a write fault logged
    as an error and raised in place of the cancellation, for a write that was saved."""
    session_id = await _playing(storage)
    db = storage._sql.db
    gate = threading.Event()
    await db.create_function("hold", 0, lambda: gate.wait(10))
    held: list[asyncio.Future] = []
    committing = asyncio.Event()

    async def write() -> None:
        async with storage._transaction() as run:
            await run.execute("INSERT INTO actions (session_id, seq, seat, action, at) VALUES (?, 0, 0, 'x', 0)",
                              (session_id,))
            held.append(asyncio.ensure_future(db.execute("SELECT hold()")))    # the thread is busy at COMMIT
            await asyncio.sleep(0)
            committing.set()

    task = asyncio.ensure_future(write())
    await committing.wait()
    for _ in range(3):
        await asyncio.sleep(0)
    assert db.in_transaction and not task.done(), "the write is not waiting for its COMMIT"
    task.cancel()
    for _ in range(5):
        await asyncio.sleep(0)
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    await held[0]
    assert await storage.actions(session_id) == [(0, "x")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await storage.append_action(session_id, 1, 0, "pass", 0.0)     # the connection takes the next write
    assert await storage.actions(session_id) == [(0, "x"), (0, "pass")]
