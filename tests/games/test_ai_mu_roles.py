"""Mü's trace of the strong seat's lead by role (bench/mu_roles.py): watched hands, sorted by role."""

from __future__ import annotations

import random

from bench.mu_roles import Hand, Watcher, render
from games.base import Action
from games.computer import choose
from games.mu import GAME as MU
from games.mu import position
from games.mu.rules import bid_action

#: Seat 0's hand carries three cards (with green), seat 2's three (with the 7s); the others less.
HANDS = {
    0: ["r2", "r7a", "r8", "y1a", "y1b", "g4", "g5", "g6", "g8", "g9", "b3", "b7a", "b9", "k1a", "k2"],
    1: ["r1a", "r3", "r9", "y2", "y3", "y6", "y9", "g1a", "g3", "b2", "b4", "b6", "b8", "k0", "k4"],
    2: ["r0", "r7b", "y5", "y7b", "y8", "g0", "g1b", "g2", "b1a", "b7b", "k1b", "k3", "k6", "k7a", "k8"],
    3: ["r1b", "r4", "r5", "r6", "y0", "y4", "y7a", "g7a", "g7b", "b0", "b1b", "b5", "k5", "k7b", "k9"],
}


def watched(bids: list[tuple[int, int]]) -> Watcher:
    """The auction's first moves as given (seat, cards; 0 a pass), then the easy players, watched
    before every move and at the end as ``play_deal`` does."""
    state, watcher = position(4, HANDS, dealer=0), Watcher()
    for seat, count in bids:
        watcher(state)
        assert state.turn == seat
        MU.apply(state, seat, bid_action(list(state.hidden[seat][:count])) if count else Action("pass"))
    while not MU.result(state).breakdown:
        watcher(state)
        seat = state.turn
        MU.apply(state, seat, choose(MU, state, seat, "easy", random.Random(0)))
    watcher(state)
    return watcher


def lead(watcher: Watcher, seat: int) -> float:
    points = watcher.state.history[0].totals
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def test_a_seat_whose_bid_reached_the_top_and_lost_the_chef_was_outbid():
    """Seat 3 jumps to two cards, leading alone; seat 0 goes to three, everyone passes, and seat 0
    is Chef: seat 3 (the Vize) was outbid, and so was seat 1 (its one card tied the top); seat 2,
    who never bid, was not."""
    watcher = watched([(0, 1), (1, 1), (2, 0), (3, 2), (0, 2), (1, 0), (2, 0), (3, 0), (0, 0)])
    chef, vize, partner = watcher.teams
    assert chef == 0 and vize == 3
    lines = watcher.state.history[0].lines
    made = any(line.label.startswith("mu.line.bonus") for line in lines)
    hand = watcher.hand(3, 0.0, lead(watcher, 3))
    assert hand == Hand("Vize", 3, made, True, 0.0, lead(watcher, 3))
    assert watcher.hand(0, 1.0, 0.0).role == "Chef"
    assert watcher.hand(partner, 0.0, 0.0).role == "partner"
    assert watcher.hand(1, 0.0, 0.0).outbid and not watcher.hand(2, 0.0, 0.0).outbid


def test_a_patt_sorts_its_seats_by_their_lines_and_plays_no_contract():
    """Seats 0 and 2 tie at three, seat 0 last: it pays as Provokateur, seat 2 gets the top's share."""
    watcher = watched([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 0), (2, 0), (3, 0)])
    assert watcher.state.history[0].totals == (-30, 0, 15, 0)
    roles = [watcher.hand(seat, 0.0, lead(watcher, seat)) for seat in range(4)]
    assert [h.role for h in roles] == ["Patt Provokateur", "Patt other", "Patt top", "Patt other"]
    assert all(h.made is None and h.contract == 3 and not h.outbid for h in roles)
    table = render(roles)
    assert "Patt other                   2   0.0%   -15.0     -30     -7.50" in table
