"""The only code that speaks SQL: sessions, their action logs, results and timers.

SQLite through aiosqlite, in WAL mode with ``synchronous=NORMAL`` (a commit survives a crash of the
bot process; the OS may lose the last moments on power loss). The connection runs in autocommit
mode: a single statement commits on its own (the hot path: one INSERT per move), and writes of
several statements run in an explicit ``BEGIN IMMEDIATE`` transaction under one write lock, so
coroutines sharing the connection never interleave inside each other's transactions; a single
statement waits only while that lock is held (``bot.storage.database.Exclusive``). Every write
method has committed when it returns, or raised ``StorageFault`` having changed nothing (the
database locked for longer than ``busy_timeout``, the disk full, the file read-only): callers keep
memory as it was. A fault is logged once per episode, and its end once, not once per write.

PostgreSQL (asyncpg) serves behind the same methods and the same SQL (``bot/storage/database.py`` runs it on
either and holds the few statements the two spell differently): every write there borrows a pooled
connection, the database enforces the same rules, a lost connection or a stopped server is a
``StorageFault``, and writes work again once the server is back.

The result reads (/leaderboard, /stats) go through a second, read-only connection with its own
thread: in WAL mode a reader sees every committed write and never waits for a writer, so these
reads do not queue behind the moves' commits. A database without WAL (``:memory:``) has one
connection for both.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import aiosqlite

from bot.storage import ratings_store, seasons
from bot.storage.boards import Leaderboard
from bot.storage.database import (
    INTEGRITY_ERRORS,
    Dialect,
    PostgresDriver,
    PostgresRun,
    SqliteDriver,
    SqliteRun,
    StorageError,
    StorageFault,
    StorageOpenError,
    connect_postgres,
    parse_url,
    postgres_open_error,
    redact,
)
from bot.storage.migrations import LATEST
from bot.storage.ratings_store import SEASON, RatingRow, RatingTrend
from bot.storage.results import COLUMNS, ResultRow, result_row
from bot.storage.seasons import Changed, Season, SeasonRefused
from bot.storage.shards import Shards
from bot.storage.status import ENDED, Status

log = logging.getLogger("spieltisch.storage")

#: Seconds a write waits for another connection's write lock before it gives up.
BUSY_TIMEOUT = 5.0


class ChannelBusy(StorageError):
    """The channel already has a live session (the unique index refused a second one)."""


class SessionGone(StorageError):
    """The session is no longer live in the database (ended elsewhere, or never existed)."""


@dataclass(frozen=True, slots=True)
class Seated:
    """A live table that holds a person: their own seat, or (``replaced``) only a seat a computer
    player took over from them, which carries their name until the game ends."""

    game: str
    channel_id: int
    replaced: bool


class StillSeated(StorageError):
    """``forget_user`` found the person at a live table (of any process) and changed nothing."""

    def __init__(self, seated: Seated) -> None:
        super().__init__(seated.game, seated.channel_id)
        self.seated = seated


def _open_error(path: str, exc: sqlite3.Error) -> StorageOpenError:
    """Name the file and what is wrong with it, from sqlite's terse message."""
    text = str(exc).lower()
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        why = f"its folder {folder} does not exist"
    elif os.path.isdir(path):
        why = "it is a folder, not a file"
    elif "not a database" in text or "malformed" in text:
        why = "it is not an SQLite database (or it is damaged)"
    elif "locked" in text or "busy" in text:
        why = "another program (another copy of the bot?) holds it locked"
    elif "readonly" in text or "read-only" in text:
        why = "it is read-only; the bot needs to write to it and to its folder"
    elif os.path.exists(path) and not os.access(path, os.R_OK):
        why = "it is not readable by this user"
    elif "unable to open" in text:
        why = "it cannot be opened or created here (check the path and the folder's permissions)"
    else:
        why = f"sqlite says: {exc}"
    return StorageOpenError(f"The database {path} cannot be used: {why}.")


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(slots=True)
class SessionRow:
    """One stored session; ``actions`` (``(seat, action key)`` in log order) only when asked for."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    host_id: int
    lang: str
    status: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    seed: str | None
    rules_version: int
    created_at: float
    started_at: float | None
    ended_at: float | None
    messages: dict[str, Any]
    end_reason: str | None
    pace: str = "none"
    pictures: bool = True
    #: When the retention prune deleted the action log of this ended session (None: it is kept).
    moves_pruned_at: float | None = None
    actions: list[tuple[int, str]] = field(default_factory=list)


_SESSION_COLUMNS = (
    "id, guild_id, channel_id, game, host_id, lang, status, options, seats, seed, rules_version, "
    "created_at, started_at, ended_at, messages, end_reason, pace, pictures, moves_pruned_at"
)


def _session_row(row: Sequence[Any]) -> SessionRow:
    return SessionRow(
        id=row[0], guild_id=row[1], channel_id=row[2], game=row[3], host_id=row[4], lang=row[5],
        status=row[6], options=json.loads(row[7]), seats=json.loads(row[8]), seed=row[9],
        rules_version=row[10], created_at=row[11], started_at=row[12], ended_at=row[13],
        messages=json.loads(row[14]), end_reason=row[15], pace=row[16], pictures=bool(row[17]),
        moves_pruned_at=row[18],
    )


async def _probe_write(driver: SqliteDriver) -> None:
    """A write rolled back at once, so a read-only file shows at start-up, not at the first move."""
    db = driver.db
    async with db.execute("PRAGMA user_version") as cur:
        (version,) = await cur.fetchone() or (0,)
    async with driver.lock:
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(f"PRAGMA user_version = {int(version)}")
        finally:
            await db.execute("ROLLBACK")


async def _open_reader(driver: SqliteDriver, path: str | Any) -> None:
    """A second connection for the result reads, when WAL lets it read beside the writer."""
    if str(await driver.pragma("journal_mode")).lower() != "wal":
        return
    reader = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        await reader.execute("PRAGMA query_only=ON")
        await reader.execute("PRAGMA busy_timeout=5000")
    except BaseException:
        await reader.close()
        raise
    driver.read = reader


def live_sessions_sql(dialect: Dialect) -> str:
    """The live sessions, read through their partial index (migration 5): never a finished session."""
    return (f"SELECT {_SESSION_COLUMNS} FROM sessions {dialect.live_index}"
            "WHERE status IN ('lobby', 'playing') ORDER BY id")


def seated_sql(dialect: Dialect) -> str:
    """The first live session holding ``:user`` as host, at a seat, or behind a replaced seat."""
    return (f"SELECT game, channel_id, seats FROM sessions s {dialect.live_index}"
            f"WHERE status IN ('lobby', 'playing') AND (host_id = :user OR {dialect.seat_of_user}) "
            "ORDER BY id LIMIT 1")


def _seated(rows: Sequence[Any], user_id: int) -> Seated | None:
    if not rows:
        return None
    game, channel_id, seats = rows[0]
    return Seated(game, channel_id, all(seat.get("user_id") != user_id for seat in json.loads(seats)))


def live_actions_sql(sessions: int) -> str:
    """The action logs of ``sessions`` given session ids, by primary key, in log order."""
    marks = ", ".join("?" * sessions)
    return f"SELECT session_id, seat, action FROM actions WHERE session_id IN ({marks}) ORDER BY session_id, seq"


def _in_shards(sql: str, params: tuple[Any, ...], shards: Shards) -> tuple[str, tuple[Any, ...]]:
    """Narrow a timer query (ending in its WHERE clause) to the timers of sessions in ``shards``'s guilds."""
    condition, more = shards.sql("sessions.guild_id")     # one primary-key look-up per timer
    return (f"{sql} AND EXISTS (SELECT 1 FROM sessions WHERE sessions.id = timers.session_id AND {condition})",
            (*params, *more))


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What ``forget_user`` made anonymous."""

    results: int
    sessions: int


@dataclass(frozen=True, slots=True)
class TimerRow:
    id: int
    session_id: int
    kind: str
    due: float
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    wins: int
    games: int
    win_rate: float


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """One finished match a person played, as ``/replay`` lists it: their own place, score and win, and
    everyone's seats as stored (a forgotten person's name is empty)."""

    id: int
    game: str
    ended_at: float
    seats: list[dict[str, Any]]
    rank: int | None
    score: int | None
    won: bool


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    games: int
    wins: int
    win_rate: float
    last_played: float


class Storage:
    """Open with ``await Storage.open(url_or_path)`` (``":memory:"`` for tests); ``await close()``."""

    def __init__(self, driver: SqliteDriver | PostgresDriver, path: str = ":memory:") -> None:
        self._sql = driver
        self.dialect = driver.dialect
        #: Where the database is, fit to print (a PostgreSQL URL without its password).
        self.path = path
        #: The fault of the episode under way (logged when it began), ``None`` while writes work.
        self.fault: str | None = None

    # -- lifecycle -------------------------------------------------------------------------------
    @classmethod
    async def open(cls, path: str | Any, *, busy_timeout: float | None = None) -> Storage:
        """Open (creating and migrating) the database: a ``database_url`` (``sqlite:///…``,
        ``postgresql://…``) or a plain SQLite path; ``StorageOpenError`` says what is wrong."""
        try:
            url = parse_url(str(path))
        except ValueError as exc:
            raise StorageOpenError(f"The database URL cannot be used: {exc}.") from None
        if url.postgresql:
            driver = await connect_postgres(url)
            storage = cls(driver, url.shown)
            try:
                await storage._migrate()
            except BaseException as exc:
                await driver.close()
                if isinstance(exc, PostgresDriver.faults) and not isinstance(exc, INTEGRITY_ERRORS):
                    raise postgres_open_error(url, exc) from None
                raise
            return storage
        return await cls._open_sqlite(url.path, busy_timeout)

    @classmethod
    async def _open_sqlite(cls, path: str, busy_timeout: float | None) -> Storage:
        timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        try:
            # A plain open first: aiosqlite leaves its thread behind when opening fails.
            sqlite3.connect(path).close()
        except sqlite3.Error as exc:
            raise _open_error(path, exc) from None
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.execute("PRAGMA foreign_keys=ON")
            # What is deleted or overwritten (a forgotten name) is zeroed, not left in free space.
            await db.execute("PRAGMA secure_delete=ON")
            driver = SqliteDriver(db)
            storage = cls(driver, path)
            await storage._migrate()
            await _probe_write(driver)
            await _open_reader(driver, path)
        except BaseException as exc:
            await db.close()
            if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                raise _open_error(path, exc) from None
            raise
        return storage

    async def close(self) -> None:
        await self._sql.close()

    async def pragma(self, name: str) -> Any:
        """Read one SQLite PRAGMA (``journal_mode``, ``synchronous``, ``foreign_keys``): diagnostics."""
        if not name.replace("_", "").isalpha():
            raise ValueError(name)
        return await self._sql.pragma(name)

    async def schema_version(self) -> int:
        async with self._sql.alone() as db:
            row = await db.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0])

    async def _migrate(self) -> None:
        async with self._sql.migrating():
            await self._sql.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            current = await self.schema_version()
            if current > LATEST:
                raise StorageOpenError(
                    f"The database {self.path} was written by a newer version of Spieltisch (schema {current}; "
                    f"this version knows up to {LATEST}), so it refuses to touch it: update the bot."
                )
            for version, name, statements in self.dialect.migrations:
                if version <= current:
                    continue
                async with self._sql.transaction() as db:
                    # Re-check inside the write transaction: another process may have migrated meanwhile.
                    if await db.fetchone("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)):
                        continue
                    for statement in statements:
                        await db.execute(statement)
                    await db.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                        (version, name, datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")),
                    )

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """A write's outcome: a broken rule as the driver raised it, any other refusal a
        ``StorageFault`` (logged once per episode), and a write that worked ends an episode."""
        try:
            yield
        except INTEGRITY_ERRORS:
            raise
        except self._sql.faults as exc:
            raise self._faulted(exc) from exc
        self._wrote()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[SqliteRun | PostgresRun]:
        """A write of several statements: all committed, or ``StorageFault`` and none."""
        with self._writing():
            async with self._sql.transaction() as db:
                yield db

    async def _write1(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed on its own (autocommit); the rows it changed."""
        with self._writing():
            return await self._sql.execute(sql, params)

    async def _fetchall(self, sql: str, params: Sequence[Any] | dict[str, Any] = (), *, reader: bool = False,
                        ) -> list[Any]:
        """A read of one statement on the writer's connection (``SqliteDriver.fetchall``), or with ``reader``
        on the reader of the result queries; a pooled connection on PostgreSQL. A database that cannot be read
        (the server gone) is a ``StorageFault`` too, of the same episode as the writes'."""
        async with self._read_faults():
            if reader:
                return await self._sql.fetch_read(sql, params)
            return await self._sql.fetchall(sql, params)

    @asynccontextmanager
    async def _read_faults(self) -> AsyncIterator[None]:
        try:
            yield
        except self._sql.faults as exc:
            raise self._faulted(exc) from exc

    def _faulted(self, exc: BaseException) -> StorageFault:
        """The ``StorageFault`` for a failed write, logged when an episode of faults begins (and not
        again until a write has worked)."""
        why = redact(str(exc)) or type(exc).__name__
        if self.fault is None:
            log.error("the database %s refuses writes (%s); every change is refused until it takes them again",
                      self.path, why)
        self.fault = why
        return StorageFault(why)

    def _wrote(self) -> None:
        if self.fault is not None:
            log.info("the database %s takes writes again (after: %s)", self.path, self.fault)
            self.fault = None

    # -- sessions --------------------------------------------------------------------------------
    async def create_session(
        self, *, guild_id: int, channel_id: int, game: str, host_id: int, lang: str,
        options: dict[str, Any], seats: list[dict[str, Any]], rules_version: int, created_at: float,
        messages: dict[str, Any] | None = None, timer: tuple[str, float] | None = None,
        pace: str = "none", pictures: bool = True,
    ) -> int:
        """Insert a lobby (with its first timer ``(kind, due)``, in the same transaction) and return
        its id; ``ChannelBusy`` if the channel has a live session."""
        try:
            async with self._transaction() as db:
                session_id = await db.insert(
                    "INSERT INTO sessions (guild_id, channel_id, game, host_id, lang, status, options, seats, "
                    "rules_version, created_at, messages, pace, pictures) "
                    "VALUES (?, ?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, host_id, lang, _dump(options), _dump(seats), rules_version,
                     created_at, _dump(messages or {}), pace, pictures),
                )
                if timer is not None:
                    await db.execute("INSERT INTO timers (session_id, kind, due, payload) VALUES (?, ?, ?, '{}')",
                                     (session_id, *timer))
        except INTEGRITY_ERRORS as exc:
            if "channel_id" in str(exc) or "sessions_live_channel" in str(exc):
                raise ChannelBusy(channel_id) from None
            raise
        return session_id

    _UPDATABLE = frozenset({"host_id", "lang", "options", "seats", "messages", "pace", "pictures"})

    async def update_session(self, session_id: int, **fields: Any) -> None:
        """Change lobby fields (``host_id``, ``lang``, ``options``, ``pace``, ``pictures``), ``seats`` or
        ``messages``."""
        unknown = set(fields) - self._UPDATABLE
        if unknown or not fields:
            raise ValueError(f"cannot update {sorted(unknown) or 'nothing'}")
        names = sorted(fields)
        values = [_dump(fields[n]) if isinstance(fields[n], dict | list) else fields[n] for n in names]
        if await self._write1(
            f"UPDATE sessions SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?",
            (*values, session_id),
        ) != 1:
            raise SessionGone(session_id)

    async def start_session(
        self, session_id: int, *, seats: list[dict[str, Any]], seed: str, started_at: float
    ) -> None:
        if await self._write1(
            "UPDATE sessions SET status = 'playing', seats = ?, seed = ?, started_at = ? "
            "WHERE id = ? AND status = 'lobby'",
            (_dump(seats), seed, started_at, session_id),
        ) != 1:
            raise SessionGone(session_id)

    async def append_action(self, session_id: int, seq: int, seat: int, action: str, at: float) -> None:
        """The hot path: one INSERT, committed by itself."""
        await self._write1(
            "INSERT INTO actions (session_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (session_id, seq, seat, action, at),
        )

    async def end_session(
        self, session_id: int, status: Status, *, ended_at: float, reason: str | None = None,
        results: Iterable[ResultRow] = (), action: tuple[int, int, str, float] | None = None,
    ) -> None:
        """End a live session in one transaction: the last action ``(seq, seat, key, at)`` if any,
        the result rows (a finished match's marked with the server's current season), the new status,
        a finished match's rating update; its timers go with it."""
        if status not in ENDED:
            raise ValueError(status)
        async with self._transaction() as db:
            if action is not None:
                await db.execute(
                    "INSERT INTO actions (session_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
                    (session_id, *action),
                )
            if await db.execute(
                "UPDATE sessions SET status = ?, ended_at = ?, end_reason = ? "
                "WHERE id = ? AND status IN ('lobby', 'playing')",
                (status, ended_at, reason, session_id),
            ) != 1:
                raise SessionGone(session_id)
            results = list(results)
            if results and status == Status.FINISHED:     # it counts for the season current as it ends
                season = await seasons.settle(db, results[0].guild_id, ended_at)
                if season is not None:
                    results = [replace(r, season=season.id) for r in results]
            rows = [r.values() for r in results]
            if rows:
                await db.executemany(
                    f"INSERT INTO results ({COLUMNS}) VALUES ({', '.join('?' * len(COLUMNS.split(',')))})", rows
                )
            if status == Status.FINISHED:
                await ratings_store.apply_match(db, results)
            await db.execute("DELETE FROM timers WHERE session_id = ?", (session_id,))

    async def session(self, session_id: int, *, with_actions: bool = False) -> SessionRow | None:
        rows = await self._fetchall(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            return None
        row = rows[0]
        out = _session_row(row)
        if with_actions:
            out.actions = await self.actions(session_id)
        return out

    async def actions(self, session_id: int) -> list[tuple[int, str]]:
        """The action log of one session, ``(seat, key)`` in order."""
        rows = await self._fetchall("SELECT seat, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,))
        return [(seat, action) for seat, action in rows]

    async def timed_actions(self, session_id: int) -> list[tuple[int, str, float]]:
        """The action log of one session with each move's time, ``(seat, key, at)`` in order."""
        rows = await self._fetchall("SELECT seat, action, at FROM actions WHERE session_id = ? ORDER BY seq",
                                    (session_id,))
        return [(seat, action, at) for seat, action, at in rows]

    async def prune_actions(self, before: float, *, now: float, batch: int = 100) -> tuple[int, int]:
        """Delete the action logs of up to ``batch`` finished or stopped matches that ended before
        ``before`` (the oldest first) and mark those sessions pruned at ``now``, in one short
        transaction: ``(sessions, actions)`` deleted; fewer than ``batch`` sessions means no more are
        left. The session rows, results and ratings stay; live sessions are never touched."""
        async with self._transaction() as db:
            found = await db.fetchall(
                "SELECT id FROM sessions WHERE moves_pruned_at IS NULL AND ended_at < ? "
                "AND status IN ('finished', 'stopped') ORDER BY ended_at LIMIT ?", (before, batch))
            ids = [session_id for (session_id,) in found]
            if not ids:
                return 0, 0
            marks = ", ".join("?" * len(ids))
            actions = await db.execute(f"DELETE FROM actions WHERE session_id IN ({marks})", ids)
            await db.execute(f"UPDATE sessions SET moves_pruned_at = ? WHERE id IN ({marks})", (now, *ids))
        return len(ids), actions

    async def live_sessions(self) -> list[SessionRow]:
        """Every lobby and game in progress with its action log."""
        return [row async for row in self.iter_live_sessions()]

    async def iter_live_sessions(self, batch: int = 50, *, shards: Shards | None = None) -> AsyncIterator[SessionRow]:
        """The live sessions with their action logs, ``batch`` sessions at a time, for the rebuild.

        Sessions come from the index of live sessions and logs by primary key, so the cost does not
        grow with finished matches; only one batch of logs is held at a time, and no statement is
        open while the caller works (it may end a session it cannot rebuild). With ``shards``, only
        the sessions in those shards' guilds.
        """
        sql = live_sessions_sql(self.dialect)
        params: tuple[Any, ...] = ()
        if shards is not None:
            condition, params = shards.sql("guild_id")
            sql = sql.replace(" ORDER BY", f" AND {condition} ORDER BY")
        waiting = deque(_session_row(row) for row in await self._fetchall(sql, params))
        while waiting:
            group = {row.id: row for row in (waiting.popleft() for _ in range(min(batch, len(waiting))))}
            for session_id, seat, action in await self._fetchall(live_actions_sql(len(group)), tuple(group)):
                group[session_id].actions.append((seat, action))
            for row in group.values():
                yield row

    async def results(self, session_id: int) -> list[ResultRow]:
        rows = await self._fetchall(
            f"SELECT {COLUMNS} FROM results WHERE session_id = ? ORDER BY seat", (session_id,), reader=True,
        )
        return [result_row(r) for r in rows]

    # -- timers ----------------------------------------------------------------------------------
    async def set_timer(self, session_id: int, kind: str, due: float, payload: dict[str, Any]) -> int:
        """Insert or replace the timer ``(session_id, kind)``; a replaced timer gets a new id."""
        with self._writing():
            return await self._sql.insert(self.dialect.set_timer, (session_id, kind, due, _dump(payload)))

    async def delete_timer(self, session_id: int, kind: str) -> None:
        await self._write1("DELETE FROM timers WHERE session_id = ? AND kind = ?", (session_id, kind))

    async def delete_timer_id(self, timer_id: int) -> None:
        await self._write1("DELETE FROM timers WHERE id = ?", (timer_id,))

    async def due_timers(self, now: float, limit: int = 100, *, shards: Shards | None = None) -> list[TimerRow]:
        """The timers due by ``now``; with ``shards``, only those of sessions in their guilds."""
        sql, params = "SELECT id, session_id, kind, due, payload FROM timers WHERE due <= ?", (now,)
        if shards is not None:
            sql, params = _in_shards(sql, params, shards)
        rows = await self._fetchall(f"{sql} ORDER BY due, id LIMIT ?", (*params, limit))
        return [TimerRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def timers(self) -> list[TimerRow]:
        rows = await self._fetchall("SELECT id, session_id, kind, due, payload FROM timers ORDER BY due, id")
        return [TimerRow(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows]

    async def next_timer_due(self, *, shards: Shards | None = None) -> float | None:
        sql, params = "SELECT MIN(due) FROM timers", ()
        if shards is not None:
            sql, params = _in_shards(f"{sql} WHERE TRUE", params, shards)
        rows = await self._fetchall(sql, params)
        return rows[0][0] if rows else None

    # -- results ---------------------------------------------------------------------------------
    async def leaderboard(
        self, guild_id: int, game: str | None, *, include_computer_matches: bool = False, limit: int = 10,
        user_id: int | None = None, season: int | None = None,
    ) -> Leaderboard[BoardRow]:
        """Players of one guild (and game, or all games for ``None``) ranked by wins, then win rate;
        with ``season``, only the matches of that season.

        A shared win counts as a win; stopped matches never count; matches with computer players
        count only when asked for. ``me`` is the caller's row wherever it ranks.
        """
        wins, games = ("wins", "games") if include_computer_matches else ("human_wins", "human_games")
        # Per game the planner walks the board index for each use of ``per``; across all games the
        # sums are worked out once.
        hint = "MATERIALIZED" if game is None else "NOT MATERIALIZED"
        real = self.dialect.real
        if season is not None:      # a season's rows, through their own index (migration 7)
            per = ("SELECT user_id, SUM(won) AS w, COUNT(*) AS g FROM results WHERE season = :season "
                   f"AND stopped = 0 AND user_id IS NOT NULL {'' if game is None else 'AND game = :game '}"
                   f"{'' if include_computer_matches else 'AND with_computers = 0 '}GROUP BY user_id")
            hint = "MATERIALIZED"
        elif game is None:
            per = (f"SELECT user_id, SUM({wins}) AS w, SUM({games}) AS g FROM player_totals "
                   f"WHERE guild_id = :guild GROUP BY user_id HAVING SUM({games}) > 0")
        else:   # one game: the top rows are the first entries of the board index (migration 3)
            per = (f"SELECT user_id, {wins} AS w, {games} AS g FROM player_totals "
                   f"WHERE guild_id = :guild AND game = :game AND {games} > 0")
        # One statement, so the top rows and the caller's rank come from the same snapshot. The
        # caller's rank counts the players strictly ahead; the top rows' ranks follow from their order.
        sql = f"""
            WITH per AS {hint} ({per}),
            top AS (SELECT user_id, w, g FROM per ORDER BY w DESC, CAST(w AS {real}) / g DESC, g DESC, user_id
                    LIMIT :limit),
            mine AS (SELECT user_id, w, g FROM per WHERE user_id = :user),
            shown AS (SELECT * FROM (SELECT 0 AS mine, user_id, w, g, CAST(NULL AS INTEGER) AS ahead FROM top) t
                      UNION ALL
                      SELECT 1, user_id, w, g,
                             (SELECT COUNT(*) FROM per p WHERE p.w > m.w
                              OR (p.w = m.w AND CAST(p.w AS {real}) / p.g > CAST(m.w AS {real}) / m.g))
                      FROM mine m)
            SELECT mine, user_id, w, g, ahead,
                   (SELECT name FROM results x WHERE x.guild_id = :guild AND x.user_id = shown.user_id
                    ORDER BY x.ended_at DESC LIMIT 1)
            FROM shown
        """
        params = {"guild": guild_id, "game": game, "limit": limit, "user": user_id, "season": season}
        fetched = await self._fetchall(sql, params, reader=True)
        rows: list[BoardRow] = []
        me: BoardRow | None = None
        for mine, uid, won, played, ahead, name in fetched:
            rate = won / played
            if mine:
                me = BoardRow(ahead + 1, uid, name, won, played, rate)
                continue
            tied = bool(rows) and (rows[-1].wins, rows[-1].win_rate) == (won, rate)
            rows.append(BoardRow(rows[-1].rank if tied else len(rows) + 1, uid, name, won, played, rate))
        return Leaderboard(tuple(rows), me)

    async def most_played_game(self, guild_id: int, *, season: int | None = None) -> str | None:
        """The game with the most matches ended with a result in this guild, or in one ``season`` of it
        (newest wins ties)."""
        if season is not None:
            async with self._read_faults(), self._sql.alone() as db:
                played = await seasons.games_played(db, season)
            return played[0] if played else None
        rows = await self._fetchall(
            "SELECT game FROM game_totals WHERE guild_id = ? AND matches > 0 "
            "ORDER BY matches DESC, last_ended DESC, game LIMIT 1",
            (guild_id,), reader=True,
        )
        return rows[0][0] if rows else None

    async def played_matches(self, guild_id: int, user_id: int, limit: int = 25) -> list[PlayedMatch]:
        """The newest finished matches of one guild that ``user_id`` played (the results index by guild,
        person and end), newest first."""
        rows = await self._fetchall(
            "SELECT s.id, s.game, r.ended_at, s.seats, r.rank, r.score, r.won FROM results r "
            "JOIN sessions s ON s.id = r.session_id "
            "WHERE r.guild_id = ? AND r.user_id = ? AND r.stopped = 0 AND s.status = 'finished' "
            "ORDER BY r.ended_at DESC, s.id DESC LIMIT ?",
            (guild_id, user_id, limit), reader=True,
        )
        return [PlayedMatch(match, game, ended, json.loads(seats), rank, score, bool(won))
                for match, game, ended, seats, rank, score, won in rows]

    async def stats(self, guild_id: int, user_id: int, *, season: int | None = None) -> list[GameStats]:
        """Per game: matches with a result, wins, win rate, last played; most played first. With
        ``season``, only the matches of that season."""
        if season is not None:
            rows = await self._fetchall(
                "SELECT game, COUNT(*), SUM(won), MAX(ended_at) FROM results WHERE season = ? AND user_id = ? "
                "AND stopped = 0 GROUP BY game ORDER BY COUNT(*) DESC, game", (season, user_id), reader=True)
            return [GameStats(game, games, wins, wins / games, last) for game, games, wins, last in rows]
        rows = await self._fetchall(
            "SELECT game, games, wins, last_ended FROM player_totals "
            "WHERE guild_id = ? AND user_id = ? ORDER BY games DESC, game",
            (guild_id, user_id), reader=True,
        )
        return [GameStats(game, games, wins, wins / games, last) for game, games, wins, last in rows]

    # -- data protection -------------------------------------------------------------------------
    async def seated(self, user_id: int) -> Seated | None:
        """The live table, of any process, that holds ``user_id`` (``forget_user`` checks again)."""
        return _seated(await self._fetchall(seated_sql(self.dialect), {"user": user_id}), user_id)

    async def forget_user(self, user_id: int) -> Forgotten:
        """Remove a person's id and name from every result row and every ended session, in one
        transaction: their own seats, and the seats a computer player took over from them, which carry
        their name ("🤖 Bob"). The rows stay, anonymous (``user_id`` NULL, name empty), so everyone
        else's records hold; an anonymous row ranks for nobody. The running totals and the ratings
        (derived from the results) lose the person's lines.

        A person at a live table of any process is refused with ``StillSeated`` before anything is
        written: that game's seats are in another process's memory and its result rows are still to
        come. The check comes first, so on PostgreSQL (each statement sees what was committed before
        it) a game that ended meanwhile has its result rows visible to the updates after it."""
        async with self._transaction() as db:
            seated = _seated(await db.fetchall(seated_sql(self.dialect), {"user": user_id}), user_id)
            if seated is not None:
                raise StillSeated(seated)
            results = await db.execute("UPDATE results SET user_id = NULL, name = '' WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM player_totals WHERE user_id = ?", (user_id,))
            await ratings_store.forget_user(db, user_id)
            found = await db.fetchall(
                "SELECT id, host_id, seats FROM sessions s WHERE status NOT IN ('lobby', 'playing') AND "
                f"(host_id = :user OR {self.dialect.seat_of_user})", {"user": user_id},
            )
            for session_id, host_id, seats in found:
                anonymous = []
                for index, seat in enumerate(json.loads(seats)):
                    if seat.get("user_id") == user_id:
                        seat = {**seat, "user_id": None, "name": ""}
                    elif seat.get("replaced") == user_id:
                        seat = {**seat, "replaced": None, "name": ""}
                        results += await db.execute(
                            "UPDATE results SET name = '' WHERE session_id = ? AND seat = ? AND user_id IS NULL",
                            (session_id, index))
                    anonymous.append(seat)
                await db.execute("UPDATE sessions SET host_id = ?, seats = ? WHERE id = ?",
                                 (0 if host_id == user_id else host_id, _dump(anonymous), session_id))
        try:
            await self._sql.scrub()
        except self._sql.faults as exc:     # forgotten all the same: the log is overwritten in time
            log.warning("after a forgetting, the write-ahead log was not emptied: %s", redact(str(exc)))
        return Forgotten(results=results, sessions=len(found))

    # -- the coach's reviews (bot/coach/) ---------------------------------------------------------
    async def review(self, session_id: int, seat: int) -> dict[str, Any] | None:
        """The stored review of one seat of a finished match, or None."""
        rows = await self._fetchall("SELECT review FROM reviews WHERE session_id = ? AND seat = ?", (session_id, seat))
        return json.loads(rows[0][0]) if rows else None

    async def save_review(self, session_id: int, seat: int, review: dict[str, Any], at: float) -> None:
        """Keep a finished review (a second one of the same seat replaces the first)."""
        await self._write1("INSERT INTO reviews (session_id, seat, review, made_at) VALUES (?, ?, ?, ?) "
                           "ON CONFLICT (session_id, seat) DO UPDATE SET review = excluded.review, "
                           "made_at = excluded.made_at", (session_id, seat, _dump(review), at))

    # -- what the bot remembers about itself -----------------------------------------------------
    async def remembered(self, key: str) -> str | None:
        rows = await self._fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def remember(self, key: str, value: str) -> None:
        await self._write1("INSERT INTO meta (key, value) VALUES (?, ?) "
                           "ON CONFLICT (key) DO UPDATE SET value = excluded.value", (key, value))

    # -- ratings (bot/storage/ratings.py, SQL in bot/storage/ratings_store.py) -----------------------------------
    async def rating_board(
        self, guild_id: int, game: str, *, include_computers: bool = False, limit: int = 10,
        user_id: int | None = None, season: int | None = None,
    ) -> Leaderboard[RatingRow]:
        """One guild's ratings (or one ``season``'s) in one game: established players by rating,
        provisional ones below; computer levels only when asked for. ``me`` is the caller's row
        wherever it ranks."""
        async with self._read_faults(), self._sql.alone() as db:
            if season is not None:
                return await ratings_store.board(db, season, game, computers=include_computers, limit=limit,
                                                 user_id=user_id, scope=SEASON)
            return await ratings_store.board(db, guild_id, game, computers=include_computers, limit=limit,
                                             user_id=user_id)

    async def rating_trends(self, guild_id: int, user_id: int, *, season: int | None = None,
                            ) -> dict[str, RatingTrend]:
        """Per game: a player's rating and its change over their latest rated games (in a ``season``:
        the season's rating, without a change)."""
        async with self._read_faults(), self._sql.alone() as db:
            if season is not None:
                return await ratings_store.season_ratings(db, season, user_id)
            return await ratings_store.trends(db, guild_id, user_id)

    async def rating_changes(self, session_id: int) -> dict[int, tuple[float, float]]:
        """Per seat of a finished match, its rating before and after it (seats rated at all)."""
        async with self._read_faults(), self._sql.alone() as db:
            return await ratings_store.match_changes(db, session_id)

    async def rebuild_ratings(self) -> tuple[int, int]:
        """Recompute every rating, all-time and per season, from the result rows in one transaction:
        (matches, all-time ratings). It holds
        the write lock throughout (about 45 s per million result rows), so it is meant for
        ``python -m bot rebuild-ratings`` while the bot is stopped."""
        async with self._transaction() as db:
            return await ratings_store.Rebuild().run(db)

    # -- seasons (SQL in bot/storage/seasons.py) -------------------------------------------------
    async def current_season(self, guild_id: int, now: float) -> Season | None:
        """The server's season current at ``now`` (a monthly one whose month is over is not: the next
        month's begins with the next write, ``roll_seasons`` or a match's end)."""
        async with self._read_faults(), self._sql.alone() as db:
            season = await seasons.current(db, guild_id)
        return None if season is None or (season.until is not None and season.until <= now) else season

    async def seasons(self, guild_id: int) -> list[Season]:
        """A server's seasons, the newest first."""
        async with self._read_faults(), self._sql.alone() as db:
            return await seasons.seasons(db, guild_id)

    async def change_season(self, guild_id: int, mode: str | None, *, name: str | None = None,
                            channel_id: int | None = None, now: float) -> Changed:
        """``/season`` in one transaction (``SeasonRefused`` changes nothing); an ended season's post is
        owed from then on. Two changes at one moment: the database keeps one current season per
        server, and the later change is refused."""
        try:
            async with self._transaction() as db:
                return await seasons.change(db, guild_id, mode, name, channel_id, now)
        except INTEGRITY_ERRORS:
            raise SeasonRefused("seasons.refused_busy") from None

    async def roll_seasons(self, now: float, *, shards: Shards | None = None) -> int:
        """End every monthly season (of ``shards``' servers) whose month is over and begin the next,
        each in a transaction of its own; returns how many this process ended (others' count not)."""
        async with self._read_faults(), self._sql.alone() as db:
            due = await seasons.due_guilds(db, now, shards)
        rolled = 0
        for guild_id in due:
            async with self._transaction() as db:
                rolled += (await seasons.roll(db, guild_id, now))[1]
        return rolled

    async def next_season_due(self, *, shards: Shards | None = None) -> float | None:
        """When a monthly season (of ``shards``' servers) ends next, or an owed post may be taken."""
        async with self._read_faults(), self._sql.alone() as db:
            return await seasons.next_due(db, shards)

    async def claim_season_posts(self, now: float, lease: float, *, shards: Shards | None = None) -> list[Season]:
        """The ended seasons whose post this process takes now (each for ``lease`` seconds)."""
        async with self._transaction() as db:
            return await seasons.claim_posts(db, now, lease, shards)

    async def season_posted(self, season_id: int) -> None:
        """The season's end was posted (or cannot be): no process posts it again."""
        await self._write1("UPDATE seasons SET post_due = NULL WHERE id = ?", (season_id,))

    async def season_games(self, season_id: int) -> list[str]:
        """The games played in a season, the most played first."""
        async with self._read_faults(), self._sql.alone() as db:
            return await seasons.games_played(db, season_id)
