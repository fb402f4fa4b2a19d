"""Capacity: how many live tables one bot process carries at human pace.

Discord's rate limits and shards, not the bot's CPU per request, bound a bot; what one process
must carry is many tables where people think between moves. For each number of tables N the
benchmark builds N live tables of all eight games in turn (four seats: three people, one easy
computer player, pictures on) directly in a fresh database, through ``SessionManager`` as
``bench.restore`` does, each a few random moves in, so starting 2,000 tables takes seconds rather
than 10,000 lobby clicks. Then the bot process starts on that database (its restart redraws every
table), every person opens their hand from the table once and keeps it open (the bot keeps each
open hand current), and each table makes a move about every ``pace`` seconds: its people at their
turn every ``pace`` seconds (a seeded phase per table), its computer player ``pace`` seconds after
its turn came (the bot's ``computer_delay_seconds``), so a computer's turn takes as long as a person's.

The people play as a Discord client shows the game, without a copy of it: at a table's turn they
look at the table and their open hands for the move components of their own seat (a seat whose
hand offers nothing is not to act), and click one at random, a random option of a select, taking
a random in-hand step first where the hand offers only steps. So the harness renders nothing and
keeps no game state, and its own CPU stays small beside the bot's.

After a warm-up of one pace (every table has moved at least once more) comes the measured window:
the bot process's CPU time over it (every thread: the event loop, SQLite's, picture drawing; easy
computer moves run in a thread of the bot), as a share of one core; its resident memory at the
window's end; and the click latency (gateway event -> callback request arriving, as the latency
row measures it) of every click in the window. The harness (the double and the players, this
process) has its CPU share printed beside, so a reader sees whether it, not the bot, set the figure.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.botproc import BotProcess
from bench.cpu import bot_cpu, loop_cpu, workers_cpu
from bench.envinfo import load_average
from bench.live import count_actions, wait_ready
from bench.load import BenchError, LoadDouble, TooLate
from bench.restore import CHANNELS_PER_GUILD, settled
from bot.play.clock import SystemClock
from bot.play.sessions import SessionManager
from bot.registry import playable, presenter
from bot.storage.store import Storage
from bot.transport import ids
from tests.double import components as C
from tests.double.world import Message, User
from tests.e2e import outside as O

#: Seats per table, of them computer players (a quarter), and their level: an easy move is a
#: sensible move at once; a strong one thinks for up to a second in a worker process.
SEATS, COMPUTERS, LEVEL = 4, 1, "easy"
#: Random moves each table is made in the database before the bot starts.
OPENING_MOVES = (2, 6)
#: Clicks a person makes at most at one turn (in-hand steps, then the move).
MAX_CLICKS = 5
#: Hands opened at once while the tables are set up.
OPENING_AT_ONCE = 16
UPDATE_MESSAGE, DEFERRED_UPDATE = 7, 6
#: Seconds the setup waits for a table's first redraw and for a hand opened from it.
SETUP_WAIT = 60.0
#: The full run: tables per bot process, seconds between a table's moves, seconds measured.
FULL_TABLES, PACE, WINDOW = (250, 1000, 2000), 10.0, 30.0


@dataclass
class CapacityResult:
    tables: int
    pace: float
    window: float               # seconds measured
    moves: int                  # accepted in the window, computer moves included
    computer_moves: int
    clicks: list[float]         # latency of every click in the window
    refused: int                # clicks in the window the bot explained instead of taking
    deferred: int               # clicks answered before their move was made (session busy)
    late: int                   # clicks answered after Discord's 3 s or not at all (failed; in the latencies)
    live: int                   # tables still in play at the window's end
    bot_cpu: float              # share of one core over the window
    harness_cpu: float
    loop_cpu: float             # of bot_cpu, the event loop's thread (what every click waits for)
    workers_cpu: float          # the bot's worker processes (computer players), beside bot_cpu
    rss: int
    setup: float                # build + start + redraw + hands opened, seconds
    load_average: str
    requests: dict[str, int] = field(default_factory=dict)     # the bot's requests in the window, by route
    errors: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)    # what the first refusals said

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.window

    @property
    def per_move(self) -> float:
        """The bot process's CPU seconds per accepted move: unlike its share of a core, it holds
        when other processes load the machine."""
        return self.bot_cpu * self.window / self.moves if self.moves else 0.0


def progress(text: str) -> None:
    """A line on stderr while a long run goes on (the report itself goes to stdout at the end)."""
    print(f"bench: capacity: {text}", file=sys.stderr, flush=True)


@dataclass
class _Stats:
    samples: list[tuple[float, float]] = field(default_factory=list)    # (when, latency)
    refused: list[float] = field(default_factory=list)
    deferred: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    @staticmethod
    def count(times: list[float], start: float, end: float) -> int:
        return sum(start <= t < end for t in times)


class _Table:
    """The people of one table; ``turn()`` is what they do when the table's pace comes round."""

    def __init__(self, load: LoadDouble, sid: int, key: str, channel, people: dict[int, User], table: list[str],
                 rng: random.Random, stats: _Stats) -> None:
        self.load, self.sid, self.key, self.channel = load, sid, key, channel
        self.people = people            # seat -> the person sitting there
        self.table = table              # the table's message ids
        self.rng, self.stats = rng, stats
        self.hands: dict[int, str] = {}  # seat -> the id of the hand the person keeps open

    def _messages(self) -> list[Message]:
        return [self.load.double.message(i) for i in self.table]

    async def open_hands(self) -> None:
        """Each person opens their hand from the table. The bot's redraw of this table may still be on
        its way (the start-up waits for as many table edits as there are table messages, and a table
        whose computer moved meanwhile is edited twice while another waits), and on a loaded machine
        a hand may take longer than a test's few seconds to come."""
        button = ids.table(self.sid, "hand")
        where = await self.load.until(
            self.channel, lambda: next((m for m in self._messages() if m.has_component(button)), None),
            timeout=SETUP_WAIT, what=f"the Hand button of the {self.key} table of session {self.sid}")
        for seat, user in self.people.items():
            record = await self.load.click(user, where, button)
            self.load.latency(record)
            self.hands[seat] = (await O.hand_of(self.load.double, record, SETUP_WAIT)).id
            where = next((m for m in self._messages() if m.has_component(button)), where)

    def _offers(self, seat: int, messages: list[Message]) -> list[tuple[Message, dict, str]]:
        """The enabled components for ``seat`` on ``messages``: moves ("m", "s") and in-hand steps ("h")."""
        found = []
        for message in messages:
            for comp in C.walk(message.payload):
                custom_id = comp.get("custom_id")
                if not custom_id or comp.get("disabled") or comp.get("type") not in (C.BUTTON, C.STRING_SELECT):
                    continue
                click = ids.parse(custom_id)
                if click is not None and click.session == self.sid and click.kind in ("m", "s", "h") \
                        and click.seat == seat:
                    found.append((message, comp, click.kind))
        return found

    async def turn(self) -> None:
        """A move by one of the people to act (none: the computer's turn, or the game is over)."""
        double, tables = self.load.double, self._messages()
        acting = {seat: offers for seat in self.people
                  if (offers := self._offers(seat, [*tables, double.message(self.hands[seat])]))}
        if not acting:
            return
        seat = self.rng.choice(sorted(acting))
        offers, user = acting[seat], self.people[seat]
        for _ in range(MAX_CLICKS):
            moves = [o for o in offers if o[2] != "h"]
            message, comp, kind = self.rng.choice(moves or offers)
            if comp["type"] == C.STRING_SELECT:
                value = self.rng.choice(comp["options"])["value"]
                click = self.load.select(user, message, comp["custom_id"], [value])
            else:
                click = self.load.click(user, message, comp["custom_id"])
            try:
                record = await click
            except TooLate as late:         # answered after Discord's 3 s, or not at all: the click failed
                now = time.time()
                self.stats.samples.append((now, late.waited))
                self.stats.late.append(now)
                return
            now = time.time()
            self.stats.samples.append((now, self.load.latency(record)))
            if record.callback_type == DEFERRED_UPDATE:
                self.stats.deferred.append(now)
                return
            if record.callback_type != UPDATE_MESSAGE:
                self.stats.refused.append(now)
                if len(self.stats.reasons) < 3:
                    data = (record.callback or {}).get("data") or {}
                    self.stats.reasons.append(f"{self.key}: {data.get('content', record.callback)}")
                return
            if kind != "h":
                return
            offers = self._offers(seat, [double.message(self.hands[seat])])     # the step redrew the hand
            if not offers:
                return
        raise BenchError(f"the {self.key} hand of session {self.sid} offered steps but no move in {MAX_CLICKS} clicks")


