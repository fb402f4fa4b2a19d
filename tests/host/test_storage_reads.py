"""The read side of storage: a reader beside the writer (WAL), the running result totals, and a
restart that reads only live sessions."""

from __future__ import annotations

import gc
import random
import sqlite3
from collections import defaultdict

import pytest

from bot.storage.database import SQLITE
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import ResultRow, Storage, live_actions_sql, live_sessions_sql
from tests.host.test_storage import match, new_session


@pytest.fixture
async def on_disk(tmp_path):
    storage = await Storage.open(tmp_path / "db.sqlite3")
    yield storage
    await storage.close()


# -- the read connection ---------------------------------------------------------------------------


async def test_the_reader_sees_every_committed_result(on_disk):
    assert await on_disk.most_played_game(1) is None
    await match(on_disk, [(1, True), (2, False)], game="mue")
    assert await on_disk.most_played_game(1) == "mue"
    assert [(r.user_id, r.wins) for r in (await on_disk.leaderboard(1, "mue")).rows] == [(1, 1), (2, 0)]
    # No snapshot is kept between reads: the next committed match shows at once.
    await match(on_disk, [(2, True), (1, False)], game="mue", at=101.0)
    await match(on_disk, [(2, True), (1, False)], game="toy", at=102.0)
    await match(on_disk, [(2, True), (1, False)], game="toy", at=103.0)
    assert await on_disk.most_played_game(1) == "toy"
    assert [(r.user_id, r.wins, r.games) for r in (await on_disk.leaderboard(1, "mue")).rows] == [
        (1, 1, 2), (2, 1, 2)]
    assert [(s.game, s.games, s.wins) for s in await on_disk.stats(1, 2)] == [("mue", 2, 1), ("toy", 2, 2)]


async def test_a_read_is_answered_while_a_write_transaction_is_open(on_disk):
    """The result reads use their own connection: an open write transaction neither blocks them nor
    shows them its uncommitted rows (on one shared connection they would see the new row)."""
    committed = await match(on_disk, [(1, True), (2, False)])
    pending = await new_session(on_disk)
    async with on_disk._transaction() as db:     # the writer, mid-transaction (as end_session is)
        await db.execute(
            "INSERT INTO results (session_id, guild_id, game, seat, user_id, name, score, rank, won, shared, "
            "with_computers, stopped, ended_at) VALUES (?, 1, 'toy', 0, 2, 'B', 1, 1, 1, 0, 0, 0, 500.0)",
            (pending,),
        )
        board = await on_disk.leaderboard(1, "toy")
        assert [(r.user_id, r.wins, r.games) for r in board.rows] == [(1, 1, 1), (2, 0, 1)]
        assert [(s.game, s.games, s.wins) for s in await on_disk.stats(1, 2)] == [("toy", 1, 0)]
        assert await on_disk.most_played_game(1) == "toy"
        assert [r.session_id for r in await on_disk.results(committed)] == [committed, committed]
        assert await on_disk.results(pending) == []
    assert [(r.user_id, r.wins, r.games) for r in (await on_disk.leaderboard(1, "toy")).rows] == [
        (1, 1, 1), (2, 1, 2)]


async def test_an_in_memory_database_reads_through_its_only_connection():
    storage = await Storage.open(":memory:")
    try:
        await match(storage, [(1, True), (2, False)])
        assert [r.user_id for r in (await storage.leaderboard(1, "toy")).rows] == [1, 2]
    finally:
        await storage.close()


# -- the running totals --------------------------------------------------------------------------


def _reference_board(rows: list[ResultRow], guild: int, game: str | None, computers: bool, user: int | None,
                     limit: int = 10):
    """The leaderboard worked out from the result rows alone, as the old query did."""
    per: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for r in rows:
        if (r.guild_id == guild and (game is None or r.game == game) and not r.stopped and r.user_id is not None
                and (computers or not r.with_computers)):
            per[r.user_id][0] += r.won
            per[r.user_id][1] += 1
    order = sorted(per.items(), key=lambda kv: (-kv[1][0], -kv[1][0] / kv[1][1], -kv[1][1], kv[0]))

    def line(uid: int) -> tuple:
        wins, games = per[uid]
        rank = 1 + sum(1 for w, g in per.values() if w > wins or (w == wins and w / g > wins / games))
        name = max((r for r in rows if r.guild_id == guild and r.user_id == uid), key=lambda r: r.ended_at).name
        return rank, uid, name, wins, games, wins / games

    return [line(uid) for uid, _ in order[:limit]], (line(user) if user in per else None)


