"""Games in progress: click latency one click at a time, then throughput with every table busy.

One guild, one channel per game, three players per table. The bot starts on an empty database,
the players open their games through /start and the lobby, then:

1. latency: one click at a time, table after table, while every game is in progress; each move's
   time runs from the double dispatching INTERACTION_CREATE to the bot's callback request arriving
   (the bot commits the move before it answers);
1b. the same while strong computer players think without a pause at two other tables
   (``bench.thinking``);
2. throughput: every table's players click without think time, all at once, for a warm-up and then
   a measured window; the figure is the actions the bot committed in the window, counted in its
   database afterwards.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from dataclasses import dataclass, field

from bench import thinking
from bench.botproc import BotProcess
from bench.load import BenchError, LoadDouble
from bench.players import Stats, TablePlayers

OPENING_AT_ONCE = 10


@dataclass
class Startup:
    """Request arrivals around the bot's ``setup_hook`` (login done -> commands synced)."""

    spawned: float
    logged_in: float            # GET /oauth2/applications/@me: setup_hook starts when it is answered
    synced: float               # PUT .../commands: the first request after the rebuild
    connected: float            # the gateway saw IDENTIFY

    @property
    def setup_hook(self) -> float:
        return self.synced - self.logged_in

    @property
    def to_connected(self) -> float:
        return self.connected - self.spawned


@dataclass
class LiveResult:
    games: int
    latencies: list[float]
    thinking_latencies: list[float]
    strong_moves: int           # made at the thinking tables while those clicks were timed
    load_latencies: list[float]
    actions: int
    window: float
    bot_cpu: float              # share of one core during the window
    bench_cpu: float
    rss: int
    startup: Startup
    stats: Stats
    load_stats: Stats
    guild_id: str
    errors: list[str] = field(default_factory=list)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.window


