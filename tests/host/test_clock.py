"""The injectable clock and the stored timers: once, in order, across restarts, waking early."""

from __future__ import annotations

import asyncio
import gc
import itertools
import logging

import pytest

from bot.play.clock import ManualClock, SystemClock, Timers, sleep_until
from bot.storage.store import Storage

_channels = itertools.count(1)


async def sessions(storage: Storage, n: int) -> list[int]:
    return [
        await storage.create_session(guild_id=1, channel_id=next(_channels), game="toy", host_id=1, lang="en",
                                     options={}, seats=[], rules_version=1, created_at=0.0)
        for _ in range(n)
    ]


class Recorder:
    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.calls: list[tuple[int, str, float, dict]] = []

    def handler(self, kind: str):
        async def fire(session_id: int, payload: dict) -> None:
            self.calls.append((session_id, kind, self.clock.now(), payload))
        return fire


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


def test_manual_clock_rings_alarms_in_time_order_at_their_own_moment():
    clock = ManualClock(100.0)
    rung: list[tuple[str, float]] = []
    clock.call_at(130.0, lambda: rung.append(("c", clock.now())))
    clock.call_at(110.0, lambda: rung.append(("a", clock.now())))
    cancelled = clock.call_at(120.0, lambda: rung.append(("x", clock.now())))
    clock.call_at(120.0, lambda: rung.append(("b", clock.now())))
    cancelled.cancel()
    clock.advance(5)
    assert rung == [] and clock.now() == 105.0
    clock.advance(100)
    assert rung == [("a", 110.0), ("b", 120.0), ("c", 130.0)]
    assert clock.now() == 205.0 and clock.pending == 0
    with pytest.raises(ValueError):
        clock.advance(-1)


async def test_sleep_until_waits_for_the_manual_clock():
    clock = ManualClock(0.0)
    task = asyncio.create_task(sleep_until(clock, 10.0))
    await asyncio.sleep(0)
    clock.advance(9)
    await asyncio.sleep(0)
    assert not task.done()
    clock.advance(1)
    await task
    assert clock.now() == 10.0


async def test_system_clock_rings_a_past_alarm_at_once():
    clock = SystemClock()
    await asyncio.wait_for(sleep_until(clock, clock.now() - 1), timeout=5)


async def test_manual_clock_rings_an_alarm_already_due_on_the_loops_next_turn_as_the_system_clock_does():
    """A timer runner that read its next due time while a test advanced past it still fires."""
    clock = ManualClock(start=10.0)
    rung: list[str] = []
    clock.call_at(10.0, lambda: rung.append("due now"))
    clock.call_at(5.0, lambda: rung.append("past"))
    clock.call_at(5.0, lambda: rung.append("cancelled")).cancel()
    clock.call_at(11.0, lambda: rung.append("future"))
    assert rung == []  # never from inside call_at
    await asyncio.sleep(0)
    assert rung == ["due now", "past"] and clock.now() == 10.0
    clock.advance(1)
    assert rung == ["due now", "past", "future"]


def _garbage_cycles() -> int:
    """The objects only the cyclic collector would free (collected here, the collector paused)."""
    return gc.collect()


async def test_system_alarms_leave_nothing_for_the_cyclic_collector():
    """The writer sets an alarm at every hand it shows: each one rung or cancelled must be freed by
    reference counting at once, since the bot's collector freezes what lives for two seconds and
    reaches a frozen cycle only in a full collection (``bot/play/heap.py``)."""
    clock = SystemClock()
    rung: list[int] = []
    gc.disable()
    try:
        _garbage_cycles()
        for n in range(50):
            clock.call_at(clock.now() + 60, lambda: None).cancel()
            clock.call_at(clock.now() - 1, lambda n=n: rung.append(n))
        for _ in range(10):             # the past alarms ring in the loop's next turns
            await asyncio.sleep(0)
        assert rung == list(range(50))
        assert _garbage_cycles() == 0
    finally:
        gc.enable()


async def test_timers_fire_once_each_in_due_order(storage):
    clock = ManualClock(1000.0)
    rec = Recorder(clock)
    timers = Timers(storage, clock)
    timers.register("lobby_expiry", rec.handler("lobby_expiry"))
    a, b, c = await sessions(storage, 3)
    await timers.schedule(a, "lobby_expiry", 1030.0, {"n": "a"})
    await timers.schedule(b, "lobby_expiry", 1010.0, {"n": "b"})
    await timers.schedule(c, "lobby_expiry", 1020.0, {"n": "c"})
    timers.start()
    try:
        await timers.idle()
        assert rec.calls == []
        clock.advance(15)
        await timers.idle()
        assert rec.calls == [(b, "lobby_expiry", 1015.0, {"n": "b"})]
        clock.advance(100)
        await timers.idle()
        assert [call[0] for call in rec.calls] == [b, c, a]
        assert await storage.timers() == []
        clock.advance(1000)
        await timers.idle()
        assert len(rec.calls) == 3 and timers.fired == 3
    finally:
        await timers.stop()


