"""Rummü: the worked cases R1–R24, the edge rules and the invariants."""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from games.base import Action, IllegalAction, ScoreLine
from games.deck import DECK, colour, digit
from games.rummu import BRAIN, GAME, Combo, Options, RummuState
from games.rummu.combos import (
    LING,
    MULTI,
    RUN,
    arrange,
    classify,
    find_melds,
    fitting,
    is_pure,
    split_cards,
    valid,
    value,
)
from games.rummu.scoring import combination_line, hand_lines, opening_minimum
from games.rummu.state import DRAW, PLAY
from tests.games.invariants import check_playouts

ROOT = Path(__file__).resolve().parents[2]


def rig(players: int = 3, *, hands: dict[int, tuple[str, ...]], combos: tuple = (), discard: tuple = ("y9",),
        stock: tuple[str, ...] | None = None, turn: int = 0, phase: str = PLAY, totals: tuple | None = None,
        options: Options | None = None, rest_to: int | None = None) -> RummuState:
    """A Rummü state with chosen hands, displays and piles.

    ``combos`` are (owner, cards) pairs, named m1, m2 … in that order; ``discard`` runs bottom to
    top; ``stock`` runs bottom to top. Every card not placed goes to the stock (in deck order, under
    a given ``stock``), or into seat ``rest_to``'s hand, so the state still holds all 60 cards.
    """
    state = GAME.setup(players, options or Options(), "rig")
    state.hands = [tuple(hands.get(s, ())) for s in range(players)]
    state.combos = []
    for owner, cards in combos:
        kind = classify(cards)
        state.combos.append(Combo(len(state.combos) + 1, owner, kind, arrange(kind, cards)))
    state.next_id = len(state.combos) + 1
    state.discard = list(discard)
    placed = {c for h in state.hands for c in h} | set(discard) | {c for m in state.combos for c in m.cards}
    given = list(stock or ())
    rest = [c for c in DECK if c not in placed and c not in given]
    if rest_to is None:
        state.stock = rest + given
    else:
        state.hands[rest_to] += tuple(rest)
        state.stock = given
    state.origin = {c: 0 for h in state.hands for c in h}
    state.known = [frozenset()] * players
    state.turn, state.phase = turn, phase
    if totals is not None:
        state.totals = list(totals)
    assert sorted(GAME.cards(state)) == sorted(DECK)
    return state


def act(state: RummuState, key: str) -> list:
    return GAME.apply(state, state.turn, Action.parse(key))


def refused(state: RummuState, key: str) -> tuple[str, dict]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(GAME.clone(state), state.turn, Action.parse(key))
    return err.value.reason, err.value.params


def reason(cards: str, **kw) -> str:
    with pytest.raises(IllegalAction) as err:
        classify(split_cards(cards), **kw)
    return err.value.reason


def kind_value(cards: str) -> tuple[str, bool, int]:
    ids = split_cards(cards)
    kind = classify(ids)
    return kind, is_pure(kind, ids), value(kind, arrange(kind, ids))


# -- worked cases: validity ------------------------------------------------------------------------

def test_r1_one_colour_sequence_with_a_joker() -> None:
    assert kind_value("r5y6r7a") == (RUN, False, 0)


def test_r2_funfling_with_yellow() -> None:
    assert kind_value("r5y5g5b5k5") == (LING, False, 50)


def test_r3_neither_one_colour_nor_multi_coloured() -> None:
    assert reason("b6y7ab8r9") == "rummu.colours_mixed"


def test_r4_red_sequence_of_seven_with_three_jokers() -> None:
    assert kind_value("r2r3y4r5r6y7ay8") == (RUN, False, 40)


def test_r5_three_jokers_are_too_many() -> None:
    assert reason("y3y4y5") == "rummu.too_many_jokers"


def test_r6_two_jokers_in_four() -> None:
    assert reason("r3y4y5r6") == "rummu.too_many_jokers"