async def wait_ready(load: LoadDouble, bot: BotProcess, guild_id: str, timeout: float = 60.0) -> Startup:
    """Until the bot has synced its commands and identified on the gateway; the start-up's timings."""
    d = load.double

    def ready() -> bool:
        return d.gateway.connected and "start" in d.commands.get(guild_id, {})

    waiter = asyncio.create_task(d.wait_until(ready, timeout, "the bot to sync its commands and connect"))
    died = asyncio.create_task(bot.proc.wait())
    try:
        done, _ = await asyncio.wait({waiter, died}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        died.cancel()
        if not waiter.done():
            waiter.cancel()
    if waiter not in done:
        raise BenchError(f"the bot process exited ({bot.proc.returncode}) before it was ready")
    if waiter.exception() is not None:
        raise BenchError(f"the bot did not get ready within {timeout:g} s")
    connected = time.time()
    firsts = load.requests.firsts
    try:
        logged_in = firsts["GET /oauth2/applications/@me"]
        synced = firsts["PUT /applications/*/guilds/*/commands"]
    except KeyError as missing:
        raise BenchError(
            f"the bot's start-up did not make the request {missing}; saw {sorted(firsts)}") from None
    return Startup(bot.spawned_at, logged_in, synced, connected)


def count_actions(database, start: float, end: float) -> int:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM actions WHERE at >= ? AND at < ?", (start, end)).fetchone()[0]
    finally:
        db.close()


async def run_live(load: LoadDouble, workdir, *, games: int, players: int, latency_moves: int, warmup: float,
                   window: float, profile=None, computer_processes: int | None = None) -> LiveResult:
    d = load.double
    guild = d.add_guild("bench-live")
    stats = Stats()
    tables = seat_players(load, guild, games, players, stats)
    database = workdir / "live.sqlite3"
    load.requests.mark()
    bot = BotProcess(workdir, "bot-live", database=database, api_base=d.api_base, gateway_url=d.gateway_url,
                     guild_id=guild.id, profile=profile, computer_processes=computer_processes)
    async with bot:
        startup = await wait_ready(load, bot, guild.id)
        await open_games(tables)

        # 1. latency: one click at a time over every table in progress
        i = await click_in_turn(tables, stats, latency_moves)
        latencies = stats.latencies()

        # 1b. the same while two strong computer players think
        thinkers = await thinking.open_tables(load, guild)
        thinking_stats = Stats()
        for table in tables:
            table.stats = thinking_stats
        began = time.time()
        i = await click_in_turn(tables, thinking_stats, latency_moves, i)
        strong = thinking.strong_moves(database, began, time.time())
        await thinking.stop_tables(load, thinkers)

        # 2. throughput: every table at once
        load_stats = Stats()
        for table in tables:
            table.stats = load_stats
        stop = asyncio.Event()

        async def play(table: TablePlayers) -> None:
            while not stop.is_set():
                await table.move()

        tasks = [asyncio.create_task(play(t)) for t in tables]
        try:
            await _watch(tasks, warmup)
            start, bot_cpu0, bench_cpu0 = time.time(), bot.cpu_seconds(), time.process_time()
            await _watch(tasks, window)
            end, bot_cpu1, bench_cpu1 = time.time(), bot.cpu_seconds(), time.process_time()
            rss = bot.memory()["VmRSS"]
            stop.set()
            await asyncio.gather(*tasks)
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = end - start
        errors = bot.errors()
    return LiveResult(
        games=games, latencies=latencies, thinking_latencies=thinking_stats.latencies(), strong_moves=strong,
        load_latencies=load_stats.latencies(start, end),
        actions=count_actions(database, start, end), window=elapsed,
        bot_cpu=(bot_cpu1 - bot_cpu0) / elapsed, bench_cpu=(bench_cpu1 - bench_cpu0) / elapsed, rss=rss,
        startup=startup, stats=stats, load_stats=load_stats, guild_id=guild.id, errors=errors,
    )


def seat_players(load: LoadDouble, guild, games: int, players: int, stats: Stats) -> list[TablePlayers]:
    """One channel per game in ``guild``, ``players`` new members at each (seeded by the table's number)."""
    d = load.double
    tables = []
    for g in range(games):
        channel = d.add_text_channel(guild, f"calcory-{g}")
        users = [d.add_user(f"g{g}p{i}") for i in range(players)]
        for user in users:
            d.add_member(guild, user)
        tables.append(TablePlayers(load, channel, users, random.Random(f"bench:{g}"), stats))
    return tables


async def open_games(tables: list[TablePlayers]) -> None:
    """Every table's game opened through /start and its lobby, a few at a time."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def opened(table: TablePlayers) -> None:
        async with gate:
            await table.new_game()

    await asyncio.gather(*(opened(t) for t in tables))


async def click_in_turn(tables: list[TablePlayers], stats: Stats, moves: int, i: int = 0) -> int:
    """One click at a time, table after table from the ``i``-th, until ``stats`` counts ``moves``;
    the next table's index."""
    while stats.moves < moves:
        await tables[i % len(tables)].move()
        i += 1
    return i


@dataclass
class ClickResult:
    """Phase 1 alone (``run_clicks``): the click latencies on some database."""

    games: int
    latencies: list[float]
    startup: Startup
    stats: Stats
    errors: list[str] = field(default_factory=list)


async def run_clicks(load: LoadDouble, workdir, database: str, *, name: str, games: int, players: int,
                     latency_moves: int, profile=None, computer_processes: int | None = None) -> ClickResult:
    """Only the click latency of ``run_live`` (phase 1), with the bot on ``database`` (a database_url):
    the same tables and players in a guild of their own, nothing else timed."""
    guild = load.double.add_guild(f"bench-live-{name}")
    stats = Stats()
    tables = seat_players(load, guild, games, players, stats)
    load.requests.mark()
    bot = BotProcess(workdir, f"bot-live-{name}", database=database, api_base=load.double.api_base,
                     gateway_url=load.double.gateway_url, guild_id=guild.id, profile=profile,
                     computer_processes=computer_processes)
    async with bot:
        startup = await wait_ready(load, bot, guild.id)
        await open_games(tables)
        await click_in_turn(tables, stats, latency_moves)
        errors = bot.errors()
    return ClickResult(games, stats.latencies(), startup, stats, errors)


async def _watch(tasks: list[asyncio.Task], seconds: float) -> None:
    """Let the players play for ``seconds``; a player that crashed ends the run with its error."""
    done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_EXCEPTION)
    for task in done:
        if task.exception() is not None:
            raise task.exception()
