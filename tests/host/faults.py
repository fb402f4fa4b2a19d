"""Storage faults on demand: a database locked by another connection, a read-only one, a full disk;
on PostgreSQL, the server gone for the database (every connection cut, new ones refused).

Each is the real SQLite error where SQLite can produce it cheaply (a second connection's write
lock with no busy wait; ``PRAGMA query_only``, which refuses writes as a read-only file does), and
for a full disk the exact error SQLite raises, from every write statement of the storage's
connection. Nothing here sleeps.

``EVERY_FAULT`` names them all; ``storage_for(kind, …)`` opens the store each one needs.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg

from bot.storage.database import parse_url
from bot.storage.store import Storage

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


@contextlib.contextmanager
def locked(database: Path) -> Iterator[None]:
    """Another connection holds the write lock (``BEGIN IMMEDIATE``) until the block ends."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def no_busy_wait(storage: Storage) -> None:
    """Give up on a locked database at once, as after ``busy_timeout`` expired (no wall-clock wait)."""
    await storage._sql.db.execute("PRAGMA busy_timeout=0")


@contextlib.asynccontextmanager
async def read_only(storage: Storage) -> AsyncIterator[None]:
    """Every write fails with SQLITE_READONLY until the block ends."""
    await storage._sql.db.execute("PRAGMA query_only=1")
    try:
        yield
    finally:
        await storage._sql.db.execute("PRAGMA query_only=0")


class _FullDisk:
    """The storage's connection, except that every write statement (of ``kinds``) finds the disk full."""

    def __init__(self, db, kinds: tuple[str, ...]) -> None:
        self._db = db
        self._kinds = kinds

    def __getattr__(self, name: str):
        return getattr(self._db, name)

    def _full(self, sql: str) -> bool:
        return sql.lstrip().split(None, 1)[0].upper() in self._kinds

    def execute(self, sql: str, *args):
        if self._full(sql):
            return _raise_full()
        return self._db.execute(sql, *args)

    def executemany(self, sql: str, *args):
        if self._full(sql):
            return _raise_full()
        return self._db.executemany(sql, *args)


async def _raise_full():
    raise sqlite3.OperationalError("database or disk is full")


@contextlib.contextmanager
def disk_full(storage: Storage, kinds: tuple[str, ...] = WRITES) -> Iterator[None]:
    """Writes fail as on a full disk; ``kinds`` (``("UPDATE",)``, say) narrows it to some statements."""
    db = storage._sql.db
    storage._sql.db = _FullDisk(db, kinds)
    try:
        yield
    finally:
        storage._sql.db = db


def fault_lines(records) -> list[str]:
    """The storage's log lines (fault begun, writes back)."""
    return [r.getMessage() for r in records if r.name == "spieltisch.storage"]


@contextlib.asynccontextmanager
async def server_gone(storage: Storage) -> AsyncIterator[None]:
    """PostgreSQL: the storage's connections are cut and new ones refused until the block ends, as when
    the server went away (and came back)."""
    url = parse_url(storage.path)
    admin = await asyncpg.connect(f"postgresql://postgres@{url.host}:{url.port}/postgres")
    try:
        await admin.execute(f'ALTER DATABASE "{url.name}" WITH ALLOW_CONNECTIONS false')
        await admin.execute("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = $1",
                            url.name)
        try:
            yield
        finally:
            await admin.execute(f'ALTER DATABASE "{url.name}" WITH ALLOW_CONNECTIONS true')
    finally:
        await admin.close()


#: SQLite's faults, on a file database; during each the database can still be read.
FAULTS = ("locked", "read_only", "full")
#: And PostgreSQL's: the server gone takes the reads too.
EVERY_FAULT = (*FAULTS, "server_gone")


async def storage_for(kind: str, tmp_path: Path, request) -> Storage:
    """A file database for SQLite's faults, a PostgreSQL one (tests/conftest.py) for ``server_gone``."""
    if kind == "server_gone":
        from tests.conftest import new_postgres_database

        return await Storage.open(await new_postgres_database(request.getfixturevalue("postgres_cluster")))
    return await Storage.open(tmp_path / "db.sqlite3")


@contextlib.asynccontextmanager
async def fault(kind: str, storage: Storage) -> AsyncIterator[None]:
    """One of ``FAULTS`` on its database, for the length of the block."""
    if kind == "server_gone":
        async with server_gone(storage):
            yield
    elif kind == "locked":
        await no_busy_wait(storage)
        with locked(Path(storage.path)):
            yield
    elif kind == "read_only":
        async with read_only(storage):
            yield
    else:
        with disk_full(storage):
            yield
