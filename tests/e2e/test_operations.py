"""What an operator sees of a running bot: /health and /metrics, the log, and where the slash
commands are registered, all on the Discord double."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import socket
from types import SimpleNamespace

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import Spieltisch
from bot.ops import logs
from bot.ops.config import Settings
from bot.ops.metrics import Endpoint, Metrics, route_class
from bot.play.clock import ManualClock
from bot.storage.status import Status
from tests.e2e.calcory_driver import CalcoryDriver, play_two_player_game, start_calcory
from tests.e2e.harness import make_double


async def _restart(env, **settings) -> None:
    await env.settle()
    await env.stop_bot()
    env.settings = settings
    await env.start_bot()


def _samples(text: str) -> dict[tuple[str, tuple], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def _get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


# ------------------------------------------------------------------------------ health and metrics

async def test_metrics_count_a_games_moves_clicks_and_requests_by_route_class(env):
    await _restart(env, metrics_port=0)
    port = env.bot.endpoint.port
    first_request = len(env.double.requests)
    assert (await _get(port, "/health")) == (200, '{"status": "ok", "discord": "ok", "database": "ok"}')

    session, _ = await start_calcory(env, players=("ann", "bob"))
    status, text = await _get(port, "/metrics")
    assert status == 200
    mid = _samples(text)
    assert mid["spieltisch_live_tables", (("status", "playing"),)] == 1
    assert mid["spieltisch_games_started_total", (("game", "calcory"),)] == 1

    await play_two_player_game(env, CalcoryDriver(env))
    await env.settle()
    after = _samples((await _get(port, "/metrics"))[1])

    assert after["spieltisch_moves_total", (("game", "calcory"),)] == len(session.log) > 0
    assert after["spieltisch_games_ended_total", (("game", "calcory"), ("status", "finished"))] == 1
    assert after["spieltisch_live_tables", (("status", "playing"),)] == 0
    clicks = [i for i in env.double.world.interactions.values() if i.payload["type"] == 3]
    assert after["spieltisch_click_seconds_count", ()] == len(clicks)
    sent = list(env.double.requests)[first_request:]
    for route in ("interaction", "channel"):
        expected = len([r for r in sent if route_class(r.path) == route])
        assert expected > 0 and after["spieltisch_discord_requests_total", (("route", route),)] == expected
    assert ("spieltisch_discord_rate_limited_total", (("route", "channel"),)) not in after
    # Unsharded, the bot's one connection is Discord's shard 0 (and /health names no shards, above).
    assert [(key, value) for key, value in after.items() if key[0] == "spieltisch_guilds"] == [
        (("spieltisch_guilds", (("shard", "0"),)), 1)]


REASONS = {429: "Too Many Requests", 404: "Not Found", 200: "OK"}


async def test_a_429_is_counted_by_route_class_and_logged_without_the_interaction_token(caplog):
    metrics = Metrics()
    hook = metrics.trace().on_request_end[0]
    base = "http://discord.test/api/v10"
    for method, path, status in (("POST", "/interactions/1/aW50ZXJhY3Rpb246MQ/callback", 429),
                                 ("PATCH", "/webhooks/2/aW50ZXJhY3Rpb246Mg/messages/@original", 200),
                                 ("PATCH", "/channels/3/messages/4", 429),
                                 ("PATCH", "/channels/3/messages/5", 404)):
        params = SimpleNamespace(method=method, url=yarl.URL(base + path),
                                 response=SimpleNamespace(status=status, reason=REASONS.get(status)))
        await hook(None, SimpleNamespace(), params)
    got = _samples(generate_latest(metrics.registry).decode())
    assert got["spieltisch_discord_requests_total", (("route", "interaction"),)] == 2
    assert got["spieltisch_discord_requests_total", (("route", "channel"),)] == 2
    assert got["spieltisch_discord_rate_limited_total", (("route", "interaction"),)] == 1
    assert got["spieltisch_discord_rate_limited_total", (("route", "channel"),)] == 1
    assert got["spieltisch_discord_refused_total", (("route", "channel"),)] == 2
    refused = [r.getMessage() for r in caplog.records if r.name == "spieltisch.discord"]
    assert refused[0] == "Discord refused POST /api/v10/interactions/1/[redacted]/callback: 429 Too Many Requests"
    assert len(refused) == 3 and not any("aW50ZXJhY3Rpb24" in line for line in refused)


def _endpoint(*, live: tuple[Status, ...] = (), guilds: tuple[int, ...] = (), fault: str | None = None,
              ready: bool = True) -> Endpoint:
    """An endpoint on stand-ins for its collaborators, no bot: sessions ``live`` (their statuses), a
    connection to Discord with a server on each shard of ``guilds``, a database with ``fault``."""
    sessions = SimpleNamespace(moves={"calcory": 7}, started={"calcory": 1}, ended={("mu", "stopped"): 2},
                               live=lambda: [SimpleNamespace(status=status) for status in live])
    connection = SimpleNamespace(guilds=[SimpleNamespace(shard_id=shard) for shard in guilds], own_shards=(),
                                 is_ready=lambda: ready, is_closed=lambda: False)
    return Endpoint(Metrics(), sessions, SimpleNamespace(fault=fault), connection, shard_count=None)


async def test_the_endpoint_reads_only_the_collaborators_it_is_given():
    endpoint = _endpoint(live=(Status.PLAYING, Status.LOBBY, Status.PLAYING), guilds=(0, 0))
    await endpoint.start("127.0.0.1", 0)
    try:
        assert endpoint.port is not None
        assert (await _get(endpoint.port, "/health")) == (200, '{"status": "ok", "discord": "ok", "database": "ok"}')
        got = _samples((await _get(endpoint.port, "/metrics"))[1])
    finally:
        await endpoint.stop()
    assert got["spieltisch_moves_total", (("game", "calcory"),)] == 7
    assert got["spieltisch_games_ended_total", (("game", "mu"), ("status", "stopped"))] == 2
    assert got["spieltisch_live_tables", (("status", "playing"),)] == 2
    assert got["spieltisch_live_tables", (("status", "lobby"),)] == 1
    assert got["spieltisch_guilds", (("shard", "0"),)] == 2

    endpoint = _endpoint(fault="disk full", ready=False)
    await endpoint.start("127.0.0.1", 0)
    try:
        assert endpoint.port is not None
        assert (await _get(endpoint.port, "/health")) == (
            503, '{"status": "unhealthy", "discord": "not connected", "database": "refuses writes"}')
    finally:
        await endpoint.stop()


async def test_health_and_metrics_are_off_unless_a_port_is_set(env):
    assert env.bot.settings.metrics_port is None and env.bot.endpoint.port is None


async def test_a_port_in_use_is_one_sentence():
    import socket

    from bot.ops.metrics import MetricsPortError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        endpoint = _endpoint()
        try:
            await endpoint.start("127.0.0.1", port)
        except MetricsPortError as exc:
            text = str(exc)
        else:
            raise AssertionError("the port was taken")
    assert text.startswith(f"/health and /metrics cannot listen on 127.0.0.1:{port} (") and text.endswith(".")
    assert endpoint.port is None


async def _closed_after(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, trickle: bytes = b"") -> float:
    """Seconds until the server closes the connection, while ``trickle`` goes out a byte every 20 ms
    (fails if it is still open after a second)."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    while loop.time() - began < 1.0:
        if trickle:
            writer.write(trickle[:1])
            trickle = trickle[1:]
        with contextlib.suppress(TimeoutError):
            if await asyncio.wait_for(reader.read(1024), 0.02) == b"":
                return loop.time() - began
    raise AssertionError("the connection is still open after a second")