def test_r7_two_jokers_in_five() -> None:
    assert kind_value("r3y4r5y6r7a") == (RUN, False, 20)


def test_r8_identical_cards_in_a_ling() -> None:
    assert reason("r7ar7bg7a") == "rummu.ling_colour_twice"


def test_r9_two_jokers_in_a_ling() -> None:
    assert reason("r7ay7ag7by7b") == "rummu.ling_two_jokers"


def test_r10_pure_vierling() -> None:
    assert kind_value("r5g5b5k5") == (LING, True, 30)


def test_r11_mixed_vierling_of_sevens() -> None:
    assert kind_value("r7ag7ay7bb7a") == (LING, False, 5)


def test_r12_pure_vierling_of_ones() -> None:
    assert kind_value("r1ag1bb1ak1a") == (LING, True, 15)


def test_r13_multi_coloured_sequence_is_never_pure() -> None:
    assert kind_value("r3g4b5") == (MULTI, False, 0)


def test_r14_colour_repeated_in_a_multi_coloured_sequence() -> None:
    assert reason("r3g4r5") == "rummu.colours_mixed"


def test_r15_no_wrap_from_nine_to_zero() -> None:
    assert reason("r8r9r0") == "rummu.no_wrap"


def test_r16_red_zero_to_nine() -> None:
    assert kind_value("r0r1ar2r3r4r5r6r7ar8r9") == (RUN, True, 90)


def test_r17_extending_with_jokers_within_the_limit() -> None:
    state = rig(hands={0: ("y7a", "y8", "y3", "k2")}, combos=((0, ("r4", "r5", "r6")),))
    act(state, "add:m1:y7a")
    assert state.combos[0].cards == ("r4", "r5", "r6", "y7a")
    eight, three = GAME.clone(state), GAME.clone(state)
    act(eight, "add:m1:y8")
    assert eight.combos[0].cards == ("r4", "r5", "r6", "y7a", "y8")
    act(three, "add:m1:y3")
    assert three.combos[0].cards == ("y3", "r4", "r5", "r6", "y7a")


def test_r18_extending_past_the_joker_limit_is_refused() -> None:
    state = rig(hands={0: ("y7a", "k2")}, combos=((0, ("r4", "y5", "r6")),))
    assert refused(state, "add:m1:y7a") == ("rummu.too_many_jokers", {"most": 1})
    assert "add:m1:y7a" not in {a.key for a in GAME.legal_actions(state, 0)}


# -- worked cases: procedure -----------------------------------------------------------------------

def test_r19_first_meld_minimum() -> None:
    hand = ("r3", "g3", "b3", "r5", "g5", "k5", "g6", "g7a", "g8", "k2")
    state = rig(hands={0: hand})
    assert GAME.minimum(state, 0) == 4
    assert refused(state, "meld:r3g3b3") == ("rummu.opening_minimum", {"need": 4, "have": 3})
    two = GAME.clone(state)
    act(two, "meld:r3g3b3/r5g5k5")
    assert [m.cards for m in two.combos] == [("r3", "g3", "b3"), ("r5", "g5", "k5")]
    four = GAME.clone(state)
    act(four, "meld:g5g6g7ag8")
    assert four.combos[0].cards == ("g5", "g6", "g7a", "g8")
    assert GAME.minimum(four, 0) == 0

    behind = rig(hands={0: hand}, totals=(-15, 0, 0))
    act(behind, "meld:r3g3b3")
    assert behind.combos[0].owner == 0

    ahead = rig(hands={0: hand}, totals=(120, 0, 0))
    assert GAME.minimum(ahead, 0) == 5
    assert refused(ahead, "meld:g5g6g7ag8")[0] == "rummu.opening_minimum"
    act(ahead, "meld:r3g3b3/r5g5k5")


