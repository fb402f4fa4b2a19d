"""``python -m bench.seeing [--game diabolo|kapado|safaru] [--matches N] [--sees hands|all|doubler]``: a strong player seeing hidden cards.

How much of the strong player's shortfall is the cards it cannot see: the strong-against-easy deals
of ``bench.computer`` (the same seeds, so the same deals), with the strong seat's search redealing
less than its information set: with ``hands`` it sees the hidden cards on the table (Diabolo's
and Safarü's hands, Kapado's face-down cards) and redeals only the draw pile's order, with ``all`` it redeals
nothing, with ``doubler`` (Diabolo) it sees the others' hands only while it chooses whether to spend
its doubler (how much of the shortfall that one choice is) and redeals as the product player does
otherwise. No product player searches like this: the figure is an upper bound for the question
whether the issue's bar (1.5 × the fair share against easy seats) is within reach of a player who
must guess them. Seen doubler choices not yet revealed stay as made (the easy seats never read
them). Kapado's strong player plays its favourite without searching, so within the bound it searches
its placements and takes (``KapadoBrain.searching``, the expert's search) over what it sees. Exits 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.computer import bench_game, render
from games import BRAINS
from games.base import Game, fresh_seed
from games.diabolo.state import DOUBLER

SEES = ("hands", "all", "doubler")
#: The games the bound knows, each with the state's field that holds its draw pile (its secret seed
#: is ``state.seed``).
PILES = {"diabolo": "pile", "kapado": "pile", "safaru": "deck"}
GAMES = tuple(PILES)

Redeal = Callable[[Game[Any, Any, Any], Any, int, random.Random], Any]


def seeing_redeal(sees: str, key: str = "diabolo") -> Redeal:
    """A redeal that keeps every hidden card on the table (with ``all`` the draw pile's order too;
    with ``doubler`` only while Diabolo's doublers are chosen, the brain's own redeal otherwise)."""
    if sees not in SEES:
        raise ValueError(f"sees one of {SEES}, not {sees!r}")
    if key not in GAMES:
        raise ValueError(f"the bound knows {GAMES}, not {key!r}")
    if sees == "doubler" and key != "diabolo":
        raise ValueError("only Diabolo has doublers")
    brain = BRAINS[key]
    real = type(brain).determinize

    def redeal(game: Game[Any, Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
        if sees == "doubler" and state.phase != DOUBLER:
            return real(brain, game, state, seat, rng)
        new = game.clone(state)
        if sees != "all":
            pile = getattr(new, PILES[key])
            pile.sort()  # a canonical order first, as the real redeal does
            rng.shuffle(pile)
        new.seed = fresh_seed(rng)
        return new

    return redeal


@contextmanager
def seeing(sees: str, key: str = "diabolo") -> Iterator[None]:
    """Within the block every search of game ``key`` redeals with ``seeing_redeal`` (only the strong
    seat searches in the bench's deals; the easy seats never redeal), and a brain that plays its
    favourite alone (Kapado's) searches."""
    redeal = seeing_redeal(sees, key)
    cls = type(BRAINS[key])
    real, searched = cls.determinize, getattr(cls, "searching", None)
    cls.determinize = lambda self, game, state, seat, rng: redeal(game, state, seat, rng)  # type: ignore[method-assign]
    if searched is not None:
        cls.searching = True  # type: ignore[attr-defined]
    try:
        yield
    finally:
        cls.determinize = real  # type: ignore[method-assign]
        if searched is not None:
            cls.searching = searched  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.seeing", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, default="diabolo", help="the game")
    parser.add_argument("--matches", type=int, default=40, help="deals (the bench's first N)")
    parser.add_argument("--sees", choices=SEES, default="hands", help="what the strong seat's search sees")
    args = parser.parse_args(argv)
    with seeing(args.sees, args.game):
        rows = bench_game(args.game, args.matches, None, ("strong",))
    print(f"the strong seat's search sees: {args.sees}")
    print(render(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
