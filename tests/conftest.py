"""Shared pytest fixtures."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import os

import pytest

# ============================================================================ the order of the run
# The workers (pytest-xdist, ``--dist load``) are dealt the collected tests in order, one at a time as
# each finishes one (``--maxschedchunk=1`` in pyproject.toml: by default the first worker would be
# dealt the first quarter of its share in one chunk), and each runs what it was dealt in that order. A
# test of many seconds dealt late would leave its worker running it alone while the other cores idle
# at the end of the run, so the tests marked ``long(seconds=…)`` go first, the longest first (their
# seconds on a quiet machine of two cores, a rough guide); the order is otherwise the collection's.


def long_first(item) -> float:
    marker = item.get_closest_marker("long")
    return -marker.kwargs["seconds"] if marker is not None else 0.0


def pytest_collection_modifyitems(config, items) -> None:
    items.sort(key=long_first)


# ============================================================================ Discord double: swallowed errors
# discord.py logs exceptions raised in commands, views, modals and event handlers ("Ignoring exception
# in ...") and carries on, so a broken handler would pass unnoticed. `bot_errors` collects them; a test
# fails at teardown unless it claimed every one with `take()` or `await wait_for()`.


class BotErrors(logging.Handler):
    LOGGERS = ("discord", "asyncio")

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []
        self.claimed: set[int] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info and record.exc_info[1] is not None:
            self.records.append(record)
            if self._loop is not None and self._event is not None:
                self._loop.call_soon_threadsafe(self._event.set)

    @staticmethod
    def _chain(exc: BaseException | None):
        while exc is not None:       # CommandInvokeError.original, then __cause__
            yield exc
            exc = getattr(exc, "original", None) or exc.__cause__

    def take(self, exc_type: type[BaseException] = Exception, *, code: int | None = None) -> BaseException | None:
        """Claim the first unclaimed logged exception of this type (wrapped ones included)."""
        for i, record in enumerate(self.records):
            if i in self.claimed:
                continue
            for exc in self._chain(record.exc_info[1]):
                if isinstance(exc, exc_type) and (code is None or getattr(exc, "code", None) == code):
                    self.claimed.add(i)
                    return exc
        return None

    async def wait_for(self, exc_type: type[BaseException] = Exception, *, code: int | None = None,
                       timeout: float = 5.0) -> BaseException:
        """Until the bot logged (swallowed) such an exception; claims and returns it."""
        self._loop = asyncio.get_running_loop()
        end = self._loop.time() + timeout
        while (exc := self.take(exc_type, code=code)) is None:
            if self._loop.time() >= end:
                raise AssertionError(f"the bot logged no {exc_type.__name__} (code {code}) within {timeout}s; "
                                     f"logged: {self.describe()}")
            self._event = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), end - self._loop.time())
        return exc

    def unexpected(self) -> list[logging.LogRecord]:
        return [r for i, r in enumerate(self.records) if i not in self.claimed]

    def describe(self, records: list[logging.LogRecord] | None = None) -> str:
        return "; ".join(f"{r.name}: {r.getMessage()} -> {r.exc_info[1]!r}"
                         for r in (self.records if records is None else records)) or "nothing"

    def check(self) -> None:
        unexpected = self.unexpected()
        if unexpected:
            raise AssertionError("the bot swallowed exceptions: " + self.describe(unexpected))


@pytest.fixture
def bot_errors():
    handler = BotErrors()
    loggers = [logging.getLogger(name) for name in BotErrors.LOGGERS]
    for log in loggers:
        log.addHandler(handler)
    yield handler
    for log in loggers:
        log.removeHandler(handler)
    handler.check()


# ============================================================================ (end of the Discord double block)


# ============================================================================ computer players' worker pool


@pytest.fixture(scope="session")
def computer_pool():
    """One worker process for strong computer moves, shared by the tests that need one (starting a
    worker costs a fraction of a second); it is stopped, and its process gone, at the end. It keeps
    the test process's CPU priority: the tests wait for its moves, on a machine others share."""
    from bot.play.computers import ComputerPool

    pool = ComputerPool(1, niceness=0)
    pool.start()
    yield pool
    pool.shutdown()


# ============================================================================ the two stores: SQLite and PostgreSQL
# Every storage and session test runs against both (``store``). PostgreSQL is a real server the suite
# starts once (tests/postgres.py); each test gets a fresh database, a copy of one migrated template.
# Without a server here those runs are skipped, with one reason; under CI (CI=true) that is a failure.

STORES = ("sqlite", "postgresql")
_TEMPLATE = "spieltisch_template"
_databases = itertools.count(1)


async def _migrate_template(cluster) -> None:
    import asyncpg

    from bot.storage.store import Storage

    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f"CREATE DATABASE {_TEMPLATE}")
    finally:
        await admin.close()
    await (await Storage.open(cluster.url(_TEMPLATE))).close()


def no_server(exc: Exception, env) -> None:
    """Skip the PostgreSQL runs with one line saying why; under CI (``CI=true``) fail instead."""
    from tests.postgres import required

    if required(env):
        pytest.fail(f"CI runs the storage tests on PostgreSQL too, but {exc}", pytrace=False)
    pytest.skip(f"PostgreSQL runs skipped: {exc}")


@pytest.fixture(scope="session")
def postgres_cluster():
    """One PostgreSQL server for the whole run, with a migrated template database; gone afterwards."""
    from tests.postgres import Cluster, NoServer

    try:
        cluster = Cluster.start()
    except NoServer as exc:
        no_server(exc, os.environ)
    try:
        with concurrent.futures.ThreadPoolExecutor(1) as thread:     # outside any test's event loop
            thread.submit(asyncio.run, _migrate_template(cluster)).result()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=STORES)
def store(request) -> str:
    return request.param


async def new_postgres_database(cluster, *, migrated: bool = True) -> str:
    """The URL of a new database of ``cluster``: migrated (a copy of the template), or empty."""
    import asyncpg

    name = f"test_{next(_databases)}"
    admin = await asyncpg.connect(cluster.url())
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE {_TEMPLATE if migrated else 'template1'}")
    finally:
        await admin.close()
    return cluster.url(name)


@pytest.fixture
async def database(store, tmp_path, request) -> str:
    """A database that outlives one ``Storage`` (for restarts): a file, or a PostgreSQL database."""
    if store == "sqlite":
        return str(tmp_path / "db.sqlite3")
    return await new_postgres_database(request.getfixturevalue("postgres_cluster"))


@pytest.fixture
def scratch(store, database) -> str:
    """A database for one ``Storage``: SQLite in memory, or a fresh PostgreSQL database."""
    return ":memory:" if store == "sqlite" else database
