"""The SQL of seasons (migration 7): a server's results counted afresh now and then.

A server runs no season, a monthly one (a new season each calendar month, UTC), or a named one that
lasts until someone with Manage Server changes it (``/season``). Every function runs inside a
transaction of ``bot.storage.store.Storage`` with a driver's statement runner, in SQL both databases
accept. The database decides what happens once: the partial unique index ``seasons_current`` allows
one current season per server, ending a season is an UPDATE that only one writer can win, and the
end-of-season post is taken by a lease (``claim_posts``), so several processes (shards) and a restart
in the middle never end a season twice nor post its end twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.storage.database import StorageError
from bot.storage.shards import Shards

#: A driver's statement runner: ``bot.storage.database.SqliteRun`` or ``PostgresRun``.
Run = Any

MODES = ("off", "monthly", "new")
#: The longest name a season may have (it stands in titles and in the autocomplete's 100 characters).
NAME_LENGTH = 40


class SeasonRefused(StorageError):
    """``/season`` asked for something that cannot be: ``key`` is the catalogue text that says why."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


@dataclass(frozen=True, slots=True)
class Season:
    """One season of a server; ``until`` is when a monthly one ends, ``ended_at`` when it did."""

    id: int
    guild_id: int
    name: str
    monthly: bool
    channel_id: int | None
    started_at: float
    until: float | None
    ended_at: float | None

    @property
    def current(self) -> bool:
        return self.ended_at is None


@dataclass(frozen=True, slots=True)
class Changed:
    """What ``/season`` did: the season it ended (its post is owed), and the one current now."""

    ended: Season | None
    current: Season | None


COLUMNS = "id, guild_id, name, monthly, channel_id, started_at, until, ended_at"


def season_of(row: Sequence[Any]) -> Season:
    return Season(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6], row[7])


