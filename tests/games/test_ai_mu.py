"""Mü's strong player reads the auction: the others' bids tell how strong their hands are."""

from __future__ import annotations

import random

from games.base import Action
from games.computer import choose
from games.mu import GAME as MU
from games.mu import position
from games.mu.computer import (
    BRAIN,
    CHEF_EDGE,
    DEFENCE,
    bid_reach,
    candidate_trumps,
    pays_the_patt,
    played_cards,
    provokes,
    target,
)
from games.mu.rules import bid_action

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
    assert state.last_chef == MU.view(state, 2).last_chef == 0
    assert BRAIN.value(MU, mark, state, 0) == gained[0] - (gained[1] + gained[2] + gained[3]) / 3, (
        "judged from the tricks, the Chef's hand is worth what it scores")


#: Seat 0 carries three cards with green, seat 1 two with blue, seat 2 three with the 7s; seat 3 (the
#: strong seat) three with the 7s.
AUCTION_HANDS = {
    0: ["r2", "r7a", "r8", "y1a", "y1b", "g4", "g5", "g6", "g8", "g9", "b3", "b7a", "b9", "k1a", "k2"],
    1: ["r1a", "r3", "r9", "y2", "y3", "y6", "y9", "g1a", "g3", "b2", "b4", "b6", "b8", "k0", "k4"],
    2: ["r0", "r7b", "y5", "y7b", "y8", "g0", "g1b", "g2", "b1a", "b7b", "k1b", "k3", "k6", "k7a", "k8"],
    3: ["r1b", "r4", "r5", "r6", "y0", "y4", "y7a", "g7a", "g7b", "b0", "b1b", "b5", "k5", "k7b", "k9"],
}


def fits(hand, reach) -> bool:
    """Whether a four-seat hand's target lies within ``reach``."""
    want = target(4, candidate_trumps(hand)[0][1])
    return reach[0] <= want and (reach[1] is None or want <= reach[1])


def easy_bids(state, count: int) -> None:
    for _ in range(count):
        seat = state.turn
        MU.apply(state, seat, choose(MU, state, seat, "easy", random.Random(0)))


def two_stopped_at_three():
    """Seats 0 to 2 bid as the easy player does, seat 3 passes once: 1, 2, 3 cards, then seat 0
    ties at three (its target) and seats 1 and 2 pass. Seat 3 is to bid."""
    state = position(4, AUCTION_HANDS, dealer=0)
    assert [target(4, candidate_trumps(state.hidden[s])[0][1]) for s in range(4)] == [3, 2, 3, 3]
    easy_bids(state, 3)
    assert state.bids == [1, 2, 3, 0]
    assert bid_reach(state)[2] == (3, None), "one beyond the top: it may go on"
    MU.apply(state, 3, Action("pass"))
    easy_bids(state, 3)
    assert state.bids == [3, 2, 3, 0] and state.turn == 3
    return state


def test_the_auction_shows_where_each_seat_stops():
    state = two_stopped_at_three()
    reach = bid_reach(state)
    assert [reach[s] for s in (0, 1, 2)] == [(3, 3), (2, 2), (3, 3)]
    assert all(fits(state.hidden[s] + state.shown[s], reach[s]) for s in (0, 1, 2))


def test_easy_seats_stop_within_what_their_bids_showed():
    """Over seeded auctions of three easy seats and one that bids at random, every easy seat's
    hand carries what the reading says, and the reading bounds about half of them."""
    within = bounded = total = 0
    for n in range(60):
        state = MU.setup(4, MU.default_options(), f"reach-{n}")
        rng, wild = random.Random(n), n % 4
        while state.phase == "auction":
            seat, reach = state.turn, bid_reach(state)
            for s in set(range(4)) - {seat, wild}:
                total += 1
                within += fits(state.hidden[s] + state.shown[s], reach[s])
                bounded += reach[s][1] is not None
            legal = MU.legal_actions(state, seat)
            action = rng.choice(legal) if seat == wild else choose(MU, state, seat, "easy", rng)
            MU.apply(state, seat, action)
    assert within == total > 1000
    assert 0.3 < bounded / total < 0.8


def test_a_tie_with_seats_that_stopped_is_no_candidate():
    """Seat 2 leads alone after one bid beyond the top, so it may go on: a tie is worth comparing.
    Once seats 0 and 2 stopped at three, a tie makes seat 3 the Patt's Provokateur for sure."""
    state = position(4, AUCTION_HANDS, dealer=0)
    easy_bids(state, 3)

    def ties(state) -> list[Action]:
        arms = BRAIN.candidates(MU, state, 3, MU.legal_actions(state, 3))
        return [a for a in arms if a.kind == "bid" and len(a.arg.split(".")) == 3]

    assert ties(state) and not any(provokes(state, 3, a) for a in ties(state))
    state = two_stopped_at_three()
    assert provokes(state, 3, bid_action(list(state.hidden[3][:3])))
    assert not provokes(state, 3, bid_action(list(state.hidden[3][:4])))
    assert not ties(state)
    legal = MU.legal_actions(state, 3)
    assert provokes(state, 3, choose(MU, state, 3, "easy", random.Random(0))), "the easy player ties here"
    assert BRAIN.default(MU, state, 3, legal, random.Random(0)) == Action("pass")