def test_first_meld_table_for_players_and_teams() -> None:
    assert [opening_minimum(s, team=False) for s in (-1, 0, 99, 100, 149, 150, 199, 400)] == [3, 4, 4, 5, 5, 6, 6, 6]
    assert [opening_minimum(s, team=True) for s in (-1, 0, 150, 199, 200, 399, 400)] == [3, 4, 4, 4, 5, 5, 6]
    team = rig(4, hands={0: ("r3",)}, totals=(150, 0))
    assert GAME.minimum(team, 0) == 4 and GAME.minimum(team, 2) == 4


def test_r20_no_lay_off_or_swap_before_opening() -> None:
    state = rig(hands={0: ("r7a", "g6", "k2")}, combos=((1, ("r4", "r5", "r6")), (1, ("k6", "y6", "b6"))))
    assert refused(state, "add:m1:r7a")[0] == "rummu.not_opened"
    assert refused(state, "swap:m2:g6")[0] == "rummu.not_opened"
    legal = {a.kind for a in GAME.legal_actions(state, 0)}
    assert not legal & {"add", "swap"}


def test_r21_keep_a_card_to_discard() -> None:
    state = rig(hands={0: ("g5", "g6", "g7a", "g8")})
    assert refused(state, "meld:g5g6g7ag8")[0] == "rummu.keep_one"
    assert all(a.kind == "discard" for a in GAME.legal_actions(state, 0))
    opened = rig(hands={0: ("g5", "g6")}, combos=((0, ("g2", "g3", "g4")),))
    assert refused(opened, "add:m1:g5g6")[0] == "rummu.keep_one"
    act(opened, "add:m1:g5")
    assert opened.hands[0] == ("g6",)


def test_r22_take_from_the_discard_pile_from_the_top_down() -> None:
    state = rig(hands={0: ("k2",)}, discard=("b9", "r2", "g5"), phase=DRAW)
    legal = {a.key for a in GAME.legal_actions(state, 0)}
    assert legal == {"take", "takediscard:1", "takediscard:2", "takediscard:3"}
    assert refused(state, "takediscard:r2")[0] == "rummu.take_count"
    assert refused(state, "takediscard:4") == ("rummu.take_count", {"most": 3})
    act(state, "takediscard:2")
    assert sorted(state.hands[0]) == ["g5", "k2", "r2"]
    assert state.discard == ["b9"] and state.phase == PLAY
    assert refused(state, "take")[0] == "rummu.already_drew"


def test_r23_scoring_individual() -> None:
    # The worked case lays the red 5 twice (in A's red run and B's pure Vierling of 5s, and in
    # B's hand); the same values with cards that exist once: A's pure run is red 6-9.
    state = rig(hands={0: ("k2",), 1: ("y3", "r2"), 2: ("g0", "g1a", "b1a", "k9", "b9", "g9")},
                combos=((0, ("r6", "r7a", "r8", "r9")), (0, ("g8", "b8", "k8")), (1, ("r5", "g5", "b5", "k5"))))
    act(state, "discard:k2")
    hand = state.history[-1]
    assert hand.totals == (30, 15, -30)
    by_seat = {s: [(line.label, line.points) for line in hand.lines if line.seat == s] for s in range(3)}
    assert by_seat[0] == [("rummu.line.run_pure", 20), ("rummu.line.ling_pure", 0), ("rummu.line.went_out", 10)]
    assert by_seat[1] == [("rummu.line.ling_pure", 30), ("rummu.line.jokers_in_hand", -10),
                          ("rummu.line.cards_in_hand", -5)]
    assert by_seat[2] == [("rummu.line.cards_in_hand", -30)]
    assert state.hand_no == 2 and not state.over


