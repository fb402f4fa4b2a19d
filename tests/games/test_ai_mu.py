"""Mü's strong player reads the auction: the others' bids tell how strong their hands are."""

from __future__ import annotations

import random

from games.base import Action
from games.computer import choose
from games.mu import GAME as MU
from games.mu import position
from games.mu.computer import BRAIN, DEFENCE, candidate_trumps, played_cards, target

#: The Chef's hand carries four cards with green (``target``), the others carry none; without its
#: nine it would carry two.
CHEF = ["g0", "g1a", "g1b", "g2", "g8", "g9", "r9", "y0", "y2", "y3", "k2", "k3", "b2", "b3", "r2"]
PARTNER = ["b0", "b1b", "b5", "b6", "g6", "k1a", "k5", "k6", "r1a", "r4", "r8", "y1a", "y5", "y6", "y8"]
QUIET = ["b4", "b7b", "g3", "g4", "g5", "k0", "k1b", "k7b", "r1b", "r3", "r5", "r6", "y1b", "y4", "y7a"]
DEFENDER = ["b1a", "b7a", "b8", "b9", "g7a", "g7b", "k4", "k7a", "k8", "k9", "r0", "r7a", "r7b", "y7b", "y9"]


def chef_bid_four_greens(bid_fits: bool):
    """The Chef (seat 0) laid out four low greens and named green; seat 3 defends. Either the deal
    is as above (every bid fits its hand), or seat 2, who bid nothing, holds the Chef's 8 and 9."""
    chef, quiet = CHEF, QUIET
    if not bid_fits:
        chef = [c for c in CHEF if c not in ("g8", "g9")] + ["k0", "r3"]
        quiet = [c for c in QUIET if c not in ("k0", "r3")] + ["g8", "g9"]
    hands = {0: chef, 1: PARTNER, 2: quiet, 3: DEFENDER}
    return position(4, hands, chef=0, shown={0: CHEF[:4]}, chef_trump="green", partner=1)


def test_a_deal_where_the_bids_fit_the_hands_weighs_more():
    fits, strays = chef_bid_four_greens(True), chef_bid_four_greens(False)
    players = fits.players
    assert target(players, candidate_trumps(fits.hidden[0] + fits.shown[0])[0][1]) >= 4
    assert target(players, candidate_trumps(strays.hidden[0] + strays.shown[0])[0][1]) < 4
    assert BRAIN.likelihood(MU, fits, 3) == 1.0
    assert BRAIN.likelihood(MU, strays, 3) < 0.1
    assert BRAIN.likelihood(MU, strays, 0) == BRAIN.likelihood(MU, strays, 1) == 1.0, "the Chef team searches unweighed"


def test_the_bids_are_judged_on_the_dealt_hands_after_cards_are_played():
    state = chef_bid_four_greens(True)
    MU.apply(state, 0, Action("play", "g9"))
    for seat in (1, 2, 3):
        MU.apply(state, seat, MU.legal_actions(state, seat)[0])
    assert BRAIN.likelihood(MU, state, 3) == 1.0, "the Chef's nine still counts to the hand it bid on"


def test_who_played_which_card_is_read_from_the_won_tricks():
    state = chef_bid_four_greens(True)
    played: list[list[str]] = [[] for _ in range(4)]
    for _ in range(9):  # two tricks and one card more
        seat = state.turn
        card = MU.legal_actions(state, seat)[-1].arg
        played[seat].append(card)
        MU.apply(state, seat, Action("play", card))
        assert [sorted(cards) for cards in played_cards(state)] == [sorted(cards) for cards in played]
    assert len(state.trick) == 1


def test_a_seat_against_the_chef_plays_its_cards_on_more_playouts():
    state = chef_bid_four_greens(True)
    chef = BRAIN.budget(MU, state, 6)
    for seat in (0, 1, 2):
        MU.apply(state, seat, MU.legal_actions(state, seat)[0])
    assert state.turn == 3
    assert BRAIN.budget(MU, state, 6) == DEFENCE * chef > chef
    assert BRAIN.scaled(6).budget(MU, state, 6) == 6 * DEFENCE * chef, "the expert level scales it too"


def test_the_partner_counts_its_points_against_the_chef_who_gets_the_same_bonus():
    """Played out by the easy players, the Chef team makes its goal: both get the bonus, so the
    partner's hand is worth its tricks against the Chef's, a defender's against the table's mean."""
    state = chef_bid_four_greens(True)
    mark = BRAIN.mark(MU, state)
    while state.hand_no == mark[0]:
        seat = state.turn
        MU.apply(state, seat, choose(MU, state, seat, "easy", random.Random(0)))
    gained = [after - before for after, before in zip(state.scores, mark[1], strict=True)]
    lines = state.history[-1].lines
    assert {line.seat for line in lines if line.label.startswith("mu.line.bonus")} == {0, 1}
    tricks = {line.seat: line.points for line in lines if line.label == "mu.line.tricks"}
    assert gained[0] == max(gained), "the Chef's tricks outscore its partner's"
    assert BRAIN.value(MU, mark, state, 1) == tricks[1] - tricks[0] < 0
    assert BRAIN.value(MU, mark, state, 3) == gained[3] - (gained[0] + gained[1] + gained[2]) / 3