def _random_matches(rng: random.Random, matches: int) -> list[list[ResultRow]]:
    """Ended matches in two servers and three games: computer seats, stopped matches, shared wins.
    Session ids are 1, 2, ... in order (the order ``new_session`` gives them in a fresh database)."""
    out = []
    for n in range(matches):
        guild, game = rng.choice((1, 1, 2)), rng.choice(("toy", "toy", "mue", "calcory"))
        seats = rng.randint(2, 4)
        computers = rng.random() < 0.3
        users: list[int | None] = rng.sample(range(1, 9), seats - computers) + [None] * computers
        stopped = rng.random() < 0.15
        winners = set() if stopped else set(rng.sample(range(seats), 2 if rng.random() < 0.2 else 1))
        out.append([ResultRow(session_id=n + 1, guild_id=guild, game=game, seat=seat, user_id=uid,
                              name=f"u{uid}-{n}" if uid else "Robo", score=None,
                              rank=None, won=seat in winners,
                              shared=len(winners) > 1 and seat in winners,
                              with_computers=computers, stopped=stopped,
                              ended_at=100.0 + n)
                    for seat, uid in enumerate(users)])
    return out


async def _check_against_rows(storage: Storage, rows: list[ResultRow]) -> None:
    """Every read of /leaderboard, /stats and "most played" equals what the rows themselves say."""
    for guild in (1, 2, 3):
        for game in ("toy", "mue", "calcory", "dacapo", None):
            for computers in (False, True):
                for user in (None, 1, 5, 8, 99):
                    board = await storage.leaderboard(guild, game, include_computer_matches=computers, limit=4,
                                                      user_id=user)
                    top, me = _reference_board(rows, guild, game, computers, user, limit=4)
                    assert [(r.rank, r.user_id, r.name, r.wins, r.games, r.win_rate) for r in board.rows] == top
                    got = board.me and (board.me.rank, board.me.user_id, board.me.name, board.me.wins,
                                        board.me.games, board.me.win_rate)
                    assert got == me, (guild, game, computers, user)
        for user in range(1, 9):
            per_game = defaultdict(list)
            for r in rows:
                if r.guild_id == guild and r.user_id == user and not r.stopped:
                    per_game[r.game].append(r)
            want = sorted(((g, len(rs), sum(r.won for r in rs), max(r.ended_at for r in rs))
                           for g, rs in per_game.items()), key=lambda s: (-s[1], s[0]))
            assert [(s.game, s.games, s.wins, s.last_played) for s in await storage.stats(guild, user)] == want
        played, last = defaultdict(set), defaultdict(float)
        for r in rows:
            if r.guild_id == guild and not r.stopped:
                played[r.game].add(r.session_id)
                last[r.game] = max(last[r.game], r.ended_at)
        want = min(played, key=lambda g: (-len(played[g]), -last[g], g)) if played else None
        assert await storage.most_played_game(guild) == want


async def test_totals_kept_by_each_ended_match_give_what_the_rows_give(database):
    storage = await Storage.open(database)      # SQLite's triggers, and PostgreSQL's plpgsql ones
    try:
        matches = _random_matches(random.Random("totals"), 120)
        for these in matches:
            session = await new_session(storage, guild=these[0].guild_id, game=these[0].game)
            assert session == these[0].session_id
            await storage.end_session(session, "stopped" if these[0].stopped else "finished",
                                      ended_at=these[0].ended_at, results=these)
        await _check_against_rows(storage, [r for these in matches for r in these])
    finally:
        await storage.close()


