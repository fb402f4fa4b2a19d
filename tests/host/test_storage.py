"""Storage: schema migrations, the one-live-session-per-channel index, logs, results and rankings, on
SQLite and on PostgreSQL (the ``store`` fixture, tests/conftest.py)."""

from __future__ import annotations

import itertools
import sqlite3

import aiosqlite
import pytest

from bot.storage.database import INTEGRITY_ERRORS
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import ChannelBusy, Forgotten, ResultRow, Seated, SessionGone, StillSeated, Storage

_channels = itertools.count(1000)


async def new_session(storage: Storage, *, channel: int | None = None, guild: int = 1, game: str = "toy") -> int:
    return await storage.create_session(
        guild_id=guild, channel_id=next(_channels) if channel is None else channel, game=game, host_id=1,
        lang="en", options={}, seats=[{"user_id": 1, "name": "A"}], rules_version=1, created_at=0.0,
    )


async def match(storage: Storage, players: list[tuple[int | None, bool]], *, guild: int = 1, game: str = "toy",
                computers: bool = False, stopped: bool = False, at: float = 100.0,
                names: dict[int, str] | None = None) -> int:
    """Store an ended match: ``players`` are ``(user_id, won)`` per seat."""
    session_id = await new_session(storage, guild=guild, game=game)
    shared = sum(won for _, won in players) > 1
    rows = [
        ResultRow(session_id=session_id, guild_id=guild, game=game, seat=seat, user_id=user,
                  name=(names or {}).get(user, f"user{user}"), score=None if stopped else 10 * won,
                  rank=None if stopped else (1 if won else 2), won=won, shared=won and shared,
                  with_computers=computers, stopped=stopped, ended_at=at)
        for seat, (user, won) in enumerate(players)
    ]
    await storage.end_session(session_id, "stopped" if stopped else "finished", ended_at=at, results=rows)
    return session_id


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


async def test_migrations_from_empty_and_reopen_is_idempotent(database):
    storage = await Storage.open(database)
    assert await storage.schema_version() == MIGRATIONS[-1][0]
    session_id = await new_session(storage, channel=7)
    await storage.close()

    again = await Storage.open(database)
    try:
        assert await again.schema_version() == MIGRATIONS[-1][0]
        row = await again.session(session_id)
        assert row is not None and row.channel_id == 7 and row.status == "lobby"
        async with again._sql.alone() as db:
            versions = [v for (v,) in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]
    finally:
        await again.close()
    assert versions == [m[0] for m in MIGRATIONS]


async def test_an_action_of_no_session_breaks_a_rule(storage):
    with pytest.raises(INTEGRITY_ERRORS):
        await storage.append_action(999, 0, 0, "pass", 1.0)  # no such session: the foreign key
    assert storage.fault is None


async def test_file_database_uses_wal_normal_sync_and_foreign_keys(tmp_path):
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        assert await storage.pragma("journal_mode") == "wal"
        assert await storage.pragma("synchronous") == 1  # NORMAL
        assert await storage.pragma("foreign_keys") == 1
        with pytest.raises(sqlite3.IntegrityError):
            await storage.append_action(999, 0, 0, "pass", 1.0)  # no such session
    finally:
        await storage.close()


async def test_one_live_session_per_channel_even_across_connections(database):
    first, second = await Storage.open(database), await Storage.open(database)
    try:
        lobby = await new_session(first, channel=5)
        with pytest.raises(ChannelBusy):
            await new_session(first, channel=5)
        with pytest.raises(ChannelBusy):  # another process sharing the file is refused too
            await new_session(second, channel=5)
        await new_session(second, channel=6)
        await first.start_session(lobby, seats=[], seed="s", started_at=1.0)
        with pytest.raises(ChannelBusy):
            await new_session(second, channel=5)
        await first.end_session(lobby, "finished", ended_at=2.0)
        again = await new_session(second, channel=5)
        assert again != lobby
        assert [row.id for row in await first.live_sessions() if row.channel_id == 5] == [again]
    finally:
        await first.close()
        await second.close()


