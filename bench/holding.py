"""``python -m bench.holding [--matches N] [--redeals]``: measures ``HELD`` of ``games/diabolo/computer.py``.

Easy players play N three-seat Diabolo matches. At a random tenth of the turns, for each seat and
the seat after it as watcher, every card the watcher cannot see is counted by what the seat laid of
its colour this round (angel and devil cards, each up to two) and its value, and whether the seat
holds it. Prints the table of shares held in the form ``HELD`` takes. With ``--redeals`` it measures
instead how well the strong player's redeal reads those hands: at a random tenth of the turns after
the round's first two rounds of turns, ten redeals for the seat on turn, how often each names the
colour's top holder right (the seat on turn wins ties) and by how many points it misses each other
hand's colour sums, beside a uniform redeal's (``game.resample``). Exits 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from collections.abc import Callable

from games.computer import choose
from games.diabolo import BRAIN, GAME
from games.diabolo.cards import ROW, VALUE
from games.diabolo.rules import Diabolo
from games.diabolo.state import PLACE, DiaboloState


def unseen_by(state: DiaboloState, watcher: int) -> list[str]:
    """The cards ``watcher`` cannot see: the draw pile and the others' hands less what they showed."""
    return state.pile + [c for s, hand in enumerate(state.hands) if s != watcher
                         for c in hand if c not in state.known[s]]


def measure(matches: int) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """Per (angel, devil) count: per value 1 to 5, (cards held, cards counted)."""
    counts: dict[tuple[int, int], list[list[int]]] = defaultdict(lambda: [[0, 0] for _ in range(5)])
    for n in range(matches):
        state = GAME.setup(3, GAME.default_options(), f"holding:{n}")
        rng = random.Random(n)
        while not GAME.is_over(state):
            if state.phase == PLACE and rng.random() < 0.1:
                for seat in range(3):
                    held = set(state.hands[seat])
                    angels, devils = [0] * 5, [0] * 5
                    for side, card in state.laid[seat]:
                        (angels if side == "angel" else devils)[ROW[card]] += 1
                    for card in unseen_by(state, (seat + 1) % 3):
                        r = ROW[card]
                        cell = counts[min(angels[r], 2), min(devils[r], 2)][VALUE[card] - 1]
                        cell[0] += card in held
                        cell[1] += 1
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, choose(GAME, state, seat, "easy", rng))
    return {key: [(h, t) for h, t in cells] for key, cells in sorted(counts.items())}


Redeal = Callable[[Diabolo, DiaboloState, int, random.Random], DiaboloState]


def uniform(game: Diabolo, state: DiaboloState, seat: int, rng: random.Random) -> DiaboloState:
    """A redeal that reads nothing: the rules' own (``game.resample``)."""
    return game.resample(state, seat, rng)


def reading(matches: int, redeal: Redeal) -> tuple[float, float]:
    """``redeal``'s share of colours whose top holder it names right, and its mean miss (points) of the
    other hands' colour sums, over ``matches`` easy matches (the same positions for every redeal)."""
    right = named = 0
    missed, sums_read = 0, 0
    for n in range(matches):
        state = GAME.setup(3, GAME.default_options(), f"holding:{n}")
        rng, dealing = random.Random(n), random.Random(-1 - n)
        while not GAME.is_over(state):
            if state.phase == PLACE and rng.random() < 0.1 and sum(map(len, state.laid)) >= 6:
                me = state.current
                true = [colour_sums(hand) for hand in state.hands]
                for _ in range(10):
                    dealt = [colour_sums(hand) for hand in redeal(GAME, state, me, dealing).hands]
                    for r in range(5):
                        right += top(true, r, me) == top(dealt, r, me)
                        named += 1
                        for s in range(3):
                            if s != me:
                                missed += abs(dealt[s][r] - true[s][r])
                                sums_read += 1
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, choose(GAME, state, seat, "easy", rng))
    return right / named, missed / sums_read


def colour_sums(hand: list[str]) -> list[int]:
    sums = [0] * 5
    for c in hand:
        sums[ROW[c]] += VALUE[c]
    return sums


def top(sums: list[list[int]], colour: int, me: int) -> int:
    """The seat holding the most of ``colour`` (``me`` among the tied)."""
    return max(range(len(sums)), key=lambda s: (sums[s][colour], s == me))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.holding", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1500, help="easy matches")
    parser.add_argument("--redeals", action="store_true", help="how well the strong player's redeal reads the hands")
    args = parser.parse_args(argv)
    if args.redeals:
        for name, redeal in (("strong player's redeal", BRAIN.determinize), ("uniform redeal", uniform)):
            right, miss = reading(args.matches, redeal)
            print(f"{name}: top holder named right {right:.1%}, colour sums missed by {miss:.2f} points")
        return 0
    for key, cells in measure(args.matches).items():
        shares = ", ".join(f"{h / t:.3f}" if t else "-" for h, t in cells)
        print(f"    {key}: ({shares}),  # {min(t for _, t in cells)} cards at least")
    return 0


if __name__ == "__main__":
    sys.exit(main())
