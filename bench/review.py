"""``python -m bench.review [--quick] [--games mu,...]``: the CPU time of a coach's review per game.

Per game, a seeded match of four players (fewer where the game allows fewer) is played by easy
computer players, and the coach reviews seat 0's decisions (``bot.coach.review.review``: the same
passes the bot runs in its worker processes, here one after the other in this process). The row
gives the review's CPU time against the issue's target (30 s on this machine) with the decisions
it judged. ``python -m bench`` prints these rows too; the quick run reviews the first
``QUICK_MOVES`` moves only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from bench.report import REVIEW_CPU, Row, check, render
from bot.coach.review import BUDGET, Match, review
from games import REGISTRY
from games.computer import choose

#: CPU seconds a review of a four-player match may take (issue 27).
TARGET_S = 30.0
#: Moves of each match the quick run reviews (it shows the rows work, not what a review costs).
QUICK_MOVES = 12


@dataclass(frozen=True)
class Reviewed:
    game: str
    players: int
    moves: int
    judged: int
    named: int
    seconds: float


def match(key: str, seed: str, limit: int | None = None) -> Match:
    """A seeded match of ``key`` at four seats (or the game's most), easy players throughout."""
    game = REGISTRY[key]
    players = min(4, game.max_players)
    options = game.default_options()
    state, _ = game.begin(players, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not game.is_over(state) and (limit is None or len(log) < limit):
        seat = min(game.to_act(state))
        move = choose(game, state, seat, "easy", rng)
        game.apply(state, seat, move)
        log.append((seat, move.key))
    return Match(1, key, players, options.model_dump(mode="json"), seed, tuple(log))


def measure(games: list[str] | None = None, moves: int | None = None) -> list[Reviewed]:
    """Each game's review of seat 0, the whole match (or its first ``moves``), in CPU seconds."""
    out = []
    for key in games or sorted(REGISTRY):
        played = match(key, f"bench-review:{key}", moves)
        began = time.process_time()
        made = review(played, 0)
        out.append(Reviewed(key, played.players, len(played.actions), made.judged, len(made.decisions),
                            time.process_time() - began))
    return out


def rows(measured: list[Reviewed], quick: bool) -> list[Row]:
    """One row per game: its review's CPU time against ``TARGET_S`` (marked ``*`` in a quick run)."""
    mark = (lambda status: f"{status}*") if quick else (lambda status: status)
    moves = "its first {} moves (quick)" if quick else "its {} moves"
    return [Row(f"{REVIEW_CPU}, {r.game}", f"{r.seconds:.1f} s", f"<= {TARGET_S:g} s",
                mark(check(r.seconds, TARGET_S, at_most=True)),
                f"seat 0 of a seeded match of {r.players} easy computer players, {moves.format(r.moves)}; "
                f"{r.judged} decisions judged, {r.named} named; the review's passes one after another in "
                f"this process (its budget {BUDGET:g} s)")
            for r in measured]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review", description=__doc__.splitlines()[0].strip("`"))
    parser.add_argument("--quick", action="store_true", help=f"review the first {QUICK_MOVES} moves of each match only")
    parser.add_argument("--games", default="", help="comma-separated game keys (default: every game)")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g] or None
    unknown = sorted(set(games or ()) - set(REGISTRY))
    if unknown:
        parser.error(f"no such game: {', '.join(unknown)} (the games are {', '.join(sorted(REGISTRY))})")
    measured = measure(games, QUICK_MOVES if args.quick else None)
    print(render("Coach review CPU (docs/performance.md)", {"workload": "quick" if args.quick else "full"},
                 rows(measured, args.quick), []))
    return 0


if __name__ == "__main__":
    sys.exit(main())
