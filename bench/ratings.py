"""The ratings' rows: the update a finished match adds to its move, and /leaderboard by rating over
many result rows (plus the rebuild that derives the ratings from them, and /stats' rating trends)."""

from __future__ import annotations

import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from bot.storage import ratings_store
from bot.storage.store import ResultRow, Storage
from games import REGISTRY

GAMES = tuple(REGISTRY)


@dataclass(frozen=True)
class RatingResult:
    updates: list[float]        # seconds per rating update, inside the match's own transaction
    ends: list[float]           # seconds per whole end of a match (results, rating, commit)
    boards: list[float]         # seconds per /leaderboard by rating
    trends: list[float]         # seconds per /stats rating trend
    rebuild: float              # seconds of one rebuild over all rows (the write lock held throughout)
    rows: int                   # result rows in the database
    players: int                # ratings rows (players x games) after the rebuild


def _fill(path: Path, rows: int, players: int, seed: int = 1) -> None:
    """``rows`` result rows of 4-seat finished matches in one guild (the worst case for one board),
    one in ten with a computer seat, written straight with sqlite3 so the filling is quick."""
    rng = random.Random(seed)
    sessions, results = [], []
    for m in range(rows // 4):
        game = rng.choice(GAMES)
        at = 1_000_000.0 + m
        sessions.append((m + 1, 1, 10_000 + m, game, 1, "en", "finished", "[]", 1, at, at, at))
        users = rng.sample(range(1, players + 1), 4)
        ranks = [rng.randint(1, 4) for _ in range(4)]
        for seat, user in enumerate(users):
            computer = seat == 3 and m % 10 == 0
            results.append((m + 1, 1, game, seat, None if computer else user, "🤖" if computer else f"player{user}",
                            0, ranks[seat], int(ranks[seat] == 1), 0, int(m % 10 == 0), 0, at, None,
                            "easy" if computer else None))
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO sessions (id, guild_id, channel_id, game, host_id, lang, status, seats, "
                       "rules_version, created_at, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       sessions)
        db.executemany("INSERT INTO results (session_id, guild_id, game, seat, user_id, name, score, rank, won, "
                       "shared, with_computers, stopped, ended_at, team, level) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", results)


async def measure(workdir: Path, rows: int, players: int, updates: int, reads: int) -> RatingResult:
    path = workdir / "ratings.sqlite3"
    storage = await Storage.open(path)
    await storage.close()
    _fill(path, rows, players)
    storage = await Storage.open(path)
    try:
        started = time.perf_counter()
        _, rated = await storage.rebuild_ratings()
        rebuild = time.perf_counter() - started
        boards, trends = [], []
        rng = random.Random(2)
        for k in range(reads):
            game, user = GAMES[k % len(GAMES)], rng.randint(1, players)
            started = time.perf_counter()
            await storage.rating_board(1, game, user_id=user)
            boards.append(time.perf_counter() - started)
            started = time.perf_counter()
            await storage.rating_trends(1, user)
            trends.append(time.perf_counter() - started)
        times, ends = await _updates(storage, rng, rows // 4 + 1, updates, players)
    finally:
        await storage.close()
        for leftover in workdir.glob("ratings.sqlite3*"):
            leftover.unlink()
    return RatingResult(times, ends, boards, trends, rebuild, rows, rated)


async def _updates(storage: Storage, rng: random.Random, first: int, count: int, players: int
                   ) -> tuple[list[float], list[float]]:
    """Finished 4-seat matches ended through ``Storage.end_session``: the time of each rating update
    inside it, and of each whole end (result rows, rating, commit)."""
    original, spent = ratings_store.apply_match, []

    async def timed(db, rows) -> None:
        started = time.perf_counter()
        await original(db, rows)
        spent.append(time.perf_counter() - started)

    ratings_store.apply_match = timed
    ends = []
    try:
        for session_id in range(first, first + count):
            game = rng.choice(GAMES)
            await storage.create_session(guild_id=1, channel_id=session_id, game=game, host_id=1, lang="en",
                                         options={}, seats=[], rules_version=1, created_at=0.0)
            ranks = [rng.randint(1, 4) for _ in range(4)]
            rows = [ResultRow(session_id=session_id, guild_id=1, game=game, seat=seat, user_id=user,
                              name=f"player{user}", score=0, rank=ranks[seat],
                              won=ranks[seat] == 1, shared=False, with_computers=False,
                              stopped=False, ended_at=2_000_000.0 + session_id)
                    for seat, user in enumerate(rng.sample(range(1, players + 1), 4))]
            started = time.perf_counter()
            await storage.end_session(session_id, "finished", ended_at=2_000_000.0 + session_id, results=rows)
            ends.append(time.perf_counter() - started)
    finally:
        ratings_store.apply_match = original
    return spent, ends
