"""``python -m bench.losses [--matches N] [--start K]``: where Diabolo's strong seat wins and loses its points.

Plays the strong-against-easy Diabolo deals of ``bench.computer`` (the same seeds, seats and CPU limit,
so the same matches) and sums per match, for the strong seat and for an easy seat on average: the
points of each kind of scoring line (a colour paid, paid doubled, charged by the devils), how each
round's doubler ended (doubled a colour the seat led, spent on one it did not, kept), and the points
the strong seat laid on the angel and on the devil side of colours another seat then doubled (the
colours it fed or fought). Exits 0.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from bench.computer import play_deal
from games.base import HandScore
from games.diabolo.cards import COLOUR, VALUE
from games.diabolo.state import DiaboloState

#: Scoring lines by label, in the order printed.
LINES = ("diabolo.line_angel", "diabolo.line_angel_doubled", "diabolo.line_devil")
DOUBLER_ENDS = ("doubled", "wasted", "kept")


def tally(history: tuple[HandScore, ...], laid: list[list[list[tuple[str, str]]]], me: int,
          players: int) -> Counter[tuple[str, str]]:
    """One match's causes: ``(whose, cause)`` where whose is "strong" or "others" (summed over the
    other seats), from each round's scoring and ``laid``, per round the cards each seat laid."""
    out: Counter[tuple[str, str]] = Counter()
    for hand, placed in zip(history, laid, strict=True):
        doubled_by_others = set()
        for line in hand.lines:
            whose = "strong" if line.seat == me else "others"
            if line.label in LINES:
                out[whose, line.label] += line.points
            if line.label == "diabolo.line_angel_doubled" and line.seat != me:
                doubled_by_others.add(line.params["colour"])
        for seat in range(players):
            labels = {line.label for line in hand.lines if line.seat == seat}
            end = ("doubled" if "diabolo.line_angel_doubled" in labels
                   else "wasted" if "diabolo.line_doubler_wasted" in labels else "kept")
            out["strong" if seat == me else "others", end] += 1
        for side, card in placed[me]:
            if COLOUR[card] in doubled_by_others:
                out["strong", f"laid {side} on colours others doubled"] += VALUE[card]
    return out


class Rounds:
    """A ``play_deal`` watcher: the match's state, and per round the cards each seat laid (taken before
    every move; a round that ends without doublers asked may miss its last card, which no doubled colour
    can hold)."""

    def __init__(self) -> None:
        self.state: DiaboloState | None = None
        self.round = 0
        self.laid: list[list[list[tuple[str, str]]]] = []
        self.current: list[list[tuple[str, str]]] = []

    def __call__(self, state: DiaboloState) -> None:
        if self.state is not None and state.round_no != self.round:
            self.laid.append(self.current)
        self.state, self.round, self.current = state, state.round_no, [cards[:] for cards in state.laid]


def trace(number: int) -> Counter[tuple[str, str]]:
    """Play strong-against-easy deal ``number`` and tally it."""
    rounds = Rounds()
    play_deal("diabolo", "strong", "easy", number, rounds)
    assert rounds.state is not None
    players = rounds.state.players
    return tally(tuple(rounds.state.history), [*rounds.laid, rounds.current], number % players, players)


def render(causes: Counter[tuple[str, str]], deals: int, players: int = 3) -> str:
    """Per cause, per match: the strong seat's figure and an easy seat's on average."""
    names = [*LINES, *DOUBLER_ENDS, "laid angel on colours others doubled", "laid devil on colours others doubled"]
    lines = [f"{'per match':<40} {'strong':>8} {'an easy':>8}"]
    for name in names:
        easy = "" if name.startswith("laid") else f"{causes['others', name] / deals / (players - 1):>8.2f}"
        lines.append(f"{name:<40} {causes['strong', name] / deals:>8.2f} {easy:>8}")
    lines.append(f"over {deals} deals; points for scoring lines and laid cards, rounds for doubler ends")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.losses", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="deals")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    args = parser.parse_args(argv)
    causes: Counter[tuple[str, str]] = Counter()
    for number in range(args.start, args.start + args.matches):
        causes += trace(number)
    print(render(causes, args.matches))
    return 0


if __name__ == "__main__":
    sys.exit(main())
