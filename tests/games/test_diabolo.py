"""Diabolo: every worked case (DI-01 … DI-15, the rulebook's three scoring examples among them),
docs/rules-decisions.md D9 (secret simultaneous doublers), edge cases and the generic
invariants for 3–5 players.

Positions are rigged with ``games.diabolo.position`` (rows by colour, chosen hands, the next
cards of the draw pile); ``score_now`` ends a rigged round at once and starts its scoring. In
the rulebook examples Michael is seat 0, Joe seat 1 and Pia seat 2.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.i18n import catalogue
from games.base import Action, IllegalAction, ScoreLine, random_playout
from games.diabolo import GAME, Options, position, score_now
from games.diabolo.cards import COLOURS, DECK, VALUE
from tests.games.invariants import check_playouts

MICHAEL, JOE, PIA = 0, 1, 2


def refused(state, seat: int, key: str) -> IllegalAction:
    """Apply a move that must be refused; return the refusal for its reason."""
    before = [GAME.view(state, s) for s in (None, *range(state.players))]
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, Action.parse(key))
    assert [GAME.view(state, s) for s in (None, *range(state.players))] == before
    return info.value


def choose(state, choices: dict[int, str]) -> None:
    for seat, arg in choices.items():
        GAME.apply(state, seat, Action("doubler", arg))


def lines(state, round_no: int = 1) -> list[tuple[int, str, int]]:
    hand = state.history[round_no - 1]
    return [(line.seat, line.label, line.points) for line in hand.lines]


def keys(state, seat: int) -> set[str]:
    return {a.key for a in GAME.legal_actions(state, seat)}


# -- DI-01 … DI-03: the rulebook's scoring examples ----------------------------------------------------

def test_di01_purple_angels_joe_doubles_michael_wastes_his_doubler():
    state = position(
        3,
        {MICHAEL: ["p5b", "r1a"], JOE: ["p4b", "p2b"], PIA: ["g1a"]},
        devil={"p": ["p5a", "p1a"], "b": ["b1a"]},
        angel={"p": ["p4a", "p2a", "p1b"], "b": ["b2a"]},
        draw=False,
    )
    score_now(state)
    assert state.phase == "doubler" and GAME.view(state, None).deciding == "p"
    assert GAME.to_act(state) == frozenset({MICHAEL, JOE, PIA})
    choose(state, {MICHAEL: "p", JOE: "p", PIA: "none"})
    assert state.lines == [
        ScoreLine(MICHAEL, "diabolo.line_doubler_wasted", 0, {"colour": "p"}),
        ScoreLine(JOE, "diabolo.line_angel_doubled", 12, {"colour": "p", "sum": 6}),
    ]
    assert state.doublers == [False, False, True]
    # blue pays too: only Pia still holds a doubler, so only she is asked
    assert GAME.view(state, None).deciding == "b" and GAME.to_act(state) == frozenset({PIA})
    choose(state, {PIA: "none"})
    assert state.history[0].totals == (0, 12, 0)


def test_di02_green_devils_cost_michael_four_without_doubler_question():
    state = position(
        3,
        {MICHAEL: ["g3a", "g1b"], JOE: ["r1a"], PIA: ["y1a"]},
        devil={"g": ["g2a", "g5a"]},
        angel={"g": ["g1a", "g2b", "g2c"]},
        draw=False,
    )
    events = score_now(state)
    assert not any(e.kind == "choose_doubler" for e in events)
    assert lines(state) == [(MICHAEL, "diabolo.line_devil", -4)]
    assert state.history[0].totals == (-4, 0, 0)


def test_di03_red_tie_scores_nothing_and_spends_no_doubler():
    state = position(
        3,
        {MICHAEL: ["r5a"], JOE: ["r4a"], PIA: ["r2b"]},
        devil={"r": ["r3a"]},
        angel={"r": ["r2a", "r1a"]},
        draw=False,
    )
    events = score_now(state)
    assert {"colour": "r", "points": 3} in [e.data for e in events if e.kind == "colour_tied"]
    assert not any(e.kind in ("choose_doubler", "reveal", "doublers") for e in events)
    assert lines(state) == []
    assert state.history[0].totals == (0, 0, 0)


# -- DI-04 … DI-08: placing, limits, closing, the end of a round -----------------------------------------

def test_di04_first_player_draws_then_places_green_five_on_the_devil_side():
    state = position(3, {MICHAEL: ["g5a", "r1a", "r1b", "y1a", "y1b", "b1a"]}, next_cards=("p3a",))
    assert len(state.hands[MICHAEL]) == 7 and "p3a" in state.hands[MICHAEL]
    GAME.apply(state, MICHAEL, Action("devil", "g5a"))
    row = GAME.view(state, None).rows[COLOURS.index("g")]
    assert row.devil == ("g5a",) and row.devil_sum == 5 and row.angel == ()
    assert state.current == JOE and len(state.hands[JOE]) == 7


def test_di05_three_per_side_and_the_fifth_card_closes_the_row():
    state = position(3, {0: ["y5a", "y5b", "r1a", "r1b", "g1a", "g1b"]},
                     devil={"y": ["y1a", "y1b", "y1c"]}, angel={"y": ["y2a"]})
    err = refused(state, 0, "devil:y5a")
    assert err.reason == "diabolo.side_full" and err.params == {"most": 3}
    assert "devil:y5a" not in keys(state, 0) and "angel:y5a" in keys(state, 0)
    GAME.apply(state, 0, Action("angel", "y5a"))
    row = GAME.view(state, None).rows[COLOURS.index("y")]
    assert row.closed and len(row.devil) + len(row.angel) == 5


def test_di06_closed_row_takes_no_card():
    state = position(3, {0: ["b5a", "r1a", "r1b", "g1a", "g1b", "y1a"]},
                     devil={"b": ["b1a", "b1b", "b1c"]}, angel={"b": ["b2a", "b2b"]})
    assert refused(state, 0, "devil:b5a").reason == "diabolo.row_closed"
    assert refused(state, 0, "angel:b5a").reason == "diabolo.row_closed"
    assert not any(k.endswith("b5a") for k in keys(state, 0))


def test_di07_second_closed_row_ends_the_round_at_once():
    state = position(
        4, {0: ["r5b", "g1a", "g1b", "p1a", "p1b", "b1a"]},
        devil={"y": ["y1a", "y1b", "y1c"], "r": ["r1a", "r1b", "r1c"]},
        angel={"y": ["y2a", "y3a"], "r": ["r5a"]},
    )
    before = [len(h) for h in state.hands]
    events = GAME.apply(state, 0, Action("angel", "r5b"))
    assert any(e.kind == "round_over" for e in events)
    assert not any(e.kind == "draw" for e in events), "nobody else takes a turn"
    assert state.phase == "doubler" and GAME.view(state, None).deciding == "r"
    assert [len(h) for h in state.hands] == [before[0] - 1, *before[1:]]


def test_di08_five_players_need_a_third_closed_row():
    rows = dict(devil={"y": ["y1a", "y1b", "y1c"], "g": ["g1a", "g1b", "g1c"], "r": ["r1a", "r1b", "r1c"]},
                angel={"y": ["y2a", "y3a"], "g": ["g2a", "g3a"], "r": ["r5a"]})
    state = position(5, {0: ["r5b", "p1a", "p1b", "p1c", "b1a", "b1b"]}, **rows)
    events = GAME.apply(state, 0, Action("angel", "r5b"))
    assert any(e.kind == "round_over" for e in events) and state.phase == "doubler"
    # with only the second closure the round goes on
    two = dict(devil={"y": ["y1a", "y1b", "y1c"], "r": ["r1a", "r1b", "r1c"]},
               angel={"y": ["y2a", "y3a"], "r": ["r5a"]})
    state = position(5, {0: ["r5b", "p1a", "p1b", "p1c", "b1a", "b1b"]}, **two)
    events = GAME.apply(state, 0, Action("angel", "r5b"))
    assert not any(e.kind == "round_over" for e in events)
    assert state.phase == "place" and state.current == 1 and sum(state.closed) == 2


# -- DI-09 … DI-11: ties and doublers ----------------------------------------------------------------------

def test_di09_tied_players_all_score_each_with_his_own_doubler():
    state = position(3, {0: ["y5a"], 1: ["y4a", "y1a"], 2: ["y2a"]},
                     devil={"y": ["y1b"]}, angel={"y": ["y2b"]}, draw=False)
    score_now(state)
    choose(state, {0: "y", 1: "none", 2: "none"})
    assert lines(state) == [(0, "diabolo.line_angel_doubled", 10), (1, "diabolo.line_angel", 5)]
    assert state.history[0].totals == (10, 5, 0)


def test_di10_tied_players_all_lose_in_a_devil_colour():
    state = position(3, {0: ["b4a"], 1: ["b1b"], 2: ["b2a", "b2b"]},
                     devil={"b": ["b5a"]}, angel={"b": ["b1a"]}, draw=False)
    score_now(state)
    assert lines(state) == [(0, "diabolo.line_devil", -4), (2, "diabolo.line_devil", -4)]
    assert state.history[0].totals == (-4, 0, -4)


def test_di11_doubler_on_a_colour_nobody_holds_is_spent():
    state = position(3, {0: ["g1a"], 1: ["g1b"], 2: ["g1c"]},
                     devil={"r": ["r1a"], "y": ["y1a"]}, angel={"r": ["r2a"], "y": ["y3a"]}, draw=False)
    score_now(state)
    choose(state, {0: "none", 1: "r", 2: "none"})
    assert state.lines == [ScoreLine(1, "diabolo.line_doubler_wasted", 0, {"colour": "r"})]
    assert state.doublers == [True, False, True]
    assert GAME.view(state, None).deciding == "y" and GAME.to_act(state) == frozenset({0, 2})


# -- DI-12 … DI-15 ------------------------------------------------------------------------------------------

CLOSED_GREEN_PURPLE = dict(
    devil={"g": ["g1a", "g1b", "g1c"], "p": ["p1a", "p1b", "p1c"]},
    angel={"g": ["g2a", "g2b"], "p": ["p2a", "p2b"]},
)


def test_di12_blocked_player_shows_the_hand_and_discards_a_card():
    hand = ["g3a", "g3b", "g4a", "p3a", "p4a", "p5a"]
    state = position(5, {0: hand}, next_cards=("g5a",), **CLOSED_GREEN_PURPLE)
    assert state.phase == "discard" and len(state.hands[0]) == 7
    public = GAME.view(state, None)
    assert set(public.shown[0]) == {*hand, "g5a"}, "the whole hand is shown to everyone"
    assert keys(state, 0) == {f"discard:{c}" for c in (*hand, "g5a")}
    assert refused(state, 0, "angel:g5a").reason == "diabolo.row_closed"
    GAME.apply(state, 0, Action("discard", "p5a"))
    assert state.removed == ["p5a"] and len(state.hands[0]) == 6
    assert set(GAME.view(state, 1).shown[0]) == {*hand, "g5a"} - {"p5a"}
    assert state.current == 1 and state.phase == "place"


def test_di13_four_players_play_four_rounds_and_the_deal_passes_clockwise():
    state = GAME.setup(4, Options(), "match-4")
    dealers = [state.dealer]
    rng = random.Random(13)
    while not GAME.is_over(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        for event in GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))):
            if event.kind == "deal":
                dealers.append(event.data["dealer"])
    assert len(dealers) == 4
    assert dealers == [(dealers[0] + k) % 4 for k in range(4)]
    result = GAME.result(state)
    assert [h.number for h in result.breakdown] == [1, 2, 3, 4]
    assert result.scores == result.breakdown[-1].totals
    assert result.winners == {s for s in range(4) if result.scores[s] == max(result.scores)}


def test_di14_deck():
    assert len(DECK) == 70 and len(set(DECK)) == 70
    for colour in COLOURS:
        mine = [c for c in DECK if c[0] == colour]
        assert Counter(VALUE[c] for c in mine) == {1: 4, 2: 3, 3: 3, 4: 2, 5: 2}
        assert sum(VALUE[c] for c in mine) == 37


def test_di15_one_doubler_per_round():
    state = position(3, {0: ["r5a", "y5a"], 1: ["r1b"], 2: ["y1b"]},
                     devil={"r": ["r1a"], "y": ["y1a"]}, angel={"r": ["r2a"], "y": ["y3a"]}, draw=False)
    score_now(state)
    choose(state, {0: "r", 1: "none", 2: "none"})
    assert GAME.view(state, None).deciding == "y"
    assert 0 not in GAME.to_act(state)
    assert refused(state, 0, "doubler:y").reason == "diabolo.doubler_spent"
    choose(state, {1: "none", 2: "none"})
    assert lines(state) == [(0, "diabolo.line_angel_doubled", 10), (0, "diabolo.line_angel", 5)]


# -- D9: secret, simultaneous doublers --------------------------------------------------------------------

def _deciding():
    return position(3, {0: ["p5b"], 1: ["p4b", "p2b"], 2: ["g1a"]},
                    devil={"p": ["p5a", "p1a"]}, angel={"p": ["p4a", "p2a", "p1b"]}, draw=False)


def test_doubler_choices_stay_secret_until_everyone_has_chosen():
    used, passed = _deciding(), _deciding()
    score_now(used)
    score_now(passed)
    ev_used = GAME.apply(used, 0, Action("doubler", "p"))
    ev_passed = GAME.apply(passed, 0, Action("doubler", "none"))
    assert GAME.view(used, 0).my_choice == "use" and GAME.view(passed, 0).my_choice == "none"
    for seat in (None, 1, 2):
        assert GAME.view(used, seat) == GAME.view(passed, seat), f"seat {seat} sees seat 0's choice"
        assert [(e.kind, e.data) for e in ev_used if e.visible_to(seat)] == \
               [(e.kind, e.data) for e in ev_passed if e.visible_to(seat)]
    assert GAME.view(used, None).waiting == (1, 2)
    GAME.apply(used, 1, Action("doubler", "p"))
    for seat in (None, 2):
        assert GAME.view(used, seat).doublers == (True, True, True), "nothing is revealed early"
    events = GAME.apply(used, 2, Action("doubler", "none"))
    reveal = [e for e in events if e.kind == "doublers"]
    assert reveal and reveal[0].to is None and reveal[0].data == {"colour": "p", "used": (0, 1)}
    assert lines(used) == [(0, "diabolo.line_doubler_wasted", 0), (1, "diabolo.line_angel_doubled", 12)]


def test_doubler_refusals():
    state = _deciding()
    assert refused(state, 0, "doubler:p").reason == "diabolo.doubler_at_scoring"
    score_now(state)
    assert refused(state, 0, "doubler:g").reason == "diabolo.doubler_wrong_colour"
    assert refused(state, 0, "angel:p5b").reason == "diabolo.choose_doubler"
    GAME.apply(state, 0, Action("doubler", "none"))
    assert refused(state, 0, "doubler:p").reason == "diabolo.doubler_chosen"
    assert keys(state, 0) == set() and keys(state, 1) == {"doubler:p", "doubler:none"}


# -- other edges ----------------------------------------------------------------------------------------------

def test_discard_and_hand_refusals():
    state = position(3, {0: ["r5a", "r1a", "r1b", "g1a", "g1b", "y1a"]})
    assert refused(state, 0, "discard:r5a").reason == "diabolo.can_place"
    assert refused(state, 0, "angel:b5a").reason == "diabolo.not_in_hand"
    assert refused(state, 1, "angel:r5a").reason == "core.not_your_turn"
    assert refused(state, 0, "jump:r5a").reason == "diabolo.unknown_move"


def test_empty_draw_pile_ends_the_round():
    state = position(3, {0: ["r5a", "r1a"], 1: ["y1a"], 2: ["y2a"]}, draw=False)
    state.removed.extend(state.pile)  # rig: every other card out of play
    state.pile.clear()
    events = GAME.apply(state, 0, Action("angel", "r5a"))
    assert any(e.kind == "round_over" for e in events)
    assert state.phase == "doubler" and GAME.view(state, None).deciding == "r"


def test_round_limits_follow_the_options():
    assert Options().limit(3) == 2 and Options().limit(4) == 2 and Options().limit(5) == 3
    assert Options(close_limit=1).limit(5) == 1
    assert Options().round_count(4) == 4 and Options(rounds=2).round_count(4) == 2
    with pytest.raises(ValidationError):
        Options(max_per_side=2, max_per_row=5)
    state = position(3, {0: ["y5a", "r1a"]}, devil={"y": ["y1a", "y1b"]},
                     options=Options(max_per_side=2, max_per_row=4))
    assert refused(state, 0, "devil:y5a").reason == "diabolo.side_full"


def test_hands_are_private_and_resample_keeps_what_the_table_saw():
    hand = ["g3a", "g3b", "g4a", "p3a", "p4a", "p5a"]
    state = position(5, {0: hand}, next_cards=("g5a",), **CLOSED_GREEN_PURPLE)
    GAME.apply(state, 0, Action("discard", "p5a"))
    assert GAME.view(state, 2).hand == tuple(sorted(state.hands[2], key=DECK.index))
    assert GAME.view(state, None).hand == ()
    seen = set()
    for n in range(10):
        other = GAME.resample(state, 2, random.Random(n))
        assert GAME.view(other, 2) == GAME.view(state, 2)
        assert GAME.view(other, None) == GAME.view(state, None)
        assert set(other.hands[0]) == set(state.hands[0]), "the shown hand is known to all"
        seen.add(tuple(sorted(other.hands[3])))
        assert other.seed != state.seed
    assert len(seen) > 5, "hidden hands are redealt"


def test_the_state_records_who_laid_each_card_this_round_as_the_table_saw_it():
    """Every placement is public (the table shows who laid what): the state keeps each seat's
    cards and sides of this round, for the computer players, and a new round starts them afresh."""
    state = position(3, {0: ["r5a", "y1a", "g1a", "p1a", "b1a", "r1a"], 1: ["y5a", "g2a", "p2a", "b2a", "r2a", "y2a"]},
                     next_cards=("b3a", "g3a"))
    GAME.apply(state, 0, Action("angel", "r5a"))
    GAME.apply(state, 1, Action("devil", "y5a"))
    assert state.laid == [[("angel", "r5a")], [("devil", "y5a")], []]
    assert GAME.resample(state, 2, random.Random(1)).laid == state.laid
    seed = "laid"
    match = GAME.setup(3, GAME.default_options(), seed)
    rng = random.Random(seed)
    while match.round_no == 0:
        seat = min(GAME.to_act(match))
        GAME.apply(match, seat, rng.choice(GAME.legal_actions(match, seat)))
    assert match.laid == [[], [], []], "the new round has laid nothing yet"


def test_setup_deals_six_each_and_left_of_dealer_starts():
    for players, pile in ((3, 52), (4, 46), (5, 40)):
        state = GAME.setup(players, Options(), f"deal-{players}")
        assert len(state.pile) == pile - 1  # the first player has drawn
        assert state.current == (state.dealer + 1) % players
        assert sorted(len(h) for h in state.hands) == [6] * (players - 1) + [7]
    assert {GAME.setup(3, Options(), f"d{n}").dealer for n in range(30)} == {0, 1, 2}


def test_action_keys_are_short():
    state = GAME.setup(5, Options(), "keys")
    assert all(len(a.key) <= 50 for a in GAME.legal_actions(state, state.current))


# -- texts and invariants ------------------------------------------------------------------------------------

def test_every_reason_label_and_option_has_english_and_german_text():
    root = Path(__file__).resolve().parents[2] / "games" / "diabolo"
    source = "\n".join(p.read_text("utf-8") for p in root.glob("*.py"))
    used = set(re.findall(r'"(diabolo\.[a-z_]+)"', source))
    used |= {f"diabolo.option.{name}" for name in Options.model_fields}
    used |= {f"diabolo.colour.{c}" for c in COLOURS} | {"diabolo.side.devil", "diabolo.side.angel"}
    assert len(used) > 20
    for lang in ("en", "de"):
        missing = sorted(k for k in used if k not in catalogue(lang))
        assert not missing, f"{lang}: {missing}"
    assert "ö" in catalogue("de")["diabolo.doubler_spent"] or "ü" in catalogue("de")["diabolo.colour.g"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_invariants(players):
    check_playouts(GAME, players, 6)


def test_invariants_with_house_rules():
    check_playouts(GAME, 4, 3, options=Options(hand_size=4, max_per_side=2, max_per_row=4, close_limit=3,
                                                rounds=2))


def test_random_matches_always_finish():
    for n in range(20):
        state = GAME.setup(3 + n % 3, Options(), f"finish-{n}")
        random_playout(GAME, state, random.Random(n))
        assert GAME.is_over(state)