async def test_a_client_that_trickles_its_header_or_idles_is_cut_off():
    endpoint = _endpoint()
    endpoint.idle_seconds = 0.2
    await endpoint.start("127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", endpoint.port)
        header = b"GET /metrics HTTP/1.1\r\nHost: bot\r\nX-Slow: " + b"a" * 100 + b"\r\n\r\n"
        assert 0.2 <= await _closed_after(reader, writer, header) < 1.0
        writer.close()

        # A whole request is answered; the connection it kept alive is closed once idle.
        reader, writer = await asyncio.open_connection("127.0.0.1", endpoint.port)
        writer.write(b"GET /metrics HTTP/1.1\r\nHost: bot\r\n\r\n")
        assert (await reader.readline()).startswith(b"HTTP/1.1 200 OK")
        await reader.readuntil(b"\r\n\r\n")
        assert await _closed_after(reader, writer) < 1.0
        writer.close()
    finally:
        await endpoint.stop()


# ------------------------------------------------------------------------------ the log

async def _played_with_logs(env, caplog, monkeypatch, level: str) -> str:
    """A whole scenario (start-up to a finished game) with the bot's log handler at ``level``."""
    await env.settle()
    await env.stop_bot()
    # Shaped like a real token (built here so that no token-like literal sits in the repository).
    env.token = ".".join(("MTIzNDU2Nzg5MDEyMzQ1Njc4", "Gabcde", "secret-bot-token-for-this-test"))
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)     # as in a fresh process
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    buffer = io.StringIO()
    root = logging.getLogger()
    before = (root.level, list(root.handlers))
    caplog.set_level(level)
    handler = logs.setup(level, token=env.token, stream=buffer)
    try:
        await env.start_bot()
        await start_calcory(env, players=("ann", "bob"))
        drive = CalcoryDriver(env)
        await drive.open_hand(drive.active)
        await play_two_player_game(env, drive)
        await env.double.slash(env.ann, env.channel, "leaderboard")
        await env.settle()
        await env.stop_bot()
    finally:
        root.setLevel(before[0])
        root.handlers[:] = before[1]
        handler.close()
    return buffer.getvalue()


