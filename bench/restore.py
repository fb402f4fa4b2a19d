"""A restart with many live sessions: how long the rebuild takes and what the process then weighs.

The sessions are made in this process through ``SessionManager`` itself (lobby, two joins, start,
a few random legal moves each), so the database is exactly what a running bot would have written;
each gets a table and a turn ping in the double, so the restarted bot has real messages to redraw.
Then the bot process starts on that database. Its rebuild runs inside ``setup_hook``, between two
requests the double sees: ``GET /oauth2/applications/@me`` (answered just before ``setup_hook``)
and the command sync (its first request after the rebuild). Memory is read from
``/proc/<pid>/status`` once the bot has redrawn every table.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from dataclasses import dataclass, field

from bench.botproc import BotProcess
from bench.live import Startup, wait_ready
from bench.load import BenchError, LoadDouble
from bot.play.clock import SystemClock
from bot.play.sessions import SessionManager
from bot.storage.store import Storage

CHANNELS_PER_GUILD = 100
#: The restart's SQLite database, in the work directory.
DATABASE = "restore.sqlite3"
SYNCHRONOUS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


@dataclass
class Built:
    sessions: int
    actions: int
    journal_mode: str
    synchronous: str
    seconds: float


@dataclass
class RestoreResult:
    built: Built
    in_process: float           # SessionManager.restore() on the same database, timed here
    startup: Startup
    redraw: float               # command sync -> every table redrawn and pinged
    rss: int
    peak: int
    errors: list[str] = field(default_factory=list)


async def build(load: LoadDouble, database, sessions: int, moves: tuple[int, int],
                rng: random.Random) -> Built:
    d = load.double
    started = time.perf_counter()
    seeds = itertools.count()
    storage = await Storage.open(str(database))
    try:
        journal = str(await storage.pragma("journal_mode"))
        synchronous = await storage.pragma("synchronous")
        manager = SessionManager(storage, SystemClock(), seed_source=lambda: f"bench-restore-{next(seeds)}")
        live = actions = 0
        guilds = itertools.count()
        guild = None
        while live < sessions:
            if guild is None or len(guild.channels) >= CHANNELS_PER_GUILD:
                guild = d.add_guild(f"bench-restore-{next(guilds)}")
            channel = d.add_text_channel(guild, f"calcory-{len(guild.channels)}")
            host, *guests = (int(d.snowflake()) for _ in range(3))
            session = await manager.open_lobby(int(guild.id), int(channel.id), "calcory", host, "Host", "en",
                                               lobby_ttl=None)
            for n, guest in enumerate(guests):
                await manager.join(session, guest, f"Guest {n + 1}")
            await manager.start(session, host)
            game = session.game
            for _ in range(rng.randint(*moves)):
                seat = min(session.to_act())
                action = rng.choice(game.legal_actions(session.state, seat))
                await manager.act_for_seat(session, seat, session.counters[seat], action.key)
                actions += 1
                if not session.is_live:
                    break
            if not session.is_live:
                continue
            table = [int(d.world.store_message(channel, {"content": f"table {session.id} ({half})"}).id)
                     for half in (1, 2)]
            ping = int(d.world.store_message(channel, {"content": "your turn"}).id)
            await manager.set_messages(session, table=table, ping=ping)
            live += 1
    finally:
        await storage.close()
    return Built(live, actions, journal, SYNCHRONOUS.get(synchronous, str(synchronous)),
                 time.perf_counter() - started)


async def restore_in_process(database) -> float:
    """``SessionManager.restore`` alone (no Discord, no cogs): the rebuild's own cost."""
    storage = await Storage.open(str(database))
    try:
        manager = SessionManager(storage, SystemClock())
        started = time.perf_counter()
        await manager.restore()
        return time.perf_counter() - started
    finally:
        await storage.close()


async def run_restore(load: LoadDouble, workdir, command_guild_id: str, *, sessions: int,
                      moves: tuple[int, int], profile=None) -> RestoreResult:
    database = workdir / DATABASE
    built = await build(load, database, sessions, moves, random.Random("bench:restore"))
    return await restart(load, workdir, command_guild_id, database, built, profile=profile)


async def restart(load: LoadDouble, workdir, command_guild_id: str, database, built: Built, *,
                  name: str = "bot-restore", profile=None) -> RestoreResult:
    """The rebuild timed in this process, then the bot started on ``database`` (an SQLite file or a
    database_url) until it has redrawn every live table; the rows of either store."""
    d = load.double
    in_process = await restore_in_process(database)
    load.requests.mark()
    counts = load.requests.counts
    before = {key: counts.get(key, 0) for key in _REDRAW}
    bot = BotProcess(workdir, name, database=database, api_base=d.api_base,
                     gateway_url=d.gateway_url, guild_id=command_guild_id, profile=profile)
    async with bot:
        startup = await wait_ready(load, bot, command_guild_id)
        wanted = {key: before[key] + per * built.sessions for key, per in _REDRAW.items()}
        redrawn = await settled(load, bot, wanted, timeout=max(30.0, built.sessions * 0.05))
        memory = bot.memory()
        errors = bot.errors()
    return RestoreResult(built, in_process, startup, redrawn - startup.synced, memory["VmRSS"],
                         memory["VmHWM"], errors)


#: What the restarted bot sends per restored session: both table messages and a fresh turn ping
#: (the old one deleted).
_REDRAW = {
    "PATCH /channels/*/messages/*": 2,
    "POST /channels/*/messages": 1,
    "DELETE /channels/*/messages/*": 1,
}
QUIET = 0.5


async def settled(load: LoadDouble, bot: BotProcess, wanted: dict[str, int], timeout: float) -> float:
    """Until the bot has sent every redraw it owes and gone quiet; the time of its last request."""
    requests = load.requests
    end = time.time() + timeout
    while True:
        if not bot.alive():
            raise BenchError("the bot process exited during the redraw")
        done = all(requests.counts.get(key, 0) >= n for key, n in wanted.items())
        now = time.time()
        if done and now - requests.last_at >= QUIET:
            return requests.last_at
        if now > end:
            have = {key: requests.counts.get(key, 0) for key in wanted}
            raise BenchError(f"the restarted bot did not redraw every table within {timeout:g} s: "
                             f"wanted {wanted}, saw {have}")
        await asyncio.sleep(0.05)
