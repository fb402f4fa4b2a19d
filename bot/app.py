"""The Discord client: wires settings, storage, sessions, timers and the cogs together."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
import discord.gateway
import yarl
from discord.ext import commands

from bot.coach.service import Coach
from bot.ops.config import Settings
from bot.ops.metrics import Endpoint, Metrics
from bot.play.autoplay import Autoplay
from bot.play.changes import Change, Changes
from bot.play.clicks import Clicks
from bot.play.clock import Clock, SystemClock, Timers, sleep_until
from bot.play.computers import ComputerPool
from bot.play.forget import Forget
from bot.play.seasons import SeasonKeeper
from bot.play.sessions import Session, SessionManager
from bot.play.writer import TableWriter
from bot.replays.replays import Replays
from bot.replays.retention import DAY, Retention
from bot.replays.share import Share
from bot.storage.shards import describe, running
from bot.storage.store import Storage, StorageFault
from bot.transport import compat
from bot.transport.clicked import ClickedMessage
from bot.transport.commands_i18n import CatalogueTranslator
from bot.transport.tree import Tree
from bot.transport.webhooks import Tokens

log = logging.getLogger("spieltisch")

COGS = ("cogs.controls", "cogs.games", "cogs.seats", "cogs.results", "cogs.seasons", "cogs.privacy", "cogs.replays")
#: The ``meta`` key under which the bot remembers where it registered its commands.
COMMAND_SCOPE = "command_scope"
#: Discord out of reach at login: no DNS, a refused or dropped connection (aiohttp's connection errors
#: are OSErrors too), a timeout, or Discord's own 5xx after discord.py's retries.
UNREACHABLE = (OSError, aiohttp.ClientError, asyncio.TimeoutError, discord.DiscordServerError)
#: Seconds before the second try to reach Discord at start-up; each wait doubles, up to the longest.
REACH_FIRST = 1.0
REACH_LONGEST = 60.0


def point_at_double(settings: Settings) -> None:
    """Test-only: send discord.py's REST and gateway traffic to the project's Discord double."""
    if settings.testing.api_base_url:
        compat.point_api_at(settings.testing.api_base_url)
    if settings.testing.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.testing.gateway_url)


def testing_seeds(seed: str | None) -> Callable[[], str] | None:
    """Test-only: the seed source ``[testing] seed`` asks for (``None``: the secret one)."""
    if seed is None:
        return None
    count = itertools.count(1)
    return lambda: f"{seed}:{next(count)}"


def _one_line(exc: BaseException) -> str:
    """What went wrong, in one line: Discord's status for its own errors (whose body may be a whole
    HTML page), else the error's text (aiohttp's names the host and the reason)."""
    if isinstance(exc, discord.HTTPException):
        return f"{exc.status} {exc.response.reason}"
    return " ".join(str(exc).split()) or type(exc).__name__


class Spieltisch(commands.Bot):
    """The bot. Everything it knows lives in ``storage``; memory is a cache rebuilt at start-up.

    With ``shard_count`` set, ``Spieltisch(settings)`` is a ``ShardedSpieltisch`` (discord.py's
    ``AutoShardedBot``) running ``shard_ids``; without it, the plain one-connection client as always.
    """

    def __new__(cls, settings: Settings, *args: Any, **kwargs: Any) -> Spieltisch:
        if cls is Spieltisch and settings.sharded:
            cls = ShardedSpieltisch
        return super().__new__(cls)

    def __init__(self, settings: Settings, *, clock: Clock | None = None, seed_source: Callable[[], str] | None = None,
                 storage: Storage | None = None, computers: ComputerPool | None = None, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # The bot never joins voice channels: no warning that PyNaCl or davey (voice libraries) are missing.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        self.metrics = Metrics()
        #: The session for requests on interaction tokens (``bot.transport.webhooks``); discord.py's sends the rest.
        self.tokens = Tokens(self.metrics.answered)
        if settings.sharded:
            options.update(shard_count=settings.shard_count, shard_ids=settings.shard_ids or None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=self.metrics.trace(),
            **options,
        )
        compat.sweep_seldom(self.http)
        compat.read_clicked(self, ClickedMessage)
        self.settings = settings
        self.clock: Clock = clock or SystemClock()
        #: Where each game's secret seed comes from.
        self._seed_source = seed_source or testing_seeds(settings.testing.seed) or secrets.token_hex
        #: Opened by ``python -m bot`` before connecting, so a bad database stops it at once.
        self.storage: Storage | None = storage
        #: Where strong computer moves are made: given (and then closed by whoever gave it), or
        #: started from ``computer_processes`` in ``setup_hook`` and closed with the bot.
        self.computers: ComputerPool | None = computers
        self._own_computers = False
        #: The services, built in this order by ``setup_hook`` (each gets the ones before it it needs).
        self.sessions: SessionManager
        self.endpoint: Endpoint
        self.timers: Timers
        self.changes: Changes
        self.autoplay: Autoplay
        self.tables: TableWriter
        self.forget: Forget
        self.replays: Replays
        self.coach: Coach
        self.clicks: Clicks
        self.seasons: SeasonKeeper
        self.retention: Retention
        #: The daily prune of old action logs (``_prune_daily``), from the end of ``setup_hook``.
        self._pruning: asyncio.Task[None] | None = None
        #: Where the commands were registered at start-up, in words for the start-up line.
        self.synced = "commands not registered (sync_commands is off)"
        #: ``setup_hook`` has begun: login reached Discord, and what fails from here is not retried.
        self._set_up = False

    async def login(self, token: str) -> None:
        """discord.py's login, tried again while Discord cannot be reached (a bot started before the
        network, or during an outage): after 1, 2, 4 … seconds, at most a minute, on the bot's clock,
        one log line per failed attempt, until it gets through or the bot is stopped (``python -m bot``
        cancels it). A token Discord refuses raises ``discord.LoginFailure`` at once, and what fails in
        ``setup_hook`` (which runs inside) is not retried."""
        delay, attempt = REACH_FIRST, 0
        while True:
            try:
                return await super().login(token)
            except UNREACHABLE as exc:
                if self._set_up:
                    raise
                attempt += 1
                log.warning("Discord cannot be reached (%s); attempt %d failed, trying again in %g s",
                            _one_line(exc), attempt, delay)
            # The failed attempt's HTTP session, and its connector with it; the next login opens both anew.
            await self.http.close()
            self.http.connector = discord.utils.MISSING
            await sleep_until(self.clock, self.clock.now() + delay)
            delay = min(delay * 2, REACH_LONGEST)

    async def setup_hook(self) -> None:
        self._set_up = True
        storage = self.storage
        if storage is None:
            storage = self.storage = await Storage.open(self.settings.database_url)
        self.sessions = SessionManager(storage, self.clock, shards=self.settings.shards, seed_source=self._seed_source)
        self.endpoint = Endpoint(self.metrics, self.sessions, storage, self, shard_count=self.settings.shard_count)
        if self.settings.metrics_port is not None:
            await self.endpoint.start(self.settings.metrics_host, self.settings.metrics_port)
        self.timers = self.sessions.timers
        if self.computers is None and self.settings.computer_processes:
            self.computers, self._own_computers = ComputerPool(self.settings.computer_processes), True
        self.changes = Changes()
        self.autoplay = Autoplay(self.sessions, self.timers, self.clock, self.changes, self,
                                 delay=self.settings.computer_delay_seconds,
                                 show_delay=self.settings.computer_show_seconds, computers=self.computers)
        lobby_timeout = self.settings.lobby_timeout_minutes * 60.0
        self.tables = TableWriter(self, self.sessions, self.autoplay, self.changes, self.clock,
                                  lobby_timeout=lobby_timeout)
        # After every change: the timers first (the table shows the deadline they set), then the table.
        self.changes.follow(self.autoplay.follow)
        self.changes.follow(self.tables.follow)
        self.forget = Forget(storage, self.sessions.games)
        self.replays = Replays(storage, self.sessions.games)
        self.coach = Coach(self.sessions, storage, self.clock, self.computers)
        self.clicks = Clicks(self.sessions, self.tables, self.changes, self.forget, self.replays, Share(storage, self.computers),
                             self.clock, lobby_timeout=lobby_timeout, coach=self.coach)
        self.seasons = SeasonKeeper(storage, self.clock, self, shards=self.settings.shards)
        self.sessions.add_listener(self._session_event)
        began = time.perf_counter()
        ended = await self.sessions.restore()
        log.info("restored %d live sessions (%d ended) in %.3f s",
                 len(self.sessions.live()), len(ended), time.perf_counter() - began)
        await self.tree.set_translator(CatalogueTranslator())
        for name in COGS:
            await self.load_extension(name)
        await self.autoplay.restored()
        self.timers.start()
        self.seasons.start()        # catches up on a month's end or a post owed while the bot was down
        for session in self.sessions.live():
            self.tables.restored(session)
        for gone in ended:
            self.tables.ended_on_restore(gone)
        if self.settings.sync_commands:
            await self._sync_commands(storage)
        if self.computers is not None:
            self.computers.start()      # after the rebuild and the sync, which people wait for
        self.retention = Retention(storage, self.settings.replay_days)
        self._pruning = asyncio.create_task(self._prune_daily())

    async def _prune_daily(self) -> None:
        """The retention prune at start-up, then once a day on the bot's clock."""
        while True:
            await self.retention.prune(self.clock.now())
            await sleep_until(self.clock, self.clock.now() + DAY)

    async def pruned(self) -> None:
        """Wait until the prune that the clock's time calls for has run (tests advance the clock by
        days, then wait here), like ``Timers.idle``."""
        while self.retention.last is None or self.retention.last + DAY <= self.clock.now():
            if self._pruning is None or self._pruning.done():
                if self._pruning is not None and not self._pruning.cancelled() and self._pruning.exception():
                    raise RuntimeError("the daily prune died") from self._pruning.exception()
                return
            await asyncio.sleep(0)

    async def _sync_commands(self, storage: Storage) -> None:
        """Register the commands in their scope, and remove the copies a change of scope left behind
        (the global ones when a test server is set, the old server's when it changes or is unset)."""
        guild_id = self.settings.command_guild_id
        scope = "global" if guild_id is None else str(guild_id)
        before = await storage.remembered(COMMAND_SCOPE)
        if guild_id is None:
            synced = await self.tree.sync()
        else:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        stale: list[int | None] = []
        if before != scope:
            if guild_id is not None:
                stale.append(None)
            if before not in (None, "global"):
                stale.append(int(before))
        removed = [where for where in [await self._remove_commands(where) for where in stale] if where]
        with contextlib.suppress(StorageFault):     # logged by the storage; next start tries again
            await storage.remember(COMMAND_SCOPE, scope)
        self.synced = f"{len(synced)} commands registered {self.settings.command_scope}"
        if removed:
            self.synced += f", stale copies removed ({', '.join(removed)})"
        log.info("%s", self.synced)

    async def _remove_commands(self, guild_id: int | None) -> str | None:
        """Sync an empty command list to one scope; says where, in words (``None`` if Discord refused)."""
        where = "globally" if guild_id is None else f"in server {guild_id}"
        assert self.application_id is not None
        try:
            if guild_id is None:
                await self.http.bulk_upsert_global_commands(self.application_id, [])
            else:
                await self.http.bulk_upsert_guild_commands(self.application_id, guild_id, [])
        except discord.HTTPException as exc:
            log.warning("could not remove the old commands %s: %s", where, exc)
            return None
        return where

    @property
    def own_shards(self) -> tuple[int, ...]:
        """The shards this process runs (``shard_ids``, or all ``shard_count``); empty when unsharded."""
        return running(self.settings.shard_count, self.settings.shard_ids)

    async def on_ready(self) -> None:
        shards = f", {describe(self.settings.shard_count, self.settings.shard_ids)}" if self.own_shards else ""
        servers = f"{len(self.guilds)} server{'' if len(self.guilds) == 1 else 's'}"
        log.info("logged in as %s (id %s) in %s%s; %s", self.user, self.user.id if self.user else "?",
                 servers, shards, self.synced)

    async def _session_event(self, what: str, session: Session) -> None:
        if what == "lobby_expired":
            await self.changes.tell(Change(session))

    async def close(self) -> None:
        try:
            if getattr(self, "endpoint", None) is not None:
                await self.endpoint.stop()
            if self._pruning is not None:
                self._pruning.cancel()
                await asyncio.wait({self._pruning})
            if getattr(self, "tables", None) is not None:
                await self.tables.close()
            if getattr(self, "autoplay", None) is not None:
                self.autoplay.close()
            if getattr(self, "coach", None) is not None:
                self.coach.close()
            if getattr(self, "timers", None) is not None:
                await self.timers.stop()
            if getattr(self, "seasons", None) is not None:
                await self.seasons.stop()
            if self._own_computers and self.computers is not None:
                await self.computers.close()
                self.computers = None
            if self.storage is not None:
                await self.storage.close()
                self.storage = None
        finally:
            await self.tokens.close()
            await super().close()


class ShardedSpieltisch(Spieltisch, commands.AutoShardedBot):
    """The bot as some shards of a bigger whole: one gateway connection per shard in ``shard_ids``
    (all ``shard_count`` if empty); it restores and times only the tables of those shards' guilds."""
