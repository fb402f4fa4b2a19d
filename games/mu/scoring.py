"""Mü scoring: the team goal and bonus tables, lost games, and the Patt.

Every function returns ``ScoreLine``s, one or more per seat, so a hand's breakdown shows each step:
trick points for everyone, then the bonus or the penalty of a played hand, or the Patt points.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import ScoreLine
from games.deck import triangles
from games.mu.cards import SHIFTS, trump_kind

#: Team goal T(players, n) = base + step × n: the rulebook's table in closed form.
GOAL: dict[int, tuple[int, int]] = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}


def team_goal(players: int, n: int) -> int:
    base, step = GOAL[players]
    return base + step * n


def could_have_bid(players: int, points: int) -> int:
    """The most cards whose goal ``points`` reach (0 if not even one card's)."""
    base, step = GOAL[players]
    return max(0, (points - base) // step)


def bonus(n: int, chef_trump: str) -> int:
    """What Chef and partner each get for a reached goal: rarer Chef trumps shift the column."""
    return min(100, 10 * (n + SHIFTS[trump_kind(chef_trump)]))


def trick_points(cards: Sequence[str]) -> int:
    return sum(triangles(c) for c in cards)


def played_hand(
    players: int, chef: int, partner: int, n: int, chef_trump: str, points: Sequence[int],
    tricks: Sequence[int],
) -> list[ScoreLine]:
    """The lines of a played hand: ``points`` are each seat's triangles from its tricks."""
    lines = [ScoreLine(seat, "mu.line.tricks", points[seat], {"tricks": tricks[seat]}) for seat in range(players)]
    team = points[chef] + (points[partner] if partner >= 0 else 0)
    goal = team_goal(players, n)
    if team >= goal:
        label = f"mu.line.bonus.{trump_kind(chef_trump)}"
        amount = bonus(n, chef_trump)
        for seat in (chef, partner):
            if seat >= 0:
                lines.append(ScoreLine(seat, label, amount, {"cards": n, "team": team, "goal": goal}))
        return lines
    could = could_have_bid(players, team)
    diff = n - could
    params = {"cards": n, "team": team, "goal": goal, "could": could, "diff": diff}
    for seat in range(players):
        if seat == chef:
            lines.append(ScoreLine(seat, "mu.line.lost.chef", -10 * diff, params))
        elif seat == partner:
            lines.append(ScoreLine(seat, "mu.line.lost.partner", 0, params))
        else:
            lines.append(ScoreLine(seat, "mu.line.lost.opponent", 5 * diff, params))
    return lines


def provokateur(bids: Sequence[int], bid_times: Sequence[int]) -> int:
    """Of the tied top bidders, the one whose latest bid came last (-1 when nobody bid)."""
    top = max(bids)
    if top == 0:
        return -1
    return max((seat for seat, b in enumerate(bids) if b == top), key=bid_times.__getitem__)


def patt(bids: Sequence[int], bid_times: Sequence[int]) -> list[ScoreLine]:
    """A stalemate: +5 per card to the tied top bidders, −10 per card instead to the Provokateur."""
    top = max(bids)
    if top == 0:
        return [ScoreLine(seat, "mu.line.all_passed", 0) for seat in range(len(bids))]
    last = provokateur(bids, bid_times)
    lines = []
    for seat, b in enumerate(bids):
        if seat == last:
            lines.append(ScoreLine(seat, "mu.line.patt.provokateur", -10 * top, {"cards": top}))
        elif b == top:
            lines.append(ScoreLine(seat, "mu.line.patt.top", 5 * top, {"cards": top}))
        else:
            lines.append(ScoreLine(seat, "mu.line.patt.other", 0, {"cards": b}))
    return lines
