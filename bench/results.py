"""The result reads of /leaderboard and /stats over a large history: how long each one takes.

The history is written straight into the result table of a freshly migrated database (the bot's
write path would take minutes for a million rows; what it writes per row is the same): matches of
two to four seats in many servers, one server holding half of all rows, games played unevenly,
players' activity skewed (a few play a lot), some matches with a computer player, some stopped,
some wins shared. Each read is then timed through ``Storage`` as the commands call it, and the row
shows the median of several calls.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bench.load import BenchError
from bot.storage.store import Storage

#: Games by how often they are played (the most played one is what /leaderboard shows by default).
GAMES = {"calcory": 30, "mu": 20, "skippo": 15, "dacapo": 10, "kapado": 10, "rummu": 7, "safaru": 5,
         "diabolo": 3}
BIG_GUILD = 1
OTHER_GUILDS = 200
CALLS = 15
WRITERS = 20


@dataclass
class ResultsResult:
    rows: int                   # result rows in the database
    big_guild_rows: int
    players: int                # players the big server draws from (a few play most matches)
    build: float                # seconds to write the history
    leaderboard: float          # median seconds per call
    stats: float
    most_played: float
    game: str                   # the most played game (the leaderboard's)
    leaderboard_busy: float     # the leaderboard while ``WRITERS`` tables commit moves without pause


def build(path: Path, rows: int, rng: random.Random) -> tuple[int, int]:
    """Write about ``rows`` result rows, half in ``BIG_GUILD``; the exact counts it wrote."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("BEGIN")
        big = _write_guild(db, BIG_GUILD, rows // 2, big_guild_players(rows), rng)
        small = 0
        for n in range(OTHER_GUILDS):
            small += _write_guild(db, 1000 + n, (rows - rows // 2) // OTHER_GUILDS,
                                  max(10, rows // 100 // OTHER_GUILDS), rng)
        db.execute("COMMIT")
    finally:
        db.close()
    return big + small, big


def big_guild_players(rows: int) -> int:
    return max(50, rows // 100)


def _write_guild(db: sqlite3.Connection, guild: int, rows: int, players: int, rng: random.Random) -> int:
    games, weights = list(GAMES), list(GAMES.values())
    # Zipf-like activity: player i plays about 1/(i+1) as often as the busiest one.
    activity = list(itertools.accumulate(1 / (i + 1) for i in range(players)))
    ids = range(players)
    written = 0
    while written < rows:
        game = rng.choices(games, weights)[0]
        seats = rng.randint(2, 4)
        computers = rng.random() < 0.15
        humans = seats - 1 if computers else seats
        users: list[int | None] = []
        while len(users) < humans:
            user = guild * 1_000_000 + rng.choices(ids, cum_weights=activity)[0]
            if user not in users:
                users.append(user)
        if computers:
            users.append(None)
        stopped = rng.random() < 0.05
        winners = set() if stopped else set(rng.sample(range(seats), 2 if rng.random() < 0.05 else 1))
        ended = 1_700_000_000 + written * 60.0
        cur = db.execute(
            "INSERT INTO sessions (guild_id, channel_id, game, host_id, lang, status, rules_version, created_at, "
            "ended_at) VALUES (?, ?, ?, ?, 'en', ?, 1, ?, ?)",
            (guild, guild * 100 + rng.randrange(50), game, users[0], "stopped" if stopped else "finished",
             ended - 600, ended),
        )
        session = cur.lastrowid
        db.executemany(
            "INSERT INTO results (session_id, guild_id, game, seat, user_id, name, score, rank, won, shared, "
            "with_computers, stopped, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(session, guild, game, seat, user, f"player {user}" if user else "Computer",
              None if stopped else rng.randrange(100), None if stopped else (1 if seat in winners else 2),
              int(seat in winners), int(len(winners) > 1 and seat in winners), int(computers), int(stopped),
              ended)
             for seat, user in enumerate(users)],
        )
        written += seats
    return written


async def run_results(workdir: Path, *, rows: int) -> ResultsResult:
    database = workdir / "results.sqlite3"
    storage = await Storage.open(str(database))
    await storage.close()
    started = time.perf_counter()
    total, big = build(database, rows, random.Random("bench:results"))
    built = time.perf_counter() - started
    storage = await Storage.open(str(database))
    try:
        game = await storage.most_played_game(BIG_GUILD)
        if game is None:
            raise BenchError("the result history has no most played game")
        board = await storage.leaderboard(BIG_GUILD, game, limit=10)
        # Asked by the top players, by players further down and by one who never played.
        players = [row.user_id for row in board.rows] + [BIG_GUILD * 1_000_000 + n for n in (40, 300, 10**5)]
        leaderboard = await _median(
            lambda i: storage.leaderboard(BIG_GUILD, game, user_id=players[i % len(players)]))
        stats = await _median(lambda i: storage.stats(BIG_GUILD, players[i % len(players)]))
        most_played = await _median(lambda i: storage.most_played_game(BIG_GUILD))
        busy = await _while_moving(storage, lambda i: storage.leaderboard(BIG_GUILD, game, user_id=players[0]))
    finally:
        await storage.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    return ResultsResult(total, big, big_guild_players(rows), built, leaderboard, stats, most_played, game, busy)


async def _while_moving(storage: Storage, call) -> float:
    """The median of ``call`` while ``WRITERS`` games commit one move after another, as at busy hours."""
    stop = asyncio.Event()

    async def play(table: int) -> None:
        session = await storage.create_session(
            guild_id=BIG_GUILD, channel_id=10**9 + table, game="calcory", host_id=1, lang="en", options={},
            seats=[], rules_version=1, created_at=0.0)
        await storage.start_session(session, seats=[], seed="bench", started_at=0.0)
        for seq in itertools.count():
            if stop.is_set():
                return
            await storage.append_action(session, seq, seq % 3, "flip:A1", time.time())

    writers = [asyncio.create_task(play(n)) for n in range(WRITERS)]
    try:
        await asyncio.sleep(0.1)
        return await _median(call)
    finally:
        stop.set()
        await asyncio.gather(*writers)


async def _median(call) -> float:
    times = []
    await call(0)                       # warm the page cache: the bot's database is in use all day
    for i in range(CALLS):
        start = time.perf_counter()
        await call(i)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]
