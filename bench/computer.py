"""``python -m bench.computer [--quick] [--games mu,...] [--matches N] [--jobs J]``: computer players.

Per game, seeded deals are played twice over: one strong seat against easy seats, and one easy
seat against random seats; the tested seat moves round the table from deal to deal. A deal is
the whole match where a match is short (Calcory, Safarü, Kapado, Diabolo) and its first hand or
game where a match runs long (Mü and Rummü to 200 points, Da Capo to 50, Skippo's five games).
A deal's winners are its top scorers; a shared win counts its share. Beside each win rate stands
the fair share (1 / players), and the strong player's CPU time per move. Exits 0 unless it crashed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from bench.report import percentile
from games import REGISTRY
from games.base import Game
from games.computer import choose

#: Per game: players at the table, and per pairing (strong against easy, easy against random)
#: whether a deal is the whole match or its first hand or game.
SETUPS: dict[str, tuple[int, str, str]] = {
    "calcory": (2, "match", "match"), "mu": (4, "hand", "hand"), "safaru": (2, "match", "match"),
    "rummu": (3, "hand", "hand"), "dacapo": (2, "game", "game"), "kapado": (2, "match", "match"),
    "skippo": (2, "game", "game"), "diabolo": (3, "match", "match"),
}
FULL_DEALS, QUICK_DEALS = 200, 6
#: A deal stops here even if unfinished (it then counts as a draw).
MOVE_CAP = 5000


@dataclass(frozen=True)
class Deal:
    """What one deal gave the tested seat."""

    credit: float  # 1 for a win, 1/k for a k-way shared win, 0 otherwise
    lead: float  # the tested seat's points minus the best other seat's
    times: tuple[float, ...]  # CPU seconds of each strong move


def _random(game: Game, state, seat: int, rng: random.Random):
    """A random legal move, its kind drawn first: Mü's one "pass" weighs as much as all its bids."""
    legal = game.legal_actions(state, seat)
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def _mover(level: str):
    if level == "random":
        return _random
    return lambda game, state, seat, rng: choose(game, state, seat, level, rng)


def play_deal(key: str, tested: str, others: str, number: int) -> Deal:
    """Deal ``number`` of ``key`` with one ``tested`` seat (rotating) among ``others``."""
    game = REGISTRY[key]
    players, strong_unit, easy_unit = SETUPS[key]
    unit = strong_unit if tested == "strong" else easy_unit
    seed = f"computer-bench:{key}:{tested}:{number}"
    state = game.setup(players, game.default_options(), seed)
    me = number % players
    movers = [_mover(tested if s == me else others) for s in range(players)]
    rngs = [random.Random(f"{seed}:{s}") for s in range(players)]
    times: list[float] = []
    for _ in range(MOVE_CAP):
        if game.is_over(state) or (unit != "match" and game.result(state).breakdown):
            break
        seat = min(game.to_act(state))
        start = time.process_time()
        action = movers[seat](game, state, seat, rngs[seat])
        if seat == me and tested == "strong":
            times.append(time.process_time() - start)
        game.apply(state, seat, action)
    return _deal(game, state, unit, me, tuple(times))


def _deal(game: Game, state, unit: str, me: int, times: tuple[float, ...]) -> Deal:
    result = game.result(state)
    if unit == "match" and game.is_over(state):
        points, winners = result.scores, result.winners
    elif unit != "match" and result.breakdown:
        points = result.breakdown[0].totals
        winners = frozenset(s for s, p in enumerate(points) if p == max(points))
    else:  # unfinished at the move cap: a draw
        return Deal(1 / len(result.scores), 0.0, times)
    lead = points[me] - max(p for s, p in enumerate(points) if s != me)
    if not winners:  # a stalled game that nobody won
        return Deal(1 / len(points), lead, times)
    return Deal(1 / len(winners) if me in winners else 0.0, lead, times)


@dataclass(frozen=True)
class Row:
    key: str
    players: int
    unit: str
    deals: int
    strong_vs_easy: float
    easy_vs_random: float
    strong_lead: float  # mean points ahead of the best other seat
    easy_lead: float
    times: tuple[float, ...]


PAIRINGS = {"strong": ("strong", "easy"), "easy": ("easy", "random")}


def bench_game(key: str, deals: int, pool: ProcessPoolExecutor | None, tested: tuple[str, ...]) -> Row:
    jobs = [(key, *PAIRINGS[level], n) for level in tested for n in range(deals)]
    if pool is None:
        results = [play_deal(*job) for job in jobs]
    else:
        results = list(pool.map(play_deal, *zip(*jobs, strict=True)))
    rates = {level: sum(d.credit for d in results[i * deals:(i + 1) * deals]) / deals
             for i, level in enumerate(tested)}
    leads = {level: sum(d.lead for d in results[i * deals:(i + 1) * deals]) / deals
             for i, level in enumerate(tested)}
    players, strong_unit, easy_unit = SETUPS[key]
    unit = strong_unit if strong_unit == easy_unit else f"{strong_unit}/{easy_unit}"
    times = tuple(t for deal in results for t in deal.times)
    return Row(key, players, unit, deals, rates.get("strong", float("nan")), rates.get("easy", float("nan")),
               leads.get("strong", float("nan")), leads.get("easy", float("nan")), times)


def render(rows: list[Row]) -> str:
    head = (f"{'game':<8} {'seats':>5} {'deal':<10} {'deals':>5}  {'strong>easy':>11} {'lead':>6}  "
            f"{'easy>random':>11} {'lead':>6}  {'fair':>5}  {'moves':>6} {'median':>7} {'p99':>7} {'max':>7}")
    lines = [head, "-" * len(head)]
    for r in rows:
        ms = [t * 1000 for t in r.times] or [0.0]
        lines.append(
            f"{r.key:<8} {r.players:>5} {r.unit:<10} {r.deals:>5}  {r.strong_vs_easy:>11.1%} {r.strong_lead:>6.1f}  "
            f"{r.easy_vs_random:>11.1%} {r.easy_lead:>6.1f}  {1 / r.players:>5.0%}  {len(r.times):>6} {statistics.median(ms):>7.1f} "
            f"{percentile(ms, 99):>7.1f} {max(ms):>7.1f}")
    lines.append("lead: mean points ahead of the best other seat; times: strong moves, CPU ms (one-choice moves too)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.computer", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DEALS} deals per pairing (a smoke run)")
    parser.add_argument("--games", default=",".join(SETUPS), help="comma-separated game keys")
    parser.add_argument("--matches", type=int, default=None, help="deals per game and pairing")
    parser.add_argument("--only", choices=sorted(PAIRINGS), default=None,
                        help="play one pairing only: strong (against easy) or easy (against random)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (CPU times stay per move)")
    args = parser.parse_args(argv)
    keys = [k for k in args.games.split(",") if k]
    unknown = [k for k in keys if k not in SETUPS]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)}")
    deals = args.matches or (QUICK_DEALS if args.quick else FULL_DEALS)
    start = time.perf_counter()
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    try:
        rows = []
        for key in keys:
            rows.append(bench_game(key, deals, pool, (args.only,) if args.only else tuple(PAIRINGS)))
            print(render(rows[-1:]).splitlines()[2], flush=True)
    finally:
        if pool is not None:
            pool.shutdown()
    print()
    print(render(rows))
    print(f"bench took {time.perf_counter() - start:.0f} s wall clock with {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
