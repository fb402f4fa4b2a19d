"""Sessions on a failing database: every kind of write is refused as ``NotSaved`` and leaves memory
and the database exactly as they were; once the database takes writes again, the same call works.
Memory is a cache of the database, so it changes only after a commit."""

from __future__ import annotations

import logging

import pytest

import bot.play.sessions
from bot.play.clock import ManualClock
from bot.play.seats import computer
from bot.play.sessions import LOBBY_EXPIRY, NotSaved, Refusal, Status
from bot.storage.store import StorageFault
from games.base import Action
from tests.host.faults import EVERY_FAULT, FAULTS, fault, storage_for
from tests.host.test_sessions import (
    CHANNEL,
    GUILD,
    HOST,
    TTL,
    actor,
    lobby,
    make_manager,
    playing,
    snapshot,
    user_at,
)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_000.0)


@pytest.fixture
async def storage(kind, tmp_path, request):
    storage = await storage_for(kind, tmp_path, request)
    yield storage
    await storage.close()


@pytest.fixture
def manager(storage, clock, monkeypatch):
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    return make_manager(storage, clock)


async def not_saved(manager, session, kind: str, call) -> None:
    """``call()`` during the fault is refused as not saved and changes nothing; afterwards it works."""
    before = await snapshot(manager, session)
    votes = set(session.votes)
    async with fault(kind, manager.storage):
        with pytest.raises(NotSaved) as caught:
            await call()
    assert caught.value.key == "core.not_saved" and isinstance(caught.value, Refusal | StorageFault)
    assert await snapshot(manager, session) == before
    assert session.votes == votes
    assert manager.get(session.id) is session
    await call()


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_every_lobby_write_is_refused_unchanged_then_works(manager, kind):
    session = await lobby(manager, 2)
    await not_saved(manager, session, kind, lambda: manager.join(session, 300, "Late"))
    await not_saved(manager, session, kind, lambda: manager.add_computer(session, HOST, "Robo", "easy"))
    await not_saved(manager, session, kind, lambda: manager.set_pace(session, HOST, "live"))
    await not_saved(manager, session, kind, lambda: manager.set_option(session, HOST, "allow_swap", False))
    await not_saved(manager, session, kind, lambda: manager.set_lang(session, HOST, "de"))
    await not_saved(manager, session, kind, lambda: manager.set_messages(session, lobby=4242))
    await not_saved(manager, session, kind, lambda: manager.remove_seat(session, HOST, 3))
    await not_saved(manager, session, kind, lambda: manager.leave(session, 300))
    await not_saved(manager, session, kind, lambda: manager.start(session, HOST))
    assert session.status is Status.PLAYING and session.messages == {"lobby": 4242}


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_opening_a_lobby_is_refused_without_a_trace(manager, storage, kind):
    async with fault(kind, storage):
        with pytest.raises(NotSaved):
            await manager.open_lobby(GUILD, CHANNEL, "toy", HOST, "Host", "en", lobby_ttl=TTL)
    assert manager.by_channel(CHANNEL) is None and await storage.live_sessions() == []
    assert await storage.timers() == []
    session = await manager.open_lobby(GUILD, CHANNEL, "toy", HOST, "Host", "en", lobby_ttl=TTL)
    assert [(t.session_id, t.kind) for t in await storage.timers()] == [(session.id, LOBBY_EXPIRY)]


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_moves_seats_votes_and_stops_are_refused_unchanged_then_work(manager, kind):
    session = await playing(manager, 4)

    def mover(by_computer: bool):
        seat = actor(session)
        if by_computer:
            return lambda: manager.act_for_seat(session, seat, session.counters[seat], "pass")
        return lambda: manager.act(session, user_at(session, seat), session.counters[seat], "pass")

    await not_saved(manager, session, kind, mover(False))
    await not_saved(manager, session, kind, mover(True))
    await not_saved(manager, session, kind, lambda: manager.set_seat(session, 3, computer("Robo", "easy")))
    await not_saved(manager, session, kind, lambda: manager.replace_with_computer(session, HOST, 2, "easy"))
    first, second = (user_at(session, seat) for seat in (0, 1))
    assert await manager.vote_to_end(session, first) == (1, 2)         # nothing to save yet
    # The second vote ends the match: refused, so it is not counted either.
    await not_saved(manager, session, kind, lambda: manager.vote_to_end(session, second))
    assert session.status is Status.STOPPED and session.end_reason == "vote"


def passing_ends(session) -> bool:
    """Whether the next player's pass ends the game (tried on a copy)."""
    game = session.game
    copy = game.clone(session.state)
    game.apply(copy, actor(session), Action.parse("pass"))
    return game.is_over(copy)


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_the_finishing_move_and_stop_are_refused_unchanged(manager, storage, kind):
    session = await playing(manager, 2)
    while not passing_ends(session):
        seat = actor(session)
        await manager.act(session, user_at(session, seat), session.counters[seat], "pass")
    seat = actor(session)
    await not_saved(manager, session, kind,
                    lambda: manager.act(session, user_at(session, seat), session.counters[seat], "pass"))
    assert session.status is Status.FINISHED and len(await storage.results(session.id)) == 2

    stopped = await playing(manager, 2, channel=CHANNEL + 1)
    await not_saved(manager, stopped, kind, lambda: manager.stop(stopped, HOST, can_manage=False))
    assert stopped.status is Status.STOPPED


@pytest.mark.parametrize("kind", EVERY_FAULT)
async def test_a_lobby_expiry_during_a_fault_is_kept_and_fires_once_writes_work(manager, storage, clock, kind,
                                                                                caplog):
    caplog.set_level(logging.INFO)
    session = await lobby(manager, 2)
    manager.timers.start()
    try:
        async with fault(kind, storage):
            clock.advance(TTL)
            await manager.timers.idle()
            assert session.status is Status.LOBBY and manager.by_channel(CHANNEL) is session
            if kind in FAULTS:                              # with the server, the reads are gone too
                assert [t.kind for t in await storage.timers()] == [LOBBY_EXPIRY]
            clock.advance(manager.timers.retry_after)        # still failing: tried again, quietly
            await manager.timers.idle()
            assert session.status is Status.LOBBY
        clock.advance(manager.timers.retry_after)
        await manager.timers.idle()
        assert session.status is Status.EXPIRED and await storage.timers() == []
        # The storage said it once (and once that it works again); the retries said nothing.
        assert [r.name for r in caplog.records
                if r.levelno >= logging.INFO and r.name != "spieltisch.games"] == ["spieltisch.storage"] * 2
    finally:
        await manager.timers.stop()
