"""Health and Prometheus metrics, served over HTTP (aiohttp) when ``metrics_port`` is set.

Counted always (it is cheap), served only on request: moves, games started and ended, live tables,
how long a click takes to handle, servers per shard, and Discord requests and 429s by route class.
Interaction routes (the interaction's own token: callbacks, follow-ups, edits of a response) are apart
from channel routes because only the latter share the bot's global rate limit (docs/requests.md). Each bot has
its own registry, so several bots in one test process never collide.

``Metrics`` counts from the bot's first request on (discord.py's HTTP session is built with its hooks);
``Endpoint`` serves it, built in ``Spieltisch.setup_hook`` once the storage and the sessions it reads exist.
"""

from __future__ import annotations

import collections
import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from types import SimpleNamespace
from typing import Any, Protocol

import aiohttp
import discord
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from bot.ops.logs import redact
from bot.storage.status import Status
from bot.storage.store import Storage

log = logging.getLogger("spieltisch.discord")

#: Seconds; a click should take a few milliseconds (docs/performance.md), a slow one up to seconds.
CLICK_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


def route_class(path: str) -> str:
    """``interaction`` (the interaction's own token), ``channel`` (channel messages), or ``other``."""
    if "/interactions/" in path or "/webhooks/" in path:
        return "interaction"
    if "/channels/" in path:
        return "channel"
    return "other"


class MetricsPortError(Exception):
    """The health and metrics port cannot be opened; one sentence for whoever runs the bot."""


class Live(Protocol):
    @property
    def status(self) -> Status: ...


class Tallies(Protocol):
    """What /metrics reads of the session manager (``bot.play.sessions``, a layer above this one)."""

    @property
    def moves(self) -> Mapping[str, int]: ...
    @property
    def started(self) -> Mapping[str, int]: ...
    @property
    def ended(self) -> Mapping[tuple[str, str], int]: ...
    def live(self) -> Sequence[Live]: ...


class Connection(Protocol):
    """What /health and the server count read of the Discord client (``bot.app.Spieltisch``). A sharded
    client also has ``shards``, each with ``is_closed()``."""

    @property
    def guilds(self) -> Sequence[discord.Guild]: ...
    @property
    def own_shards(self) -> tuple[int, ...]: ...
    def is_ready(self) -> bool: ...
    def is_closed(self) -> bool: ...


class _Sessions:
    """Reads the session manager's tallies at scrape time."""

    def __init__(self, sessions: Tallies) -> None:
        self.sessions = sessions

    def collect(self) -> Iterator[Metric]:
        sessions = self.sessions
        moves = CounterMetricFamily("spieltisch_moves", "Moves made (people and computers)", labels=["game"])
        started = CounterMetricFamily("spieltisch_games_started", "Games started", labels=["game"])
        ended = CounterMetricFamily("spieltisch_games_ended", "Lobbies and games ended", labels=["game", "status"])
        live = GaugeMetricFamily("spieltisch_live_tables", "Lobbies and games in progress", labels=["status"])
        for game, count in sorted(sessions.moves.items()):
            moves.add_metric([game], count)
        for game, count in sorted(sessions.started.items()):
            started.add_metric([game], count)
        for (game, status), count in sorted(sessions.ended.items()):
            ended.add_metric([game, status], count)
        statuses = [str(session.status) for session in sessions.live()]
        for status in (Status.LOBBY, Status.PLAYING):
            live.add_metric([status], statuses.count(status))
        yield from (moves, started, ended, live)