async def test_action_log_keeps_order_and_refuses_a_second_entry_for_a_seq(storage):
    session_id = await new_session(storage)
    await storage.start_session(session_id, seats=[], seed="s", started_at=0.0)
    moves = [(0, "pass"), (1, "swap"), (0, "swap"), (1, "pass"), (0, "pass")]
    for seq, (seat, key) in enumerate(moves):
        await storage.append_action(session_id, seq, seat, key, float(seq))
    with pytest.raises(INTEGRITY_ERRORS):
        await storage.append_action(session_id, 2, 1, "pass", 9.0)
    assert await storage.actions(session_id) == moves
    (live,) = await storage.live_sessions()
    assert live.id == session_id and live.actions == moves and live.seed == "s" and live.status == "playing"


async def test_ending_a_session_is_atomic_and_only_once(storage):
    session_id = await new_session(storage)
    await storage.start_session(session_id, seats=[], seed="s", started_at=0.0)
    await storage.set_timer(session_id, "turn", 50.0, {})
    rows = [ResultRow(session_id=session_id, guild_id=1, game="toy", seat=0, user_id=1, name="A", score=5,
                      rank=1, won=True, shared=False, with_computers=False, stopped=False,
                      ended_at=3.0)]
    await storage.end_session(session_id, "finished", ended_at=3.0, reason="over", results=rows,
                              action=(0, 0, "pass", 3.0))
    assert await storage.actions(session_id) == [(0, "pass")]
    assert await storage.results(session_id) == rows
    assert await storage.timers() == []  # an ended session's timers go with it
    row = await storage.session(session_id)
    assert row is not None and (row.status, row.end_reason, row.ended_at) == ("finished", "over", 3.0)
    with pytest.raises(SessionGone):
        await storage.end_session(session_id, "stopped", ended_at=4.0, results=rows,
                                  action=(1, 0, "pass", 4.0))
    # The refused second end left nothing behind: no action, no duplicate result row.
    assert await storage.actions(session_id) == [(0, "pass")]
    assert await storage.results(session_id) == rows
    assert (await storage.session(session_id)).status == "finished"


def test_a_result_row_is_built_by_keywords_only():
    """Thirteen values in a row are too easy to swap: ``won`` for ``shared`` would go unnoticed."""
    with pytest.raises(TypeError):
        ResultRow(1, 1, "toy", 0, 1, "A", 5, 1, True, False, False, False, 3.0)  # type: ignore[misc]


async def test_update_session_persists_lobby_fields(storage):
    session_id = await new_session(storage)
    await storage.update_session(session_id, seats=[{"user_id": 2, "name": "B"}], host_id=2,
                                 options={"rounds": 3}, lang="de", messages={"lobby": 55})
    row = await storage.session(session_id)
    assert (row.host_id, row.lang, row.options, row.seats, row.messages) == (
        2, "de", {"rounds": 3}, [{"user_id": 2, "name": "B"}], {"lobby": 55})
    with pytest.raises(ValueError):
        await storage.update_session(session_id, status="finished")
    with pytest.raises(SessionGone):
        await storage.update_session(12345, lang="en")


async def test_leaderboard_counts_shared_wins_and_skips_stopped_and_computer_matches(storage):
    await match(storage, [(1, True), (2, False)])                   # 1 wins
    await match(storage, [(1, True), (2, True)])                    # shared win: both win
    await match(storage, [(2, True), (None, False)], computers=True)  # with a computer player
    await match(storage, [(2, True), (1, False)], stopped=True)     # stopped: never counts
    await match(storage, [(3, True), (1, False)], game="other")     # another game
    await match(storage, [(2, True), (1, False)], guild=2)          # another server

    board = await storage.leaderboard(1, "toy")
    assert [(r.rank, r.user_id, r.wins, r.games, r.win_rate) for r in board.rows] == [
        (1, 1, 2, 2, 1.0), (2, 2, 1, 2, 0.5)]

    with_bots = await storage.leaderboard(1, "toy", include_computer_matches=True)
    assert [(r.user_id, r.wins, r.games) for r in with_bots.rows] == [(1, 2, 2), (2, 2, 3)]
    assert [r.rank for r in with_bots.rows] == [1, 2]  # equal wins: the better win rate ranks first

    every_game = await storage.leaderboard(1, None)
    assert [(r.user_id, r.wins, r.games) for r in every_game.rows] == [(1, 2, 3), (3, 1, 1), (2, 1, 2)]
    assert [r.rank for r in every_game.rows] == [1, 2, 3]  # one win of one beats one win of two


