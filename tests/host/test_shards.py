"""A process running some shards restores and times only the tables of its shards' guilds."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock, Timers
from bot.sessions import SessionManager
from bot.shards import Shards
from bot.storage import Storage

#: Snowflake-sized guild ids (near 2**62, as SQLite's 64-bit integers must take them) on shards 0 and 1 of 2.
ON_ZERO, ON_ONE = (2**40 + 2) << 22 | 4095, (2**40 + 1) << 22 | 7


@pytest.fixture
async def storage():
    storage = await Storage.open(":memory:")
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
