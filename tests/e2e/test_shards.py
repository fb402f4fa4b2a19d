"""The bot as shards: one process running shards [0, 1] of 2, and two processes (in-process here:
two bots) with shards [0] and [1] on one SQLite file or one PostgreSQL database. Each owns the guilds
of its shards (``(guild_id >> 22) % 2``): it restores and fires timers only for their tables."""

from __future__ import annotations

import json
import logging

import discord
import pytest
from discord.ext import commands

from bot.play.clock import ManualClock
from tests.double import DiscordDouble
from tests.e2e.calcory_driver import CalcoryDriver, play_two_player_game, start_calcory
from tests.e2e.harness import Env
from tests.e2e.test_operations import _get, _samples

SHARDS = 2


async def _world(database, monkeypatch) -> Env:
    """A guild on shard 0 and one on shard 1 of 2, ann, bob and cem in both; no bot started yet."""
    clock = ManualClock()
    d = DiscordDouble(clock=clock)
    guilds = [d.add_guild("Null", shard=(0, SHARDS)), d.add_guild("Eins", shard=(1, SHARDS))]
    channels = [d.add_text_channel(g, "spiele") for g in guilds]
    users = {name: d.add_user(name) for name in ("ann", "bob", "cem")}
    for g in guilds:
        for user in users.values():
            d.add_member(g, user)
    await d.start()
    env = Env(d, guilds[0], channels[0], None, users, database, clock, monkeypatch)
    env.guilds, env.channels = guilds, channels
    return env


async def _end(env: Env) -> None:
    await env.stop_bot()
    await env.double.stop()
    assert not env.double.unknown_routes and not env.double.internal_errors


@pytest.fixture
async def world(tmp_path, monkeypatch, bot_errors):
    env = await _world(tmp_path / "bot.sqlite3", monkeypatch)
    yield env
    await _end(env)


@pytest.fixture
async def world_on_either_store(database, monkeypatch, bot_errors):
    """``world`` on an SQLite file, and on a PostgreSQL database (``database``, tests/conftest.py)."""
    env = await _world(database, monkeypatch)
    yield env
    await _end(env)


def _sharded(*shard_ids: int) -> dict:
    return {"shard_count": SHARDS, "shard_ids": list(shard_ids)}


async def test_unsharded_the_bot_is_the_one_connection_client_as_before(env):
    assert not isinstance(env.bot, discord.AutoShardedClient) and env.bot.shard_count is None
    assert "shard" not in env.double.gateway.identifies[-1] and env.double.gateway.shards() == [(0, 1)]


async def test_one_process_runs_both_shards_and_plays_in_the_guilds_of_each(world):
    world.settings = _sharded(0, 1)
    bot = await world.start_bot()
    assert isinstance(bot, commands.AutoShardedBot)
    assert [i["shard"] for i in world.double.gateway.identifies] == [[0, 2], [1, 2]]
    assert world.double.gateway.shards() == [(0, 2), (1, 2)]
    assert sorted((g.name, g.shard_id) for g in bot.guilds) == [("Eins", 1), ("Null", 0)]
    for channel in world.channels:
        world.channel = channel
        await start_calcory(world, ("ann", "bob"), channel)
        winner, _loser = await play_two_player_game(world, CalcoryDriver(world))
        session = world.session(channel)
        stored = await bot.storage.session(session.id)
        assert (stored.status, stored.guild_id) == ("finished", int(channel.guild.id))
        assert (await bot.storage.results(session.id))[winner].rank == 1
    # Each guild's clicks came over its own shard's connection.
    for gateway_session in world.double.gateway.sessions.values():
        shard_id, _count = gateway_session.shard
        clicked = {frame for _seq, frame in gateway_session.sent if '"INTERACTION_CREATE"' in frame}
        assert clicked and all(str(world.guilds[shard_id].id) in frame for frame in clicked)


