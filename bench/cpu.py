"""Bot CPU per accepted move, per game, read from the bot process's own CPU time (issue 14, target 5).

The bot runs in its own process (``python -m bot``) against the load double; people at every seat
(four, or the game's most if fewer; no computer players, so every move is a person's click and no
computer's thinking is in the figure). The players in this process choose a seeded random legal
move on their own copy of the game (the seed and seat order read from the bot's database once the
table is posted; moves are deterministic from there) and make it by clicking as a person would:
open their hand on the table once and keep it open, as people do (the bot keeps an open hand
current while its click's token lasts), then make the clicks ``tests.ui.kit.hand_path`` finds on
the renderings. After each move they wait until the table, and the mover's next open hand, show
the new position, so every move's redraw happens as at a table of people (no redraws merge).

The figure is the bot process's CPU time (every thread: the event loop, SQLite's, picture
drawing) from just before the first measured move until the bot is quiet after the last, divided
by the moves it accepted. The double and the players run in this process, so their work is not in
it; the hand openings and in-hand steps a move needs are (a person makes those clicks too).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import games
from bench.botproc import BotProcess
from bench.live import wait_ready
from bench.load import BenchError, LoadDouble
from bot.i18n import language
from bot.play.seats import Seat
from bot.play.sessions import Session, Status
from bot.registry import playable, presenter
from bot.transport import ids
from bot.ui.options import PICTURES
from tests.double import custom_ids
from tests.e2e import outside as O
from tests.ui import kit

SEATS = 4
UPDATE_MESSAGE = 7
#: The bot counts as done with a move once it has sent nothing for this long.
QUIET = 0.05


@dataclass(frozen=True)
class GameCpu:
    game: str
    seats: int
    moves: int          # accepted moves, all by people
    clicks: int         # interactions those moves took (hand openings and in-hand steps included)
    cpu: float          # bot process CPU seconds over those moves
    requests: int = 0   # requests the bot sent to Discord over those moves

    @property
    def per_move(self) -> float:
        return self.cpu / self.moves


def bot_cpu(bot: BotProcess) -> float:
    """CPU seconds of every thread of the bot process: the scheduler's nanosecond counters where the
    kernel keeps them, else its user + system time in clock ticks (10 ms steps: coarser, as honest)."""
    total = sum(threads_cpu(bot.pid).values())
    return total if total else bot.cpu_seconds()


def threads_cpu(pid: int) -> dict[int, float]:
    """CPU seconds of each thread of process ``pid`` by thread id, from the scheduler's nanosecond
    counters (empty where the kernel keeps none, or the process is gone)."""
    out: dict[int, float] = {}
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            # a thread that ended meanwhile has no file any more
            with contextlib.suppress(FileNotFoundError, ProcessLookupError), \
                    open(f"/proc/{pid}/task/{task}/schedstat") as fh:
                out[int(task)] = int(fh.read().split()[0]) / 1e9
    except OSError:
        return {}
    return out


def loop_cpu(bot: BotProcess) -> float:
    """CPU seconds of the bot's main thread alone, where its event loop runs (what the clicks wait
    for); the rest of ``bot_cpu`` is its threads (SQLite's, picture compression, thinking)."""
    return threads_cpu(bot.pid).get(bot.pid, 0.0)


def workers_cpu(bot: BotProcess) -> dict[int, float]:
    """CPU seconds of each child process of the bot by pid (the computer players' worker pool,
    ``bot.play.computers``): work the bot hands them is not in ``bot_cpu``."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{entry}/stat") as fh:
                parent = int(fh.read().rsplit(")", 1)[1].split()[1])
            if parent == bot.pid:
                out[int(entry)] = sum(threads_cpu(int(entry)).values())
    return out


async def quiet(load: LoadDouble, seconds: float = QUIET, timeout: float = 10.0) -> None:
    """Until the double has had no request for ``seconds``."""
    end = time.time() + timeout
    while time.time() < end:
        idle = time.time() - load.requests.last_at
        if idle >= seconds:
            return
        await asyncio.sleep(seconds - idle)
    raise BenchError(f"the bot kept sending requests for {timeout:g} s")


async def measure(load: LoadDouble, workdir: Path, moves: int, profile: Path | None = None,
                  keys: list[str] | None = None, pictures: bool = True, tables: int = 1) -> list[GameCpu]:
    """One bot process, the games one after another; ``tables`` channels per game, played a move
    at each in turn (as a busy bot sees them: many tables' pictures and hands at once)."""
    d = load.double
    guild = d.add_guild("bench-cpu")
    users = [d.add_user(f"cpu{i}") for i in range(SEATS)]
    for user in users:
        d.add_member(guild, user)
    database = workdir / "cpu.sqlite3"
    load.requests.mark()
    bot = BotProcess(workdir, "bot-cpu", database=database, api_base=d.api_base, gateway_url=d.gateway_url,
                     guild_id=guild.id, profile=profile, profile_window=True)
    out = []
    async with bot:
        await wait_ready(load, bot, guild.id)
        for key in keys or playable():
            seats = min(SEATS, games.REGISTRY[key].max_players)
            at = [_Table(load, bot, database, d.add_text_channel(guild, f"cpu-{key}-{n}"), users[:seats], key,
                         random.Random(f"bench-cpu:{key}" + (f":{n}" if n else "")), pictures)
                  for n in range(tables)]
            out.append(await _play(at, moves))
    return out


async def _play(tables: list[_Table], max_moves: int) -> GameCpu:
    """Open the tables, then up to ``max_moves`` moves at each, one table after the other; the bot's
    CPU over those moves."""
    for table in tables:
        await table.open()
    first = tables[0]
    load, bot = first.load, first.bot
    await quiet(load)
    bot.profile_start()
    before, clicks, sent = bot_cpu(bot), sum(t.clicks for t in tables), _sent(load)
    moves = 0
    for _ in range(max_moves):
        playing = [t for t in tables if t.session.status is Status.PLAYING]
        if not playing:
            break
        for table in playing:
            await table.move()
            moves += 1
    await quiet(load)
    cpu = bot_cpu(bot) - before
    bot.profile_stop()
    return GameCpu(first.key, len(first.users), moves, sum(t.clicks for t in tables) - clicks, cpu,
                   _sent(load) - sent)


def _sent(load: LoadDouble) -> int:
    return sum(load.requests.counts.values())


class _Table:
    def __init__(self, load: LoadDouble, bot: BotProcess, database: Path, channel, users, key: str,
                 rng: random.Random, pictures: bool = True) -> None:
        self.pictures = pictures
        self.load, self.bot, self.database, self.channel = load, bot, database, channel
        self.users, self.key, self.rng = users, key, rng
        self.session: Session | None = None
        self.clicks = 0
        #: Each seat's open hand: the id of the ephemeral message the bot keeps current.
        self.hands: dict[int, str] = {}

    async def move(self) -> None:
        """A seeded random legal move of a seat to act, made by clicking."""
        game, state = self.session.game, self.session.state
        seat = self.rng.choice(sorted(game.to_act(state)))
        await self._move(seat, self.rng.choice(game.legal_actions(state, seat)).key)

    # -- the lobby -------------------------------------------------------------------------------
    async def open(self) -> None:
        load, host = self.load, self.users[0]
        lobby = (await load.slash(host, self.channel, "start", game=self.key)).original
        sid = O.session_id(lobby)
        for guest in self.users[1:]:
            await load.click(guest, lobby, ids.lobby(sid, "join"))
        if not self.pictures:
            panel = (await load.click(host, lobby, ids.lobby(sid, "rules"))).message
            await load.select(host, panel, ids.lobby(sid, "opt"), [PICTURES])
            await load.click(host, panel, ids.lobby(sid, "pictures:off"))
        await load.click(host, lobby, ids.lobby(sid, "start"))
        count = presenter(self.key).table_messages
        row = await self._row(sid, lambda r: r[0] is not None and len(json.loads(r[4]).get("table", [])) == count)
        seed, seats, options, lang, messages = row
        game = games.REGISTRY[self.key]
        options = game.parse_options(json.loads(options))
        seats = tuple(Seat.from_json(raw) for raw in json.loads(seats))
        state, opening = game.begin(len(seats), options, seed)
        self.session = Session(sid, int(self.channel.guild.id), int(self.channel.id), game, int(host.id), lang,
                               Status.PLAYING, options, seats, 0.0, seed=seed, state=state,
                               counters=[0] * len(seats), opening=opening, messages=json.loads(messages),
                               pictures=False)
        await self._drawn()

    async def _row(self, sid: int, ready, timeout: float = 10.0):
        end = time.time() + timeout
        while time.time() < end:
            db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            try:
                row = db.execute("SELECT seed, seats, options, lang, messages FROM sessions WHERE id = ?",
                                 (sid,)).fetchone()
            finally:
                db.close()
            if row is not None and ready(row):
                return row
            await asyncio.sleep(0.01)
        raise BenchError(f"the {self.key} table of session {sid} was not posted within {timeout:g} s")

    # -- moves -----------------------------------------------------------------------------------
    def _tables(self) -> list:
        return [self.load.double.message(str(i)) for i in self.session.messages["table"]]

    def _user(self, seat: int):
        user_id = self.session.seats[seat].user_id
        return next(u for u in self.users if int(u.id) == user_id)

    async def _drawn(self) -> None:
        """Until every table message offers what the position offers (the bot's redraw arrived)."""
        wanted = [custom_ids(kit.body(r)) for r in presenter(self.key).table(self.session, self.session.lang, None)]
        await self.load.until(
            self.channel, lambda: [custom_ids(m.payload) for m in self._tables()] == wanted,
            what=f"the {self.key} table to show move {sum(self.session.counters)}")

    async def _move(self, seat: int, key: str) -> None:
        load, session = self.load, self.session
        user = self._user(seat)
        path = kit.hand_path(session, seat, key, language(user.locale))
        if path is None:
            raise BenchError(f"{self.key}: seat {seat} finds no way to click {key!r}")
        hand = None
        if path[0].where == "hand":
            hand = await self._hand(seat, user)
        record = None
        for click in path:
            message = self._with(click.custom_id) if click.where == "table" else hand
            if not message.has_component(click.custom_id):
                # The last step's answer came deferred (the session or the hand was busy): the hand
                # shows the step once the bot's edit arrives.
                await load.until(self.channel, lambda m=message, c=click.custom_id: m.has_component(c),
                                 what=f"the {self.key} hand of seat {seat} to offer {click.custom_id}")
            if click.values:
                record = await load.select(user, message, click.custom_id, list(click.values))
            else:
                record = await load.click(user, message, click.custom_id)
            self.clicks += 1
            if click.where == "hand" and record.message is not None:
                hand = record.message
        if record.callback_type != UPDATE_MESSAGE:
            data = (record.callback or {}).get("data") or {}
            raise BenchError(f"{self.key}: the bot did not take {key!r} of seat {seat}: "
                             f"{data.get('content', record.callback)}")
        logged = self._logged()
        if len(logged) != sum(session.counters) + 1 or logged[-1][0] != seat:
            raise BenchError(f"{self.key}: the bot did not take {key!r} of seat {seat}; its last moves: "
                             f"{logged[-3:]}; the answer: {record.callback}")
        kit.play(session, seat, logged[-1][1])      # as the bot logged it (a meld's groups in its order)
        await self._drawn()

    async def _hand(self, seat: int, user):
        """The seat's open hand once it shows the position (opened on the table the first time)."""
        load, session = self.load, self.session
        if seat not in self.hands:
            where = self._with(ids.table(session.id, "hand"))
            opened = await O.hand_of(load.double, await load.click(user, where, ids.table(session.id, "hand")))
            self.clicks += 1
            self.hands[seat] = opened.id
        hand = load.double.message(self.hands[seat])
        rendered = presenter(self.key).hand(session, seat, language(user.locale), "", None)
        wanted = custom_ids(kit.body(rendered))
        try:
            await load.until(self.channel, lambda: custom_ids(hand.payload) == wanted,
                             what=f"the {self.key} hand of seat {seat} to show move {sum(session.counters)}")
        except BenchError as exc:
            raise BenchError(f"{exc}; it shows {custom_ids(hand.payload)}, wanted {wanted}") from None
        return hand

    def _logged(self) -> list[tuple[int, str]]:
        db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        try:
            return db.execute("SELECT seat, action FROM actions WHERE session_id = ? ORDER BY seq",
                              (self.session.id,)).fetchall()
        finally:
            db.close()

    def _with(self, custom_id: str):
        for message in self._tables():
            if message.has_component(custom_id):
                return message
        raise BenchError(f"{self.key}: {custom_id} is on no table message")


async def _main(moves: int, keys: list[str] | None, profile: Path | None, pictures: bool,
                tables: int = 1) -> list[GameCpu]:
    import shutil
    import tempfile
    workdir = Path(tempfile.mkdtemp(prefix="spieltisch-cpu-"))
    load = LoadDouble()
    await load.start()
    try:
        return await measure(load, workdir, moves, profile, keys, pictures, tables)
    finally:
        await load.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.cpu [--moves N] [--games k,...] [--tables N] [--profile DIR]``: this row alone."""
    import argparse
    import statistics
    parser = argparse.ArgumentParser(prog="python -m bench.cpu", description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves per game (at most)")
    parser.add_argument("--games", default=None, help="comma-separated game keys (default: all)")
    parser.add_argument("--profile", type=Path, default=None, help="profile the bot's event loop over the measured moves (CPU time, cProfile), save in DIR")
    parser.add_argument("--no-pictures", action="store_true", help="every table turns pictures off")
    parser.add_argument("--tables", type=int, default=1,
                        help="tables per game, a move at each in turn (moves: per table)")
    args = parser.parse_args(argv)
    if args.profile is not None:
        args.profile = args.profile.resolve()
        args.profile.mkdir(parents=True, exist_ok=True)
    keys = args.games.split(",") if args.games else None
    rows = asyncio.run(_main(args.moves, keys, args.profile, not args.no_pictures, max(1, args.tables)))
    for r in rows:
        print(f"{r.game:<8} {r.seats} seats {r.moves:>4} moves {r.clicks:>4} clicks "
              f"{r.requests / r.moves:5.2f} requests/move {r.per_move * 1000:6.2f} ms/move")
    print(f"median {statistics.median(r.per_move for r in rows) * 1000:.2f} ms/move")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