class _Guilds:
    """Counts the bot's servers per shard at scrape time (this process's shards; unsharded: shard 0)."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    def collect(self) -> Iterator[Metric]:
        guilds = GaugeMetricFamily("spieltisch_guilds", "Servers the bot is in, by shard", labels=["shard"])
        counts = collections.Counter(guild.shard_id for guild in self.connection.guilds)
        for shard in self.connection.own_shards or (0,):
            guilds.add_metric([str(shard)], counts[shard])
        yield guilds


class Metrics:
    """The counters, counted as things happen; what the sessions and the servers hold is read when
    ``Endpoint`` is asked."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.clicks = Histogram("spieltisch_click_seconds", "Time to handle a button or select click",
                                buckets=CLICK_BUCKETS, registry=self.registry)
        self.requests = Counter("spieltisch_discord_requests", "HTTP requests to Discord by route class",
                                ["route"], registry=self.registry)
        self.rate_limited = Counter("spieltisch_discord_rate_limited", "Discord's 429 answers by route class",
                                    ["route"], registry=self.registry)
        self.refused = Counter("spieltisch_discord_refused", "Requests Discord refused (4xx, 5xx) by route class",
                               ["route"], registry=self.registry)
        #: ``requests`` by route class, looked up once (a lookup costs as much as the count).
        self._requests: dict[str, Counter] = {}

    # -- Discord requests ------------------------------------------------------------------------
    def trace(self) -> aiohttp.TraceConfig:
        """Hooks for discord.py's HTTP session (``Client(http_trace=…)``)."""
        config = aiohttp.TraceConfig()
        config.on_request_end.append(self._request_end)
        return config

    async def _request_end(self, session: aiohttp.ClientSession, context: SimpleNamespace,
                           params: aiohttp.TraceRequestEndParams) -> None:
        self.answered(params.method, params.url.path, params.response.status, params.response.reason)

    def answered(self, method: str, path: str, status: int, reason: str | None) -> None:
        """Count one answer of Discord's (discord.py's session, and ``bot.transport.webhooks.Tokens`` for interaction tokens)."""
        route = route_class(path)
        counter = self._requests.get(route)
        if counter is None:
            counter = self._requests[route] = self.requests.labels(route)
        counter.inc()
        if status == 429:
            self.rate_limited.labels(route).inc()
        if status >= 400:
            self.refused.labels(route).inc()
            log.info("Discord refused %s %s: %s %s", method, redact(path), status, reason)



class Endpoint:
    """``GET /health`` and ``GET /metrics`` over HTTP, from the counters of ``metrics`` and, at scrape
    time, the ``sessions``' tallies, the ``connection`` to Discord and whether ``storage`` takes writes."""

    #: Seconds a connection may sit idle between requests, or take to send a request's header,
    #: before it is closed (aiohttp's keep-alive timer runs from the moment a connection opens): a
    #: scraper reconnects for free, a client that trickles its header cannot hold a socket open.
    idle_seconds = 5.0

    def __init__(self, metrics: Metrics, sessions: Tallies, storage: Storage, connection: Connection, *,
                 shard_count: int | None) -> None:
        self.registry = metrics.registry
        self.storage = storage
        self.connection = connection
        self.shard_count = shard_count
        self.registry.register(_Sessions(sessions))
        self.registry.register(_Guilds(connection))
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/health", self._health)
        app.router.add_get("/metrics", self._metrics)
        # lingering_time: how long the rest of an unread request body is waited for after the answer.
        self._runner = web.AppRunner(app, access_log=None, keepalive_timeout=self.idle_seconds,
                                     lingering_time=self.idle_seconds)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as exc:
            await self.stop()
            raise MetricsPortError(f"/health and /metrics cannot listen on {host}:{port} "
                                   f"({exc.strerror or exc}); check metrics_port and metrics_host.") from None
        self.port = self._runner.addresses[0][1]
        logging.getLogger("spieltisch").info("serving /health and /metrics on http://%s:%s", host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _health(self, request: web.Request) -> web.Response:
        """200 while the bot is connected to Discord (every shard of this process) and its database
        takes writes, else 503."""
        checks = {
            "discord": self._discord(),
            "database": "ok" if self.storage.fault is None else "refuses writes",
        }
        ok = all(value == "ok" for value in checks.values())
        body: dict[str, Any] = {"status": "ok" if ok else "unhealthy", **checks}
        shards = self.connection.own_shards
        if shards:     # which part of the bot this process is; absent when unsharded
            body.update(shards=list(shards), shard_count=self.shard_count)
        return web.Response(text=json.dumps(body), status=200 if ok else 503, content_type="application/json")

    def _discord(self) -> str:
        """``ok``, ``not connected``, or which of this process's shards lost their connection (the
        others go on, so the process as a whole still looks connected)."""
        connection = self.connection
        if not connection.is_ready() or connection.is_closed():
            return "not connected"
        shards = getattr(connection, "shards", None) or {}      # one gateway connection per shard when sharded
        down = sorted(shard_id for shard_id, shard in shards.items() if shard.is_closed())
        if not down:
            return "ok"
        return f"shard{'s' if len(down) > 1 else ''} {','.join(map(str, down))} not connected"

    async def _metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})