def test_r24_scoring_teams_partner_cards_not_penalised() -> None:
    state = rig(4, hands={0: ("k2",), 1: ("g0",), 2: ("r1a", "y3", "g4"), 3: ("b0", "b1a")},
                combos=((0, ("r6", "r7a", "r8", "r9")), (2, ("g5", "b5", "k5", "r5")), (1, ("k6", "k7a", "y8"))))
    act(state, "discard:k2")
    hand = state.history[-1]
    team_one = 20 + 10 + 30
    team_two = 0 - 5 - 10
    assert hand.totals == (team_one, team_two, team_one, team_two)
    assert ("rummu.line.partner_out", 0, 3) in [(x.label, x.points, x.params.get("count")) for x in hand.lines]


# -- edge rules ------------------------------------------------------------------------------------

def test_joker_swap_needs_the_matching_card_and_frees_the_joker() -> None:
    state = rig(hands={0: ("g6", "r6", "k2", "b7a")},
                combos=((0, ("r5", "y6", "r7a")), (1, ("k3", "g4", "b5"))))
    assert refused(state, "swap:m1:g6")[0] == "rummu.colours_mixed"
    assert refused(state, "swap:m1:b7a") == ("rummu.no_joker_to_swap", {"digit": 7})
    act(state, "swap:m1:r6")
    assert state.combos[0].cards == ("r5", "r6", "r7a")
    assert "y6" in state.hands[0] and "r6" not in state.hands[0]
    assert "y6" in state.known[0]  # everyone saw the joker go to the hand
    act(state, "add:m2:y6")  # a freed joker may be laid again at once
    assert state.combos[1].cards == ("k3", "g4", "b5", "y6")


def test_joker_in_a_five_colour_ling_cannot_be_swapped() -> None:
    state = rig(hands={0: ("k2", "r3", "y3")}, combos=((0, ("r5", "y5", "g5", "b5", "k5")),))
    assert not [a for a in GAME.legal_actions(state, 0) if a.kind == "swap"]
    assert refused(state, "swap:m1:r3") == ("rummu.no_joker_to_swap", {"digit": 3})
    assert refused(state, "swap:m1:y3")[0] == "rummu.swap_needs_colour"


def test_multi_coloured_sequence_joker_swaps_for_a_missing_colour() -> None:
    state = rig(hands={0: ("b4", "r4", "k2")}, combos=((0, ("r3", "y4", "g5")),))
    assert refused(state, "swap:m1:r4")[0] == "rummu.colours_mixed"
    act(state, "swap:m1:b4")
    assert state.combos[0].cards == ("r3", "b4", "g5")


def test_yellow_as_a_colour_option_limits_multi_coloured_sequences() -> None:
    assert classify(split_cards("r3y4g5b6k7a")) == MULTI
    assert reason("r3y4g5b6k7a", yellow_is_colour=False) == "rummu.multi_too_long"
    assert classify(split_cards("r3y4g5b6"), yellow_is_colour=False) == MULTI
    assert reason("r3y4g5y6") == "rummu.multi_two_jokers"


def test_lay_off_on_another_display_only_at_the_ends() -> None:
    state = rig(hands={0: ("y7a", "r8", "k2", "r2")},
                combos=((0, ("g1a", "b1a", "k1a")), (1, ("r4", "r5", "r6"))))
    assert refused(state, "add:m2:r8") == ("rummu.not_consecutive", {})
    act(state, "add:m2:y7ar8")  # a pure run of seat 1 becomes a mixed one
    assert state.combos[1].cards == ("r4", "r5", "r6", "y7a", "r8")
    assert state.combos[1].owner == 1
    assert refused(state, "add:m9:r2")[0] == "rummu.no_such_combination"


def test_opening_then_lay_off_in_the_same_turn() -> None:
    state = rig(hands={0: ("g5", "g6", "g7a", "g8", "g9", "k2")}, combos=((1, ("r2", "r3", "r4")),))
    assert refused(state, "add:m1:g9")[0] == "rummu.not_opened"
    act(state, "meld:g5g6g7ag8")
    act(state, "add:m2:g9")
    assert state.combos[1].cards == ("g5", "g6", "g7a", "g8", "g9")


