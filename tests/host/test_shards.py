"""A process running some shards restores and times only the tables of its shards' guilds."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.clock import ManualClock, Timers
from bot.play.sessions import SessionManager
from bot.storage.shards import Shards, describe, running
from bot.storage.store import Storage

#: Snowflake-sized guild ids (near 2**62, as SQLite's 64-bit integers must take them) on shards 0 and 1 of 2.
ON_ZERO, ON_ONE = (2**40 + 2) << 22 | 4095, (2**40 + 1) << 22 | 7


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


async def _lobby(storage: Storage, guild_id: int, channel_id: int, due: float) -> int:
    return await storage.create_session(guild_id=guild_id, channel_id=channel_id, game="calcory", host_id=1,
                                        lang="en", options={}, seats=[], rules_version=1, created_at=0.0,
                                        timer=("lobby_expiry", due))


async def test_the_timers_of_other_shards_are_neither_fired_nor_waited_for(storage):
    clock = ManualClock(0.0)
    fired: list[int] = []

    async def fire(session_id: int, payload: dict) -> None:
        fired.append(session_id)

    theirs = await _lobby(storage, ON_ZERO, 1, 10.0)
    ours = await _lobby(storage, ON_ONE, 2, 20.0)
    timers = Timers(storage, clock, shards=Shards(2, (1,)))
    timers.register("lobby_expiry", fire)
    timers.start()
    try:
        await timers.idle()
        clock.advance(15)                 # only the other shard's timer is due: nothing to do
        await timers.idle()
        assert fired == [] and timers.fired == 0 and clock.pending == 1, "parked for our timer at 20"
        clock.advance(10)
        await timers.idle()
        assert fired == [ours]
        assert [row.session_id for row in await storage.timers()] == [theirs], "theirs is left to its owner"
    finally:
        await timers.stop()


async def test_restore_rebuilds_only_the_live_sessions_of_its_shards(storage):
    zero = await _lobby(storage, ON_ZERO, 1, 10.0)
    one = await _lobby(storage, ON_ONE, 2, 10.0)
    for shards, expected in ((Shards(2, (0,)), [zero]), (Shards(2, (1,)), [one]),
                             (Shards(2, (0, 1)), [zero, one]), (None, [zero, one])):
        manager = SessionManager(storage, ManualClock(0.0), shards=shards)
        assert await manager.restore() == []
        assert [s.id for s in manager.live()] == expected, shards


async def test_a_write_waits_for_a_read_on_its_connection_when_another_process_writes_too(tmp_path):
    """Two processes on one file: a write must not run inside a read's open snapshot on the same
    connection, or SQLite refuses it at once ("database is locked") since the other one wrote."""
    path = tmp_path / "shared.sqlite3"
    ours, theirs = await Storage.open(path), await Storage.open(path)
    try:
        mine = await _lobby(ours, ON_ONE, 1, 10.0)
        await _lobby(ours, ON_ONE, 2, 10.0)
        async with ours._sql.alone(), ours._sql.db.execute("SELECT id FROM sessions ORDER BY id") as cur:
            assert await cur.fetchone() == (mine,)                     # the read's snapshot is open
            await _lobby(theirs, ON_ZERO, 3, 10.0)                     # the other process writes
            write = asyncio.create_task(ours.update_session(mine, messages={"lobby": 7}))
            # A bound, not a measurement: inside the snapshot the write would fail at once.
            done, _ = await asyncio.wait({write}, timeout=0.5)
            assert not done, "the write waits until the read is over"
        await write
        assert ours.fault is None and (await ours.session(mine)).messages == {"lobby": 7}
    finally:
        await ours.close()
        await theirs.close()


@pytest.mark.parametrize(("count", "ids", "shards", "words"), [
    (None, [], (), "unsharded"),
    (2, [], (0, 1), "shards 0,1 of 2"),
    (2, [1], (1,), "shard 1 of 2"),
    (64, [], tuple(range(64)), "shards 0-63 of 64"),
    (16, [12, 2, 3, 4, 7, 8], (2, 3, 4, 7, 8, 12), "shards 2-4,7,8,12 of 16"),
])
def test_the_shards_a_process_runs_and_how_the_log_names_them(count, ids, shards, words):
    assert running(count, ids) == shards
    assert describe(count, ids) == words
