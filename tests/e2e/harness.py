"""The bot under test, started in-process against the Discord double, plus helpers to read a table."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import discord
import discord.gateway
import discord.http
import yarl

from bot.app import Spieltisch
from bot.ops.config import Settings
from bot.play.clock import ManualClock
from bot.play.computers import ComputerPool
from tests.double import DiscordDouble
from tests.double import payloads as P

#: The name discord.py gives the task that runs one slash command (``CommandTree._from_interaction``).
COMMAND_TASK = "CommandTree-invoker"


@dataclass
class Env:
    double: DiscordDouble
    guild: object
    channel: object
    thread: object
    users: dict[str, object]
    #: An SQLite file, or a PostgreSQL ``database_url``.
    database: Path | str
    clock: ManualClock
    monkeypatch: object
    bot: Spieltisch | None = None
    #: The worker pool for strong moves the bot is given; without one, the bot starts
    #: ``computer_processes`` workers of its own (none: strong moves are made in a thread).
    computers: ComputerPool | None = None
    computer_processes: int = 0
    task: asyncio.Task | None = None
    seeds: itertools.count = field(default_factory=lambda: itertools.count(1))
    seen: dict = field(default_factory=dict)
    #: Settings of the bot besides its token and database (``metrics_port``, ``command_guild_id`` …).
    settings: dict = field(default_factory=dict)
    token: str = "test-token"

    def __post_init__(self) -> None:
        if self.double.time is not self.clock:
            raise ValueError("the bot and the double must share one clock: make the double with clock=Env's clock")

    def __getattr__(self, name: str):
        users = self.__dict__.get("users", {})
        if name in users:
            return users[name]
        raise AttributeError(name)

    async def start_bot(self) -> Spieltisch:
        self.bot, self.task = await self.launch(self.settings)
        return self.bot

    async def launch(self, settings: dict) -> tuple[Spieltisch, asyncio.Task]:
        """Start a bot with ``settings`` on the database and the double: ``start_bot``'s, or one more
        (another process's shards); ``halt`` stops one started so."""
        self.monkeypatch.setattr(discord.http.Route, "BASE", self.double.api_base)
        self.monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                                 yarl.URL(self.double.gateway_url))
        settings = Settings(token=self.token, database_url=str(self.database),
                            **{"computer_processes": self.computer_processes, **settings})
        bot = Spieltisch(settings, clock=self.clock, seed_source=lambda: f"seed-{next(self.seeds)}",
                         computers=self.computers, guild_ready_timeout=0.01)
        bot.before_identify_hook = _identify_at_once
        task = asyncio.create_task(bot.start(self.token))
        await self.double.wait_for_bot()
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        return bot, task

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.halt(self.bot, self.task)
            self.bot = self.task = None

    @staticmethod
    async def halt(bot: Spieltisch, task: asyncio.Task) -> None:
        await bot.close()
        await asyncio.wait_for(task, 10)

    async def settle(self) -> None:
        """Until the bot finished every command and click it got and drew every table it owes (event
        driven). A command goes on after its answer (it tells the change, the timers are planned,
        then the table is woken), so its task is waited for too."""
        while commands := [task for task in asyncio.all_tasks()
                           if task.get_name() == COMMAND_TASK and not task.done()]:
            await asyncio.wait(commands)
        await self.bot.clicks.quiet.wait()
        await self.bot.tables.flush()

    def session(self, channel=None):
        """The channel's live session, or the last one seen there once it has ended."""
        key = int((channel or self.channel).id)
        live = self.bot.sessions.by_channel(key)
        if live is not None:
            self.seen[key] = live.id
            return live
        return self.bot.sessions.get(self.seen[key]) if key in self.seen else None

    def public(self, channel=None) -> list:
        return self.double.messages(channel or self.channel)

    def table_messages(self, channel=None) -> list:
        session = self.session(channel)
        ids = [str(i) for i in session.messages.get("table", [])]
        return [self.double.message(i) for i in ids]


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py waits 5 s before each shard's IDENTIFY after the first (Discord's identify rate
    limit); the double has none, and tests do not wait on the wall clock."""


def make_double(clock: ManualClock) -> tuple[DiscordDouble, object, object, object, dict]:
    """The double on the bot's clock, with a guild, a channel, a thread in it and five users."""
    d = DiscordDouble(clock=clock)
    guild = d.add_guild("Testserver")
    channel = d.add_text_channel(guild, "spiele")
    thread = d.add_thread(channel, "calcory-1")
    users = {
        "ann": d.add_user("ann"),
        "bob": d.add_user("bob", locale="de"),
        "cem": d.add_user("cem"),
        "dia": d.add_user("dia"),
        "mod": d.add_user("mod"),
    }
    for name, user in users.items():
        d.add_member(guild, user, permissions=P.MANAGE_GUILD if name == "mod" else 0)
    return d, guild, channel, thread, users