def test_turn_order_draw_first_then_discard() -> None:
    state = rig(hands={0: ("r3", "k2"), 1: ("g4",)}, phase=DRAW)
    assert refused(state, "discard:k2")[0] == "rummu.draw_first"
    drawn = state.stock[-1]
    events = act(state, "take")
    assert drawn in state.hands[0]
    assert [e.to for e in events] == [None, frozenset({0})] and "card" not in events[0].data
    act(state, "discard:k2")
    assert state.turn == 1 and state.phase == DRAW
    assert refused(state, "bogus")[0] == "rummu.bad_action"


def test_draw_pile_exhausted_reshuffles_all_but_the_top_discard() -> None:
    state = rig(hands={0: ("k2", "r3"), 1: ("g4",), 2: ("b4",)}, discard=("r0", "g0", "b0"),
                stock=(), rest_to=1)
    act(state, "discard:k2")
    assert state.discard == ["k2"]
    assert sorted(state.stock) == ["b0", "g0", "r0"]
    assert state.generation == 1 and state.phase == DRAW and state.turn == 1


def test_draw_pile_exhausted_with_nothing_to_reshuffle_ends_the_hand_unscored_for_going_out() -> None:
    state = rig(hands={0: ("k2", "r3"), 2: ("b4", "y4")}, discard=(), stock=(), rest_to=1,
                combos=((0, ("g5", "g6", "g7a")),))
    act(state, "discard:k2")
    hand = state.history[-1]
    assert all(line.label != "rummu.line.went_out" for line in hand.lines)
    assert [(x.seat, x.label, x.points) for x in hand.lines if x.seat != 1] == [
        (0, "rummu.line.run_pure", 10), (0, "rummu.line.cards_in_hand", -5),
        (2, "rummu.line.jokers_in_hand", -10), (2, "rummu.line.cards_in_hand", -5)]
    assert state.hand_no == 2 and state.combos == [] and state.dealer == 1  # the deal moved left


def test_match_ends_at_the_target_and_ties_share() -> None:
    state = rig(hands={0: ("k2",), 1: ("r3",), 2: ("g3",)}, totals=(195, 215, 0),
                combos=((0, ("r6", "r7a", "r8", "r9")),))
    act(state, "discard:k2")
    assert state.over
    result = GAME.result(state)
    assert result.scores == (195 + 30, 215 - 5, -5)
    assert result.winners == {0}
    tied = rig(hands={0: ("k2",), 1: ("r3",), 2: ("g3",)}, totals=(190, 225, 0),
               combos=((0, ("r6", "r7a", "r8", "r9")),))
    act(tied, "discard:k2")
    assert GAME.result(tied).scores[:2] == (220, 220) and GAME.result(tied).winners == {0, 1}
    teams = rig(4, hands={0: ("k2",), 1: ("r3",)}, totals=(480, 0), combos=((0, ("r6", "r7a", "r8", "r9")),))
    act(teams, "discard:k2")
    assert teams.over and GAME.result(teams).winners == {0, 2}


def test_view_shows_only_the_top_discard_and_hides_hands() -> None:
    state = rig(hands={0: ("k2",), 1: ("r3",)}, discard=("b9", "r2", "g5"))
    public = GAME.view(state, None)
    assert (public.discard_top, public.discard_size, public.hand) == ("g5", 3, None)
    assert "'r2'" not in repr(public) and "'b9'" not in repr(public)
    assert GAME.view(state, 1).hand == ("r3",)


def test_resample_keeps_cards_everyone_saw_taken() -> None:
    state = rig(hands={0: ("k2",), 1: ("r3", "g3")}, discard=("b9", "r2", "g5"), phase=DRAW, turn=1)
    act(state, "takediscard:2")
    for n in range(5):
        other = GAME.resample(state, 0, random.Random(n))
        assert {"g5", "r2"} <= set(other.hands[1])
        assert len(other.hands[1]) == 4 and other.hands[0] == state.hands[0]
        assert GAME.view(other, 0) == GAME.view(state, 0)