async def test_leaderboard_ranks_wins_before_win_rate_and_ties_share_a_rank(storage):
    await match(storage, [(1, True), (9, False)])
    await match(storage, [(1, True), (9, False)])
    await match(storage, [(1, False), (9, True)])   # user 1: 2 wins of 3
    await match(storage, [(2, True), (8, False)])   # user 2: 1 win of 1, better rate, fewer wins
    await match(storage, [(3, True), (7, False)])   # user 3: same as user 2
    board = await storage.leaderboard(1, "toy")
    top = [(r.rank, r.user_id) for r in board.rows]
    assert top[:3] == [(1, 1), (2, 2), (2, 3)]
    assert (board.rows[3].user_id, board.rows[3].wins, board.rows[3].rank) == (9, 1, 4)


async def test_leaderboard_gives_the_callers_rank_outside_the_top_rows(storage):
    for user in range(1, 13):  # user 1 wins 12 times, ..., user 12 once
        for _ in range(13 - user):
            await match(storage, [(user, True), (99, False)], names={99: "loser"})
    # user 99 never wins: 0 wins, last place among 13 players
    board = await storage.leaderboard(1, "toy", user_id=12, limit=10)
    assert [r.user_id for r in board.rows] == list(range(1, 11))
    assert board.me is not None and board.me.rank == 12 and board.me.wins == 1 and board.me_outside
    inside = await storage.leaderboard(1, "toy", user_id=3)
    assert inside.me is not None and inside.me.rank == 3 and not inside.me_outside
    last = await storage.leaderboard(1, "toy", user_id=99)
    assert (last.me.rank, last.me.name, last.me.wins, last.me.games) == (13, "loser", 0, 78)
    assert (await storage.leaderboard(1, "toy", user_id=12345)).me is None


async def test_leaderboard_shows_the_latest_name(storage):
    await match(storage, [(1, True), (2, False)], at=1.0, names={1: "old"})
    await match(storage, [(1, True), (2, False)], at=2.0, names={1: "new"})
    board = await storage.leaderboard(1, "toy")
    assert board.rows[0].name == "new"


async def test_most_played_game_and_stats(storage):
    assert await storage.most_played_game(1) is None
    await match(storage, [(1, True), (2, False)], game="calcory", at=10.0)
    await match(storage, [(1, False), (2, True)], game="toy", at=20.0)
    await match(storage, [(1, True), (2, False)], game="toy", at=30.0)
    for _ in range(3):  # stopped matches are no plays
        await match(storage, [(1, False), (2, False)], game="calcory", stopped=True, at=40.0)
    await match(storage, [(1, True), (2, False)], game="mue", guild=2)
    assert await storage.most_played_game(1) == "toy"
    assert await storage.most_played_game(2) == "mue"

    stats = await storage.stats(1, 1)
    assert [(s.game, s.games, s.wins, s.win_rate, s.last_played) for s in stats] == [
        ("toy", 2, 1, 0.5, 30.0), ("calcory", 1, 1, 1.0, 10.0)]
    assert await storage.stats(1, 42) == []


async def test_timers_are_replaced_per_kind_and_listed_by_due_time(storage):
    a, b = await new_session(storage), await new_session(storage)
    first = await storage.set_timer(a, "lobby_expiry", 30.0, {"x": 1})
    await storage.set_timer(b, "lobby_expiry", 10.0, {})
    moved = await storage.set_timer(a, "lobby_expiry", 20.0, {"x": 2})
    assert moved != first  # a replaced timer is a new timer: deleting the old id cannot hit it
    await storage.delete_timer_id(first)
    assert [(t.session_id, t.due, t.payload) for t in await storage.timers()] == [(b, 10.0, {}), (a, 20.0, {"x": 2})]
    assert [t.session_id for t in await storage.due_timers(15.0)] == [b]
    assert await storage.next_timer_due() == 10.0
    await storage.delete_timer(b, "lobby_expiry")
    assert await storage.next_timer_due() == 20.0


