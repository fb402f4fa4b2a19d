"""The PostgreSQL rows (issue 17): click latency and the restart, on the other store, beside SQLite's.

The benchmark starts its own server (``tests.postgres.Cluster``) in a thread while phases that time
nothing run, and stops it at the end, on every path out. Its commits wait for no disk flush
(``synchronous_commit=off``) but it does flush in the background (``fsync=on``): what SQLite's
``synchronous=NORMAL`` in WAL mode gives the bot, so the two stores promise the same. Where no
server can be started the rows say why; under CI (``CI=true``) that is a failure, as in the tests.

The latency rows run ``bench.live``'s first phase on a bot process of their own. The restart is
the SQLite restart's database copied over (every table, ``COPY`` in batches, in one transaction)
once the SQLite bot has redrawn it, so both stores rebuild the same sessions and redraw the same
messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from dataclasses import dataclass

import asyncpg

from bench.live import ClickResult, run_clicks
from bench.load import BenchError, LoadDouble
from bench.restore import Built, RestoreResult, restart
from bot.ops.copy_database import TABLES, TOTALS
from bot.storage.database import POOL_SIZE, POSTGRESQL
from bot.storage.store import Storage
from tests.postgres import Cluster, NoServer, required

#: Like SQLite's synchronous=NORMAL in WAL mode: a commit waits for no flush, the server does flush.
SETTINGS = {"fsync": "on", "full_page_writes": "on", "synchronous_commit": "off"}
#: Rows per COPY while the restart's database is written.
BATCH = 20_000


@dataclass
class PostgresResult:
    version: str
    clicks: ClickResult
    restored: RestoreResult
    written: float          # seconds to COPY the restart's database in
    seconds: float          # these rows' phases, the wait for the server included
    server_start: float     # initdb and the start (in a thread, beside other phases)
    waited: float           # of which the rows waited for


class Server:
    """``start()`` begins the server in a thread; ``await cluster()`` is it, or ``None`` and ``reason``."""

    def __init__(self, env=os.environ) -> None:
        self.env = env
        self.reason = ""
        self._starting: asyncio.Future[Cluster] | None = None
        self.start_seconds = 0.0

    def start(self) -> None:
        if self._starting is None:
            self._starting = asyncio.ensure_future(asyncio.to_thread(self._start))

    def _start(self) -> Cluster:
        began = time.perf_counter()
        try:
            return Cluster.start(SETTINGS)
        finally:
            self.start_seconds = time.perf_counter() - began

    async def cluster(self) -> Cluster | None:
        self.start()
        try:
            return await asyncio.shield(self._starting)
        except NoServer as exc:
            self.reason = unavailable(exc, self.env)
            return None

    async def stop(self) -> None:
        """Stop the server, once its start (a thread, which cannot be cancelled) has ended."""
        if self._starting is None:
            return
        with contextlib.suppress(Exception):     # a start that failed has cleaned up after itself
            cluster = await self._starting
            await asyncio.to_thread(cluster.stop)


def unavailable(exc: NoServer, env) -> str:
    """Why the PostgreSQL rows are skipped, in one line; under CI a ``BenchError`` instead."""
    if required(env):
        raise BenchError(f"CI runs the benchmark on PostgreSQL too, but {exc}")
    return f"skipped: {exc}"


async def create_database(cluster: Cluster, name: str) -> str:
    """A new, migrated database of ``cluster`` (migrated as the bot opens it); its database_url."""
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    url = cluster.url(name)
    await (await Storage.open(url)).close()
    return url


async def copy_from_sqlite(path, url: str) -> int:
    """Every row of the SQLite database ``path`` into the empty, migrated ``url``, by ``COPY`` in
    batches, in one transaction (the tables and their order are ``copy-database``'s); rows copied."""
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = await asyncpg.connect(url)
    copied = 0
    try:
        async with target.transaction():
            for table, columns in TABLES.items():
                if table in TOTALS:
                    await target.execute(f"DELETE FROM {table}")        # what the triggers counted meanwhile
                names = [column.strip() for column in columns.split(",")]
                rows = source.execute(f"SELECT {columns} FROM {table}")
                while batch := rows.fetchmany(BATCH):
                    await target.copy_records_to_table(table, records=batch, columns=names)
                    copied += len(batch)
            for statement in POSTGRESQL.after_copy:
                await target.execute(statement)
    finally:
        await target.close()
        source.close()
    return copied


async def version(cluster: Cluster) -> str:
    conn = await asyncpg.connect(cluster.url())
    try:
        return await conn.fetchval("SHOW server_version")
    finally:
        await conn.close()


async def measure(server: Server, load: LoadDouble, workdir, *, games: int, players: int, latency_moves: int,
                  restore_guild_id: str, sqlite_restore, built: Built, profile=None,
                  computer_processes: int | None = None) -> PostgresResult | None:
    """The PostgreSQL rows' figures; ``None`` (and ``server.reason``) where no server can be started."""
    began = time.perf_counter()
    cluster = await server.cluster()
    if cluster is None:
        return None
    waited = time.perf_counter() - began
    clicks = await run_clicks(load, workdir, await create_database(cluster, "bench_live"), name="postgresql",
                              games=games, players=players, latency_moves=latency_moves, profile=profile,
                              computer_processes=computer_processes)
    url = await create_database(cluster, "bench_restore")
    copying = time.perf_counter()
    await copy_from_sqlite(sqlite_restore, url)
    written = time.perf_counter() - copying
    restored = await restart(load, workdir, restore_guild_id, url, built, name="bot-restore-postgresql",
                             profile=profile)
    return PostgresResult(await version(cluster), clicks, restored, written, time.perf_counter() - began,
                          server.start_seconds, waited)


def describe(result: PostgresResult | None, reason: str) -> str:
    """The environment line of the PostgreSQL rows."""
    if result is None:
        return reason
    return (f"{result.version}, the benchmark's own server on 127.0.0.1 (TCP), "
            + ", ".join(f"{key}={value}" for key, value in SETTINGS.items())
            + f" (as SQLite's synchronous=NORMAL: no flush per commit); the bot's asyncpg pool of {POOL_SIZE}")
