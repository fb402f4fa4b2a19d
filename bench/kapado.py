"""``python -m bench.kapado [--deals N] [--start K] NAME=VALUE ...``: Kapado's strong judgement, tuned on paired deals.

The strong Kapado player plays a rule (``games.kapado.computer.Judgement`` weighs its placements
and takes), and a whole game costs a fraction of a second, so a weight is judged on thousands of deals. Each
variant (one ``NAME=VALUE`` per weight changed, several in one argument joined by commas) plays the
same seeded deals against easy seats as the product's judgement, the strong seat alternating; the
paired difference of the win rates, with its standard error, is the figure to decide on (the win
rate alone swings by ±2 points over 500 deals). The seeds are this module's own, never
``bench.computer``'s, so a tuned weight is confirmed there once on deals it was not chosen on.
The strong seat plays its favourite directly, as ``choose`` does for it (no playouts; only the end of
the pile is searched, by the favourite itself: ``ending=0`` leaves it to the rule).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from dataclasses import fields, replace
from functools import partial

from bench.computer import Deal
from bench.variant import paired
from games.base import Action
from games.kapado import BRAIN, GAME
from games.kapado.computer import Judgement, KapadoBrain
from games.kapado.state import KapadoState

#: A strong seat's move (state, seat, legal moves, its random source), read from its view.
Favourite = Callable[[KapadoState, int, list[Action], random.Random], Action]


def play(judgement: Judgement, number: int, favourite: Favourite | None = None) -> tuple[float, int]:
    """Deal ``number``: the strong seat's credit (1, ½ for a tie, 0) and its lead in cards; the strong
    seat plays ``judgement``'s favourite, or ``favourite`` when given (``bench.kapado_fit``)."""
    seed = f"kapado-tuning:{number}"
    brain = KapadoBrain()
    brain.judgement = judgement
    state = GAME.setup(2, GAME.default_options(), seed)
    me = number % 2
    rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
    while not GAME.is_over(state):
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        elif seat == me:
            action = (favourite or partial(brain.default, GAME))(state, seat, legal, rngs[seat])
        else:
            action = BRAIN.easy(GAME, state, seat, legal, rngs[seat])
        GAME.apply(state, seat, action)
    lead = state.totals[me] - state.totals[1 - me]
    return (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0), lead


def variant(text: str) -> Judgement:
    """``horizon=2,flips=0``: the product's judgement with those weights changed."""
    names = {f.name for f in fields(Judgement)}
    changes: dict[str, float] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in names:
            raise ValueError(f"no weight {name!r}; the weights are {', '.join(sorted(names))}")
        changes[name] = float(value)
    return replace(BRAIN.judgement, **changes)


def compare(results: list[tuple[float, int]], base: list[tuple[float, int]]) -> str:
    n = len(results)
    line = f"wins {sum(c for c, _ in results) / n:.1%}  lead {sum(x for _, x in results) / n:+.2f}"
    if results is base:
        return line
    return f"{line}  {paired([Deal(*r, ()) for r in results], [Deal(*b, ()) for b in base])}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.kapado", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per judgement")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument("variants", nargs="*", help="NAME=VALUE[,NAME=VALUE...] per variant")
    args = parser.parse_args(argv)
    try:
        variants = [(text, variant(text)) for text in args.variants]
    except ValueError as exc:
        parser.error(str(exc))
    numbers = range(args.start, args.start + args.deals)
    start = time.process_time()
    base = [play(BRAIN.judgement, n) for n in numbers]
    print(f"product {BRAIN.judgement}, deals {args.start}-{numbers[-1]}: {compare(base, base)} "
          f"({time.process_time() - start:.0f} s CPU)", flush=True)
    for text, judgement in variants:
        print(f"{text}: {compare([play(judgement, n) for n in numbers], base)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