async def test_forgetting_a_user_makes_their_rows_and_ended_sessions_anonymous(storage):
    kept = await new_session(storage, channel=1)                    # live: left alone
    ended = await storage.create_session(
        guild_id=1, channel_id=2, game="toy", host_id=7, lang="en", options={},
        seats=[{"user_id": 7, "name": "Seven"}, {"user_id": 8, "name": "Eight"}], rules_version=1, created_at=0.0)
    rows = [ResultRow(session_id=ended, guild_id=1, game="toy", seat=0, user_id=7, name="Seven", score=5,
                      rank=1, won=True, shared=False, with_computers=False, stopped=False,
                      ended_at=3.0),
            ResultRow(session_id=ended, guild_id=1, game="toy", seat=1, user_id=8, name="Eight", score=2,
                      rank=2, won=False, shared=False, with_computers=False, stopped=False,
                      ended_at=3.0)]
    await storage.end_session(ended, "finished", ended_at=3.0, results=rows)
    hosted_by_other = await storage.create_session(
        guild_id=1, channel_id=3, game="toy", host_id=8, lang="en", options={},
        seats=[{"user_id": 8, "name": "Eight"}, {"user_id": 7, "name": "Seven"}], rules_version=1, created_at=0.0)
    await storage.end_session(hosted_by_other, "cancelled", ended_at=4.0)

    assert await storage.forget_user(7) == Forgotten(results=1, sessions=2)
    assert [(r.user_id, r.name) for r in await storage.results(ended)] == [(None, ""), (8, "Eight")]
    first, second = await storage.session(ended), await storage.session(hosted_by_other)
    assert (first.host_id, first.seats) == (0, [{"user_id": None, "name": ""}, {"user_id": 8, "name": "Eight"}])
    assert (second.host_id, second.seats) == (8, [{"user_id": 8, "name": "Eight"}, {"user_id": None, "name": ""}])
    assert [r.user_id for r in (await storage.leaderboard(1, "toy")).rows] == [8]
    assert (await storage.session(kept)).host_id == 1
    assert await storage.forget_user(7) == Forgotten(results=0, sessions=0)


@pytest.fixture
def insecure_sqlite(monkeypatch):
    """A SQLite library built with ``secure_delete`` off by default (Debian's has it on)."""
    connect = aiosqlite.connect

    async def insecure(*args, **kwargs):
        db = await connect(*args, **kwargs)
        await db.execute("PRAGMA secure_delete=OFF")
        return db

    monkeypatch.setattr(aiosqlite, "connect", insecure)


async def test_the_bots_connections_delete_securely_whatever_the_librarys_default(tmp_path, insecure_sqlite):
    storage = await Storage.open(tmp_path / "db.sqlite3")
    try:
        assert await storage.pragma("secure_delete") == 1
    finally:
        await storage.close()


async def test_a_forgotten_name_is_gone_from_the_database_file_and_its_write_ahead_log(tmp_path, insecure_sqlite):
    """Neither the file's free space (``secure_delete``) nor older page images in the write-ahead log
    keep a forgotten name."""
    path = tmp_path / "db.sqlite3"
    storage = await Storage.open(path)
    try:
        for _ in range(3):
            await match(storage, [(7, True), (8, False)], names={7: "Zebulon Quirk", 8: "Eight Eightson"})
        await storage.forget_user(7)
        stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("db.sqlite3"))
        assert b"Eight Eightson" in stored and b"Zebulon Quirk" not in stored
    finally:
        await storage.close()


def _replaced(user_id: int, name: str) -> dict:
    """A seat a computer player took over from ``user_id`` with /replace (``bot.play.seats.Seat.to_json``)."""
    return {"user_id": None, "name": f"🤖 {name}", "kind": "computer", "level": "easy", "team": None, "missed": 0,
            "replaced": user_id}