async def build(load: LoadDouble, database: Path, tables: int, rng: random.Random, stats: _Stats
                ) -> tuple[list[_Table], dict[int, int], str]:
    """``tables`` live tables of every game in turn, in the database and the double; the players of
    each, the computer's seat per session, and the first guild's id (where the commands go)."""
    d = load.double
    seeds = itertools.count()
    keys = itertools.cycle(playable())
    storage = await Storage.open(str(database))
    out: list[_Table] = []
    computers: dict[int, int] = {}
    guild = None
    guilds = []
    try:
        manager = SessionManager(storage, SystemClock(), seed_source=lambda: f"bench-capacity-{next(seeds)}")
        while len(out) < tables:
            if guild is None or len(guild.channels) >= CHANNELS_PER_GUILD:
                guild = d.add_guild(f"bench-capacity-{len(guilds)}")
                guilds.append(guild)
            key = next(keys)
            channel = d.add_text_channel(guild, f"{key}-{len(guild.channels)}")
            users = [d.add_user(f"t{len(out)}p{i}") for i in range(SEATS - COMPUTERS)]
            for user in users:
                d.add_member(guild, user)
            host, *guests = users
            session = await manager.open_lobby(int(guild.id), int(channel.id), key, int(host.id), host.name, "en",
                                               lobby_ttl=None)
            for guest in guests:
                await manager.join(session, int(guest.id), guest.name)
            for n in range(COMPUTERS):
                await manager.add_computer(session, int(host.id), f"Computer {n + 1}", LEVEL)
            await manager.start(session, int(host.id))
            for _ in range(rng.randint(*OPENING_MOVES)):
                seat = min(session.to_act())
                action = rng.choice(session.game.legal_actions(session.state, seat))
                await manager.act_for_seat(session, seat, session.counters[seat], action.key)
                if not session.is_live:
                    break
            if not session.is_live:
                continue
            table = [d.world.store_message(channel, {"content": f"table {session.id} ({n + 1})"}).id
                     for n in range(presenter(key).table_messages)]
            ping = d.world.store_message(channel, {"content": "your turn"}).id
            await manager.set_messages(session, table=[int(i) for i in table], ping=int(ping))
            by_id = {int(u.id): u for u in users}
            people = {s: by_id[seat.user_id] for s, seat in enumerate(session.seats) if not seat.played_by_computer}
            computers[session.id] = next(s for s, seat in enumerate(session.seats) if seat.played_by_computer)
            out.append(_Table(load, session.id, key, channel, people, table,
                              random.Random(f"bench-capacity:{session.id}"), stats))
    finally:
        await storage.close()
    return out, computers, guilds[0].id


