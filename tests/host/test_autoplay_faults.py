"""Computer players and the turn clock on a failing database: nothing raises, nothing freezes.

A computer's move the database refuses is tried again once ``Timers.retry_after`` has passed, and
again until the database takes it; a person's move that was saved while its timers were not gets
them later. Driven by the manual clock: no test sleeps."""

from __future__ import annotations

import logging

import pytest

import bot.play.autoplay
import bot.play.sessions
from bot.play.autoplay import COMPUTER, DEADLINE, Autoplay
from bot.play.changes import Change, Changes
from bot.play.clock import ManualClock
from bot.play.sessions import Status
from tests.host.faults import EVERY_FAULT, FAULTS, fault, storage_for
from tests.host.test_sessions import HOST, lobby, make_manager, snapshot

DELAY = 2.0


class Host:
    """What autoplay is built with, and what it tells: the moves it made, the notices it posted."""

    def __init__(self, manager, clock) -> None:
        self.sessions, self.timers, self.storage, self.clock = manager, manager.timers, manager.storage, clock
        self.changes = Changes()
        self.changes.follow(self.told)
        self.moves: list[int] = []
        self.posts: list[str] = []

    async def told(self, change: Change) -> None:
        if change.moved:
            self.moves.append(len(change.session.history))

    def get_partial_messageable(self, channel_id: int):
        host = self

        class Channel:
            async def send(self, text: str, **kwargs) -> None:
                host.posts.append(text)

        return Channel()


@pytest.fixture
async def host(kind, tmp_path, request, monkeypatch):
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    monkeypatch.setattr(bot.play.autoplay, "choose_move", lambda session, seat, level, seq: "pass")
    clock = ManualClock(1_000.0)
    storage = await storage_for(kind, tmp_path, request)
    manager = make_manager(storage, clock)
    host = Host(manager, clock)
    host.autoplay = Autoplay(manager, manager.timers, clock, host.changes, host, delay=DELAY)
    manager.timers.start()
    yield host
    host.autoplay.close()
    await manager.timers.stop()
    await storage.close()


async def computer_to_move(host, *, pace: str = "none"):
    """A person (seat 0) and a computer player (seat 1); the person has just moved."""
    manager = host.sessions
    session = await lobby(manager, 1)
    await manager.add_computer(session, HOST, "Robo", "easy")
    await manager.set_pace(session, HOST, pace)
    await manager.start(session, HOST, shuffle=False)
    await manager.act(session, HOST, 0, "pass")
    return session


async def run(host, seconds: float) -> None:
    host.clock.advance(seconds)
    await host.timers.idle()
    await host.autoplay.idle()
    await host.timers.idle()


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_a_computer_move_the_database_refuses_is_tried_again_until_it_is_saved(host, kind, caplog):
    caplog.set_level(logging.INFO)
    session = await computer_to_move(host)
    await host.autoplay.after_change(session)
    assert [t.kind for t in await host.storage.timers()] == [COMPUTER]
    before = await snapshot(host.sessions, session)
    async with fault(kind, host.storage):
        await run(host, DELAY)
        assert kind not in FAULTS or await snapshot(host.sessions, session) == before
        for _ in range(3):                         # the fault lasts: tried again and again, quietly
            await run(host, host.timers.retry_after)
            assert kind not in FAULTS or await snapshot(host.sessions, session) == before
    assert await snapshot(host.sessions, session) == before
    await run(host, host.timers.retry_after)
    await run(host, DELAY)
    assert session.log == [(0, "pass"), (1, "pass")] and session.counters == [1, 1]
    assert host.moves == [2]                 # moved once, not once per try
    assert await host.storage.actions(session.id) == session.log
    # The episode is two lines of the storage's; no retry added a line of its own.
    assert [(r.name, r.levelno) for r in caplog.records
            if r.levelno >= logging.INFO and r.name != "spieltisch.games"] == [
        ("spieltisch.storage", logging.ERROR), ("spieltisch.storage", logging.INFO)]


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_a_saved_move_whose_timers_were_refused_gets_them_later(host, kind):
    session = await computer_to_move(host, pace="live")
    async with fault(kind, host.storage):
        await host.autoplay.after_change(session)       # does not raise: the move itself is saved
        assert kind not in FAULTS or await host.storage.timers() == []
        await run(host, host.timers.retry_after)
        assert kind not in FAULTS or await host.storage.timers() == []
    assert await host.storage.timers() == []
    await run(host, host.timers.retry_after)
    assert {t.kind for t in await host.storage.timers()} == {COMPUTER}
    await run(host, DELAY)
    assert session.log == [(0, "pass"), (1, "pass")]
    assert {t.kind for t in await host.storage.timers()} >= {DEADLINE}      # the person's clock runs


@pytest.mark.parametrize("kind", FAULTS)     # with the server gone, the timers cannot even be read
async def test_a_deadline_during_a_fault_costs_the_person_nothing(host, kind):
    manager = host.sessions
    session = await lobby(manager, 1)
    await manager.add_computer(session, HOST, "Robo", "easy")
    await manager.set_pace(session, HOST, "live")
    await manager.start(session, HOST, shuffle=False)
    await host.autoplay.after_change(session)
    due = host.autoplay.deadline(session)
    await run(host, due - 1 - host.clock.now())              # the reminder went out
    assert len(host.posts) == 1
    before = await snapshot(manager, session)
    async with fault(kind, host.storage):
        await run(host, 1)                                    # the deadline: its move is refused
        assert await snapshot(manager, session) == before
        await run(host, host.timers.retry_after)
        assert await snapshot(manager, session) == before
    await run(host, host.timers.retry_after)
    # Planned afresh from the position as it is: the person did not lose the turn to our fault.
    assert host.autoplay.deadline(session) == host.clock.now() + bot.play.sessions.PACES["live"]
    assert session.log == [] and session.seats[0].missed == 0 and session.status is Status.PLAYING
    assert {t.kind for t in await host.storage.timers()} == {DEADLINE, "reminder"}
