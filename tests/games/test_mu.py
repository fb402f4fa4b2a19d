"""Mü: the worked cases M1–M19 (the rulebook's examples among them), each on a rigged position.

Seats follow the worked cases' names: A = 0 (dealer), B = 1, C = 2, D = 3, E = 4, clockwise.
``position`` builds a state from chosen hands; the rest of the deck fills the hands in deck order.
"""

from __future__ import annotations

import pytest

from games.base import Action, IllegalAction
from games.mu import GAME, bid_action, position
from games.mu.auction import find_vize
from games.mu.cards import ranking, trick_winner
from games.mu.scoring import bonus, played_hand, team_goal

A, B, C, D, E = range(5)

# Example 1's cards (seed): who lays out what, in the order of the action log.
EX1_HANDS = {
    A: ["r6", "r2", "y3", "y4"],
    B: ["b9", "g8", "g7a"],
    C: ["y9", "g6", "r5"],
    D: ["g1a", "b1a", "r9"],
}
# (seat, cards or None for a pass, legal max k before the action, that seat's count after it)
EX1_LOG = [
    (A, ["r6"], 1, 1),
    (B, None, None, 0),
    (C, ["y9"], 2, 1),
    (D, ["g1a", "b1a"], 2, 2),
    (A, ["r2"], 2, 2),
    (B, ["b9"], 3, 1),
    (C, ["g6", "r5"], 2, 3),
    (D, ["r9"], 2, 3),
    (A, ["y3", "y4"], 2, 4),
    (B, ["g8", "g7a"], 4, 3),
    (C, None, None, 3),
    (D, None, None, 3),
    (A, None, None, 4),
    (B, None, None, 3),
]


def act(state, seat, kind, arg=""):
    return GAME.apply(state, seat, Action(kind, arg))


def bid(state, seat, *cards):
    return GAME.apply(state, seat, bid_action(list(cards)))