def _no_credentials(env, text: str) -> None:
    tokens = list(env.double.world.interactions)
    assert len(tokens) > 5
    assert env.token not in text
    assert [token for token in tokens if token in text] == []


async def test_an_info_log_of_a_whole_game_says_what_happened_and_holds_no_token(env, caplog, monkeypatch):
    text = await _played_with_logs(env, caplog, monkeypatch, "INFO")
    _no_credentials(env, text)
    assert "PyNaCl" not in text and "davey" not in text and "voice" not in text
    lines = text.splitlines()
    (ready,) = [line for line in lines if "logged in as Spieltisch" in line]
    assert "in 1 server; 10 commands registered globally" in ready
    assert any("calcory started with 2 seats" in line for line in lines)
    assert any("calcory finished (over)" in line for line in lines)


async def test_a_debug_log_has_every_token_redacted(env, caplog, monkeypatch):
    text = await _played_with_logs(env, caplog, monkeypatch, "DEBUG")
    # discord.py's own DEBUG lines carry interaction tokens (in routes and gateway events): the raw
    # records do, the bot's log does not.
    raw = caplog.text
    assert any(token in raw for token in env.double.world.interactions)
    _no_credentials(env, text)
    assert "/interactions/" in text and "[redacted]" in text
    caplog.clear()          # the DEBUG warning is expected here


async def test_json_log_lines_are_one_object_each(caplog):
    import json

    buffer = io.StringIO()
    root = logging.getLogger()
    before = (root.level, list(root.handlers))
    try:
        logs.setup("INFO", "json", token="s3cret", stream=buffer)
        logging.getLogger("spieltisch.test").info("token %s and %s", "s3cret", "'token': 'abc'")
    finally:
        root.setLevel(before[0])
        root.handlers[:] = before[1]
    (line,) = [json.loads(line) for line in buffer.getvalue().splitlines()]
    assert line["level"] == "INFO" and line["logger"] == "spieltisch.test"
    assert line["message"] == "token [redacted] and 'token': '[redacted]'"


# ------------------------------------------------------------------------------ reaching Discord at start-up

def _unreachable(monkeypatch) -> int:
    """Point discord.py at a loopback port nobody listens on; return the port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    return port


async def _until(predicate, what: str) -> None:
    """Until ``predicate()`` holds (each failed attempt ends on a refused loopback connection)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while not predicate():
        assert loop.time() < end, f"never: {what}"
        await asyncio.sleep(0.001)


def _tries(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "spieltisch" and r.levelno == logging.WARNING]


async def test_start_up_tries_an_unreachable_discord_again_with_a_doubling_wait(tmp_path, monkeypatch, caplog):
    from bot.__main__ import serve

    port = _unreachable(monkeypatch)
    clock = ManualClock()
    d, *_ = make_double(clock)
    bot = Spieltisch(Settings(token="t", database_url=str(tmp_path / "bot.sqlite3")), clock=clock,
                     guild_ready_timeout=0.01)
    stop = asyncio.Event()
    async with d:
        serving = asyncio.create_task(serve(bot, "t", stop))
        waits = []
        for attempt in range(1, 9):
            await _until(lambda attempt=attempt: len(_tries(caplog)) == attempt and clock.pending,
                         f"attempt {attempt} failed")
            waits.append(float(_tries(caplog)[-1].rsplit(" ", 2)[1]))
            if attempt == 8:        # Discord is back: the next attempt gets through
                monkeypatch.setattr(discord.http.Route, "BASE", d.api_base)
                monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(d.gateway_url))
            clock.advance(waits[-1])
        await d.wait_for_bot()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        assert waits == [1, 2, 4, 8, 16, 32, 60, 60]
        assert _tries(caplog)[0] == (
            f"Discord cannot be reached (Cannot connect to host 127.0.0.1:{port} ssl:default "
            f"[Connect call failed ('127.0.0.1', {port})]); attempt 1 failed, trying again in 1 s")
        assert not [r for r in caplog.records if r.exc_info]        # one line each, no traceback
        assert any("logged in as Spieltisch" in r.getMessage() for r in caplog.records)
        stop.set()
        await asyncio.wait_for(serving, 10)
    assert bot.is_closed() and bot.storage is None
    caplog.clear()          # the warnings above were the point


