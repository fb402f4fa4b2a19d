"""A rematch at the session level, on every store: a lobby like the finished match in one write, the
match read back from the database after a restart, each player's rating change of the match, and the
refusals that change nothing."""

from __future__ import annotations

import pytest

import bot.play.sessions
from bot.play.clock import ManualClock
from bot.play.sessions import REMATCH_OF, Status
from bot.storage.store import Storage
from tests.host.test_sessions import CHANNEL, GUILD, HOST, TTL, make_manager, move, playing, refused


@pytest.fixture
def manager(storage, clock, monkeypatch):
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    return make_manager(storage, clock)


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


@pytest.fixture
def clock():
    return ManualClock(1_000.0)


async def finished(manager):
    """A toy match of the host and one person, with a computer player, house rules, a clock and no
    pictures, played to its end."""
    session = await manager.open_lobby(GUILD, CHANNEL, "toy", HOST, "Host", "de", lobby_ttl=TTL)
    await manager.join(session, HOST + 1, "P1")
    await manager.add_computer(session, HOST, "🤖 Ada", "strong")
    await manager.set_option(session, HOST, "rounds", 1)
    await manager.set_pace(session, HOST, "relaxed")
    await manager.set_pictures(session, HOST, "off")
    await manager.start(session, HOST)
    while session.status is Status.PLAYING:
        (seat,) = session.to_act()
        await manager.act_for_seat(session, seat, session.counters[seat], "pass")
    return session


async def test_the_first_click_opens_a_lobby_like_the_match_and_later_ones_join_it(manager, storage, clock):
    old = await finished(manager)
    lobby, opened = await manager.rematch(old, HOST + 1, "P1", lobby_ttl=TTL)
    assert opened and lobby.status is Status.LOBBY and lobby.host_id == HOST + 1
    row = await storage.session(lobby.id)
    for stored in (lobby, row):           # in memory and in the database alike, from one write
        assert stored.options == (old.options.model_dump(mode="json") if stored is row else old.options)
        assert (stored.pace, stored.pictures, stored.lang) == ("relaxed", False, "de")
        assert stored.messages == {REMATCH_OF: old.id}
    assert [(s["name"], s["level"]) for s in row.seats] == [("P1", None), ("🤖 Ada", "strong")]
    assert (await storage.timers())[0].kind == "lobby_expiry"

    again, opened = await manager.rematch(old, HOST, "Host", lobby_ttl=TTL)
    assert again is lobby and not opened and [s.name for s in lobby.seats] == ["P1", "🤖 Ada", "Host"]
    await refused(manager, lobby, manager.rematch(old, HOST, "Host", lobby_ttl=TTL), "table.end.rematch_seated")
    await refused(manager, lobby, manager.rematch(old, 999, "Stranger", lobby_ttl=TTL), "table.end.rematch_not_player")
    await manager.start(lobby, HOST + 1)
    await refused(manager, lobby, manager.rematch(old, HOST, "Host", lobby_ttl=TTL), "table.end.rematch_started")


async def test_a_finished_match_is_read_back_from_the_database_and_its_ratings_with_it(storage, clock, monkeypatch):
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    old = await finished(make_manager(storage, clock))
    fresh = make_manager(storage, clock)                      # after a restart: nothing in memory
    read = await fresh.finished_match(old.id)
    assert read is not None and read.status is Status.FINISHED and read.seats == old.seats
    assert (read.options, read.pace, read.pictures, read.lang) == (old.options, "relaxed", False, "de")
    changes = await storage.rating_changes(old.id)
    assert set(changes) == {0, 1, 2} and all(isinstance(after, float) for _, after in changes.values())

    other = await playing(fresh, 2)                           # another table in the channel
    await refused(fresh, other, fresh.rematch(read, HOST, "Host", lobby_ttl=TTL), "table.end.rematch_busy")
    await move(fresh, other)
    assert await fresh.finished_match(other.id) is None       # a match still running has no rematch
