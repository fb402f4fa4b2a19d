"""``python -m bot copy-database``: everything of an SQLite database into an empty PostgreSQL one and
back, the live games restored and played on from the copy; a non-empty target is refused."""

from __future__ import annotations

import asyncio

import pytest

import bot.play.sessions
from bot.__main__ import main
from bot.ops.copy_database import TABLES
from bot.play.clock import ManualClock
from bot.play.sessions import Status
from bot.storage.store import Storage
from tests.conftest import new_postgres_database
from tests.host.test_sessions import GUILD, HOST, actor, lobby, make_manager, move, playing, user_at


async def everything(storage: Storage) -> dict[str, list[tuple]]:
    """Every row of every table, in a stable order, as plain tuples."""
    out = {}
    async with storage._sql.alone() as db:
        for table, columns in TABLES.items():
            out[table] = [tuple(row) for row in await db.fetchall(f"SELECT {columns} FROM {table} ORDER BY {columns}")]
    return out


async def fill(url: str, clock: ManualClock) -> dict[str, list[tuple]]:
    """Two finished matches of a season, a stopped one, a game in play and a lobby (with its expiry timer)."""
    storage = await Storage.open(url)
    try:
        await storage.change_season(GUILD, "new", name="Spring", now=clock.now())
        manager = make_manager(storage, clock)
        for channel in (1, 2):
            done = await playing(manager, 3, channel=channel)
            await move(manager, done, "swap")
            while done.status is Status.PLAYING:
                await move(manager, done)
        await manager.stop(await playing(manager, 2, channel=3), HOST, can_manage=False)
        game = await playing(manager, 3, channel=4)
        for key in ("swap", "pass"):
            await move(manager, game, key)
        await lobby(manager, 2, channel=5)
        await storage.remember("commands", "global")
        return await everything(storage)
    finally:
        await storage.close()


async def copy(source: str, target: str) -> int:
    return await asyncio.to_thread(main, ["copy-database", "--from", source, "--to", target])


async def test_everything_is_copied_to_postgresql_and_back_and_the_live_games_play_on(
        postgres_cluster, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(bot.play.sessions, "computers_offered", lambda key: True)
    clock = ManualClock(1_000.0)
    sqlite, back = str(tmp_path / "db.sqlite3"), str(tmp_path / "back.sqlite3")
    postgres = await new_postgres_database(postgres_cluster, migrated=False)
    rows = await fill(sqlite, clock)
    assert all(rows[table] for table in TABLES) and {r[6] for r in rows["sessions"]} == {
        "finished", "stopped", "playing", "lobby"}

    assert await copy(sqlite, postgres) == 0
    counts = ", ".join(f"{len(rows[table])} {table}" for table in TABLES)
    assert capsys.readouterr().out == f"spieltisch: Copied {sqlite} to {postgres}; each holds {counts}.\n"
    storage = await Storage.open(postgres)
    try:
        assert await everything(storage) == rows        # the totals too: not counted twice by the triggers
        manager = make_manager(storage, clock)
        assert await manager.restore() == []
        game, waiting = manager.by_channel(4), manager.by_channel(5)
        assert game.status is Status.PLAYING and len(game.log) == 2 and waiting.status is Status.LOBBY
        seat = actor(game)
        await manager.act(game, user_at(game, seat), game.counters[seat], "pass")
        assert len(await storage.actions(game.id)) == 3
        newer = await playing(manager, 2, channel=6)    # new ids come after the copied ones
        assert newer.id > max(r[0] for r in rows["sessions"])
        assert await storage.set_timer(newer.id, "turn", 5_000.0, {}) > max(r[0] for r in rows["timers"])
        summer = await storage.change_season(GUILD, "new", name="Summer", now=clock.now())
        assert summer.current is not None and summer.current.id > max(r[0] for r in rows["seasons"])
        after = await everything(storage)
    finally:
        await storage.close()

    assert await copy(postgres, back) == 0
    capsys.readouterr()
    storage = await Storage.open(back)
    try:
        assert await everything(storage) == after
    finally:
        await storage.close()


async def test_a_target_that_holds_anything_is_refused_and_left_alone(postgres_cluster, tmp_path, capsys):
    clock = ManualClock(1_000.0)
    sqlite = str(tmp_path / "db.sqlite3")
    postgres = await new_postgres_database(postgres_cluster)
    await fill(sqlite, clock)
    target = await Storage.open(postgres)
    try:
        await target.remember("commands", "in server 42")
        before = await everything(target)
    finally:
        await target.close()
    assert await copy(sqlite, postgres) == 1
    assert capsys.readouterr().err == (
        f"spieltisch: The target {postgres} is not empty (1 meta); copy-database only fills an empty database, "
        "so nothing was copied.\n")
    target = await Storage.open(postgres)
    try:
        assert await everything(target) == before
    finally:
        await target.close()
    assert await copy(sqlite, sqlite) == 1
    assert "both name" in capsys.readouterr().err


@pytest.mark.parametrize(("source", "says"), [("mysql://x/y", "neither sqlite"), ("sqlite://", "names no file")])
async def test_a_malformed_url_is_a_usage_error(source, says, capsys):
    assert await copy(source, "sqlite:///x.sqlite3") == 2
    err = capsys.readouterr().err
    assert err.startswith("spieltisch: The database URL cannot be used: ") and says in err
