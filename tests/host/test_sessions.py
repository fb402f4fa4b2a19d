"""Sessions with the toy game: lobby, start, the click path and its refusals, restore, results."""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import re
from pathlib import Path

import pytest

import bot.play.sessions
from bot.i18n import catalogue
from bot.play.clock import ManualClock
from bot.play.seats import Seat, SeatKind
from bot.play.sessions import LOBBY_EXPIRY, Refusal, Session, SessionManager, Status, seat_order
from bot.storage.store import Storage
from games.base import Result
from tests.games.invariants import check_playouts
from tests.host.toy_game import GAME, ToyGameV2

GUILD, CHANNEL, HOST = 1, 10, 100
TTL = 600.0


def make_manager(storage: Storage, clock: ManualClock, games=None, seeds=None) -> SessionManager:
    seeds = seeds if seeds is not None else (f"seed-{n}" for n in itertools.count())
    return SessionManager(storage, clock, seed_source=lambda: next(seeds),
                          games={"toy": GAME} if games is None else games)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_000.0)


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


@pytest.fixture
def manager(storage, clock, monkeypatch) -> SessionManager:
    # The toy game stands in for a game that has computer players (``games.computer`` knows none for it).
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    return make_manager(storage, clock)


async def test_a_game_without_computer_players_refuses_them_and_the_clock(storage, clock):
    manager = make_manager(storage, clock)
    session = await lobby(manager, 1)
    await refused(manager, session, manager.add_computer(session, HOST, "Robo", "easy"), "core.no_computers",
                  game="High card")
    await refused(manager, session, manager.set_pace(session, HOST, "live"), "core.no_computers", game="High card")
    await manager.set_pace(session, HOST, "none")


async def lobby(manager: SessionManager, players: int, *, channel: int = CHANNEL) -> Session:
    session = await manager.open_lobby(GUILD, channel, "toy", HOST, "Host", "en", lobby_ttl=TTL)
    for n in range(1, players):
        await manager.join(session, HOST + n, f"P{n}")
    return session


async def playing(manager: SessionManager, players: int = 3, *, channel: int = CHANNEL, **options) -> Session:
    session = await lobby(manager, players, channel=channel)
    for name, value in options.items():
        await manager.set_option(session, HOST, name, value)
    await manager.start(session, HOST)
    return session


def user_at(session: Session, seat: int) -> int:
    user = session.seats[seat].user_id
    assert user is not None
    return user


def actor(session: Session) -> int:
    (seat,) = session.to_act()
    return seat


async def move(manager: SessionManager, session: Session, key: str = "pass"):
    seat = actor(session)
    return await manager.act(session, user_at(session, seat), session.counters[seat], key)


async def snapshot(manager: SessionManager, session: Session):
    """Everything a refusal must leave alone, in memory and in the database."""
    row = await manager.storage.session(session.id, with_actions=True)
    views = None
    if session.state is not None:
        views = [session.view(seat) for seat in (None, *range(len(session.seats)))]
    return (session.status, session.seats, session.host_id, session.options, session.lang, list(session.counters),
            session.log, views, row, await manager.storage.timers(), await manager.storage.results(session.id))


async def refused(manager: SessionManager, session: Session, call, key: str, **params) -> None:
    before = await snapshot(manager, session)
    with pytest.raises(Refusal) as caught:
        await call
    assert caught.value.key == key
    assert caught.value.params == params
    assert await snapshot(manager, session) == before, f"{key} changed something"


def test_the_toy_game_keeps_the_engine_invariants():
    for players in (2, 3, 4):
        check_playouts(GAME, players, 15)


# -- lobby ---------------------------------------------------------------------------------------


