"""The two databases behind ``bot.storage.store.Storage``: SQLite (aiosqlite) and PostgreSQL (asyncpg).

``Storage`` writes its SQL once, with ``?`` or ``:name`` placeholders; a driver runs it. The few
statements the dialects spell differently are chosen in ``Dialect``, in one place. A driver offers
single statements committed on their own (SQLite: autocommit on the one writer connection under a
lock; PostgreSQL: any connection of the pool), a transaction, reads, and the separate reader of the
result queries (SQLite: a second, read-only connection in WAL mode; PostgreSQL: the pool). Which
errors are a refused write (``faults``) and which a broken rule (``INTEGRITY_ERRORS``) is the
driver's to say. A ``database_url`` is ``sqlite:///PATH`` or ``postgresql://USER:PASSWORD@HOST:PORT/NAME``;
a plain path means SQLite. Nothing here ever shows a password (``redact``).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

import aiosqlite
import asyncpg

from bot.storage import migrations

INTEGRITY_ERRORS: tuple[type[Exception], ...] = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

#: Connections the PostgreSQL pool opens at most per process.
POOL_SIZE = 10
#: Seconds a PostgreSQL statement waits for a lock held by another connection (SQLite: ``busy_timeout``).
LOCK_TIMEOUT = 5.0


class StorageError(Exception):
    """Base of the errors the storage raises on purpose."""


class StorageFault(StorageError):
    """The database did not take a write (locked, full, read-only, I/O, server gone); nothing was written."""


class StorageOpenError(StorageError):
    """The database cannot be used at all; the message is one sentence for whoever runs the bot."""


# -- URLs ------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A parsed ``database_url``: ``path`` for SQLite, ``dsn`` for PostgreSQL; ``shown`` is safe to print."""

    scheme: str             # "sqlite" or "postgresql"
    path: str = ""
    dsn: str = ""
    shown: str = ""
    host: str = ""
    port: int = 5432
    name: str = ""

    @property
    def postgresql(self) -> bool:
        return self.scheme == "postgresql"


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***``."""
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)


def parse_url(url: str) -> DatabaseUrl:
    """``sqlite:///PATH``, ``postgresql://…`` (or ``postgres://…``), or a plain SQLite path; ``ValueError``
    with one sentence (no password in it) for anything else."""
    text = str(url).strip()
    if not text:
        raise ValueError("the database URL is empty")
    if "://" not in text:
        return DatabaseUrl("sqlite", path=text, shown=text)
    scheme = text.split("://", 1)[0].lower()
    if scheme == "sqlite":
        path = text[len("sqlite:///"):] if text.lower().startswith("sqlite:///") else ""
        if not path:
            raise ValueError(f"{text} names no file: write sqlite:///PATH (sqlite:///spieltisch.sqlite3)")
        return DatabaseUrl("sqlite", path=path, shown=path)
    if scheme not in ("postgresql", "postgres"):
        raise ValueError(f"{redact(text)} is neither sqlite:///PATH nor postgresql://USER@HOST/DATABASE")
    try:
        parts = urlsplit(text)
        port = parts.port or 5432
    except ValueError:
        raise ValueError(f"{redact(text)} is not a valid postgresql:// URL (check the host and port)") from None
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ValueError(f"{redact(text)} names no database: write postgresql://USER@HOST/DATABASE")
    host = unquote(parts.hostname or "") or "localhost"
    return DatabaseUrl("postgresql", dsn=text, shown=redact(text), host=host, port=port, name=name)


# -- what the dialects spell differently ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Dialect:
    name: str
    migrations: tuple[tuple[int, str, tuple[str, ...]], ...]
    #: The floating type of a ratio (SQLite's expression indexes match ``CAST(x AS REAL)`` only).
    real: str
    #: How the live sessions are read through their partial index.
    live_index: str
    #: Insert or replace the timer ``(session_id, kind)``: a replaced timer gets a new id.
    set_timer: str
    #: True when the JSON seats of session ``s`` hold a seat of ``:user``, or a seat a computer player
    #: took over from them (``replaced``, bot/play/seats.py).
    seat_of_user: str
    #: After rows were copied in with their ids (bot/ops/copy_database.py): new ids come after them.
    after_copy: tuple[str, ...] = ()


SQLITE = Dialect(
    "sqlite", migrations.MIGRATIONS, "REAL", "INDEXED BY sessions_live ",
    "INSERT OR REPLACE INTO timers (session_id, kind, due, payload) VALUES (?, ?, ?, ?)",
    "EXISTS (SELECT 1 FROM json_each(s.seats) WHERE json_extract(value, '$.user_id') = :user "
    "OR json_extract(value, '$.replaced') = :user)",
)
POSTGRESQL = Dialect(
    "postgresql", migrations.POSTGRESQL_MIGRATIONS, "DOUBLE PRECISION", "",
    "INSERT INTO timers (session_id, kind, due, payload) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (session_id, kind) DO UPDATE SET id = DEFAULT, due = excluded.due, payload = excluded.payload",
    "EXISTS (SELECT 1 FROM json_array_elements(CAST(s.seats AS json)) AS seat (value) "
    "WHERE CAST(seat.value ->> 'user_id' AS BIGINT) = :user OR CAST(seat.value ->> 'replaced' AS BIGINT) = :user)",
    tuple(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}"
          for table in ("sessions", "timers", "seasons")),
)

_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?|(?<![:\w]):([A-Za-z_]\w*)")


@lru_cache(maxsize=512)
def _numbered(sql: str) -> tuple[str, tuple[str, ...]]:
    """``sql`` with ``?`` and ``:name`` turned into ``$1``, ``$2`` …, and the names in number order
    (a repeated name keeps its number)."""
    names: list[str] = []
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        text, name = match.group(0), match.group(1)
        if text.startswith("'"):
            return text
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    return _PLACEHOLDER.sub(number, sql), tuple(names)


def numbered(sql: str, params: Sequence[Any] | dict[str, Any]) -> tuple[str, Sequence[Any]]:
    """The statement and arguments asyncpg takes for ``sql`` written with ``?`` or ``:name``."""
    text, names = _numbered(sql)
    if isinstance(params, dict):
        return text, [params[name] for name in names]
    return text, params


def _rowcount(status: str) -> int:
    """The rows an asyncpg status line (``UPDATE 1``, ``INSERT 0 1``) says were touched."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