def test_strong_does_not_tie_seats_that_stopped_into_a_patt():
    """Three cards would tie seats 0 and 2, who stopped there: the Patt's Provokateur pays 30 and
    the two get 15. Imagining them raising again, the search used to tie in half the seeds."""
    state = two_stopped_at_three()
    for n in range(4):
        action = choose(MU, state, 3, "strong", random.Random(n))
        assert action.kind == "pass" or len(action.arg.split(".")) != 3


def play_hand_out(state, mark) -> list[int]:
    """The easy players finish the hand: what each seat gained in it."""
    while state.hand_no == mark[0]:
        easy_bids(state, 1)
    return [after - before for after, before in zip(state.scores, mark[1], strict=True)]


def test_judged_from_the_auction_a_hand_played_as_chef_is_worth_the_chef_edge():
    """The auction's playouts play the Chef's cards as the easy player does, and the strong player
    plays them better: becoming Chef is worth ``CHEF_EDGE`` more than the playout scores, to the
    Chef alone. A Patt has no Chef."""
    state = two_stopped_at_three()
    mark = BRAIN.mark(MU, state)
    MU.apply(state, 3, bid_action(list(state.hidden[3][:4])))
    gained = play_hand_out(state, mark)
    assert MU.view(state, 0).last_chef == 3
    for seat in range(4):
        plain = gained[seat] - sum(g for s, g in enumerate(gained) if s != seat) / 3
        assert BRAIN.value(MU, mark, state, seat) == plain + (CHEF_EDGE if seat == 3 else 0)
    assert CHEF_EDGE > 0

    patt = two_stopped_at_three()
    MU.apply(patt, 3, Action("pass"))
    gained = play_hand_out(patt, mark)
    assert MU.view(patt, 0).last_chef is None and gained == [-30, 0, 15, 0], "seat 0 tied last: the Provokateur"
    assert BRAIN.value(MU, mark, patt, 2) == 15 - (-30 + 0 + 0) / 3


#: Seat 3 holds four 7s and black's 1s, 7 and 9: its hand carries four cards (``target``), and the
#: strong player makes a Chef contract with it where the easy player's card play fails.
SEVENS = {
    0: ["r1a", "r3", "y1b", "y2", "y4", "y6", "y7b", "g1a", "g3", "g7a", "g8", "b3", "b5", "b8", "k7b"],
    1: ["r1b", "r5", "r8", "r9", "y0", "y3", "y5", "g2", "g7b", "b0", "b1a", "b9", "k2", "k3", "k6"],
    2: ["r0", "r2", "r4", "r7a", "y1a", "y8", "g0", "g6", "b2", "b6", "b7a", "k0", "k4", "k5", "k8"],
    3: ["r6", "r7b", "y7a", "y9", "g1b", "g4", "g5", "g9", "b1b", "b4", "b7b", "k1a", "k1b", "k7a", "k9"],
}


def test_strong_stays_in_the_auction_for_a_chef_hand_it_plays_better_than_its_playouts(monkeypatch):
    """One card out behind seats 0 and 1 (two each), the seat bids on in every seed. Judging the
    Chef hand by the easy player's card play alone, it dropped out in some."""
    state = position(4, SEVENS, dealer=3)
    assert target(4, candidate_trumps(state.hidden[3])[0][1]) == 4
    for seat, cards in [(3, "b7b"), (0, "y1b.y2"), (1, "r1b.r5"), (2, "r0")]:
        MU.apply(state, seat, Action("bid", cards))
    assert state.bids == [2, 2, 1, 1] and state.turn == 3
    seeds = range(4)
    assert all(choose(MU, state, 3, "strong", random.Random(n)).kind == "bid" for n in seeds)
    monkeypatch.setattr("games.mu.computer.CHEF_EDGE", 0)
    assert any(choose(MU, state, 3, "strong", random.Random(n)).kind == "pass" for n in seeds)


def tied_at_four_and_passed_to():
    """Seat 3 (its hand carries three cards) tied seat 0's four with one card more, beyond what
    its hand carries; seats 0 to 2 passed. A pass ends the auction in a Patt, seat 3 its
    Provokateur (it bid last): 40 points paid, 20 to seat 0."""
    state = position(4, AUCTION_HANDS, dealer=0)
    for seat, count in [(0, 1), (1, 2), (2, 0), (3, 3), (0, 3), (1, 0), (2, 0), (3, 1), (0, 0), (1, 0)]:
        MU.apply(state, seat, bid_action(list(state.hidden[seat][:count])) if count else Action("pass"))
    return state


def test_a_seat_that_would_pay_the_patt_may_bid_one_card_beyond_its_hand():
    state = tied_at_four_and_passed_to()
    assert not pays_the_patt(state, 2), "seat 2 passing leaves seat 3 to act"
    MU.apply(state, 2, Action("pass"))
    assert state.bids == [4, 2, 0, 4] and state.turn == 3 and pays_the_patt(state, 3)
    assert target(4, candidate_trumps(state.hidden[3] + state.shown[3])[0][1]) == 3
    arms = BRAIN.candidates(MU, state, 3, MU.legal_actions(state, 3))
    assert Action("pass") in arms and any(a.kind == "bid" and "." not in a.arg for a in arms)
    for n in range(3):
        assert choose(MU, state, 3, "strong", random.Random(n)).kind == "bid", "a Chef of five misses for less"