async def test_lobby_flow_from_open_to_start(manager, storage, clock):
    session = await manager.open_lobby(GUILD, CHANNEL, "toy", HOST, "Host", "de", lobby_ttl=TTL)
    assert session.status is Status.LOBBY and session.seats == (Seat(HOST, "Host"),) and session.lang == "de"
    assert manager.by_channel(CHANNEL) is session and manager.get(session.id) is session
    (timer,) = await storage.timers()
    assert (timer.session_id, timer.kind, timer.due) == (session.id, LOBBY_EXPIRY, clock.now() + TTL)

    await manager.join(session, 101, "Ann")
    await manager.join(session, 102, "Ben")
    await manager.set_option(session, HOST, "rounds", "3")  # select values arrive as strings
    assert session.options.rounds == 3
    row = await storage.session(session.id)
    assert row.seats == [s.to_json() for s in session.seats] and row.options == {"rounds": 3, "allow_swap": True}

    clock.advance(5)
    await manager.start(session, HOST)
    assert session.status is Status.PLAYING and session.counters == [0, 0, 0] and session.started_at == 1005.0
    assert sorted(s.user_id for s in session.seats) == [HOST, 101, 102]
    assert await storage.timers() == []  # the lobby can no longer expire
    row = await storage.session(session.id)
    assert (row.status, row.seed, row.seats) == ("playing", session.seed, [s.to_json() for s in session.seats])
    assert session.view(None) == GAME.view(GAME.setup(3, session.options, session.seed), None)
    assert "seed" not in repr(session)


async def test_a_busy_channel_is_refused_by_the_database_not_only_by_memory(manager, storage, clock):
    first = await lobby(manager, 1)
    await refused(manager, first, manager.open_lobby(GUILD, CHANNEL, "toy", 5, "X", "en", lobby_ttl=TTL),
                  "core.channel_busy")
    other_process = make_manager(storage, clock)  # knows nothing in memory
    with pytest.raises(Refusal) as caught:
        await other_process.open_lobby(GUILD, CHANNEL, "toy", 5, "X", "en", lobby_ttl=TTL)
    assert caught.value.key == "core.channel_busy"
    assert len(await storage.live_sessions()) == 1
    with pytest.raises(Refusal) as caught:
        await manager.open_lobby(GUILD, 11, "nope", 5, "X", "en", lobby_ttl=TTL)
    assert (caught.value.key, caught.value.params) == ("core.unknown_game", {"game": "nope"})

    await manager.cancel(first, HOST, can_manage=False)
    assert first.status is Status.CANCELLED and manager.by_channel(CHANNEL) is None
    second = await manager.open_lobby(GUILD, CHANNEL, "toy", 5, "X", "en", lobby_ttl=TTL)
    assert second.id != first.id and manager.by_channel(CHANNEL) is second


async def test_join_refusals(manager):
    session = await lobby(manager, 4)
    await refused(manager, session, manager.join(session, HOST + 1, "again"), "core.already_seated")
    await refused(manager, session, manager.join(session, 999, "fifth"), "core.table_full", max=4)
    await manager.leave(session, HOST + 3)
    await manager.start(session, HOST)
    await refused(manager, session, manager.join(session, 999, "late"), "core.already_started")


async def test_leave_hands_the_host_role_to_the_next_human_and_the_last_one_cancels(manager, storage):
    session = await lobby(manager, 1)
    await manager.add_computer(session, HOST, "Robo", "easy")
    await manager.join(session, 201, "Ann")
    await manager.join(session, 202, "Ben")
    await refused(manager, session, manager.leave(session, 999), "core.not_seated")

    await manager.leave(session, 202)
    assert [s.user_id for s in session.seats] == [HOST, None, 201] and session.host_id == HOST
    await manager.leave(session, HOST)
    assert session.host_id == 201  # the computer seat is skipped
    assert (await storage.session(session.id)).host_id == 201
    await refused(manager, session, manager.start(session, HOST), "core.host_only")

    await manager.leave(session, 201)  # only a computer is left: the lobby closes
    assert session.status is Status.CANCELLED and session.end_reason == "empty"
    assert manager.by_channel(CHANNEL) is None and (await storage.session(session.id)).status == "cancelled"
    assert await storage.timers() == []