async def test_forgetting_reaches_the_seats_a_computer_took_over_and_nobody_of_the_same_name(storage):
    """Bob (8) was replaced; another Bob (9) was replaced too, and a third (10) plays himself: only the
    seat keyed on 8 loses its "🤖 Bob", in the seats and in the result row."""
    ended = await storage.create_session(
        guild_id=1, channel_id=2, game="toy", host_id=7, lang="en", options={},
        seats=[{"user_id": 7, "name": "Seven"}, _replaced(8, "Bob"), _replaced(9, "Bob"), {"user_id": 10, "name": "Bob"}],
        rules_version=1, created_at=0.0)
    rows = [ResultRow(session_id=ended, guild_id=1, game="toy", seat=0, user_id=7, name="Seven", score=5,
                      rank=1, won=True, shared=False, with_computers=True, stopped=False,
                      ended_at=3.0),
            ResultRow(session_id=ended, guild_id=1, game="toy", seat=1, user_id=None, name="🤖 Bob", score=4,
                      rank=2, won=False, shared=False, with_computers=True, stopped=False,
                      ended_at=3.0, level="easy"),
            ResultRow(session_id=ended, guild_id=1, game="toy", seat=2, user_id=None, name="🤖 Bob", score=3,
                      rank=3, won=False, shared=False, with_computers=True, stopped=False,
                      ended_at=3.0, level="easy"),
            ResultRow(session_id=ended, guild_id=1, game="toy", seat=3, user_id=10, name="Bob", score=2,
                      rank=4, won=False, shared=False, with_computers=True, stopped=False,
                      ended_at=3.0)]
    await storage.end_session(ended, "finished", ended_at=3.0, results=rows)

    assert await storage.forget_user(8) == Forgotten(results=1, sessions=1)
    assert [(r.user_id, r.name, r.level, r.score) for r in await storage.results(ended)] == [
        (7, "Seven", None, 5), (None, "", "easy", 4), (None, "🤖 Bob", "easy", 3), (10, "Bob", None, 2)]
    assert (await storage.session(ended)).seats == [
        {"user_id": 7, "name": "Seven"}, {**_replaced(8, "Bob"), "replaced": None, "name": ""}, _replaced(9, "Bob"),
        {"user_id": 10, "name": "Bob"}]
    assert await storage.forget_user(8) == Forgotten(results=0, sessions=0)


async def test_forgetting_is_refused_for_a_live_table_of_another_process(database):
    """The refusal is checked in the forgetting transaction against the stored live sessions, so a
    table that only another process (another shard) holds in memory is seen, and nothing changes."""
    shard, other = await Storage.open(database), await Storage.open(database)
    try:
        done = await match(other, [(7, True), (8, False)], names={7: "Seven", 8: "Eight"})
        seated = await shard.create_session(
            guild_id=2, channel_id=50, game="toy", host_id=8, lang="en", options={},
            seats=[{"user_id": 8, "name": "Eight"}, {"user_id": 7, "name": "Seven"}], rules_version=1, created_at=0.0)
        await shard.start_session(seated, seats=[{"user_id": 8, "name": "Eight"}, {"user_id": 7, "name": "Seven"}],
                                  seed="s", started_at=1.0)
        await shard.create_session(
            guild_id=2, channel_id=51, game="toy", host_id=8, lang="en", options={},
            seats=[{"user_id": 8, "name": "Eight"}, _replaced(9, "Nine")], rules_version=1, created_at=0.0)

        assert await other.seated(7) == Seated("toy", 50, replaced=False)
        with pytest.raises(StillSeated) as refused:
            await other.forget_user(7)
        assert refused.value.seated == Seated("toy", 50, replaced=False)
        with pytest.raises(StillSeated) as refused:
            await other.forget_user(9)
        assert refused.value.seated == Seated("toy", 51, replaced=True)
        assert [(r.user_id, r.name) for r in await other.results(done)] == [(7, "Seven"), (8, "Eight")]
        assert other.fault is None

        await shard.end_session(seated, "stopped", ended_at=2.0)
        assert await other.seated(7) is None and await other.seated(8) == Seated("toy", 51, replaced=False)
        assert await other.forget_user(7) == Forgotten(results=1, sessions=1)     # the stopped game
        assert await other.seated(9) == Seated("toy", 51, replaced=True)
    finally:
        await shard.close()
        await other.close()
