"""``python -m bench.safaru_unicorns [--matches N] [--start K]``: how Safarü's strong seat wins and loses the unicorns.

Plays the strong-against-easy Safarü deals of ``bench.computer`` (the same seeds, seats and CPU limit,
so the same matches; one match is one game) and sorts them by the unicorn majority (24 points, most
matches' decider): won by the strong seat, shared, or lost. Per group: the strong seat's win rate
and lead, the deal (1-5) in which the majority went out of reach (one side ahead by more than the
unicorns still uncaught), and the unicorns the strong seat passed up: per play, how many more one of
its legal plays would have caught than the play it made. Exits 0.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field

from bench.computer import play_deal
from games.deck import colour
from games.safaru.catches import Catch, plays, tally
from games.safaru.computer import PER_COLOUR, UNICORN
from games.safaru.state import SafaruState

GROUPS = ("won", "shared", "lost")
DEALS = 5  # a 60-card game at two players: twelve cards a deal


def unicorns(catch: Catch) -> int:
    """The unicorns a play puts in its side's pile (the played card only when it pairs)."""
    cards = (*catch.taken, catch.card) if catch.pair else catch.taken
    return sum(colour(c) == UNICORN for c in cards)


@dataclass
class Story:
    """A ``play_deal`` watcher for the strong seat ``me`` (two sides): the unicorns each side holds,
    the deal in which the majority went out of reach, and the unicorns the seat passed up (taken
    before every move; what a play caught shows in the next position's pile)."""

    me: int
    counts: tuple[int, int] = (0, 0)  # the seat's, the other side's
    decided: int | None = None
    passed: int = 0
    pending: tuple[int, int] | None = field(default=None, repr=False)  # most it could catch, its count then

    def __call__(self, state: SafaruState) -> None:
        piles = [tally(p).unicorns for p in state.piles]
        self.counts = (piles[self.me], piles[1 - self.me])
        if self.pending is not None:
            most, before = self.pending
            self.passed += most - (self.counts[0] - before)
            self.pending = None
        left = PER_COLOUR - sum(self.counts)
        if self.decided is None and abs(self.counts[0] - self.counts[1]) > left:
            self.decided = state.deal_no
        if not state.over and state.turn == self.me:
            self.pending = max(unicorns(c) for c in plays(state.hands[self.me], state.table)), self.counts[0]

    @property
    def group(self) -> str:
        mine, theirs = self.counts
        return "won" if mine > theirs else "lost" if theirs > mine else "shared"


@dataclass
class Group:
    matches: int = 0
    credit: float = 0.0
    lead: float = 0.0
    passed: int = 0
    decided: list[int] = field(default_factory=lambda: [0] * (DEALS + 1))  # by deal; [0]: never


def trace(number: int) -> tuple[Story, float, float]:
    """Play strong-against-easy deal ``number``: its story, the strong seat's credit and lead."""
    story = Story(number % 2)
    deal = play_deal("safaru", "strong", "easy", number, story)
    return story, deal.credit, deal.lead


def render(groups: dict[str, Group]) -> str:
    head = f"{'unicorns':<8} {'matches':>7} {'wins':>7} {'lead':>6}  {'out of reach in deal 1-5, never':<32} {'passed up':>9}"
    lines = [head]
    for name in GROUPS:
        g = groups.get(name)
        if g is None or not g.matches:
            continue
        decided = " ".join(f"{n:>3}" for n in (*g.decided[1:], g.decided[0]))
        lines.append(f"{name:<8} {g.matches:>7} {g.credit / g.matches:>7.1%} {g.lead / g.matches:>+6.1f}  "
                     f"{decided:<32} {g.passed / g.matches:>9.2f}")
    total = sum(g.matches for g in groups.values())
    lines.append(f"over {total} matches; passed up: unicorns a match that one of the strong seat's legal plays "
                 "would have caught beyond the play it made")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.safaru_unicorns", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="deals")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    args = parser.parse_args(argv)
    groups: dict[str, Group] = defaultdict(Group)
    for number in range(args.start, args.start + args.matches):
        story, credit, lead = trace(number)
        g = groups[story.group]
        g.matches += 1
        g.credit += credit
        g.lead += lead
        g.passed += story.passed
        g.decided[story.decided or 0] += 1
    print(render(groups), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