async def test_the_host_seats_and_removes_computer_players(manager):
    session = await lobby(manager, 2)
    await refused(manager, session, manager.add_computer(session, HOST + 1, "Robo", "easy"), "core.host_only")
    await manager.add_computer(session, HOST, "Robo", "easy")
    assert session.seats[2] == Seat(None, "Robo", SeatKind.COMPUTER, "easy")
    assert session.seat_of(HOST + 1) == 1
    await refused(manager, session, manager.remove_seat(session, HOST + 1, 2), "core.host_only")
    await refused(manager, session, manager.remove_seat(session, HOST, 0), "core.cannot_remove_host")
    await refused(manager, session, manager.remove_seat(session, HOST, 3), "core.no_such_seat")
    await manager.remove_seat(session, HOST, 2)
    assert [s.user_id for s in session.seats] == [HOST, HOST + 1]
    await manager.start(session, HOST)
    await refused(manager, session, manager.act_for_seat(session, 5, 0, "pass"), "core.no_such_seat")


async def test_leaving_a_running_game_is_refused(manager):
    session = await playing(manager, 2)
    await refused(manager, session, manager.leave(session, HOST), "core.leave_running")


async def test_options_and_language_are_host_only_and_validated(manager):
    session = await lobby(manager, 2)
    await refused(manager, session, manager.set_option(session, HOST + 1, "rounds", 3), "core.host_only")
    await refused(manager, session, manager.set_option(session, HOST, "tempo", 3), "core.unknown_option",
                  option="tempo")
    await refused(manager, session, manager.set_option(session, HOST, "rounds", 9), "core.bad_option",
                  option="rounds")
    await refused(manager, session, manager.set_lang(session, HOST, "fr"), "core.bad_option", option="lang")
    await manager.set_option(session, HOST, "allow_swap", False)
    await manager.set_lang(session, HOST, "de")
    assert session.options.allow_swap is False and session.lang == "de"


async def test_start_needs_the_host_and_enough_players(manager):
    session = await lobby(manager, 1)
    await refused(manager, session, manager.start(session, HOST), "core.not_enough_players", min=2)
    await manager.join(session, 101, "Ann")
    await refused(manager, session, manager.start(session, 101), "core.host_only")
    await refused(manager, session, manager.act(session, HOST, 0, "pass"), "core.not_started")


async def test_start_shuffles_the_seats_deterministically_from_the_seed(storage, clock):
    orders = []
    for channel, seed in enumerate(["alpha", "alpha", "beta", "gamma", "delta"]):
        manager = make_manager(storage, clock, seeds=iter([seed]))
        session = await playing(manager, 4, channel=channel)
        joined = (Seat(HOST, "Host"), *(Seat(HOST + n, f"P{n}") for n in range(1, 4)))
        expected = list(joined)
        random.Random(f"{seed}:seats").shuffle(expected)
        assert session.seed == seed and session.seats == tuple(expected) == seat_order(seed, joined)
        orders.append(tuple(s.user_id for s in session.seats))
    assert orders[0] == orders[1]
    assert len(set(orders)) > 1 and any(order != (100, 101, 102, 103) for order in orders)


# -- the click path ------------------------------------------------------------------------------


async def test_every_refused_click_changes_nothing(manager, caplog):
    session = await playing(manager, 3, allow_swap=False)
    first = actor(session)
    second = (first + 1) % 3
    caplog.set_level(logging.DEBUG)

    await refused(manager, session, manager.act(session, 999, 0, "pass"), "core.not_seated")
    await refused(manager, session, manager.act(session, user_at(session, second), 0, "pass"), "core.not_your_turn")
    await refused(manager, session, manager.act(session, user_at(session, first), 1, "pass"), "core.stale_button")
    await refused(manager, session, manager.act(session, user_at(session, first), 0, "swap"), "toy.no_swapping")
    await refused(manager, session, manager.act(session, user_at(session, first), 0, "fold:x"),
                  "core.illegal_action")

    await manager.act(session, user_at(session, first), 0, "pass")
    # The same button clicked twice: the second click is stale, though it is someone else's turn now.
    await refused(manager, session, manager.act(session, user_at(session, first), 0, "pass"), "core.stale_button")
    # Another player's move did not invalidate the next player's counter.
    await manager.act(session, user_at(session, second), 0, "pass")
    assert session.log == [(first, "pass"), (second, "pass")]
    assert session.counters[first] == 1 and session.counters[second] == 1

    while session.status is Status.PLAYING:
        await move(manager, session)
    await refused(manager, session, manager.act(session, user_at(session, first), 2, "pass"), "core.game_over")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_stopped_session_refuses_clicks_as_gone(manager, storage):
    session = await playing(manager, 2)
    await refused(manager, session, manager.stop(session, HOST + 1, can_manage=False), "core.host_or_manager")
    await manager.stop(session, HOST + 1, can_manage=True)
    assert session.status is Status.STOPPED and manager.by_channel(CHANNEL) is None
    assert manager.get(session.id) is session  # kept a while, so late clicks get an answer
    await refused(manager, session, manager.act(session, HOST, 0, "pass"), "core.session_gone")
    rows = await storage.results(session.id)
    assert [(r.user_id, r.stopped, r.won, r.score) for r in rows] == [
        (s.user_id, True, False, None) for s in session.seats]
    assert (await storage.leaderboard(GUILD, "toy")).rows == ()


