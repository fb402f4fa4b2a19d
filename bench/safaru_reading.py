"""``python -m bench.safaru_reading [--matches N]``: how well Safarü's reading of a seat's plays names its hand.

Easy players play N two-seat games. At every turn on which the other seat has played this deal and
still holds cards, the chance of its true hand under a redeal that draws the other hand by its cards'
fits to that seat's plays (``games/safaru/computer.py``: a card's weight falls by a factor e for every
``slack`` points its best play beat the play made, never below ``floor``), counted exactly: the
product of the true cards' weights over the sum of that product over every hand of that size from the
cards the seat cannot see. Prints the mean log-chance per reading: uniform, the product's, and
sharper ones (0 would be seeing the hand). Exits 0.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from games.safaru import BRAIN, GAME
from games.safaru.computer import PLAY_FLOOR, PLAY_SLACK, fit
from games.safaru.state import Play, SafaruState

#: Readings by name: (slack, floor), None for a uniform redeal. ``exact`` is the easy player's own
#: choice (its noise only breaks ties), ``hard`` the sharper reading tried in the product.
READINGS: dict[str, tuple[float, float] | None] = {
    "uniform": None, "product": (PLAY_SLACK, PLAY_FLOOR), "hard": (0.2, 0.01), "exact": (0.02, 1e-6),
}


def weight(card: str, played: Sequence[Play], reading: tuple[float, float] | None) -> float:
    """How plausible a seat's plays are from a hand holding ``card`` too, under ``reading``."""
    return 1.0 if reading is None else fit(card, played, *reading)


def log_chance(hand: Sequence[str], pool: Sequence[str], played: Sequence[Play],
               reading: tuple[float, float] | None) -> float:
    """The log-chance of ``hand`` among the hands of its size from ``pool`` drawn by ``weight``."""
    weights = {card: weight(card, played, reading) for card in pool}
    sums = [1.0] + [0.0] * len(hand)  # sums[k]: the summed products of the k-subsets seen so far
    for w in weights.values():
        for k in range(len(hand), 0, -1):
            sums[k] += w * sums[k - 1]
    return sum(math.log(weights[card]) for card in hand) - math.log(sums[len(hand)])


def unseen_by(state: SafaruState, seat: int) -> list[str]:
    """The cards ``seat`` cannot see: the deck and the other hands."""
    return sorted([*state.deck, *(c for s, hand in enumerate(state.hands) if s != seat for c in hand)])


def measure(matches: int) -> tuple[int, dict[str, float]]:
    """The positions counted and each reading's mean log-chance of the other seat's true hand."""
    totals = dict.fromkeys(READINGS, 0.0)
    positions = 0
    for n in range(matches):
        state = GAME.setup(2, GAME.default_options(), f"reading:{n}")
        rng = random.Random(n)
        while not state.over:
            seat = state.turn
            other = 1 - seat
            if state.played[other] and state.hands[other]:
                positions += 1
                pool = unseen_by(state, seat)
                for name, reading in READINGS.items():
                    totals[name] += log_chance(state.hands[other], pool, state.played[other], reading)
            GAME.apply(state, seat, BRAIN.easy(GAME, state, seat, GAME.legal_actions(state, seat), rng))
    return positions, {name: total / max(1, positions) for name, total in totals.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.safaru_reading", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="easy-against-easy games")
    args = parser.parse_args(argv)
    positions, means = measure(args.matches)
    print(f"{positions} positions of {args.matches} games: the other seat's true hand, mean log-chance")
    for name, mean in means.items():
        reading = READINGS[name]
        shown = f"slack {reading[0]:g}, floor {reading[1]:g}" if reading else ""
        print(f"  {name:8} {shown:24} {mean:7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
