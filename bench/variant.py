"""``python -m bench.variant --game G [--matches N] [--start K] NAME=VALUE[,NAME=VALUE...] ...``: a brain's option, paired.

Plays the strong-against-easy deals of ``bench.computer`` (the same seeds, seats and CPU limit) with
the game's brain as it is and with each variant: its numeric attributes (the playout budget
``most``, ``per_arm``, or an option a change under study adds) changed for the strong seat's
search. The easy seats do not search, so a deal differs only by the strong seat's plays. What decides is the paired difference, deal by deal,
with its standard error: a single row's win rate swings by two or three points over 400 deals, and
a change to the search alters only some outcomes. Start at deal numbers the bench never plays (say
2000) so the bench's own 200 stay a judge the variant was not tuned on. Exits 0.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from bench.computer import SETUPS, Deal, play_deal
from games import BRAINS


def parse(text: str, brain: Any) -> dict[str, int | float]:
    """``most=500,per_arm=30``: each name a numeric attribute of ``brain``, each value of its type."""
    changes: dict[str, int | float] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        current = getattr(brain, name, None)
        if isinstance(current, bool) or not isinstance(current, int | float):
            raise ValueError(f"{type(brain).__name__} has no numeric attribute {name!r}")
        changes[name] = type(current)(value)
    return changes


@contextmanager
def changed(brain: Any, changes: dict[str, int | float]) -> Iterator[None]:
    """Within the block ``brain`` has ``changes`` (its own attributes, restored after)."""
    before = {name: brain.__dict__[name] for name in changes if name in brain.__dict__}
    for name, value in changes.items():
        setattr(brain, name, value)
    try:
        yield
    finally:
        for name in changes:
            if name in before:
                setattr(brain, name, before[name])
            else:
                delattr(brain, name)


def paired(deals: Sequence[Deal], base: Sequence[Deal]) -> str:
    """The variant's wins and lead, and their differences from ``base`` deal by deal ± standard error."""
    n = len(deals)
    wins = [d.credit - b.credit for d, b in zip(deals, base, strict=True)]
    leads = [d.lead - b.lead for d, b in zip(deals, base, strict=True)]

    def error(xs: list[float]) -> float:
        return statistics.stdev(xs) / math.sqrt(n) if n > 1 else math.nan

    return (f"paired {statistics.fmean(wins):+.1%} ± {error(wins):.1%}, lead {statistics.fmean(leads):+.2f} ± "
            f"{error(leads):.2f}, outcomes changed {sum(1 for w in wins if w)}")


def summary(deals: Sequence[Deal]) -> str:
    """Wins, lead and the strong seat's move CPU (median, max) over ``deals``."""
    ms = [t * 1000 for d in deals for t in d.times] or [0.0]
    return (f"wins {statistics.fmean(d.credit for d in deals):.1%}  lead {statistics.fmean(d.lead for d in deals):+.2f}  "
            f"CPU median {statistics.median(ms):.0f} ms, max {max(ms):.0f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.variant", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SETUPS), required=True, help="the game")
    parser.add_argument("--matches", type=int, default=400, help="deals")
    parser.add_argument("--start", type=int, default=2000, help="the first deal's number")
    parser.add_argument("variants", nargs="+", help="NAME=VALUE[,NAME=VALUE...] per variant")
    args = parser.parse_args(argv)
    brain = BRAINS[args.game]
    try:
        variants = [(text, parse(text, brain)) for text in args.variants]
    except ValueError as exc:
        parser.error(str(exc))
    numbers = range(args.start, args.start + args.matches)
    base = [play_deal(args.game, "strong", "easy", n) for n in numbers]
    print(f"product, deals {args.start}-{numbers[-1]}: {summary(base)}", flush=True)
    for text, changes in variants:
        with changed(brain, changes):
            deals = [play_deal(args.game, "strong", "easy", n) for n in numbers]
        print(f"{text}: {summary(deals)}  {paired(deals, base)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