async def test_concurrent_joins_all_get_seated(manager, storage):
    session = await lobby(manager, 1)
    await asyncio.gather(*(manager.join(session, 300 + n, f"J{n}") for n in range(3)))
    assert sorted(s.user_id for s in session.seats) == [HOST, 300, 301, 302]
    assert sorted(s["user_id"] for s in (await storage.session(session.id)).seats) == [HOST, 300, 301, 302]


async def test_a_concurrent_double_click_applies_once(manager, storage):
    session = await playing(manager, 2)
    seat = actor(session)
    user = user_at(session, seat)
    outcomes = await asyncio.gather(
        manager.act(session, user, 0, "swap"), manager.act(session, user, 0, "swap"), return_exceptions=True,
    )
    refusals = [o for o in outcomes if isinstance(o, Refusal)]
    assert len(refusals) == 1 and refusals[0].key == "core.stale_button"
    assert session.log == [(seat, "swap")] and await storage.actions(session.id) == [(seat, "swap")]
    assert session.view(None).stock == 12 - 2 - 1


async def test_observations_keep_private_events_private(manager):
    session = await playing(manager, 2)
    first = actor(session)
    events = await move(manager, session, "swap")
    drawn = [e for e in events if e.kind == "draw"]
    assert len(drawn) == 1
    assert drawn[0] in manager.observations(session, first)
    assert drawn[0] not in manager.observations(session, 1 - first)
    assert [e.kind for e in manager.observations(session, 1 - first)] == ["swap"]


# -- results -------------------------------------------------------------------------------------


async def test_a_finished_game_writes_one_result_row_per_seat(manager, storage):
    session = await playing(manager, 3)
    await move(manager, session, "swap")
    while session.status is Status.PLAYING:
        await move(manager, session)
    result = GAME.result(session.state)
    assert session.status is Status.FINISHED and session.end_reason == "over"
    assert manager.by_channel(CHANNEL) is None and (await storage.session(session.id)).status == "finished"
    assert len(await storage.actions(session.id)) == 6
    rows = await storage.results(session.id)
    assert [(r.seat, r.user_id, r.name, r.score, r.rank, r.won, r.shared, r.with_computers, r.stopped)
            for r in rows] == [
        (seat, s.user_id, s.name, result.scores[seat], result.ranks[seat], seat in result.winners,
         seat in result.winners and result.shared, False, False)
        for seat, s in enumerate(session.seats)
    ]
    assert {r.user_id for r in rows if r.won} == {session.seats[w].user_id for w in result.winners}
    board = await storage.leaderboard(GUILD, "toy")
    assert sum(r.wins for r in board.rows) == len(result.winners) and all(r.games == 1 for r in board.rows)


async def test_result_rows_carry_the_team_of_partners_who_share_a_score(manager):
    session = await playing(manager, 4)
    teams = Result((30, 12, 30, 12), frozenset({0, 2}), (), sides=(0, 1, 0, 1))
    assert [(r.team, r.rank) for r in manager._result_rows(session, teams, 5.0)] == [(0, 1), (1, 3), (0, 1), (1, 3)]
    alone = Result((30, 12, 30, 12), frozenset({0, 2}))
    assert [r.team for r in manager._result_rows(session, alone, 5.0)] == [None] * 4


