"""``python -m bench.holding [--matches N]``: measures ``HELD`` of ``games/diabolo/computer.py``.

Easy players play N three-seat Diabolo matches. At a random tenth of the turns, for each seat and
the seat after it as watcher, every card the watcher cannot see is counted by what the seat laid of
its colour this round (angel and devil cards, each up to two) and its value, and whether the seat
holds it. Prints the table of shares held in the form ``HELD`` takes. Exits 0.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict

from games.computer import choose
from games.diabolo import GAME
from games.diabolo.cards import ROW, VALUE
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.holding", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1500, help="easy matches")
    args = parser.parse_args(argv)
    for key, cells in measure(args.matches).items():
        shares = ", ".join(f"{h / t:.3f}" if t else "-" for h, t in cells)
        print(f"    {key}: ({shares}),  # {min(t for _, t in cells)} cards at least")
    return 0


if __name__ == "__main__":
    sys.exit(main())
