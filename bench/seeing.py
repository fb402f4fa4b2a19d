"""``python -m bench.seeing [--matches N] [--sees hands|all|doubler]``: Diabolo's strong player seeing hidden cards.

How much of the strong player's shortfall is the cards it cannot see: the strong-against-easy deals of ``bench.computer`` (the same seeds, so the same deals), with the
strong seat's search redealing less than its information set: with ``hands`` it sees the others'
hands and redeals only the draw pile's order, with ``all`` it redeals nothing, with ``doubler`` it
sees the others' hands only while it chooses whether to spend its doubler (how much of the shortfall
that one choice is) and redeals as the product player does otherwise. No product player
searches like this: the figure is an upper bound for the question whether the issue's bar (1.5 ×
the fair share against easy seats) is within reach of a player who must guess the hands. Seen
doubler choices not yet revealed stay as made (the easy seats never read them). Exits 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bench.computer import bench_game, render
from games.base import fresh_seed
from games.diabolo.computer import BRAIN, DiaboloBrain
from games.diabolo.rules import Diabolo
from games.diabolo.state import DOUBLER, DiaboloState, clone_state

SEES = ("hands", "all", "doubler")


def seeing_redeal(sees: str) -> Callable[[Diabolo, DiaboloState, int, random.Random], DiaboloState]:
    """A redeal that keeps every hand (and with ``all`` the draw pile's order too; with ``doubler``
    only while doublers are chosen)."""
    if sees not in SEES:
        raise ValueError(f"sees one of {SEES}, not {sees!r}")
    real = DiaboloBrain.determinize

    def redeal(game: Diabolo, state: DiaboloState, seat: int, rng: random.Random) -> DiaboloState:
        if sees == "doubler" and state.phase != DOUBLER:
            return real(BRAIN, game, state, seat, rng)
        new = clone_state(state)
        if sees != "all":
            new.pile.sort()  # a canonical order first, as the real redeal does
            rng.shuffle(new.pile)
        new.seed = fresh_seed(rng)
        return new

    return redeal


@contextmanager
def seeing(sees: str) -> Iterator[None]:
    """Within the block every Diabolo search redeals with ``seeing_redeal`` (only the strong seat
    searches in the bench's deals; the easy seats never redeal)."""
    redeal = seeing_redeal(sees)
    real = DiaboloBrain.determinize
    DiaboloBrain.determinize = lambda self, game, state, seat, rng: redeal(game, state, seat, rng)  # type: ignore[method-assign]
    try:
        yield
    finally:
        DiaboloBrain.determinize = real  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seeing", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="deals (the bench's first N)")
    parser.add_argument("--sees", choices=SEES, default="hands", help="what the strong seat's search sees")
    args = parser.parse_args(argv)
    with seeing(args.sees):
        rows = bench_game("diabolo", args.matches, None, ("strong",))
    print(f"the strong seat's search sees: {args.sees}")
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