async def test_a_match_with_a_computer_player_is_flagged(manager, storage):
    session = await lobby(manager, 1)
    await manager.add_computer(session, HOST, "Robo", "easy")
    await manager.start(session, HOST)
    while session.status is Status.PLAYING:
        seat = actor(session)
        if session.seats[seat].kind is SeatKind.COMPUTER:
            await manager.act_for_seat(session, seat, session.counters[seat], "pass")
        else:
            await manager.act(session, HOST, session.counters[seat], "pass")
    rows = await storage.results(session.id)
    assert sorted((r.user_id or 0, r.with_computers, r.level) for r in rows) == [(0, True, "easy"), (HOST, True, None)]
    rated = await storage.rating_board(GUILD, "toy", include_computers=True)
    assert sorted((r.user_id or 0, r.level, r.games) for r in rated.rows) == [(0, "easy", 1), (HOST, None, 1)]
    assert (await storage.leaderboard(GUILD, "toy")).rows == ()
    assert len((await storage.leaderboard(GUILD, "toy", include_computer_matches=True)).rows) == 1


# -- time ----------------------------------------------------------------------------------------


async def test_an_unstarted_lobby_expires_and_a_started_one_does_not(manager, storage, clock):
    heard: list[tuple[str, int]] = []

    async def listener(what: str, session: Session) -> None:
        heard.append((what, session.id))

    manager.add_listener(listener)
    idle = await lobby(manager, 2, channel=1)
    started = await playing(manager, 2, channel=2)
    manager.timers.start()
    try:
        clock.advance(TTL - 1)
        await manager.timers.idle()
        assert idle.status is Status.LOBBY
        clock.advance(1)
        await manager.timers.idle()
        assert idle.status is Status.EXPIRED and heard == [("lobby_expired", idle.id)]
        assert manager.by_channel(1) is None and (await storage.session(idle.id)).status == "expired"
        assert started.status is Status.PLAYING
        assert not await manager.expire_lobby(started)  # even a stray timer cannot end a game
    finally:
        await manager.timers.stop()


# -- restart -------------------------------------------------------------------------------------


async def test_restore_rebuilds_identical_sessions_from_the_file(database, clock):
    path = database
    storage = await Storage.open(path)
    manager = make_manager(storage, clock)
    game = await playing(manager, 3, channel=1)
    await manager.set_messages(game, table=[501, 502], lobby=500)
    for key in ("swap", "pass", "swap", "pass"):
        await move(manager, game, key)
    waiting = await lobby(manager, 2, channel=2)
    await manager.set_option(waiting, HOST, "rounds", 1)
    seats = range(3)
    before = (
        game.seats, game.host_id, game.options, game.lang, game.messages, list(game.counters), game.log,
        [game.view(s) for s in (None, *seats)], [manager.observations(game, s) for s in seats],
    )
    lobby_before = (waiting.seats, waiting.options, waiting.host_id)
    await storage.close()

    storage = await Storage.open(path)
    try:
        again = make_manager(storage, clock)
        assert await again.restore() == []
        game2, waiting2 = again.by_channel(1), again.by_channel(2)
        assert game2 is not None and game2.id == game.id and game2.status is Status.PLAYING
        after = (
            game2.seats, game2.host_id, game2.options, game2.lang, game2.messages, list(game2.counters), game2.log,
            [game2.view(s) for s in (None, *seats)], [again.observations(game2, s) for s in seats],
        )
        assert after == before
        assert (waiting2.status, waiting2.seats, waiting2.options, waiting2.host_id) == (Status.LOBBY, *lobby_before)
        assert [t.session_id for t in await storage.timers()] == [waiting.id]  # its expiry is still stored
        # The old buttons keep working: the restored counters are the ones on them.
        seat = actor(game2)
        await again.act(game2, user_at(game2, seat), before[5][seat], "pass")
        assert len(await storage.actions(game2.id)) == 5
        assert await again.restore() == []  # a second call adds nothing
    finally:
        await storage.close()