def _computer_moves(database: Path, computers: dict[int, int], start: float, end: float) -> int:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT session_id, seat FROM actions WHERE at >= ? AND at < ?", (start, end)).fetchall()
        return sum(computers.get(sid) == seat for sid, seat in rows)
    finally:
        db.close()


def _live(database: Path) -> int:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return db.execute("SELECT COUNT(*) FROM sessions WHERE status = 'playing'").fetchone()[0]
    finally:
        db.close()


async def measure(load: LoadDouble, workdir: Path, tables: int, *, pace: float, warmup: float, window: float,
                  profile: Path | None = None) -> CapacityResult:
    """One bot process carrying ``tables`` live tables; its CPU, memory and click latency."""
    started = time.perf_counter()
    database = workdir / f"capacity-{tables}.sqlite3"
    stats = _Stats()
    players, computers, guild_id = await build(load, database, tables, random.Random(f"bench-capacity:{tables}"),
                                               stats)
    progress(f"{tables:,} tables built in the database in {time.perf_counter() - started:.1f} s")
    load.requests.mark()
    counts = load.requests.counts
    patches = "PATCH /channels/*/messages/*"
    wanted = {patches: counts.get(patches, 0) + sum(len(t.table) for t in players)}
    bot = BotProcess(workdir, f"bot-capacity-{tables}", database=database, api_base=load.double.api_base,
                     gateway_url=load.double.gateway_url, guild_id=guild_id, profile=profile, profile_window=True,
                     computer_delay=pace)
    async with bot:
        await wait_ready(load, bot, guild_id, timeout=max(60.0, tables * 0.05))
        await settled(load, bot, wanted, timeout=max(30.0, tables * 0.1))
        progress(f"the bot is up and has redrawn every table ({time.perf_counter() - started:.1f} s)")
        gate = asyncio.Semaphore(OPENING_AT_ONCE)

        async def opened(table: _Table) -> None:
            async with gate:
                await table.open_hands()

        await asyncio.gather(*(opened(t) for t in players))
        setup = time.perf_counter() - started
        progress(f"{sum(len(t.people) for t in players):,} hands open ({setup:.1f} s); "
                 f"{warmup:g} s warm-up, then {window:g} s measured")
        begin = time.time()
        start, end = begin + warmup, begin + warmup + window
        # The harness times the clicks: a pause of its own collector (up to 0.7 s here, with the
        # players' state of a thousand tables) would count as the bot's latency. Its garbage of one
        # warm-up and window is kept until the run ends.
        gc.collect()
        gc.disable()

        async def paced(table: _Table, phase: float) -> None:
            at = begin + phase
            while at < end:
                await asyncio.sleep(max(0.0, at - time.time()))
                await table.turn()
                at += pace

        phases = random.Random(f"bench-capacity-phases:{tables}")
        tasks = [asyncio.create_task(paced(t, phases.uniform(0, pace))) for t in players]
        try:
            await asyncio.sleep(max(0.0, start - time.time()))
            cpu0, harness0, at0 = bot_cpu(bot), time.process_time(), time.time()
            loop0, workers0, sent0 = loop_cpu(bot), workers_cpu(bot), dict(load.requests.counts)
            bot.profile_start()
            done, _ = await asyncio.wait(tasks, timeout=max(0.0, end - time.time()),
                                         return_when=asyncio.FIRST_EXCEPTION)
            cpu1, harness1, at1 = bot_cpu(bot), time.process_time(), time.time()
            bot.profile_stop()
            loop1, workers1, sent1 = loop_cpu(bot), workers_cpu(bot), dict(load.requests.counts)
            rss = bot.memory()["VmRSS"]
            for task in done:
                if task.exception() is not None:
                    raise task.exception()
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            gc.enable()
        errors = bot.errors()
    elapsed = at1 - at0
    result = CapacityResult(
        tables=tables, pace=pace, window=elapsed, moves=count_actions(database, at0, at1),
        computer_moves=_computer_moves(database, computers, at0, at1),
        clicks=[lat for when, lat in stats.samples if at0 <= when < at1],
        refused=_Stats.count(stats.refused, at0, at1), deferred=_Stats.count(stats.deferred, at0, at1),
        late=_Stats.count(stats.late, at0, at1),
        live=_live(database), bot_cpu=(cpu1 - cpu0) / elapsed, harness_cpu=(harness1 - harness0) / elapsed,
        loop_cpu=(loop1 - loop0) / elapsed,
        workers_cpu=sum(cpu - workers0.get(pid, 0.0) for pid, cpu in workers1.items()) / elapsed,
        requests={route: n - sent0.get(route, 0) for route, n in sent1.items() if n > sent0.get(route, 0)},
        rss=rss, setup=setup, load_average=load_average(), errors=errors, reasons=stats.reasons)
    progress(f"{tables:,} tables: bot CPU {result.bot_cpu:.0%} of a core ({result.loop_cpu:.0%} its event loop, "
             f"{result.per_move * 1000:.2f} ms a move), its workers {result.workers_cpu:.0%}, "
             f"harness {result.harness_cpu:.0%}, {result.moves_per_second:.0f} moves/s, {len(result.clicks)} clicks")
    return result