def refused(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value


def example_1(steps=None):
    """Example 1's auction up to action ``steps`` (all 14 by default)."""
    s = position(4, EX1_HANDS, dealer=A)
    for seat, cards, _, _ in EX1_LOG[:steps]:
        if cards is None:
            act(s, seat, "pass")
        else:
            bid(s, seat, *cards)
    return s


def legal_args(state, seat):
    return [a.arg for a in GAME.legal_actions(state, seat)]


# -- M1: auction legality and end ----------------------------------------------------------------

def test_m1_example_1_auction():
    s = position(4, EX1_HANDS, dealer=A)
    for number, (seat, cards, limit, after) in enumerate(EX1_LOG, start=1):
        assert GAME.view(s, None).phase == "auction", f"auction ended early at action {number}"
        assert GAME.to_act(s) == {seat}
        if cards is None:
            act(s, seat, "pass")
        else:
            assert GAME.view(s, seat).bid_limit == limit, f"legal max k at action {number}"
            bid(s, seat, *cards)
        assert GAME.view(s, None).bids[seat] == after
    view = GAME.view(s, None)
    assert view.phase == "vize_trump"
    assert view.bids == (4, 3, 3, 3)


def test_m1_auction_not_over_after_three_passes():
    s = example_1(steps=13)
    assert GAME.view(s, None).phase == "auction"
    assert GAME.view(s, None).passes == 3


def test_m1_neg_a_dealer_opens_with_one_card_only():
    s = position(4, EX1_HANDS, dealer=A)
    error = refused(s, A, bid_action(["r6", "r2"]))
    assert error.reason == "mu.bid_too_many" and error.params["limit"] == 1
    bid(s, A, "r6")
    assert GAME.view(s, None).bids[A] == 1


def test_m1_neg_b_after_the_dealer_passes_left_neighbour_opens_with_one():
    s = position(4, EX1_HANDS, dealer=A)
    act(s, A, "pass")
    assert refused(s, B, bid_action(["b9", "g8"])).reason == "mu.bid_too_many"
    bid(s, B, "b9")
    assert GAME.view(s, None).bids == (0, 1, 0, 0)


def test_m1_neg_c_total_over_the_limit():
    s = example_1(steps=4)
    error = refused(s, A, bid_action(["r2", "y3", "y4"]))
    assert error.reason == "mu.bid_too_many"
    assert error.params == {"limit": 2, "most": 2}
    assert GAME.view(s, None).bids[A] == 1  # nothing changed


# -- M2 to M5: Chef, Vize, trump choices, partner ------------------------------------------------

def test_m2_chef_is_a_with_four_cards():
    view = GAME.view(example_1(), None)
    assert view.chef == A and view.bids[A] == 4


def test_m3_vize_by_second_highest_digit():
    s = example_1()
    assert GAME.view(s, None).vize == B
    shown = [(), ("b9", "g8", "g7a"), ("y9", "g6", "r5"), ("g1a", "b1a", "r9")]
    assert find_vize([4, 3, 3, 3], shown, A) == B
    # Without Beate's 8 the second digits are 7 (B) against 6 (C): still B; then C over D.
    assert find_vize([4, 0, 3, 3], shown, A) == C


def test_m4_trump_choices_follow_the_cards():
    s = example_1()
    assert GAME.to_act(s) == {B}
    assert legal_args(s, B) == ["green", "blue", "7", "8", "9"]  # the rulebook's "Gelb": D20
    assert refused(s, B, Action("trump", "yellow")).reason == "mu.trump_not_shown"
    assert refused(s, B, Action("trump", "none")).reason == "mu.vize_no_trump"
    act(s, B, "trump", "green")
    assert GAME.to_act(s) == {A}
    assert legal_args(s, A) == ["red", "yellow", "2", "3", "4", "6", "none"]
    assert refused(s, A, Action("trump", "9")).reason == "mu.trump_not_shown"


def test_m5_partner_anyone_but_the_vize_and_goal_36():
    s = example_1()
    act(s, B, "trump", "green")
    act(s, A, "trump", "yellow")
    assert GAME.view(s, None).phase == "partner"
    assert legal_args(s, A) == ["2", "3"]
    assert refused(s, A, Action("partner", "1")).reason == "mu.partner_vize"
    assert refused(s, A, Action("partner", "0")).reason == "mu.partner_self"
    act(s, A, "partner", "3")
    view = GAME.view(s, None)
    assert (view.partner, view.goal, view.phase, view.to_act, view.leader) == (D, 36, "tricks", A, A)
    assert (view.vize_trump, view.chef_trump) == ("green", "yellow")


# -- M6: a digit trump takes the card out of its colour -------------------------------------------

# Beate's only red card is the red 6, and it is her only 6.
BEATE_M6 = ["r6", "y0", "y1a", "y1b", "y2", "y3", "y4", "y5", "y7a", "y7b", "y8", "y9", "g0", "g1a", "g1b"]


def m6_position():
    return position(4, {A: ["r3", "g6"], B: BEATE_M6}, chef=A, shown={A: ["g6"]}, chef_trump="6", partner=C)


def test_m6_red_led_red_6_is_no_red_card():
    s = m6_position()
    assert s.ranks["r6"] == ("trump", 2)
    act(s, A, "play", "r3")
    assert sorted(legal_args(s, B)) == sorted(BEATE_M6)  # void in red: anything goes
    act(s, B, "play", "y0")
    assert GAME.view(s, None).trick == ((A, "r3"), (B, "y0"))


def test_m6_trump_led_red_6_must_follow():
    s = m6_position()
    act(s, A, "play", "g6")
    assert legal_args(s, B) == ["r6"]
    assert refused(s, B, Action("play", "y0")).reason == "mu.must_follow.trump"
    act(s, B, "play", "r6")


# -- M7: bonus by Chef trump kind ----------------------------------------------------------------

@pytest.mark.parametrize(("trump", "amount", "label"), [
    ("red", 40, "colour"), ("1", 50, "ones_sevens"), ("7", 50, "ones_sevens"), ("5", 60, "digit"),
    ("none", 70, "none"),
])
def test_m7_bonus_for_chef_and_partner(trump, amount, label):
    lines = played_hand(4, A, D, 4, trump, [20, 14, 10, 16], [4, 4, 3, 4])
    extra = [line for line in lines if line.label.startswith("mu.line.bonus")]
    assert [(x.seat, x.points, x.label) for x in extra] == [
        (A, amount, f"mu.line.bonus.{label}"), (D, amount, f"mu.line.bonus.{label}")
    ]
    assert extra[0].params == {"cards": 4, "team": 36, "goal": 36}


# -- M8: a lost game -----------------------------------------------------------------------------

def totals(lines, players):
    out = [0] * players
    for line in lines:
        out[line.seat] += line.points
    return out


def test_m8_lost_game_difference_two():
    lines = played_hand(4, A, D, 4, "yellow", [20, 14, 13, 13], [5, 4, 3, 3])
    chef_line = next(x for x in lines if x.label == "mu.line.lost.chef")
    assert chef_line.params == {"cards": 4, "team": 33, "goal": 36, "could": 2, "diff": 2}
    extra = [(x.seat, x.points) for x in lines if x.label.startswith("mu.line.lost")]
    assert extra == [(A, -20), (B, 10), (C, 10), (D, 0)]
    assert totals(lines, 4) == [0, 24, 23, 13]


def test_m8_variant_team_29_difference_four():
    lines = played_hand(4, A, D, 4, "yellow", [16, 16, 15, 13], [4, 4, 4, 3])
    extra = [(x.seat, x.points) for x in lines if x.label.startswith("mu.line.lost")]
    assert extra == [(A, -40), (B, 20), (C, 20), (D, 0)]


# -- M9 / M10: Patt ------------------------------------------------------------------------------

def hand_lines(state, number=None):
    score = state.history[-1] if number is None else state.history[number - 1]
    return [(x.seat, x.label.removeprefix("mu.line."), x.points) for x in score.lines]


def test_m9_patt_five_players_provokateur_scores_minus_ten():
    s = position(5, dealer=A)
    hand = s.hidden
    mine = {seat: list(hand[seat]) for seat in range(5)}
    # Round 1: A 1, B 2, E 1.  Round 2: B to 3, E to 2.  Round 3: E to 3, the last bid of the tied.
    bid(s, A, mine[A][0])
    bid(s, B, *mine[B][:2])
    act(s, C, "pass")
    act(s, D, "pass")
    bid(s, E, mine[E][0])
    act(s, A, "pass")
    bid(s, B, mine[B][2])
    act(s, C, "pass")
    act(s, D, "pass")
    bid(s, E, mine[E][1])
    for seat in (A, B, C, D):
        act(s, seat, "pass")
    bid(s, E, mine[E][2])
    assert GAME.view(s, None).bids == (1, 3, 0, 0, 3)
    for seat in (A, B, C, D):
        act(s, seat, "pass")
    assert s.hand_no == 1
    act(s, E, "pass")
    assert hand_lines(s) == [(A, "patt.other", 0), (B, "patt.top", 15), (C, "patt.other", 0),
                             (D, "patt.other", 0), (E, "patt.provokateur", -30)]
    view = GAME.view(s, None)
    assert view.scores == (0, 15, 0, 0, -30)
    assert (view.hand_no, view.dealer, view.phase, view.to_act) == (2, B, "auction", B)
    assert view.tricks_won == (0,) * 5 and view.bids == (0,) * 5


def test_m9_three_way_patt_last_to_reach_two_is_provokateur():
    s = position(4, dealer=A)
    mine = {seat: list(s.hidden[seat]) for seat in range(4)}
    bid(s, A, mine[A][0])
    bid(s, B, *mine[B][:2])
    bid(s, C, mine[C][0])
    act(s, D, "pass")
    bid(s, A, mine[A][1])
    act(s, B, "pass")
    bid(s, C, mine[C][1])
    for seat in (D, A, B, C):
        act(s, seat, "pass")
    assert hand_lines(s) == [(A, "patt.top", 10), (B, "patt.top", 10), (C, "patt.provokateur", -20),
                             (D, "patt.other", 0)]


def test_m10_all_pass_in_round_one():
    s = position(4, dealer=C)
    for seat in (C, D, A, B):
        act(s, seat, "pass")
    assert hand_lines(s) == [(seat, "all_passed", 0) for seat in range(4)]
    view = GAME.view(s, None)
    assert view.scores == (0, 0, 0, 0)
    assert (view.dealer, view.hand_no, view.phase) == (D, 2, "auction")


# -- M11 to M13: no Vize -------------------------------------------------------------------------

def test_m11_sole_bidder_is_chef_without_vize():
    s = position(4, dealer=A)
    bid(s, A, s.hidden[A][0])
    for seat in (B, C, D, A):
        act(s, seat, "pass")
    view = GAME.view(s, None)
    assert (view.chef, view.vize, view.phase, view.to_act, view.goal) == (A, None, "chef_trump", A, 30)
    act(s, A, "trump", "none")
    assert legal_args(s, A) == ["1", "2", "3"]


def test_m12_full_tie_gives_no_vize():
    s = position(4, {A: ["y9"], B: ["b9"], C: ["g2", "g3"]}, dealer=A)
    bid(s, A, "y9")
    bid(s, B, "b9")
    bid(s, C, "g2", "g3")
    for seat in (D, A, B, C):
        act(s, seat, "pass")
    view = GAME.view(s, None)
    assert (view.chef, view.vize, view.phase) == (C, None, "chef_trump")


def test_m13_three_players_no_vize_no_partner():
    s = position(3, dealer=A, removed_colours=("green", "black"))
    assert GAME.view(s, A).hand_counts == (12, 12, 12)
    bid(s, A, s.hidden[A][0])
    bid(s, B, *s.hidden[B][:2])
    for seat in (C, A, B):
        act(s, seat, "pass")
    view = GAME.view(s, None)
    assert (view.chef, view.vize, view.phase, view.goal) == (B, None, "chef_trump", 14)
    act(s, B, "trump", "none")
    view = GAME.view(s, None)
    assert (view.phase, view.partner, view.to_act, view.leader) == ("tricks", None, B, B)


# -- M14 to M16: who wins a trick ----------------------------------------------------------------

def test_m14_order_with_vize_red_and_chef_sevens():
    ranks = ranking("red", "7")
    strongest_first = ["r7b", "r7a", "g7b", "b7a", "r9", "r8", "r6", "r5", "r4", "r3", "r2", "r1a", "r0"]
    for i, high in enumerate(strongest_first):
        for low in strongest_first[i + 1:]:
            # the stronger card wins whichever order they fall in, except equal cards: first played
            assert trick_winner([(0, low), (1, high)], ranks) == 1 or ranks[low] == ranks[high]
            assert trick_winner([(0, high), (1, low)], ranks) == 0
    assert trick_winner([(0, "r7a"), (1, "r7b")], ranks) == 0
    assert trick_winner([(0, "k7a"), (1, "y7b")], ranks) == 0


def test_m14_trick_played_through_the_engine():
    greens = ["g0", "g1a", "g1b", "g2", "g3", "g4", "g5", "g6", "g7a", "g7b", "g8"]
    s = position(
        4, {A: [*greens, "r1a", "r1b", "r2", "r3"], B: ["g9"], C: ["b7a"], D: ["r0"]},
        chef=A, vize=D, partner=B, shown={A: ["g7a", "g6"], D: ["r0"]}, vize_trump="red", chef_trump="7",
    )
    act(s, A, "play", "g5")
    assert legal_args(s, B) == ["g9"]
    assert refused(s, B, Action("play", s.hidden[B][0])).reason == "mu.must_follow.green"
    act(s, B, "play", "g9")
    assert "b7a" in legal_args(s, C) and len(legal_args(s, C)) == 15
    act(s, C, "play", "b7a")
    act(s, D, "play", "r0")  # a shown card is played like a hand card
    view = GAME.view(s, None)
    assert view.last_trick == ((A, "g5"), (B, "g9"), (C, "b7a"), (D, "r0"))
    assert (view.last_winner, view.to_act, view.leader) == (C, C, C)
    assert view.tricks_won == (0, 0, 1, 0) and view.trick == ()
    assert view.shown[D] == () and view.bids[D] == 1


def test_m15_chef_yellow_zero_beats_vize_blue_nine():
    ranks = ranking("blue", "yellow")
    assert trick_winner([(0, "r5"), (1, "b9"), (2, "y0")], ranks) == 2
    assert trick_winner([(0, "b9"), (1, "y0")], ranks) == 1


def test_m16_no_trumps_first_of_equal_sevens_wins():
    ranks = ranking("", "none")
    assert trick_winner([(0, "g7a"), (1, "g7b"), (2, "g3")], ranks) == 0
    assert trick_winner([(0, "g7b"), (1, "g7a"), (2, "g3")], ranks) == 0
    assert trick_winner([(0, "g3"), (1, "r9"), (2, "g7b")], ranks) == 2  # other colours never win


# -- M17 to M19: bonus formula, lost games, exactly on target ------------------------------------

def test_m17_bonus_formula():
    assert [bonus(3, t) for t in ("green", "7", "5", "none")] == [30, 40, 50, 60]
    assert bonus(9, "1") == 100
    assert bonus(10, "red") == 100
    assert bonus(12, "red") == 100
    assert bonus(1, "red") == 10 and bonus(8, "none") == 100


def test_team_goal_table_of_the_seed():
    rows = {
        3: [12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34],
        4: [30, 32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58],
        5: [24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57],
        6: [20, 24, 28, 32, 36, 40, 44, 48, 52, 56],
    }
    for players, row in rows.items():
        assert [team_goal(players, n) for n in range(1, len(row) + 1)] == row


def lost_points(lines):
    return [(x.seat, x.points) for x in lines if x.label.startswith("mu.line.lost")]


def test_m18_lost_five_players():
    lines = played_hand(5, A, B, 6, "red", [20, 15, 10, 10, 5], [3] * 5)
    assert lost_points(lines) == [(A, -20), (B, 0), (C, 10), (D, 10), (E, 10)]


def test_m18_lost_six_players():
    lines = played_hand(6, A, B, 3, "red", [10, 9, 10, 10, 10, 11], [2] * 6)
    assert lost_points(lines) == [(A, -30), (B, 0), (2, 15), (3, 15), (4, 15), (5, 15)]


def test_m18_lost_three_players():
    lines = played_hand(3, A, -1, 5, "red", [19, 9, 8], [4] * 3)
    assert lost_points(lines) == [(A, -10), (B, 5), (C, 5)]


def test_m19_exactly_on_target_is_reached():
    lines = played_hand(4, A, D, 4, "red", [20, 12, 12, 16], [4] * 4)
    assert [(x.seat, x.points) for x in lines if x.label.startswith("mu.line.bonus")] == [(A, 40), (D, 40)]
    assert not lost_points(lines)