@pytest.mark.parametrize(("games", "reason"), [({"toy": ToyGameV2()}, "rules_changed"), ({}, "unknown_game")])
async def test_restore_ends_what_it_cannot_replay_politely(database, clock, games, reason):
    path = database
    storage = await Storage.open(path)
    manager = make_manager(storage, clock)
    game = await playing(manager, 2, channel=1)
    await manager.set_messages(game, table=[77])
    await move(manager, game)
    waiting = await lobby(manager, 2, channel=2)
    await storage.close()

    storage = await Storage.open(path)
    try:
        again = make_manager(storage, clock, games=games)
        ended = sorted(await again.restore(), key=lambda e: e.id)
        assert [(e.id, e.channel_id, e.game, e.status, e.reason) for e in ended] == [
            (game.id, 1, "toy", Status.STOPPED, reason), (waiting.id, 2, "toy", Status.CANCELLED, reason)]
        assert ended[0].messages == {"table": [77]} and ended[0].lang == "en"
        assert again.by_channel(1) is None and again.by_channel(2) is None
        assert await storage.live_sessions() == [] and await storage.timers() == []
        assert all(r.stopped for r in await storage.results(game.id))
        assert (await storage.session(game.id)).end_reason == reason
        assert await storage.actions(game.id) == [(game.log[0][0], "pass")]  # the log is kept for audit
    finally:
        await storage.close()


def test_every_refusal_of_the_host_has_an_english_and_a_german_text():
    keys = set(re.findall(r'"(core\.[a-z_]+)"', Path(bot.play.sessions.__file__).read_text(encoding="utf-8")))
    assert {"core.stale_button", "core.not_seated", "core.session_gone"} <= keys
    for lang in ("en", "de"):
        assert sorted(keys - set(catalogue(lang))) == [], lang


async def test_what_happens_at_the_deal_is_observed_and_survives_a_restart(database, clock):
    """Skippo with aces out of turn: the dealt aces go out before the first move. Those events start
    every seat's observations (drawn cards only for their owner) and come back after a restart."""
    from games import REGISTRY

    skippo = REGISTRY["skippo"]
    options = skippo.parse_options({"aces_out_of_turn": True})
    seed = next(f"deal-{n}" for n in range(500) if len({e.seat for e in skippo.begin(3, options, f"deal-{n}")[1]
                                                       if e.kind == "ace_out"}) > 1)
    path = database
    storage = await Storage.open(path)
    manager = make_manager(storage, clock, games={"skippo": skippo}, seeds=iter([seed]))
    session = await manager.open_lobby(GUILD, CHANNEL, "skippo", HOST, "Host", "en", lobby_ttl=TTL)
    for n in (1, 2):
        await manager.join(session, HOST + n, f"P{n}")
    await manager.set_option(session, HOST, "aces_out_of_turn", True)
    await manager.start(session, HOST)
    outs = [e for e in session.opening if e.kind == "ace_out"]
    assert len({e.seat for e in outs}) > 1
    assert sorted(e.data["card"] for e in outs) == sorted(c for pile in session.state.build for c in pile)
    seen = [manager.observations(session, seat) for seat in range(3)]
    for seat, events in enumerate(seen):
        assert events[0].kind == "deal" and [e for e in events if e.kind == "ace_out"] == outs
        assert all(e.seat == seat for e in events if e.kind == "drew")
    await storage.close()

    storage = await Storage.open(path)
    try:
        again = make_manager(storage, clock, games={"skippo": skippo})
        assert await again.restore() == []
        restored = again.by_channel(CHANNEL)
        assert restored is not None and restored.opening == session.opening
        assert [again.observations(restored, seat) for seat in range(3)] == seen
    finally:
        await storage.close()


async def test_pictures_are_on_by_default_the_host_turns_them_off_and_it_survives_a_restart(database, clock):
    path = database
    storage = await Storage.open(path)
    manager = make_manager(storage, clock)
    session = await lobby(manager, 2)
    assert session.pictures is True
    await refused(manager, session, manager.set_pictures(session, HOST + 1, "off"), "core.host_only")
    await refused(manager, session, manager.set_pictures(session, HOST, "maybe"), "core.bad_option", option="pictures")
    await manager.set_pictures(session, HOST, "off")
    assert session.pictures is False and (await storage.session(session.id)).pictures is False
    await manager.start(session, HOST)
    await refused(manager, session, manager.set_pictures(session, HOST, "on"), "core.already_started")
    await storage.close()

    storage = await Storage.open(path)
    try:
        again = make_manager(storage, clock)
        assert await again.restore() == []
        assert again.by_channel(CHANNEL).pictures is False
    finally:
        await storage.close()