def month(now: float) -> tuple[str, float, float]:
    """The calendar month (UTC) around ``now``: its name ("2026-12"), its first and its last moment."""
    day = datetime.fromtimestamp(now, UTC)
    start = datetime(day.year, day.month, 1, tzinfo=UTC)
    end = datetime(day.year + day.month // 12, day.month % 12 + 1, 1, tzinfo=UTC)
    return f"{day.year:04d}-{day.month:02d}", start.timestamp(), end.timestamp()


async def current(db: Run, guild_id: int) -> Season | None:
    row = await db.fetchone(f"SELECT {COLUMNS} FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
    return None if row is None else season_of(row)


async def _end(db: Run, season: Season, at: float, now: float) -> bool:
    """End ``season`` at ``at``, its post owed from ``now`` if it has a channel; ``False`` if another
    writer ended it first."""
    return await db.execute(
        "UPDATE seasons SET ended_at = ?, until = NULL, post_due = ? WHERE id = ? AND ended_at IS NULL",
        (at, now if season.channel_id is not None else None, season.id),
    ) == 1


async def _start(db: Run, guild_id: int, name: str, *, monthly: bool, channel_id: int | None, started_at: float,
                 until: float | None) -> Season:
    season_id = await db.insert(
        "INSERT INTO seasons (guild_id, name, monthly, channel_id, started_at, until) VALUES (?, ?, ?, ?, ?, ?)",
        (guild_id, name, int(monthly), channel_id, started_at, until),
    )
    return Season(season_id, guild_id, name, monthly, channel_id, started_at, until, None)


async def _next_month(db: Run, guild_id: int, channel_id: int | None, now: float, *, fresh: bool) -> Season:
    """The season of ``now``'s month: from its first moment after a rollover, from ``now`` when the
    seasons were just turned on (no match before counts for it)."""
    name, start, end = month(now)
    return await _start(db, guild_id, name, monthly=True, channel_id=channel_id, started_at=now if fresh else start,
                        until=end)


async def roll(db: Run, guild_id: int, now: float) -> tuple[Season | None, bool]:
    """The server's season current at ``now``, and whether this call ended the one before. A monthly
    season whose month is over ends at the month's end and the season of ``now``'s month begins
    (months without the bot are skipped), whichever process or match asks first; the others find
    the new one."""
    season = await current(db, guild_id)
    if season is None or season.until is None or season.until > now:
        return season, False
    if not await _end(db, season, season.until, now):
        return await current(db, guild_id), False
    return await _next_month(db, guild_id, season.channel_id, now, fresh=False), True


async def settle(db: Run, guild_id: int, now: float) -> Season | None:
    """The server's season current at ``now`` (see ``roll``)."""
    return (await roll(db, guild_id, now))[0]


async def due_guilds(db: Run, now: float, shards: Shards | None) -> list[int]:
    """The servers (of ``shards``) whose monthly season is over by ``now``."""
    sql = "SELECT guild_id FROM seasons WHERE ended_at IS NULL AND until <= ?"
    params: tuple[Any, ...] = (now,)
    if shards is not None:
        condition, more = shards.sql("guild_id")
        sql, params = f"{sql} AND {condition}", (*params, *more)
    return [guild_id for (guild_id,) in await db.fetchall(f"{sql} ORDER BY until, guild_id", params)]


async def next_due(db: Run, shards: Shards | None) -> float | None:
    """When the next thing is due: a monthly season's end, or an owed post (of ``shards``' servers)."""
    condition, params = shards.sql("guild_id") if shards is not None else ("TRUE", ())
    row = await db.fetchone(
        f"SELECT MIN(CASE WHEN ended_at IS NULL THEN until ELSE post_due END) FROM seasons "
        f"WHERE ((ended_at IS NULL AND until IS NOT NULL) OR post_due IS NOT NULL) AND {condition}", params,
    )
    return None if row is None else row[0]


async def claim_posts(db: Run, now: float, lease: float, shards: Shards | None) -> list[Season]:
    """The ended seasons whose post is owed by ``now``, each taken for ``lease`` seconds: whoever
    moves ``post_due`` first posts it; a process that stops before ``done_post`` leaves it to be
    taken again once the lease is over."""
    sql = f"SELECT {COLUMNS}, post_due FROM seasons WHERE post_due <= ?"
    params: tuple[Any, ...] = (now,)
    if shards is not None:
        condition, more = shards.sql("guild_id")
        sql, params = f"{sql} AND {condition}", (*params, *more)
    taken = []
    for row in await db.fetchall(f"{sql} ORDER BY post_due, id", params):
        if await db.execute("UPDATE seasons SET post_due = ? WHERE id = ? AND post_due = ?",
                            (now + lease, row[0], row[8])) == 1:
            taken.append(season_of(row))
    return taken


async def change(db: Run, guild_id: int, mode: str | None, name: str | None, channel_id: int | None,
                 now: float) -> Changed:
    """``/season``: ``mode`` off, monthly or new (a season named ``name`` now); without a mode only the
    channel of the end-of-season post changes. ``SeasonRefused`` changes nothing."""
    season = await settle(db, guild_id, now)
    channel = channel_id if channel_id is not None else season.channel_id if season else None
    if mode is None or (mode == "monthly" and season is not None and season.monthly):
        if season is None:
            raise SeasonRefused("seasons.refused_off")
        if channel_id is not None:
            await db.execute("UPDATE seasons SET channel_id = ? WHERE id = ?", (channel_id, season.id))
        return Changed(None, await current(db, guild_id))
    if mode == "off" and season is None:
        raise SeasonRefused("seasons.refused_off")
    if mode == "new":
        if not name:
            raise SeasonRefused("seasons.refused_no_name")
        if await db.fetchone("SELECT 1 FROM seasons WHERE guild_id = ? AND name = ?", (guild_id, name)):
            raise SeasonRefused("seasons.refused_name_taken")
    ended = None
    if season is not None:
        if not await _end(db, season, now, now):
            raise SeasonRefused("seasons.refused_busy")
        ended = Season(season.id, guild_id, season.name, season.monthly, channel, season.started_at, None, now)
        if channel != season.channel_id:     # the post goes to the channel named with the change
            await db.execute("UPDATE seasons SET channel_id = ?, post_due = ? WHERE id = ?",
                             (channel, now if channel is not None else None, season.id))
    if mode == "off":
        return Changed(ended, None)
    if mode == "monthly":
        return Changed(ended, await _next_month(db, guild_id, channel, now, fresh=True))
    assert name is not None
    return Changed(ended, await _start(db, guild_id, name, monthly=False, channel_id=channel, started_at=now,
                                       until=None))


async def seasons(db: Run, guild_id: int, limit: int = 200) -> list[Season]:
    """A server's seasons, the newest first."""
    rows = await db.fetchall(f"SELECT {COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY started_at DESC, id DESC "
                             "LIMIT ?", (guild_id, limit))
    return [season_of(row) for row in rows]


async def games_played(db: Run, season_id: int) -> list[str]:
    """The games with a finished match in a season, the most played first."""
    rows = await db.fetchall(
        "SELECT game FROM results WHERE season = ? AND stopped = 0 GROUP BY game "
        "ORDER BY COUNT(DISTINCT session_id) DESC, MAX(ended_at) DESC, game", (season_id,))
    return [game for (game,) in rows]