# -- legal actions, random play, invariants --------------------------------------------------------

def test_every_listed_action_applies() -> None:
    rng = random.Random(4)
    for seed in range(6):
        state = GAME.setup(4, Options(), f"listed-{seed}")
        for _ in range(150):
            if GAME.is_over(state):
                break
            legal = GAME.legal_actions(state, state.turn)
            for action in legal:
                GAME.apply(GAME.clone(state), state.turn, action)
            GAME.apply(state, state.turn, rng.choice(legal))


def test_find_melds_returns_valid_combinations() -> None:
    hand = ("r2", "r3", "y4", "r5", "g5", "b5", "k5", "y5", "g6", "b7a")
    melds = find_melds(hand)
    assert melds and all(classify(m) for m in melds)
    assert ("r2", "r3", "y4", "r5") in melds and ("r5", "y5", "g5", "b5", "k5") in melds


def test_random_play_lays_melds_lays_off_and_swaps() -> None:
    rng = random.Random(2)
    kinds: Counter[str] = Counter()
    for seed in range(4):
        state = GAME.setup(3, Options(), f"kinds-{seed}")
        for _ in range(400):
            if GAME.is_over(state):
                break
            action = rng.choice(GAME.legal_actions(state, state.turn))
            kinds[action.kind] += 1
            GAME.apply(state, state.turn, action)
    assert all(kinds[k] for k in ("take", "takediscard", "meld", "add", "swap", "discard"))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playouts_keep_the_invariants(players: int) -> None:
    check_playouts(GAME, players, 4, cap=500)


def test_a_whole_random_match_keeps_the_invariants() -> None:
    check_playouts(GAME, 4, 1, options=Options(team_target=150))
    check_playouts(GAME, 5, 1, options=Options(target=60, yellow_is_colour=False))


def test_every_reason_and_line_has_an_english_and_a_german_text() -> None:
    source = "".join(p.read_text() for p in (ROOT / "games" / "rummu").glob("*.py"))
    needed = set(re.findall(r'IllegalAction\("rummu\.([a-z_]+)"', source))
    assert len(needed) > 15
    lines = [combination_line(0, "m1", classify(split_cards(c)), split_cards(c))
             for c in ("r5g5b5", "r5y5g5", "r3r4r5", "r3y4r5", "r3g4b5")]
    lines += hand_lines(0, ("y3", "r3"), False, False) + hand_lines(0, ("r3",), False, True)
    lines += hand_lines(0, (), True, False)
    needed |= {line.label.removeprefix("rummu.") for line in lines}
    needed |= {f"option.{name}" for name in Options.model_fields}
    for lang in ("en", "de"):
        with (ROOT / "bot" / "locales" / lang / "rummu.toml").open("rb") as fh:
            texts = tomllib.load(fh)
        flat = set(_keys(texts))
        assert needed <= flat, needed - flat