async def test_the_migration_fills_the_totals_from_results_already_stored(tmp_path):
    path = tmp_path / "db.sqlite3"
    matches = _random_matches(random.Random("backfill"), 60)
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                "applied_at TEXT NOT NULL)")
    for version, name, statements in MIGRATIONS[:2]:    # the schema before the totals
        for statement in statements:
            old.execute(statement)
        old.execute("INSERT INTO schema_migrations VALUES (?, ?, datetime('now'))", (version, name))
    for these in matches:
        first = these[0]
        old.execute("INSERT INTO sessions (id, guild_id, channel_id, game, host_id, lang, status, rules_version, "
                    "created_at) VALUES (?, ?, ?, ?, 1, 'en', ?, 1, 0)",
                    (first.session_id, first.guild_id, first.session_id, first.game,
                     "stopped" if first.stopped else "finished"))
        old.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [(r.session_id, r.guild_id, r.game, r.seat, r.user_id, r.name, r.score, r.rank, r.won,
                          r.shared, r.with_computers, r.stopped, r.ended_at) for r in these])
    old.close()
    storage = await Storage.open(path)
    try:
        assert await storage.schema_version() == MIGRATIONS[-1][0]
        await _check_against_rows(storage, [r for these in matches for r in these])
    finally:
        await storage.close()


# -- the restart reads only live sessions ------------------------------------------------------------


async def _history(path, finished: int) -> int:
    """A database with one live game of three moves and ``finished`` ended ones of 20 moves each."""
    storage = await Storage.open(path)
    try:
        for _ in range(finished):
            done = await new_session(storage)
            await storage.start_session(done, seats=[], seed="s", started_at=0.0)
            for seq in range(20):
                await storage.append_action(done, seq, seq % 2, "pass", float(seq))
            await storage.end_session(done, "finished", ended_at=50.0)
        live = await new_session(storage)
        await storage.start_session(live, seats=[], seed="s", started_at=0.0)
        for seq, key in enumerate(("swap", "pass", "swap")):
            await storage.append_action(live, seq, seq % 2, key, float(seq))
        (row,) = await storage.live_sessions()
        assert row.id == live and row.actions == [(0, "swap"), (1, "pass"), (0, "swap")]
        return live
    finally:
        await storage.close()


def _steps(path, sql: str, params: tuple) -> tuple[int, list]:
    """SQLite virtual machine steps to run ``sql`` (every step counted), and its rows."""
    db = sqlite3.connect(path)
    try:
        steps = 0

        def count() -> int:
            nonlocal steps
            steps += 1
            return 0

        db.set_progress_handler(count, 1)
        rows = db.execute(sql, params).fetchall()
        db.set_progress_handler(None, 1)
        return steps, rows
    finally:
        db.close()


async def test_the_restart_reads_no_finished_session(tmp_path):
    small, large = tmp_path / "small.sqlite3", tmp_path / "large.sqlite3"
    live_small, live_large = await _history(small, 2), await _history(large, 30)
    costs = []
    for path, live in ((small, live_small), (large, live_large)):
        sessions_steps, sessions = _steps(path, live_sessions_sql(SQLITE), ())
        actions_steps, actions = _steps(path, live_actions_sql(1), (live,))
        assert [row[0] for row in sessions] == [live] and len(actions) == 3
        costs.append((sessions_steps, actions_steps))
    # Thirty times the finished history, not one more step: nothing finished is visited.
    assert costs[0] == costs[1]
    with sqlite3.connect(large) as db:
        plans = [row[3] for sql, params in ((live_sessions_sql(SQLITE), ()), (live_actions_sql(2), (1, 2)))
                 for row in db.execute(f"EXPLAIN QUERY PLAN {sql}", params)]
    # The live sessions' own index, then each log by its key: never a walk over a whole table.
    assert all("USING INDEX sessions_live" in plan or "USING PRIMARY KEY (session_id=?)" in plan
               for plan in plans), plans


async def test_restore_leaves_the_collector_running(tmp_path):
    from bot.play.clock import ManualClock
    from bot.play.sessions import SessionManager

    path = tmp_path / "db.sqlite3"
    await _history(path, 1)
    storage = await Storage.open(path)
    try:
        assert gc.isenabled()
        await SessionManager(storage, ManualClock(0.0)).restore()
        assert gc.isenabled()
    finally:
        await storage.close()