async def run(load: LoadDouble, workdir: Path, counts: tuple[int, ...], *, pace: float, warmup: float,
              window: float, profile: Path | None = None) -> list[CapacityResult]:
    return [await measure(load, workdir, n, pace=pace, warmup=warmup, window=window, profile=profile)
            for n in counts]


async def _main(counts: tuple[int, ...], pace: float, warmup: float, window: float,
                profile: Path | None = None) -> list[CapacityResult]:
    import shutil
    import tempfile
    workdir = Path(tempfile.mkdtemp(prefix="spieltisch-capacity-"))
    load = LoadDouble()
    await load.start()
    try:
        return await run(load, workdir, counts, pace=pace, warmup=warmup, window=window, profile=profile)
    finally:
        await load.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.capacity [--tables 250,1000,2000] [--window S]``: this row alone."""
    import argparse

    from bench.report import ms, percentile
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default=",".join(str(n) for n in FULL_TABLES),
                        help="comma-separated numbers of tables, one bot process each")
    parser.add_argument("--pace", type=float, default=PACE, help="seconds between a table's moves")
    parser.add_argument("--warmup", type=float, default=None, help="seconds before the window (default: the pace)")
    parser.add_argument("--window", type=float, default=WINDOW, help="seconds measured")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="keep a cProfile of the bot's event loop over the window (CPU time) in DIR")
    args = parser.parse_args(argv)
    counts = tuple(int(n) for n in args.tables.split(",") if n)
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    try:
        results = asyncio.run(_main(counts, args.pace, args.pace if args.warmup is None else args.warmup,
                                    args.window, args.profile and args.profile.resolve()))
    except BenchError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 1
    for r in results:
        print(f"{r.tables:>6,} tables: bot CPU {r.bot_cpu:.0%} ({r.loop_cpu:.0%} event loop, "
              f"{r.per_move * 1000:.2f} ms a move), workers {r.workers_cpu:.0%}, RSS {r.rss / 2**20:.0f} MB, "
              f"click p50 {ms(percentile(r.clicks, 50))}, p99 {ms(percentile(r.clicks, 99))} (n={len(r.clicks)}), {r.moves_per_second:.1f} moves/s "
              f"({r.computer_moves} by computers), {r.refused} refused, {r.deferred} deferred, {r.late} too late, "
              f"harness CPU {r.harness_cpu:.0%}, {r.live} live, set up in {r.setup:.0f} s, load {r.load_average}")
        if r.moves:
            sent = sorted(r.requests.items(), key=lambda kv: -kv[1])
            print("        requests a move: " + ", ".join(f"{route} {n / r.moves:.2f}" for route, n in sent))
        for line in r.errors[:3] + r.reasons:
            print(f"        {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
