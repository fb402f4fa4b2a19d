"""``python -m bench.mu_roles [--matches N] [--start K]``: where Mü's strong seat gains and loses its lead, by role.

Plays the strong-against-easy Mü deals of ``bench.computer`` (the same seeds, seats and CPU limit, so
the same hands; deals from 200 on are seeds the benchmark never plays) and sorts each hand by the
strong seat's role in it: Chef, partner, Vize, defender, or in a Patt the top bidder, its
Provokateur or another seat (or all passed). Per role: hands, win rate and lead (points against the
best other seat, the stricter of the benchmark's two leads), and for played hands the same by the contract's cards and
whether the Chef's side made it. Last the auctions the strong seat lost: its latest bid reached the
top and another seat still became Chef. Exits 0.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass

from bench.computer import play_deal
from games.mu.state import AUCTION, MuState

#: Patt roles by the strong seat's score line.
PATT_ROLES = {"mu.line.patt.top": "Patt top", "mu.line.patt.provokateur": "Patt Provokateur",
              "mu.line.patt.other": "Patt other", "mu.line.all_passed": "all passed"}
ROLES = ("Chef", "partner", "Vize", "defender", *PATT_ROLES.values())


@dataclass(frozen=True)
class Hand:
    """One hand as the strong seat saw it end."""

    role: str
    contract: int  # the top bid
    made: bool | None  # whether the Chef's side made its goal (None: no hand was played)
    outbid: bool  # its latest bid reached the top, and another seat became Chef
    credit: float
    lead: float


class Watcher:
    """A ``play_deal`` watcher: the state at the end, and the auction's bids as they grew (taken
    before every move)."""

    def __init__(self) -> None:
        self.state: MuState | None = None
        self.bids: list[tuple[int, ...]] = []
        self.teams: tuple[int, int, int] = (-1, -1, -1)  # Chef, Vize, partner of the hand played

    def __call__(self, state: MuState) -> None:
        self.state = state
        if state.hand_no != 1:
            return  # the deal's hand is over: the state has dealt the next one
        if state.phase == AUCTION:
            self.bids.append(tuple(state.bids))
        else:
            self.teams = (state.chef, state.vize, state.partner)

    def hand(self, me: int, credit: float, lead: float) -> Hand:
        assert self.state is not None
        lines = self.state.history[0].lines
        mine = {line.label for line in lines if line.seat == me}
        chef, vize, partner = self.teams
        patt = [PATT_ROLES[label] for label in mine if label in PATT_ROLES]
        if patt:
            role, made = patt[0], None
        else:
            role = {chef: "Chef", vize: "Vize", partner: "partner"}.get(me, "defender")
            made = any(line.label.startswith("mu.line.bonus") for line in lines)
        reached = False  # whether its latest bid reached the top
        for before, after in zip(self.bids, self.bids[1:], strict=False):
            if after[me] > before[me]:
                reached = after[me] >= max(b for s, b in enumerate(after) if s != me)
        outbid = not patt and chef != me and reached
        return Hand(role, max(self.bids[-1]), made, outbid, credit, lead)


def trace(number: int) -> Hand:
    """Deal ``number`` of the benchmark's strong-against-easy Mü, as the strong seat saw it."""
    watcher = Watcher()
    deal = play_deal("mu", "strong", "easy", number, watcher)
    return watcher.hand(number % 4, deal.credit, deal.lead_on_best)


def render(hands: list[Hand]) -> str:
    def row(label: str, group: list[Hand]) -> str:
        lead = sum(h.lead for h in group)
        return (f"{label:<24} {len(group):>5} {sum(h.credit for h in group) / len(group):>6.1%} "
                f"{lead / len(group):>7.1f} {lead:>7.0f} {lead / len(hands):>9.2f}")

    lines = [f"{'role':<24} {'hands':>5} {'wins':>6} {'lead':>7} {'sum':>7} {'per deal':>9}", row("all", hands)]
    for role in ROLES:
        group = [h for h in hands if h.role == role]
        if not group:
            continue
        lines.append(row(role, group))
        contracts: dict[tuple[int, bool], list[Hand]] = defaultdict(list)
        for h in group:
            if h.made is not None:
                contracts[h.contract, h.made].append(h)
        for (cards, made), sub in sorted(contracts.items()):
            lines.append(row(f"  {cards} cards, {'made' if made else 'set'}", sub))
    outbid = [h for h in hands if h.outbid]
    if outbid:
        lines.append(row("outbid in the auction", outbid))
    lines.append("lead: points against the best other seat, mean per hand; sum over the hands; per deal: "
                 "the sum over all hands traced")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.mu_roles", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="deals to trace")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    args = parser.parse_args(argv)
    hands = [trace(n) for n in range(args.start, args.start + args.matches)]
    print(render(hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