# -- SQLite -----------------------------------------------------------------------------------------
class SqliteRun:
    """Statements on one aiosqlite connection (looked up on the driver at each call)."""

    def __init__(self, driver: SqliteDriver) -> None:
        self._driver = driver

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        """The rows in one trip to aiosqlite's thread (a cursor, its rows and its closing were three,
        each a wait for the busy event loop while the connection's lock is held)."""
        return list(await self._driver.db.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        async with self._driver.db.execute(sql, params) as cur:
            return await cur.fetchone()

    async def execute(self, sql: str, params: Any = ()) -> int:
        cur = await self._driver.db.execute(sql, params)
        return cur.rowcount

    async def insert(self, sql: str, params: Any = ()) -> int:
        cur = await self._driver.db.execute(sql, params)
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._driver.db.executemany(sql, rows)

    async def iterate(self, sql: str, params: Any = ()) -> AsyncIterator[Any]:
        async with self._driver.db.execute(sql, params) as cur:
            async for row in cur:
                yield row


class Exclusive:
    """The writer connection's lock, held by whatever runs several statements on it (a transaction, a
    read and its fetch), which no other statement may come between; a single statement waits only
    while it is held (``free``), never in its queue. In the queue each single statement waited for
    the one before it to come back from aiosqlite's thread through the event loop: at a thousand
    tables (a move's INSERT, its ping's UPDATE, the computers' timers: 230 a second) one read in
    between started a queue that did not drain for hundreds of milliseconds, and it set the click
    latency's 99th percentile (docs/performance.md)."""

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self._free = asyncio.Event()
        self._free.set()

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        self._free.clear()

    async def __aexit__(self, *exc: object) -> None:
        self._free.set()
        self._lock.release()

    async def free(self) -> None:
        """Return once nobody holds the lock (at once when nobody does). Every waiter wakes together,
        before the lock's next holder can hand a statement to the thread."""
        while self._lock.locked():
            await self._free.wait()


class SqliteDriver:
    """One writer connection in autocommit mode, shared under ``lock``; writes of several statements run
    in ``BEGIN IMMEDIATE``. The result reads go through ``read`` (see ``bot.storage.store``)."""

    dialect = SQLITE
    faults: tuple[type[Exception], ...] = (sqlite3.Error,)

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self.read = db
        self.lock = Exclusive()
        self.run = SqliteRun(self)

    async def close(self) -> None:
        async with self.lock:
            if self.read is not self.db:
                await self.read.close()
            await self.db.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteRun]:
        """One ``BEGIN IMMEDIATE`` transaction under the write lock; rolled back on any error.

        The rollback is asked of aiosqlite's thread, which rolls back only a transaction still open
        once what it was handed before has run: a task cancelled while its COMMIT waited for the
        thread is cancelled, and its write saved (the COMMIT runs all the same). Asked whether a
        transaction was open before that, it sent a ROLLBACK that came after the COMMIT, and SQLite's
        "cannot rollback - no transaction is active" was raised, a write fault, instead."""
        async with self.lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.run
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.rollback()
                raise

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[SqliteRun]:
        """The writer's connection to oneself, for a read. A write between a read's ``execute`` and its
        fetch would run inside the read's snapshot, and once another process (another shard) has
        written since, SQLite refuses it at once with "database is locked"."""
        async with self.lock:
            yield self.run

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[None]:
        """Each migration's ``BEGIN IMMEDIATE`` already keeps other processes out."""
        yield

    async def execute(self, sql: str, params: Any = ()) -> int:
        """One statement, committed on its own (autocommit): the hot path."""
        return (await self._single(sql, params)).rowcount

    async def insert(self, sql: str, params: Any = ()) -> int:
        cur = await self._single(sql, params)
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        """A read of one statement on the writer's connection, its rows in the same trip to the thread:
        nothing can come between its execute and its fetch, so it waits, like a single write, only while
        the connection is held."""
        await self.lock.free()
        return list(await self.db.execute_fetchall(sql, params))

    async def _single(self, sql: str, params: Any) -> aiosqlite.Cursor:
        """One statement, handed to aiosqlite's thread once no transaction or read holds the
        connection (``lock``), in the same step: the thread runs what it is handed one after another,
        so two single statements never interleave and need not take turns."""
        await self.lock.free()
        return await self.db.execute(sql, params)

    async def fetch_read(self, sql: str, params: Any = ()) -> list[Any]:
        """A result read on the read-only connection, beside the writer."""
        async with self.read.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def pragma(self, name: str) -> Any:
        async with self.db.execute(f"PRAGMA {name}") as cur:
            row = await cur.fetchone()
        return row[0] if row else None

    async def scrub(self) -> None:
        """After a forgetting: copy the changed pages into the database file and empty the write-ahead
        log, whose older page images still hold what was forgotten (``secure_delete`` clears the
        file's free space, not the log's). A reader in the middle of a read (another process) can
        keep part of the log until SQLite overwrites it; the busy timeout bounds the wait."""
        async with self.lock, self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cur:
            await cur.fetchall()


