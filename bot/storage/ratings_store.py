"""The SQL of the ratings (bot/storage/ratings.py): derived data kept beside the result rows for speed.

``apply_match`` runs inside the transaction that writes a finished match's result rows, so the
results and their rating update commit together or not at all. ``Rebuild`` recomputes both tables
from the result rows alone, in the order the matches ended: the same arithmetic on the same
inputs, so a rebuild equals the incremental updates (``python -m bot rebuild-ratings``). Called by
``bot.storage.store.Storage`` with a driver's statement runner (``bot/storage/database.py``, SQLite or PostgreSQL,
so every statement here is written in SQL both accept); nothing else uses these functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.boards import Leaderboard
from bot.storage.ratings import PROVISIONAL, TREND, Rated, Skill, player_key, rate_match
from bot.storage.results import COLUMNS, ResultRow, result_row

#: A driver's statement runner: ``bot.storage.database.SqliteRun`` or ``PostgresRun``.
Run = Any


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of the rating leaderboard; ``rank`` is ``None`` for a provisional player."""

    pos: int
    rank: int | None
    user_id: int | None
    level: str | None
    name: str
    ordinal: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.rank is None


@dataclass(frozen=True, slots=True)
class RatingTrend:
    """A player's rating in one game and its change over the latest ``over`` games."""

    game: str
    ordinal: float
    games: int
    change: float
    over: int


@dataclass(frozen=True, slots=True)
class Scope:
    """Where ratings of one kind live: all-time per guild (``ratings``), or per season
    (``season_ratings``, migration 7). Both are computed the same way from the same result rows."""

    table: str
    #: The column that says whose ratings they are: the guild's, or the season's.
    owner: str

    @property
    def upsert(self) -> str:
        return (f"INSERT INTO {self.table} ({self.owner}, game, player, user_id, level, name, mu, sigma, ordinal, "
                f"games) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ({self.owner}, game, player) DO UPDATE "
                "SET user_id = excluded.user_id, level = excluded.level, name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games")


ALL_TIME = Scope("ratings", "guild_id")
SEASON = Scope("season_ratings", "season_id")

_LOG = ("INSERT INTO rating_log (session_id, seat, guild_id, game, player, user_id, ended_at, before, after) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, seat) DO UPDATE SET "
        "guild_id = excluded.guild_id, game = excluded.game, player = excluded.player, "
        "user_id = excluded.user_id, ended_at = excluded.ended_at, before = excluded.before, "
        "after = excluded.after")


def _writes(rows: Sequence[Any], rated: Rated, owner: int) -> tuple[list[tuple], list[tuple]]:
    """The rating rows (of ``owner``: a guild or a season) and rating_log rows of one rated match."""
    first = rows[0]
    upserts, logs, seen = [], [], set()
    for row in rows:
        key = player_key(row.user_id, row.level)
        if key is None or row.seat not in rated.seats:
            continue
        before, after = rated.seats[row.seat]
        logs.append((row.session_id, row.seat, row.guild_id, row.game, key, row.user_id, row.ended_at,
                     before, after))
        if key not in seen:
            seen.add(key)
            skill = rated.skills[key]
            human = row.user_id is not None
            upserts.append((owner, first.game, key, row.user_id, None if human else row.level,
                            row.name if human else "", skill.mu, skill.sigma, skill.ordinal, skill.games))
    return upserts, logs


def _rated(rows: Sequence[Any]) -> list[Any]:
    """The rows a rating counts: ranked seats of a finished match."""
    return [row for row in rows if row.rank is not None and not row.stopped]


def _scopes(row: Any) -> list[tuple[Scope, int]]:
    """Where one match's ratings go: its guild's all-time ratings, and its season's if it had one."""
    return [(ALL_TIME, row.guild_id)] + ([(SEASON, row.season)] if row.season is not None else [])


