"""The end of a hand: book its score lines, end the match or pass the deal to the left."""

from __future__ import annotations

from games.base import Event, HandScore, ScoreLine
from games.mu.state import OVER, MuState, deal


def match_over(s: MuState) -> bool:
    """Someone's total exceeds the target; with ``tie_plays_on`` the leader must also be alone."""
    best = max(s.scores)
    if best <= s.options.target:
        return False
    return not (s.options.tie_plays_on and s.scores.count(best) > 1)


def finish_hand(s: MuState, lines: list[ScoreLine]) -> list[Event]:
    for line in lines:
        s.scores[line.seat] += line.points
    score = HandScore(s.hand_no, tuple(lines), tuple(s.scores))
    s.history.append(score)
    s.last_chef = s.chef
    events = [Event("hand_scored", None, {"hand": s.hand_no, "totals": score.totals})]
    if match_over(s):
        s.phase, s.turn = OVER, -1
        events.append(Event("match_over", None, {"totals": score.totals}))
        return events
    s.dealer = (s.dealer + 1) % s.players
    deal(s)
    return events + deal_events(s)


def deal_events(s: MuState) -> list[Event]:
    """The public start of a hand, then each seat's own cards for that seat only."""
    events = [Event("deal", s.dealer, {"hand": s.hand_no, "removed": s.removed_colours})]
    events += [Event("hand", seat, {"cards": s.hidden[seat]}, frozenset((seat,))) for seat in range(s.players)]
    return events