# -- PostgreSQL -------------------------------------------------------------------------------------
class PostgresRun:
    """Statements on one pooled connection (a transaction's, or one borrowed for a read)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        return await self._conn.fetch(*_args(sql, params))

    async def fetchone(self, sql: str, params: Any = ()) -> Any:
        return await self._conn.fetchrow(*_args(sql, params))

    async def execute(self, sql: str, params: Any = ()) -> int:
        return _rowcount(await self._conn.execute(*_args(sql, params)))

    async def insert(self, sql: str, params: Any = ()) -> int:
        return await self._conn.fetchval(*_args(f"{sql} RETURNING id", params))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self._conn.executemany(numbered(sql, ())[0], rows)

    async def iterate(self, sql: str, params: Any = ()) -> AsyncIterator[Any]:
        text, args = numbered(sql, params)
        async for row in self._conn.cursor(text, *args):     # inside the caller's transaction
            yield row


def _args(sql: str, params: Any) -> tuple[Any, ...]:
    text, args = numbered(sql, params)
    return (text, *args)


#: The advisory lock that keeps two processes from migrating one database at once.
MIGRATION_LOCK = 0x5391E7


class PostgresDriver:
    """A pool of connections: every statement borrows one, a transaction keeps one to its end."""

    dialect = POSTGRESQL
    #: A connection the server cut in the middle of a statement can also leave asyncpg's protocol in a
    #: state it reports as ``InternalClientError`` ("another operation is in progress").
    faults: tuple[type[Exception], ...] = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
                                           OSError, TimeoutError)

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresRun]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresRun(conn)

    @asynccontextmanager
    async def alone(self) -> AsyncIterator[PostgresRun]:
        async with self.pool.acquire() as conn:
            yield PostgresRun(conn)

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[None]:
        """Hold the migration lock for the block: a second process waits, then finds the schema done."""
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                yield
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)

    async def execute(self, sql: str, params: Any = ()) -> int:
        return _rowcount(await self.pool.execute(*_args(sql, params)))

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]:
        return await self.pool.fetch(*_args(sql, params))

    async def insert(self, sql: str, params: Any = ()) -> int:
        return await self.pool.fetchval(*_args(f"{sql} RETURNING id", params))

    async def fetch_read(self, sql: str, params: Any = ()) -> list[Any]:
        return await self.pool.fetch(*_args(sql, params))

    async def pragma(self, name: str) -> Any:
        raise ValueError(f"PRAGMA {name} is SQLite's; this database is PostgreSQL")

    async def scrub(self) -> None:
        """Nothing to do at once: the old row versions are dead rows, which VACUUM (autovacuum)
        reclaims on its own schedule (README, "What the bot stores")."""


async def connect_postgres(url: DatabaseUrl) -> PostgresDriver:
    """The pool for ``url``; ``StorageOpenError`` names the server and database, never the password."""
    # No floor of idle connections: the pool would try to restore it in the background while the
    # server is away, logging each try; connections open when needed and stay while in use.
    # A write waits for another's row lock as long as SQLite's busy_timeout, then is a StorageFault.
    settings = {"application_name": "spieltisch", "lock_timeout": str(int(LOCK_TIMEOUT * 1000))}
    pool = asyncpg.create_pool(url.dsn, min_size=0, max_size=POOL_SIZE, timeout=10, server_settings=settings)
    try:
        await pool
        read_only = await pool.fetchval("SELECT pg_is_in_recovery() OR current_setting('transaction_read_only') = 'on'")
    except BaseException as exc:
        await pool.close()
        if isinstance(exc, PostgresDriver.faults):
            raise postgres_open_error(url, exc) from None
        raise
    if read_only:
        await pool.close()
        raise postgres_open_error(url, None)
    return PostgresDriver(pool)


def postgres_open_error(url: DatabaseUrl, exc: BaseException | None) -> StorageOpenError:
    """One sentence on why the server refused us (``None``: it is read-only)."""
    if exc is None:
        why = "is read-only (a standby?); the bot needs to write to it"
    elif isinstance(exc, asyncpg.InvalidPasswordError):
        why = "refused the user name or password given in database_url"
    elif isinstance(exc, asyncpg.InvalidCatalogNameError):
        why = f"does not exist: create it first (createdb {url.name})"
    elif isinstance(exc, OSError | TimeoutError):
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "no answer"
        why = f"cannot be reached ({reason}): is the server running there?"
    else:
        why = f"refused the connection: {redact(str(exc))}"
    return StorageOpenError(f"The PostgreSQL database {url.name} on {url.host}:{url.port} {why}.")