# -- events kept in memory -----------------------------------------------------------------------


async def _calcory_played(manager: SessionManager, moves: int) -> tuple[Session, list[list]]:
    """A Calcory table after ``moves`` seeded random legal moves, and the events each move made."""
    session = await manager.open_lobby(GUILD, CHANNEL, "calcory", HOST, "Host", "en", lobby_ttl=TTL)
    for n in (1, 2):
        await manager.join(session, HOST + n, f"P{n}")
    await manager.start(session, HOST)
    rng, made = random.Random("kept-events"), []
    for _ in range(moves):
        (seat,) = session.to_act()
        action = rng.choice(session.game.legal_actions(session.state, seat))
        made.append(await manager.act_for_seat(session, seat, session.counters[seat], action.key))
    assert session.status is Status.PLAYING
    return session, made


async def test_only_the_newest_moves_keep_their_events_and_older_ones_are_replayed(tmp_path, clock):
    """A thousand restored tables must not carry every move's events: only the newest
    ``EVENTS_KEPT`` stay in memory, yet every event (and so every seat's observations) reads the
    same, while playing and after a restart."""
    from games import REGISTRY

    kept = bot.play.sessions.EVENTS_KEPT
    path = tmp_path / "db.sqlite3"
    storage = await Storage.open(path)
    manager = make_manager(storage, clock, games={"calcory": REGISTRY["calcory"]})
    session, made = await _calcory_played(manager, kept + 20)
    assert [events is None for _, _, events in session.history] == [True] * 20 + [False] * kept
    assert session.events_from(0) == made and session.events_from(25) == made[25:]
    seen = [manager.observations(session, seat) for seat in range(3)]
    assert sum(map(len, seen)) > 0
    await storage.close()

    storage = await Storage.open(path)
    try:
        again = make_manager(storage, clock, games={"calcory": REGISTRY["calcory"]})
        assert await again.restore() == []
        restored = again.by_channel(CHANNEL)
        assert [events is None for _, _, events in restored.history] == [True] * 20 + [False] * kept
        assert restored.events_from(0) == made
        assert [again.observations(restored, seat) for seat in range(3)] == seen
    finally:
        await storage.close()


async def test_the_move_log_reads_moves_whose_events_are_no_longer_kept(storage, clock):
    """The log walks back past the kept moves when they do not fill it, and catches up over a gap
    longer than the kept moves, reading what a session with every event in memory reads."""
    from dataclasses import replace

    from bot.ui.movelog import LENGTH, MoveLog
    from games import REGISTRY

    kept = bot.play.sessions.EVENTS_KEPT
    manager = make_manager(storage, clock, games={"calcory": REGISTRY["calcory"]})
    session, _ = await _calcory_played(manager, kept + 20)
    full = replace(session, history=[(s, a, e) for (s, a, _), e in zip(session.history, session.events_from(0),
                                                                        strict=True)])

    def hits(events) -> str | None:     # only moves that hit 21, and the deal, make a line
        return " ".join(e.kind for e in events) if events is session.opening or any(
            e.kind == "hit" for e in events) else None

    assert sum(hits(events) is not None for events in session.events_from(20)) < LENGTH    # not enough
    expected = MoveLog().lines(full, "en", hits)
    assert 0 < len(expected) <= LENGTH
    assert MoveLog().lines(session, "en", hits) == expected

    everything = MoveLog()      # every move makes a line: the kept ones are enough
    assert everything.lines(session, "en", lambda events: repr(events)) == [
        repr(events) for events in session.events_from(kept + 20 - LENGTH)]
    log = MoveLog()
    log.lines(session, "en", repr)
    rng = random.Random("gap")
    for _ in range(kept + 5):
        (seat,) = session.to_act()
        action = rng.choice(session.game.legal_actions(session.state, seat))
        await manager.act_for_seat(session, seat, session.counters[seat], action.key)
    assert session.history[-kept - 1][2] is None
    assert log.lines(session, "en", repr) == [repr(e) for e in session.events_from(len(session.history) - LENGTH)]