def _keys(table: dict, prefix: str = ""):
    """A catalogue's keys; a table of plural forms (it has ``other``) is one text."""
    for key, entry in table.items():
        if isinstance(entry, dict) and "other" not in entry:
            yield from _keys(entry, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


@pytest.mark.parametrize("yellow_is_colour", [True, False])
def test_the_fast_lay_off_test_agrees_with_classify(yellow_is_colour: bool) -> None:
    rng = random.Random(9)
    combos = 0
    for _ in range(300):
        hand = rng.sample(DECK, 14)
        for meld in find_melds(hand, yellow_is_colour):
            combos += 1
            kind = classify(meld, yellow_is_colour)
            fits = fitting(kind, meld, yellow_is_colour)
            for card in DECK:
                if card in meld:
                    continue
                grown = valid((*meld, card), yellow_is_colour)
                assert (grown is not None) == ((digit(card), colour(card)) in fits), (meld, card)
                assert grown in (None, kind)  # extending never changes the kind
    assert combos > 300


def test_resample_after_a_reshuffle_keeps_the_reshuffled_cards_apart() -> None:
    state = rig(hands={0: ("k2", "r3"), 1: ("g4",), 2: ("b4",)}, discard=("r0", "g0", "b0", "k0"),
                stock=(), rest_to=2)
    act(state, "discard:k2")  # seat 1 starts with an empty draw pile: r0 g0 b0 k0 are reshuffled
    reshuffled = {"r0", "g0", "b0", "k0"}
    act(state, "take")
    drawn = next(c for c in state.hands[1] if c in reshuffled)
    assert state.origin[drawn] == 1 and state.origin["g4"] == 0
    for n in range(8):
        other = GAME.resample(state, 0, random.Random(n))
        new = set(other.stock) | {c for c in other.hands[1] if other.origin.get(c) == 1}
        assert new == reshuffled  # only the reshuffled cards trade places among themselves
        assert len(other.hands[1]) == 2 and sorted(GAME.cards(other)) == sorted(DECK)
        assert GAME.view(other, 0) == GAME.view(state, 0) and GAME.view(other, None) == GAME.view(state, None)


@pytest.mark.parametrize("yellow_is_colour", [True, False])
def test_every_single_card_lay_off_and_swap_is_listed_and_nothing_else(yellow_is_colour: bool) -> None:
    """The per-combination answer the legal list is built from (``accepts``, kept between turns)
    names exactly the lay-offs and joker swaps ``check`` allows, combination by combination."""
    rng = random.Random(12)
    seen: Counter[str] = Counter()
    for seed in range(5):
        state = GAME.setup(3, Options(yellow_is_colour=yellow_is_colour), f"layoffs-{seed}")
        for _ in range(300):
            if GAME.is_over(state):
                break
            seat = state.turn
            legal = GAME.legal_actions(state, seat)
            if state.phase == PLAY:
                listed = {a.key for a in legal if a.kind in ("add", "swap")}
                allowed = set()
                for combo in state.combos:
                    for card in state.hands[seat]:
                        for kind in ("add", "swap"):
                            key = f"{kind}:{combo.name}:{card}"
                            try:
                                GAME.check(state, seat, Action.parse(key))
                            except IllegalAction:
                                continue
                            allowed.add(key)
                assert listed == allowed
                seen.update(key.split(":")[0] for key in listed)
            GAME.apply(state, seat, rng.choice(legal))
    assert seen["add"] > 50 and seen["swap"] > 3


def test_the_rollout_policy_goes_out_in_tens_of_actions() -> None:
    """The strong player's playouts play turns as players do (meld, lay off, discard the least
    useful card), so a hand ends with someone going out, not with random moves at the cap."""
    lengths = []
    for seed in range(12):
        players = 3 + seed % 4
        state = GAME.setup(players, Options(), f"rollout-{seed}")
        rng = random.Random(seed)
        actions = 0
        while not state.history and actions < 1000:
            GAME.apply(state, state.turn, BRAIN.policy(GAME, state, state.turn, rng))
            actions += 1
        assert [line.label for line in state.history[-1].lines].count("rummu.line.went_out") == 1
        lengths.append(actions)
    assert max(lengths) < 100, lengths


def test_the_rollout_policy_lays_off_then_goes_out() -> None:
    state = rig(hands={0: ("r7a", "g9"), 1: ("k2", "k5"), 2: ("b2", "b5")},
                combos=((0, ("r3", "r4", "r5", "r6")),), totals=(0, 0, 0))
    rng = random.Random(0)
    assert BRAIN.policy(GAME, state, 0, rng) == Action("add", "m1:r7a")
    act(state, "add:m1:r7a")
    assert BRAIN.policy(GAME, state, 0, rng) == Action("discard", "g9")
    act(state, "discard:g9")
    assert ScoreLine(0, "rummu.line.went_out", 10) in state.history[-1].lines