async def test_a_nearer_timer_wakes_the_runner_early(storage):
    clock = ManualClock(0.0)
    rec = Recorder(clock)
    timers = Timers(storage, clock)
    timers.register("deadline", rec.handler("deadline"))
    far, near = await sessions(storage, 2)
    await timers.schedule(far, "deadline", 100.0)
    timers.start()
    try:
        await timers.idle()
        await timers.schedule(near, "deadline", 5.0)
        await timers.idle()
        clock.advance(5)
        await timers.idle()
        assert [(s, t) for s, _, t, _ in rec.calls] == [(near, 5.0)]
        clock.advance(95)
        await timers.idle()
        assert [(s, t) for s, _, t, _ in rec.calls] == [(near, 5.0), (far, 100.0)]
    finally:
        await timers.stop()


async def test_cancelled_and_moved_timers(storage):
    clock = ManualClock(0.0)
    rec = Recorder(clock)
    timers = Timers(storage, clock)
    timers.register("deadline", rec.handler("deadline"))
    a, b = await sessions(storage, 2)
    timers.start()
    try:
        await timers.schedule(a, "deadline", 10.0)
        await timers.schedule(b, "deadline", 10.0)
        await timers.cancel(a, "deadline")
        await timers.schedule(b, "deadline", 50.0)  # moved later: does not fire at 10
        await timers.idle()
        clock.advance(20)
        await timers.idle()
        assert rec.calls == []
        clock.advance(30)
        await timers.idle()
        assert [(s, t) for s, _, t, _ in rec.calls] == [(b, 50.0)]
    finally:
        await timers.stop()


async def test_timers_survive_a_restart_and_a_missed_timer_fires_once(database):
    path = database
    clock = ManualClock(0.0)
    storage = await Storage.open(path)
    timers = Timers(storage, clock)
    missed, later = await sessions(storage, 2)
    await timers.schedule(missed, "lobby_expiry", 60.0, {"why": "missed"})
    await timers.schedule(later, "lobby_expiry", 10_000.0)
    await storage.close()

    clock.advance(3600)  # the bot was down for an hour: sixty "periods" of the first timer went by
    storage = await Storage.open(path)
    rec = Recorder(clock)
    timers = Timers(storage, clock)
    timers.register("lobby_expiry", rec.handler("lobby_expiry"))
    timers.start()
    try:
        await timers.idle()
        assert rec.calls == [(missed, "lobby_expiry", 3600.0, {"why": "missed"})]
        assert [t.session_id for t in await storage.timers()] == [later]
        clock.advance(10_000)
        await timers.idle()
        assert [call[0] for call in rec.calls] == [missed, later]
    finally:
        await timers.stop()
        await storage.close()


async def test_a_failing_handler_is_logged_and_does_not_stop_the_others(storage, caplog):
    clock = ManualClock(0.0)
    rec = Recorder(clock)

    async def broken(session_id: int, payload: dict) -> None:
        raise RuntimeError("boom")

    timers = Timers(storage, clock)
    timers.register("broken", broken)
    timers.register("fine", rec.handler("fine"))
    a, b = await sessions(storage, 2)
    await timers.schedule(a, "broken", 1.0)
    await timers.schedule(b, "fine", 2.0)
    timers.start()
    try:
        with caplog.at_level(logging.ERROR, logger="bot.play.clock"):
            clock.advance(5)
            await timers.idle()
        assert [call[0] for call in rec.calls] == [b]
        assert await storage.timers() == []  # the failed one is not retried for ever
        assert any("failed" in r.message for r in caplog.records)
    finally:
        await timers.stop()


def test_a_manual_clock_tells_when_its_next_alarm_is_due():
    clock = ManualClock(0.0)
    assert clock.next_due is None
    first, rung = clock.call_at(5.0, lambda: None), []
    clock.call_at(9.0, lambda: rung.append(clock.now()))
    assert clock.next_due == 5.0
    first.cancel()
    assert clock.next_due == 9.0
    clock.advance(9.0)
    assert rung == [9.0] and clock.next_due is None