async def test_discords_own_outage_at_start_up_is_tried_again_too(tmp_path, monkeypatch, caplog):
    from bot.__main__ import serve

    clock = ManualClock()
    d, *_ = make_double(clock)
    bot = Spieltisch(Settings(token="t", database_url=str(tmp_path / "bot.sqlite3")), clock=clock,
                     guild_ready_timeout=0.01)
    stop = asyncio.Event()
    async with d:
        monkeypatch.setattr(discord.http.Route, "BASE", d.api_base)
        monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(d.gateway_url))
        d.fault("GET", "/users/@me", status=503)          # once: discord.py itself does not retry a 503
        serving = asyncio.create_task(serve(bot, "t", stop))
        await _until(lambda: _tries(caplog) and clock.pending, "the first attempt failed")
        assert _tries(caplog) == [
            "Discord cannot be reached (503 Service Unavailable); attempt 1 failed, trying again in 1 s"]
        clock.advance(1)
        await d.wait_for_bot()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        stop.set()
        await asyncio.wait_for(serving, 10)
    caplog.clear()


async def test_a_stop_while_waiting_to_reach_discord_ends_the_start_at_once(tmp_path, monkeypatch, caplog):
    from bot.__main__ import serve

    _unreachable(monkeypatch)
    clock = ManualClock()
    bot = Spieltisch(Settings(token="t", database_url=str(tmp_path / "bot.sqlite3")), clock=clock,
                     guild_ready_timeout=0.01)
    stop = asyncio.Event()
    serving = asyncio.create_task(serve(bot, "t", stop))
    await _until(lambda: _tries(caplog) and clock.pending, "the first attempt failed")
    stop.set()                          # the clock never moves: only the stop can end the wait
    await asyncio.wait_for(serving, 10)
    assert bot.is_closed() and len(_tries(caplog)) == 1 and clock.pending == 0
    caplog.clear()


# ------------------------------------------------------------------------------ command registration

async def test_moving_the_commands_between_a_test_server_and_global_removes_the_stale_copies(env, caplog):
    guild = env.guild.id
    assert len(env.double.commands[None]) == 10 and not env.double.commands.get(guild)

    await _restart(env, command_guild_id=int(guild))
    assert len(env.double.commands[guild]) == 10 and env.double.commands[None] == {}
    assert f"10 commands registered in server {guild}, stale copies removed (globally)" in caplog.text
    record = await env.double.slash(env.ann, env.channel, "rules", game="calcory")
    assert record.message.text.startswith("**Calcory**")       # the server's copy works

    puts = len([r for r in env.double.requests if r.method == "PUT"])
    await _restart(env, command_guild_id=int(guild))            # same place again: nothing to clean up
    assert len([r for r in env.double.requests if r.method == "PUT"]) == puts + 1

    await _restart(env)
    assert len(env.double.commands[None]) == 10 and env.double.commands[guild] == {}
    assert f"10 commands registered globally, stale copies removed (in server {guild})" in caplog.text


async def test_health_says_503_while_the_database_refuses_writes(env, caplog):
    from bot.transport import ids
    from tests.host.faults import read_only

    await _restart(env, metrics_port=0)
    port = env.bot.endpoint.port
    asked = await env.double.slash(env.ann, env.channel, "forget-me")
    async with read_only(env.bot.storage):
        refused = await env.double.click(env.ann, asked.message, ids.user(int(env.ann.id), "forget"))
        assert refused.message.text == (
            "The bot could not save that just now, so nothing was forgotten. Please try again in a moment.")
        status, body = await _get(port, "/health")
        assert (status, body) == (503, '{"status": "unhealthy", "discord": "ok", "database": "refuses writes"}')
    done = await env.double.click(env.ann, asked.message, ids.user(int(env.ann.id), "forget"))
    assert env.double.message(done.message.id).text.startswith("The bot keeps no results of yours")
    assert (await _get(port, "/health"))[0] == 200
    assert [r.name for r in caplog.records if r.levelno >= logging.ERROR] == ["spieltisch.storage"]
    caplog.clear()
