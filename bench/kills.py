"""``python -m bench.kills [--kills 60] [--tables 3] [--every 80] [--seed 1]``: SIGKILL the bot at
random points of its request stream while people play, restart it, and count what went wrong.

The bot runs as its own process (``python -m bot``) against the Discord double in this process.
Players play Calcory at a few tables, seeing only what a client shows (they read the bot's SQLite
file only to plan a legal move, as the restart tests do). A seeded kill point is the n-th request
the bot sends to the double after the last restart: killed as the request arrives (Discord never
sees it) or once the double has handled it (Discord did the work, the bot never learns it). The bot
deals from the seed too (the test-only ``[testing] seed``), so a run is repeatable as far as the timing
of the tables against each other allows. After the last kill every table must still play. It prints

    moves 1335, kills 60: lost 0, doubled 0, games without a table 0

- lost: a move a player saw accepted (the clicked message redrawn by the answer) that is not in
  the action log;
- doubled: an entry of the action log that no distinct click accounts for (each click carries the
  seat's move counter, so one click can explain one entry only);
- games without a table: a running game whose stored table does not come to show its current
  turn, or whose buttons do not take a move, while the bot is up.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bot.i18n import catalogue, forms
from bot.transport import ids
from games import REGISTRY
from games.calcory import SLOTS
from tests.double import DiscordDouble, NoBotConnected
from tests.e2e import outside as O
from tests.e2e.bot_process import BotProcess, clean_env, stored_session, write_config

UPDATE_MESSAGE = 7
#: How long a table may take to show the current turn while the bot is up before it counts as stuck.
STUCK_AFTER = 20.0
#: Re-read the database this often while waiting for the table (a lost answer may have moved it on).
REPLAN_AFTER = 1.0
#: How long a player looks again after a click that could not be made.
PAUSE = 0.5
#: How long a lobby may have no message before its host gives up on it with /stop.
LOBBY_LOST = 3.0
#: How often a player stops when Stop is legal.
STOP_CHANCE = 0.25
#: Moves every table makes after the last restart (the tables must still work).
MOVES_AFTER = 3
#: Hand lines that are a refusal, not the hand after a move.
NOTICES = frozenset(text for key, entry in catalogue("en").items() for text in forms(entry)
                    if key.split(".")[0] in ("core", "table") and "{" not in text)


@dataclass
class Outcome:
    moves: int = 0
    kills: int = 0
    lost: list = field(default_factory=list)
    doubled: list = field(default_factory=list)
    stuck: list = field(default_factory=list)

    def __str__(self) -> str:
        return (f"moves {self.moves}, kills {self.kills}: lost {len(self.lost)}, doubled {len(self.doubled)}, "
                f"games without a table {len(self.stuck)}")


class Stuck(AssertionError):
    """A table (or lobby) stopped working while the bot was up; counted, and that table plays no more."""


class Bot:
    """The bot process of the moment: started, killed at the armed request, started again."""

    def __init__(self, double: DiscordDouble, workdir: Path, database: Path, seed: int) -> None:
        self.d = double
        self.seed = seed
        self.workdir = workdir
        self.database = database
        self.proc: BotProcess | None = None
        self.generation = 0
        self.outputs: list[str] = []
        self.killed = asyncio.Event()

    async def start(self) -> None:
        self.generation += 1
        # The double's port, and deals from the run's seed: a new seed per process, or every restart
        # would deal its first game like the first process did.
        config = write_config(self.workdir / "config.toml", self.d, self.database,
                              seed=f"kills:{self.seed}:{self.generation}")
        self.proc = BotProcess([str(config)], cwd=self.workdir, env=clean_env(),
                               log=self.workdir / f"bot-{self.generation}.log")
        await self.d.wait_for_bot(timeout=60)

    def kill(self, _record=None) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.outputs.append(self.proc.output())
        self.generation += 1
        self.killed.set()

    def stop(self) -> None:
        if self.proc is not None and self.proc.proc.poll() is None:
            self.kill()

    def up(self) -> bool:
        return self.d.gateway.connected

    async def kill_at(self, nth: int, handled: bool) -> None:
        """Arm the kill at the ``nth`` request from now; return once it happened and the bot is back."""
        self.killed.clear()
        self.d.faults.clear()
        self.d.fault("*", "*", nth=nth, then=self.kill, status=None if handled else 503, after=handled)
        await self.killed.wait()
        await self.d.wait_until(lambda: not self.d.gateway.connected, 30, "the gateway to notice the kill")
        self.d.faults.clear()
        await self.start()


class Table:
    """Two players at one channel, starting Calcory games one after another."""

    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        d = run.d
        self.channel = d.add_text_channel(run.guild, f"calcory-{index}")
        self.users = [d.add_user(f"p{index}a"), d.add_user(f"p{index}b")]
        for user in self.users:
            d.add_member(run.guild, user)
        self.by_id = {user.id: user for user in self.users}
        self.rng = random.Random(f"{run.seed}:table:{index}")
        self.lobby_lost: dict[int, float] = {}
        self.lobby_key: tuple | None = None
        self.lobby_since = 0.0

    # -- what the database says (to plan only) ---------------------------------------------
    def live(self):
        db = sqlite3.connect(self.run.database)
        try:
            row = db.execute("SELECT id FROM sessions WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                             (int(self.channel.id),)).fetchone()
        finally:
            db.close()
        return stored_session(self.run.database, row[0]) if row else None

    # -- clicking --------------------------------------------------------------------------
    async def _interact(self, act):
        """One click; ``None`` if the bot was down or died before answering (the user saw a failure)."""
        run = self.run
        await run.d.wait_until(run.bot.up, 60, "the bot to be up")
        generation = run.bot.generation
        try:
            record = await act(expect_ack=False)
        except (NoBotConnected, ConnectionError):
            await run.d.next_change(PAUSE)      # the connection is going down with the bot
            return None
        except AssertionError:
            await run.d.next_change(PAUSE)      # the message changed under the user's finger: look again
            return None
        await run.d.wait_until(lambda: record.callback is not None or record.rejected
                               or run.bot.generation != generation, 30, f"an answer to {record}")
        return record if record.callback is not None else None

    async def click(self, user, message, custom_id):
        return await self._interact(lambda **kw: self.run.d.click(user, message, custom_id, **kw))

    async def select(self, user, message, custom_id, values):
        return await self._interact(lambda **kw: self.run.d.select(user, message, custom_id, values, **kw))

    def stuck(self, why: str) -> Stuck:
        self.run.outcome.stuck.append(why)
        return Stuck(why)

    # -- playing ---------------------------------------------------------------------------
    async def step(self) -> bool:
        """Start a game or make a move; ``True`` when a move was seen accepted."""
        stored = self.live()
        if stored is None:
            await self.click_start()
        elif stored.status == "lobby":
            await self.lobby(stored)
        else:
            return await self.move(stored)
        return False

    async def click_start(self) -> None:
        await self._interact(lambda **kw: self.run.d.slash(self.users[0], self.channel, "start", game="calcory", **kw))

    async def lobby(self, stored) -> None:
        message = self.run.d.world.messages.get(str(stored.messages.get("lobby")))
        if message is None:         # killed before the lobby message was posted or its id stored?
            now = asyncio.get_running_loop().time()
            since = self.lobby_lost.setdefault(stored.id, now)
            if now - since < LOBBY_LOST:
                await self.run.d.next_change(PAUSE)
                return
            await self._interact(lambda **kw: self.run.d.slash(self.users[0], self.channel, "stop", **kw))
            return
        now = asyncio.get_running_loop().time()
        key = (stored.id, len(stored.seats), self.run.bot.generation)
        if self.lobby_key != key:
            self.lobby_key, self.lobby_since = key, now
        elif now - self.lobby_since > STUCK_AFTER:
            raise self.stuck(f"lobby {stored.id}: {len(stored.seats)} seated and no progress for "
                             f"{STUCK_AFTER:g} s with the bot up")
        seated = {str(seat["user_id"]) for seat in stored.seats}
        guest = self.users[1]
        if guest.id not in seated:
            await self.click(guest, message, ids.lobby(stored.id, "join"))
        else:
            await self.click(self.users[0], message, ids.lobby(stored.id, "start"))

    def tables(self, stored) -> list:
        world = self.run.d.world.messages
        return [world[str(i)] for i in stored.messages.get("table") or () if str(i) in world]

    async def move(self, stored) -> bool:
        state, sid = stored.state, stored.id
        seat = state.active
        counter = sum(1 for s, _ in stored.log if s == seat)
        run = self.run
        loop = asyncio.get_running_loop()
        await run.d.wait_until(run.bot.up, 60, "the bot to be up")
        generation = run.bot.generation
        deadline = loop.time() + STUCK_AFTER
        while True:
            tables = self.tables(stored)
            if O.drawn_for(tables, sid, seat, counter):
                break
            if run.bot.generation != generation:
                return False          # a restart: plan again once it is up
            if loop.time() > deadline:
                shown = sorted({c.rsplit(":", 1)[0] for c in O.move_ids(tables)})
                raise self.stuck(f"session {sid}: the table {stored.messages} shows {shown}, not seat {seat}'s "
                                 f"move {counter}, {STUCK_AFTER:g} s after the bot came up")
            try:
                await run.d.wait_until(lambda known=stored: O.drawn_for(self.tables(known), sid, seat, counter)
                                       or run.bot.generation != generation, REPLAN_AFTER)
            except AssertionError:
                fresh = self.live()
                if fresh is None or fresh.id != sid or fresh.log != stored.log:
                    return False      # the game moved on (an answer lost in a kill): plan again
                stored = fresh        # the table's ids may have been stored since
        user = self.by_id[stored.user_of(seat)]
        key = self.rng.choice(stored_legal(stored, seat))
        if key.startswith("ret:"):
            return await self._put_back(stored, tables, user, seat, counter, key)
        custom_id = ids.move(sid, seat, counter, key)
        message = next((m for m in tables if m.has_component(custom_id)), None)
        if message is None:
            raise RuntimeError(f"the legal move {custom_id} has no button on the table")
        run.sent.add((sid, seat, counter, key))
        record = await self.click(user, message, custom_id)
        if record is not None and record.callback_type == UPDATE_MESSAGE:
            run.accepted.append((sid, seat, counter, key))
            return True
        return False

    async def _put_back(self, stored, tables, user, seat: int, counter: int, key: str) -> bool:
        sid = stored.id
        card, slot = key.removeprefix("ret:").split("-")
        hand_id = ids.table(sid, "hand")
        holder = next((m for m in tables if m.has_component(hand_id)), None)
        if holder is None:
            return False
        opened = await self.click(user, holder, hand_id)
        if opened is None:
            return False
        try:
            hand = await O.hand_of(self.run.d, opened)
        except AssertionError:      # killed before the hand was sent
            return False
        card_select = ids.hand_step(sid, seat, counter, "card")
        if hand.has_component(card_select):
            picked = await self.select(user, hand, card_select, [card])
            if picked is None:
                return False
        empty = [s for s, c in zip(SLOTS, stored.state.grid, strict=True) if not c]
        slot_select = ids.move_select(sid, seat, counter, f"ret:{card}-|{empty.index(slot) // 25}")
        if not hand.has_component(slot_select):
            return False
        self.run.sent.add((sid, seat, counter, key))
        record = await self.select(user, hand, slot_select, [slot])
        if record is None or record.callback_type != UPDATE_MESSAGE:
            return False
        lines = hand.text.splitlines()
        if lines and lines[-1] in NOTICES:
            return False              # refused: the hand says why
        self.run.accepted.append((sid, seat, counter, key))
        return True


def stored_legal(stored, seat: int) -> list[str]:
    """The moves to choose from: every legal one, or Stop now and then (stopping ends games)."""
    keys = [action.key for action in REGISTRY["calcory"].legal_actions(stored.state, seat)]
    stop = "stop" in keys and random.Random(f"{stored.id}:{len(stored.log)}").random() < STOP_CHANCE
    return ["stop"] if stop else keys


class Run:
    def __init__(self, workdir: Path, *, kills: int, tables: int, every: int, seed: int) -> None:
        self.workdir = workdir
        self.kills, self.every, self.seed = kills, every, seed
        self.rng = random.Random(f"kills:{seed}")
        self.d = DiscordDouble()
        self.guild = self.d.add_guild("Testserver")
        self.database = workdir / "bot.sqlite3"
        self.bot = Bot(self.d, workdir, self.database, seed)
        self.tables = [Table(self, index) for index in range(tables)]
        self.sent: set[tuple] = set()
        self.accepted: list[tuple] = []
        self.outcome = Outcome()
        self.killing = True

    async def play(self, table: Table) -> None:
        made = 0
        try:
            while self.killing or made < MOVES_AFTER:   # after the last restart every table still plays
                if await table.step():
                    self.outcome.moves += 1
                    made += 0 if self.killing else 1
        except Stuck:
            return                                      # counted; this table plays no more

    async def kill_loop(self) -> None:
        try:
            for _ in range(self.kills):
                await self.bot.kill_at(self.rng.randint(1, 2 * self.every), handled=self.rng.random() < 0.5)
                self.outcome.kills += 1
        finally:
            self.killing = False

    async def __call__(self) -> Outcome:
        async with self.d:
            try:
                await self.bot.start()
                killer = asyncio.create_task(self.kill_loop())
                players = [asyncio.create_task(self.play(table)) for table in self.tables]
                try:
                    await asyncio.gather(*players)
                finally:
                    for task in (killer, *players):
                        task.cancel()
                    await asyncio.gather(killer, *players, return_exceptions=True)
                self.check()
            finally:
                self.bot.stop()
        tracebacks = [line for text in self.bot.outputs for line in text.splitlines() if "Traceback" in line]
        if tracebacks:
            raise RuntimeError(f"the bot logged {len(tracebacks)} tracebacks; see its logs in {self.workdir}")
        return self.outcome

    def check(self) -> None:
        """Every accepted move in the log at its seat's counter; every log entry explained by one click."""
        logs = {}
        for sid in {entry[0] for entry in (*self.sent, *self.accepted)}:
            logs[sid] = stored_session(self.database, sid).log
        positions = {}
        for sid, log in logs.items():
            counters: dict[int, int] = {}
            for seat, key in log:
                counter = counters.get(seat, 0)
                counters[seat] = counter + 1
                positions[(sid, seat, counter)] = key
                if (sid, seat, counter, key) not in self.sent:
                    self.outcome.doubled.append((sid, seat, counter, key))
        for sid, seat, counter, key in self.accepted:
            if positions.get((sid, seat, counter)) != key:
                self.outcome.lost.append((sid, seat, counter, key))


async def run(workdir: Path, *, kills: int = 60, tables: int = 3, every: int = 80, seed: int = 1) -> Outcome:
    return await Run(workdir, kills=kills, tables=tables, every=every, seed=seed)()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.kills", description=__doc__.splitlines()[0].strip("`"))
    parser.add_argument("--kills", type=int, default=60, help="how many times the bot is killed (default 60)")
    parser.add_argument("--tables", type=int, default=3, help="Calcory tables played at once (default 3)")
    parser.add_argument("--every", type=int, default=80,
                        help="mean number of bot requests between kills (default 80)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the kill points, the deals and the moves")
    parser.add_argument("--tmpdir", type=Path, default=None, help="where the database and bot logs go")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.tmpdir, prefix="bench-kills-") as workdir:
        outcome = asyncio.run(run(Path(workdir), kills=args.kills, tables=args.tables, every=args.every,
                                  seed=args.seed))
    print(outcome, flush=True)
    return 0 if not (outcome.lost or outcome.doubled or outcome.stuck) else 1


if __name__ == "__main__":
    sys.exit(main())
