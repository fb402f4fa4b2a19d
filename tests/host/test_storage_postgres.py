"""What only PostgreSQL needs proving: two processes starting at once migrate once, a server that
cannot be used is one sentence without the password."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import migrations
from bot.storage.database import parse_url, redact
from bot.storage.store import Storage, StorageFault, StorageOpenError
from tests.conftest import new_postgres_database
from tests.host.test_storage import new_session
from tests.postgres import free_port


async def test_two_processes_starting_at_once_on_an_empty_database_migrate_it_once(postgres_cluster):
    url = await new_postgres_database(postgres_cluster, migrated=False)
    first, second = await asyncio.gather(Storage.open(url), Storage.open(url))
    try:
        assert await first.schema_version() == await second.schema_version() == migrations.LATEST
        async with first._sql.alone() as db:
            applied = [v for (v,) in await db.fetchall("SELECT version FROM schema_migrations ORDER BY version")]
        assert applied == list(range(1, migrations.LATEST + 1))
        await new_session(first, channel=3)
        assert [row.channel_id for row in await second.live_sessions()] == [3]
    finally:
        await first.close()
        await second.close()


async def test_open_refuses_a_schema_newer_than_this_version(postgres_cluster):
    url = await new_postgres_database(postgres_cluster)
    raw = await asyncpg.connect(url)
    try:
        await raw.execute("INSERT INTO schema_migrations VALUES (99, 'future', 'later')")
    finally:
        await raw.close()
    with pytest.raises(StorageOpenError, match="newer version of Spieltisch"):
        await Storage.open(url)


async def test_a_server_that_cannot_be_used_is_named_in_one_sentence_without_the_password(postgres_cluster):
    port = free_port()
    cases = {
        f"postgresql://bot:hunter2@127.0.0.1:{port}/games":
            f"The PostgreSQL database games on 127.0.0.1:{port} cannot be reached",
        postgres_cluster.url("no_such_database").replace("postgres@", "postgres:hunter2@"):
            "The PostgreSQL database no_such_database on 127.0.0.1:",
    }
    for url, start in cases.items():
        with pytest.raises(StorageOpenError) as caught:
            await Storage.open(url)
        assert str(caught.value).startswith(start) and "hunter2" not in str(caught.value)
    assert "does not exist" in str(caught.value)


def test_urls_are_parsed_and_their_passwords_never_shown():
    url = parse_url("postgresql://bot:s3cr%40t@db.example:6543/spieltisch")
    assert (url.host, url.port, url.name, url.shown) == (
        "db.example", 6543, "spieltisch", "postgresql://bot:***@db.example:6543/spieltisch")
    assert parse_url("sqlite:///data/games.sqlite3").path == "data/games.sqlite3"
    assert parse_url("games.sqlite3").path == "games.sqlite3"
    assert redact("postgres://u:p@h/d") == "postgres://u:***@h/d"
    for bad, why in (("mysql://u:pw@h/d", "neither sqlite"), ("postgresql://u:pw@h", "names no database"),
                     ("sqlite://", "names no file"), ("postgresql://u:pw@h:99999/d", "not a valid")):
        with pytest.raises(ValueError, match=why) as caught:
            parse_url(bad)
        assert "pw" not in str(caught.value)


def test_without_a_server_the_postgresql_runs_are_skipped_with_one_line_but_ci_fails(monkeypatch):
    from tests import postgres
    from tests.conftest import no_server

    monkeypatch.setattr(postgres.shutil, "which", lambda name: None)
    monkeypatch.setattr(postgres, "INSTALL_FOLDERS", ())
    with pytest.raises(postgres.NoServer) as missing:
        postgres.Cluster.start()
    assert str(missing.value) == ("no PostgreSQL server is installed (initdb and pg_ctl are neither on PATH, "
                                  "nor in pg_config --bindir, nor in /usr/lib/postgresql/*/bin)")
    with pytest.raises(pytest.skip.Exception, match=r"^PostgreSQL runs skipped: no PostgreSQL server is installed"):
        no_server(missing.value, {})
    with pytest.raises(pytest.fail.Exception, match=r"^CI runs the storage tests on PostgreSQL too, but no "):
        no_server(missing.value, {"CI": "true"})


async def test_a_connection_asyncpg_finds_mid_operation_is_a_refused_write_not_a_crash(postgres_cluster, monkeypatch):
    """A connection the server cut in the middle of a statement can leave asyncpg reporting
    ``InternalClientError``; like a lost connection it is a ``StorageFault``, and nothing was written."""
    storage = await Storage.open(await new_postgres_database(postgres_cluster))
    try:
        session_id = await new_session(storage, channel=5)

        async def cut(*_args, **_kwargs):
            raise asyncpg.InternalClientError("cannot switch to state 11; another operation (2) is in progress")

        with monkeypatch.context() as patch:
            patch.setattr(type(storage._sql.pool), "fetchval", cut)
            with pytest.raises(StorageFault):
                await storage.set_timer(session_id, "deadline", 10.0, {})
        assert storage.fault is not None and await storage.timers() == []
        await storage.set_timer(session_id, "deadline", 10.0, {})
        assert [t.kind for t in await storage.timers()] == ["deadline"] and storage.fault is None
    finally:
        await storage.close()