async def apply_match(db: Run, rows: Sequence[Any]) -> None:
    """Rate one finished match's result rows (inside the caller's transaction): all time, and in its season."""
    rows = _rated(rows)
    if len(rows) < 2:
        return
    game = rows[0].game
    keys = sorted({key for row in rows if (key := player_key(row.user_id, row.level))})
    for scope, owner in _scopes(rows[0]):
        current: dict[str, Skill] = {}
        if keys:
            fetched = await db.fetchall(
                f"SELECT player, mu, sigma, games FROM {scope.table} WHERE {scope.owner} = ? AND game = ? "
                f"AND player IN ({', '.join('?' * len(keys))})", (owner, game, *keys),
            )
            current = {player: Skill(mu, sigma, games) for player, mu, sigma, games in fetched}
        upserts, logs = _writes(rows, rate_match(rows, current), owner)
        if upserts:
            await db.executemany(scope.upsert, upserts)
            if scope is ALL_TIME:       # the trend /stats shows is the all-time one
                await db.executemany(_LOG, logs)


class Rebuild:
    """Every rating, all-time and per season, derived afresh from the result rows in the order the
    matches ended.

    All of it runs in one write transaction (``Storage.rebuild_ratings``): a result row that changes
    meanwhile (a new match, a forgotten user) can never be missed or written back."""

    def __init__(self) -> None:
        self.state: dict[tuple[Scope, int, str, str], tuple[Skill, tuple]] = {}
        self.logs: list[tuple] = []
        self.matches = 0

    def _rate(self, match: list[ResultRow]) -> None:
        if len(match) < 2:
            return
        game = match[0].game
        for scope, owner in _scopes(match[0]):
            current = {key: self.state[(scope, owner, game, key)][0] for row in match
                       if (key := player_key(row.user_id, row.level)) and (scope, owner, game, key) in self.state}
            upserts, logs = _writes(match, rate_match(match, current), owner)
            for upsert in upserts:
                self.state[(scope, upsert[0], upsert[1], upsert[2])] = (Skill(upsert[6], upsert[7], upsert[9]), upsert)
            if scope is ALL_TIME:
                self.logs.extend(logs)
                self.matches += bool(upserts)

    async def run(self, db: Run) -> tuple[int, int]:
        """Replace the rating tables (inside the caller's transaction); returns (matches rated, all-time
        ratings)."""
        match: list[ResultRow] = []
        async for raw in db.iterate(
            f"SELECT {COLUMNS} FROM results WHERE stopped = 0 AND rank IS NOT NULL ORDER BY ended_at, session_id, seat"
        ):
            row = result_row(raw)
            if match and match[0].session_id != row.session_id:
                self._rate(match)
                match = []
            match.append(row)
        if match:
            self._rate(match)
        for scope in (ALL_TIME, SEASON):
            await db.execute(f"DELETE FROM {scope.table}")
            await db.executemany(scope.upsert, [upsert for key, (_, upsert) in self.state.items() if key[0] is scope])
        await db.execute("DELETE FROM rating_log")
        await db.executemany(_LOG, self.logs)
        return self.matches, sum(1 for key in self.state if key[0] is ALL_TIME)


def _board_sql(scope: Scope) -> str:
    return f"""
    SELECT player, user_id, level, name, ordinal, games FROM {scope.table}
    WHERE {scope.owner} = :owner AND game = :game AND (:computers = 1 OR user_id IS NOT NULL)
          AND CASE WHEN games >= :provisional THEN 1 ELSE 0 END = :established
    ORDER BY ordinal DESC LIMIT :limit
"""


async def board(
    db: Run, owner: int, game: str, *, computers: bool, limit: int, user_id: int | None, scope: Scope = ALL_TIME,
) -> Leaderboard[RatingRow]:
    """The best ratings of one guild (or, with ``scope`` ``SEASON``, one season) and game: established
    players by ordinal, then provisional ones.

    Reads walk the board index (``ratings_board``, ``season_ratings_board``) from the top and stop
    after ``limit`` rows (the ordinal puts the established first anyway: a new player's σ keeps it
    low); the caller's rank, if they are not shown, is one count over the same index."""
    params = {"owner": owner, "game": game, "computers": int(computers), "provisional": PROVISIONAL,
              "limit": limit, "established": 1}
    sql = _board_sql(scope)
    fetched = [(True, *row) for row in await db.fetchall(sql, params)]
    if len(fetched) < limit:
        params.update(established=0, limit=limit - len(fetched))
        fetched += [(False, *row) for row in await db.fetchall(sql, params)]
    rows: list[RatingRow] = []
    for pos, (established, _, uid, level, name, ordinal, games) in enumerate(fetched, start=1):
        rank = None
        if established:
            tied = rows and rows[-1].ordinal == ordinal
            rank = rows[-1].rank if tied else pos
        rows.append(RatingRow(pos, rank, uid, level, name, ordinal, games))
    me = next((row for row in rows if user_id is not None and row.user_id == user_id), None)
    if me is None and user_id is not None:
        me = await _me(db, scope, owner, game, user_id, computers)
    return Leaderboard(tuple(rows), me)