async def test_two_processes_own_their_shards_tables_timers_and_restarts(world_on_either_store):
    world = world_on_either_store
    d, (zero, one) = world.double, world.channels
    busy_elsewhere = d.add_text_channel(world.guilds[0], "anderswo")
    one_b = d.add_text_channel(world.guilds[1], "karten")
    running = [await world.launch(_sharded(0))]
    running.append(await world.launch(_sharded(1)))
    bot0, bot1 = (bot for bot, _task in running)
    try:
        assert d.gateway.shards() == [(0, 2), (1, 2)]
        assert ([g.name for g in bot0.guilds], [g.name for g in bot1.guilds]) == (["Null"], ["Eins"])
        world.bot = bot0
        lobby0 = (await d.slash(world.ann, zero, "start", game="calcory")).message
        world.bot = bot1
        lobby1 = (await d.slash(world.ann, one, "start", game="calcory")).message
        game, _ = await start_calcory(world, ("bob", "cem"), one_b)       # a second table in shard 1's guild
        table0 = bot0.sessions.by_channel(int(zero.id))
        assert [s.channel_id for s in bot0.sessions.live()] == [int(zero.id)]
        assert [s.channel_id for s in bot1.sessions.live()] == [int(one.id), int(one_b.id)]

        # A live session another process stored (its old owner, say) still makes /start refuse there.
        other_id = await bot1.storage.create_session(
            guild_id=int(busy_elsewhere.guild.id), channel_id=int(busy_elsewhere.id), game="calcory",
            host_id=int(world.bob.id), lang="en", options={}, seats=[], rules_version=1,
            created_at=world.clock.now())
        world.bot = bot0
        refused = await d.slash(world.ann, busy_elsewhere, "start", game="calcory")
        assert refused.ephemeral and refused.message.text == (
            "There is already a game in this channel. Finish or stop it first.")
        assert bot0.sessions.by_channel(int(busy_elsewhere.id)) is None and not d.messages(busy_elsewhere)

        # A restart of shard 0's process restores shard 0's tables only; shard 1's plays on.
        await world.halt(*running.pop(0))
        await d.wait_until(lambda: d.gateway.shards() == [(1, 2)], what="shard 0's connection to close")
        running.append(await world.launch(_sharded(0)))
        bot0 = running[-1][0]
        assert [s.id for s in bot0.sessions.live()] == [table0.id, other_id]
        assert bot1.sessions.get(game.id) is game and bot1.sessions.by_channel(int(one.id)) is not None
        world.bot, world.channel = bot1, one_b
        drive = CalcoryDriver(world)
        seat = drive.active
        before = game.counters[seat]
        await drive.flip(drive.pair_to(13)[0])
        assert game.counters[seat] == before + 1
        assert (await bot1.storage.actions(game.id))[-1][0] == seat

        # Every lobby expires once, fired by the process owning its guild.
        fired = bot0.timers.fired, bot1.timers.fired
        world.clock.advance(bot0.settings.lobby_timeout_minutes * 60 + 1)
        for bot in (bot0, bot1):
            await bot.timers.idle()
        await d.wait_until(lambda: all("Nobody started this lobby in time" in m.text for m in (lobby0, lobby1)),
                           what="both lobbies to expire")
        assert (bot0.timers.fired - fired[0], bot1.timers.fired - fired[1]) == (1, 1)
        assert await bot0.storage.timers() == []
    finally:
        world.bot = None
        for bot, task in running:
            await world.halt(bot, task)


def _ready_line(caplog, bot) -> str:
    (line,) = [r.getMessage() for r in caplog.records
               if r.name == "spieltisch" and r.getMessage().startswith(f"logged in as {bot.user}")]
    return line


async def test_health_metrics_and_the_start_up_line_say_which_shards_a_process_runs(world, caplog):
    caplog.set_level(logging.INFO, "spieltisch")
    world.settings = {**_sharded(0, 1), "metrics_port": 0}
    bot = await world.start_bot()
    assert "in 2 servers, shards 0,1 of 2; 10 commands registered globally" in _ready_line(caplog, bot)
    status, body = await _get(bot.endpoint.port, "/health")
    assert (status, json.loads(body)) == (200, {"status": "ok", "discord": "ok", "database": "ok",
                                                "shards": [0, 1], "shard_count": 2})
    guilds = _samples((await _get(bot.endpoint.port, "/metrics"))[1])
    assert {key: value for key, value in guilds.items() if key[0] == "spieltisch_guilds"} == {
        ("spieltisch_guilds", (("shard", "0"),)): 1, ("spieltisch_guilds", (("shard", "1"),)): 1}

    # One shard's connection down while the other's is up: the process is not healthy, and says which.
    await bot.get_shard(1).disconnect()
    status, body = await _get(bot.endpoint.port, "/health")
    assert (status, json.loads(body)["status"], json.loads(body)["discord"]) == \
        (503, "unhealthy", "shard 1 not connected")
    await bot.get_shard(1).connect()
    status, body = await _get(bot.endpoint.port, "/health")
    assert (status, json.loads(body)["discord"]) == (200, "ok")
    await world.stop_bot()

    # A process of shard 1 alone reports shard 1 and counts shard 1's server only.
    caplog.clear()
    world.settings = {**_sharded(1), "metrics_port": 0}
    bot = await world.start_bot()
    assert "in 1 server, shard 1 of 2; " in _ready_line(caplog, bot)
    body = json.loads((await _get(bot.endpoint.port, "/health"))[1])
    assert (body["status"], body["shards"], body["shard_count"]) == ("ok", [1], 2)
    guilds = _samples((await _get(bot.endpoint.port, "/metrics"))[1])
    assert [(key, value) for key, value in guilds.items() if key[0] == "spieltisch_guilds"] == [
        (("spieltisch_guilds", (("shard", "1"),)), 1)]