async def _me(db: Run, scope: Scope, owner: int, game: str, user_id: int, computers: bool) -> RatingRow | None:
    """The caller's own line, ranked among everyone shown before them."""
    found = await db.fetchone(f"SELECT name, ordinal, games FROM {scope.table} WHERE {scope.owner} = ? AND game = ? "
                              "AND player = ?", (owner, game, player_key(user_id, None)))
    if found is None:
        return None
    name, ordinal, games = found
    established = games >= PROVISIONAL
    everyone, better = await db.fetchone(
        f"SELECT COUNT(*), SUM(CASE WHEN ordinal > :ordinal THEN 1 ELSE 0 END) FROM {scope.table} "
        f"WHERE {scope.owner} = :owner AND game = :game AND (:computers = 1 OR user_id IS NOT NULL) "
        "AND games >= :provisional AND ordinal >= :floor",
        {"owner": owner, "game": game, "computers": int(computers), "provisional": PROVISIONAL,
         "ordinal": ordinal, "floor": ordinal if established else -1e300},
    )
    if established:
        return RatingRow(better + 1, better + 1, user_id, None, name, ordinal, games)
    (before,) = await db.fetchone(
        f"SELECT COUNT(*) FROM {scope.table} WHERE {scope.owner} = :owner AND game = :game "
        "AND (:computers = 1 OR user_id IS NOT NULL) AND games < :provisional AND ordinal > :ordinal",
        {"owner": owner, "game": game, "computers": int(computers), "provisional": PROVISIONAL,
         "ordinal": ordinal},
    )
    return RatingRow(everyone + before + 1, None, user_id, None, name, ordinal, games)


async def trends(db: Run, guild_id: int, user_id: int) -> dict[str, RatingTrend]:
    """Per game: the player's rating, and its change over their latest ``TREND`` rated games."""
    sql = """
        SELECT r.game, r.ordinal, r.games,
               (SELECT COUNT(*) FROM (SELECT 1 FROM rating_log l
                    WHERE l.guild_id = r.guild_id AND l.user_id = r.user_id AND l.game = r.game
                    LIMIT :trend) AS t),
               (SELECT before FROM (SELECT before, ended_at, session_id FROM rating_log l
                    WHERE l.guild_id = r.guild_id AND l.user_id = r.user_id AND l.game = r.game
                    ORDER BY ended_at DESC, session_id DESC LIMIT :trend) AS t
                ORDER BY ended_at, session_id LIMIT 1)
        FROM ratings r WHERE r.guild_id = :guild AND r.user_id = :user
    """
    fetched = await db.fetchall(sql, {"guild": guild_id, "user": user_id, "trend": TREND})
    return {game: RatingTrend(game, ordinal, games, ordinal - (before if before is not None else ordinal), over)
            for game, ordinal, games, over, before in fetched}


async def match_changes(db: Run, session_id: int) -> dict[int, tuple[float, float]]:
    """Per seat of one rated match, its rating (ordinal) before and after the match."""
    fetched = await db.fetchall("SELECT seat, before, after FROM rating_log WHERE session_id = ?", (session_id,))
    return {seat: (before, after) for seat, before, after in fetched}


async def season_ratings(db: Run, season_id: int, user_id: int) -> dict[str, RatingTrend]:
    """Per game: a player's rating in one season (no trend: /stats shows the all-time one's)."""
    fetched = await db.fetchall("SELECT game, ordinal, games FROM season_ratings WHERE season_id = ? AND user_id = ?",
                                (season_id, user_id))
    return {game: RatingTrend(game, ordinal, games, 0.0, 0) for game, ordinal, games in fetched}


async def forget_user(db: Run, user_id: int) -> int:
    """Delete a user's ratings (all-time and every season's) and rating history in every guild (inside
    the caller's transaction)."""
    await db.execute("DELETE FROM season_ratings WHERE user_id = ?", (user_id,))
    count = await db.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
    await db.execute("DELETE FROM rating_log WHERE user_id = ?", (user_id,))
    return count
