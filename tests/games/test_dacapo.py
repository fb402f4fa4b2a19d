"""Da Capo!: every worked case (DC-01 … DC-19) from rigged positions, the decisions of
docs/rules-decisions.md (D5, D8, D12), edge cases, and the generic invariants for 2–6 players.

Positions come from ``games.buildpiles.rig``: cards named by face (``"7"``, ``"X"`` = joker),
every list bottom → top. Seat 0 is to act unless a test says otherwise.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.i18n import catalogue
from games.base import Action
from games.buildpiles import rig
from games.dacapo import GAME, Options, face
from tests.games.buildpile_moves import shorthands
from tests.games.invariants import check_playouts

act, refused, keys, find, faces = shorthands(GAME, face)


# -- the worked cases --------------------------------------------------------------------------
def test_dc01_a_whole_pile_with_jokers_is_built_and_set_aside():
    order = ["1", "2", "X", "4", "5", "6", "X", "X", "9", "10"]
    state = rig(GAME, piles={0: ["7", *reversed(order)]}, hands={0: ["3", "3", "3", "3"]})
    act(state, f"play:{state.seats[0].pile[-1]}@pile>new")
    for _ in order[1:-1]:
        act(state, f"play:{state.seats[0].pile[-1]}@pile>b1")
    assert faces(state.build[0]) == order[:-1]
    ten = state.seats[0].pile[-1]
    events = act(state, f"play:{ten}@pile>b1")
    assert faces(state.set_aside) == order
    assert state.build == [[], [], []]
    assert any(e.kind == "complete" for e in events)
    assert face(state.seats[0].pile[-1]) == "7"


def test_dc02_a_pile_cannot_start_with_a_two():
    state = rig(GAME, hands={0: ["2", "5", "6", "7"]})
    two = find(state.seats[0].hand, "2")
    refused(state, f"play:{two}@hand>new", "dacapo.start_with_one")
    refused(state, f"play:{two}@hand>b2", "dacapo.start_with_one")
    assert not any(k.startswith(f"play:{two}") for k in keys(state))


def test_dc03_a_joker_starts_a_pile_as_one():
    state = rig(GAME, hands={0: ["X", "3", "2", "7"]})
    hand = state.seats[0].hand
    joker, three, two = find(hand, "X"), find(hand, "3"), find(hand, "2")
    act(state, f"play:{joker}@hand>new")
    assert state.build[0] == [joker]
    refused(state, f"play:{three}@hand>b1", "dacapo.wrong_value", need=2)
    assert f"play:{two}@hand>b1" in keys(state)
    act(state, f"play:{two}@hand>b1")
    assert len(state.build[0]) == 2


def test_dc04_at_most_three_build_piles():
    state = rig(GAME, build=[3, 5, 8], hands={0: ["1", "7", "7", "7"]})
    one = find(state.seats[0].hand, "1")
    refused(state, f"play:{one}@hand>new", "dacapo.no_free_pile", most=3)
    refused(state, f"play:{one}@hand>b4", "dacapo.no_such_pile")
    assert not any(k.startswith(f"play:{one}") for k in keys(state))


def test_dc05_a_build_pile_takes_exactly_the_next_number():
    state = rig(GAME, build=[3], hands={0: ["5", "4", "7", "7"]})
    five, four = find(state.seats[0].hand, "5"), find(state.seats[0].hand, "4")
    refused(state, f"play:{five}@hand>b1", "dacapo.wrong_value", need=4, pile="b1")
    assert f"play:{four}@hand>b1" in keys(state)


def test_dc06_a_joker_on_a_nine_completes_the_pile():
    state = rig(GAME, build=[9], hands={0: ["X", "7", "7", "7"]})
    joker = find(state.seats[0].hand, "X")
    act(state, f"play:{joker}@hand>b1")
    assert state.build[0] == []
    assert len(state.set_aside) == 10 and state.set_aside[-1] == joker


def test_dc07_the_next_pile_card_is_turned_up_and_playable():
    state = rig(GAME, build=[6], piles={0: ["3", "7", "1"]}, hands={0: ["9", "9", "9", "9"]})
    one = state.seats[0].pile[-1]
    events = act(state, f"play:{one}@pile>new")
    assert state.build[1] == [one]
    seven = state.seats[0].pile[-1]
    assert face(seven) == "7"
    assert any(e.kind == "reveal" and e.data["card"] == seven for e in events)
    assert GAME.view(state, None).seats[0].pile_top == seven
    assert f"play:{seven}@pile>b1" in keys(state)


def test_dc08_no_redraw_while_cards_remain_in_hand():
    state = rig(GAME, build=[1], piles={0: ["5", "8"]}, hands={0: ["2", "3", "4", "6"]})
    hand = state.seats[0].hand
    for name in ("2", "3", "4"):
        act(state, f"play:{find(hand, name)}@hand>b1")
    assert faces(state.seats[0].hand) == ["6"]
    assert "draw" not in keys(state)
    refused(state, "draw", "dacapo.hand_not_empty")


def test_dc09_an_empty_hand_offers_drawing_four():
    state = rig(GAME, build=[1], piles={0: ["5", "8"]}, hands={0: ["2", "3", "4", "5"]})
    hand = state.seats[0].hand
    for name in ("2", "3", "4", "5"):
        act(state, f"play:{find(hand, name)}@hand>b1")
    assert state.seats[0].hand == []
    assert {"draw", "end"} <= keys(state)
    assert not any(k.startswith("discard") for k in keys(state))
    events = act(state, "draw")
    assert len(state.seats[0].hand) == 4
    assert state.current == 0
    drew = [e for e in events if e.kind == "drew"]
    assert drew and drew[0].to == frozenset({0}) and len(drew[0].data["cards"]) == 4
    assert any(k.startswith("discard") for k in keys(state))


def test_dc10_the_turn_ends_only_with_a_discard():
    state = rig(GAME, piles={0: ["5", "8"], 1: ["5", "8"]}, hands={0: ["7"], 1: ["9", "9", "9"]})
    refused(state, "end", "dacapo.must_discard")
    seven = state.seats[0].hand[0]
    assert keys(state) == {f"discard:{seven}>new"}
    act(state, f"discard:{seven}>new")
    assert state.seats[0].helpers[0] == [seven]
    assert state.current == 1
    assert state.seats[0].hand == []  # no refill until the next own turn
    assert len(state.seats[1].hand) == 4  # the next player refilled


def test_dc11_a_discard_may_stack_before_three_helper_piles_exist():
    state = rig(GAME, helpers={0: [["4"]]}, hands={0: ["9", "2"]})
    nine = find(state.seats[0].hand, "9")
    assert f"discard:{nine}>helper:1" in keys(state)
    act(state, f"discard:{nine}>helper:1")
    assert faces(state.seats[0].helpers[0]) == ["4", "9"]


def test_dc12_no_fourth_helper_pile():
    state = rig(GAME, helpers={0: [["4"], ["5"], ["6"]]}, hands={0: ["9", "2"]})
    nine = find(state.seats[0].hand, "9")
    refused(state, f"discard:{nine}>new", "dacapo.no_free_helper", most=3)
    refused(state, f"discard:{nine}>helper:4", "dacapo.no_such_helper")
    assert {k for k in keys(state) if k.startswith(f"discard:{nine}")} == {
        f"discard:{nine}>helper:{i}" for i in (1, 2, 3)}


def test_dc13_only_helper_tops_are_playable():
    state = rig(GAME, build=[2], helpers={0: [["5", "9", "3"]]}, hands={0: ["7", "7", "7", "7"]})
    five, _, three = state.seats[0].helpers[0]
    refused(state, f"play:{five}@helper:1>b1", "dacapo.not_helper_top")
    act(state, f"play:{three}@helper:1>b1")
    assert face(state.seats[0].helpers[0][-1]) == "9"
    refused(state, f"play:{five}@helper:1>b1", "dacapo.not_helper_top")


def test_dc14_playing_another_players_pile_top_turns_up_their_next_card():
    state = rig(GAME, build=[2], piles={0: ["8", "8"], 1: ["7", "6", "3"]}, hands={0: ["9", "9", "9", "9"]})
    three = state.seats[1].pile[-1]
    assert f"play:{three}@pile:seat1>b1" in keys(state)
    act(state, f"play:{three}@pile:seat1>b1")
    assert face(state.seats[1].pile[-1]) == "6"
    assert state.build[0][-1] == three


def test_dc15_other_players_helper_piles_are_not_a_source():
    state = rig(GAME, build=[3], helpers={1: [["4"]]}, hands={0: ["9", "9", "9", "9"]})
    four = state.seats[1].helpers[0][-1]
    refused(state, f"play:{four}@helper:1>b1", "dacapo.foreign_helper")
    assert not any(four in k for k in keys(state))


def test_dc16_emptying_the_own_pile_wins_at_once_and_scores_the_other_piles():
    state = rig(GAME, 3, build=[4], piles={0: ["5"], 1: ["?"] * 7, 2: ["?"] * 12},
                hands={0: ["9", "9"]})
    five = state.seats[0].pile[0]
    events = act(state, f"play:{five}@pile>b1")
    assert state.winners == (0,)
    first = state.history[0]
    assert [(line.seat, line.label, line.points) for line in first.lines] == [
        (0, "dacapo.line_pile", 7), (0, "dacapo.line_pile", 12)]
    assert first.totals == (19, 0, 0)
    assert state.scores == [19, 0, 0]
    assert not any(e.kind == "discard" for e in events)
    # Below the target of 50 the match goes on with a new deal by the next dealer.
    assert not GAME.is_over(state) and state.game_no == 2
    assert all(len(s.pile) == 20 for s in state.seats)


def test_dc17_an_empty_draw_pile_is_replaced_by_the_set_aside_piles():
    state = rig(GAME, hands={0: ["9", "9"]}, set_aside=[str(v) for v in range(1, 11)], rest="box")
    assert state.draw == []
    events = GAME.start_turn(state)
    assert len(state.seats[0].hand) == 4
    assert len(state.draw) == 8 and state.set_aside == []
    assert [e.data["count"] for e in events if e.kind == "reshuffle"] == [10]


def test_dc18_the_first_to_fifty_wins_the_match():
    state = rig(GAME, build=[4], piles={0: ["5"], 1: ["?"] * 9}, scores=[44, 30])
    act(state, f"play:{state.seats[0].pile[0]}@pile>b1")
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.scores == (53, 30)
    assert result.winners == frozenset({0})


def test_dc19_no_cards_are_drawn_in_the_first_round():
    for players in range(2, 7):
        state = GAME.setup(players, Options(), f"first-{players}")
        assert [len(s.hand) for s in state.seats] == [4] * players
        assert [len(s.pile) for s in state.seats] == [20] * players
        assert len(state.draw) == 165 - 24 * players


# -- decisions and edges -------------------------------------------------------------------------
def test_d5_playing_an_opponents_last_card_makes_them_win():
    state = rig(GAME, build=[2], piles={0: ["8", "8"], 1: ["3"]}, hands={0: ["9", "9", "9", "9"]})
    three = state.seats[1].pile[0]
    act(state, f"play:{three}@pile:seat1>b1")
    assert state.winners == (1,)
    assert state.history[0].lines == (state.history[0].lines[0],)
    assert state.history[0].lines[0].seat == 1 and state.history[0].lines[0].points == 2


def test_d5_option_forbids_taking_an_opponents_last_card():
    options = Options(empty_opponent_pile="forbidden")
    state = rig(GAME, options=options, build=[2], piles={0: ["8", "8"], 1: ["3"]},
                hands={0: ["9", "9", "9", "9"]})
    three = state.seats[1].pile[0]
    refused(state, f"play:{three}@pile:seat1>b1", "dacapo.last_card_forbidden")
    assert not any(three in k for k in keys(state))


def test_the_own_pile_is_named_pile_not_by_seat():
    state = rig(GAME, piles={0: ["8", "1"]}, hands={0: ["9"]})
    one = state.seats[0].pile[-1]
    refused(state, f"play:{one}@pile:seat0>new", "dacapo.no_such_source")
    refused(state, f"play:{one}@stock>new", "dacapo.no_such_source")
    refused(state, f"play:{one}@hand>new", "dacapo.not_in_hand")
    refused(state, "play:nonsense", "core.illegal_action")
    refused(state, f"play:{one}@pile>new", "core.not_your_turn", seat=1)


def test_drawing_after_an_empty_hand_reshuffles_finished_piles():
    state = rig(GAME, build=[1], piles={0: ["5", "8"]}, hands={0: ["2"]},
                set_aside=[str(v) for v in range(1, 11)], rest="box")
    act(state, f"play:{state.seats[0].hand[0]}@hand>b1")
    events = act(state, "draw")
    assert any(e.kind == "reshuffle" for e in events)
    assert len(state.seats[0].hand) == 4 and len(state.draw) == 6


def test_with_nothing_to_draw_an_empty_hand_ends_the_turn_without_a_discard():
    state = rig(GAME, build=[1], piles={0: ["5", "8"], 1: ["5", "8"]}, hands={0: ["2"], 1: ["9"]},
                rest="box")
    act(state, f"play:{state.seats[0].hand[0]}@hand>b1")
    assert keys(state) == {"end"}
    refused(state, "draw", "dacapo.nothing_to_draw")
    act(state, "end")
    assert state.current == 1 and state.seats[0].helpers == [[], [], []]


def test_d8_a_round_without_a_build_play_and_nothing_to_draw_stalls():
    state = rig(GAME, piles={0: ["8", "8"], 1: ["8", "8"]}, hands={0: ["9", "9"], 1: ["9", "9"]},
                rest="box", scores=[12, 30])
    act(state, f"discard:{state.seats[0].hand[0]}>new")
    assert state.quiet == 1 and not GAME.is_over(state)
    events = act(state, f"discard:{state.seats[1].hand[0]}>new")
    assert any(e.kind == "stalled" for e in events)
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.winners == frozenset()
    assert result.scores == (12, 30)  # nobody scores
    assert {line.label for line in result.breakdown[-1].lines} == {"dacapo.line_stalled"}


def test_d8_a_build_play_restarts_the_count():
    state = rig(GAME, build=[1], piles={0: ["8", "8"], 1: ["8", "8"]},
                hands={0: ["9", "9"], 1: ["2", "9"]}, rest="box")
    act(state, f"discard:{state.seats[0].hand[0]}>new")
    act(state, f"play:{find(state.seats[1].hand, '2')}@hand>b1")
    act(state, f"discard:{state.seats[1].hand[0]}>new")
    assert state.quiet == 0 and not GAME.is_over(state)
    act(state, f"discard:{state.seats[0].hand[0]}>new")
    assert state.quiet == 1


def test_turns_with_cards_left_to_draw_never_stall():
    state = GAME.setup(2, Options(), "never-stall")
    for _ in range(20):
        seat = state.current
        act(state, next(a.key for a in GAME.legal_actions(state, seat) if a.kind == "discard"))
        assert state.quiet == 0


def test_views_hide_hands_and_pile_cards_and_resample_keeps_them():
    state = GAME.setup(3, Options(), "views")
    public = GAME.view(state, None)
    assert public.hand == () and public.seats[1].hand_size == 4
    assert GAME.view(state, 1).hand == tuple(state.seats[1].hand)
    assert "views" not in repr(public) and "views" not in repr(GAME.view(state, 0))
    other = GAME.resample(state, 0, random.Random(3))
    assert GAME.view(other, 0) == GAME.view(state, 0)
    assert other.seats[1].hand != state.seats[1].hand or other.draw != state.draw
    assert other.seed != state.seed
    assert sorted(GAME.cards(other)) == sorted(GAME.cards(state))


def test_clone_is_independent():
    state = GAME.setup(2, Options(), "clone")
    copy = GAME.clone(state)
    act(copy, next(a.key for a in GAME.legal_actions(copy, copy.current) if a.kind == "discard"))
    assert GAME.view(state, None) != GAME.view(copy, None)
    assert GAME.view(state, None) == GAME.view(GAME.setup(2, Options(), "clone"), None)


def test_action_keys_are_short_and_name_absolute_things():
    state = rig(GAME, 6, build=[2], piles={5: ["8", "3"]}, hands={0: ["X", "10", "1", "3"]})
    for key in keys(state):
        assert len(key) <= 40
        assert Action.parse(key).key == key
    assert any(k.endswith("@pile:seat5>b1") for k in keys(state))


def test_every_reason_has_an_english_and_a_german_text():
    root = Path(__file__).resolve().parents[2] / "games"
    source = "".join(p.read_text() for p in [*(root / "dacapo").glob("*.py"), *(root / "buildpiles").glob("*.py")])
    reasons = set(re.findall(r'IllegalAction\("dacapo\.(\w+)"', source))
    reasons |= set(re.findall(r'IllegalAction\(f"\{self\.key\}\.(\w+)"', source))
    reasons |= {"line_pile", "line_stalled", *(f"option.{name}" for name in Options.model_fields)}
    assert len(reasons) > 15
    for lang in ("en", "de"):
        texts = catalogue(lang)
        missing = {r for r in reasons if f"dacapo.{r}" not in texts}
        assert not missing, (lang, missing)


# -- generic invariants ------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_random_playouts_keep_the_invariants(players: int) -> None:
    """Random play usually stalls (docs/rules-decisions.md D8); short piles let random games be won as
    well."""
    check_playouts(GAME, players, 3)
    check_playouts(GAME, players, 3, options=Options(pile_size=5, target=8))


def test_play_first_matches_run_to_the_target():
    """Random play that prefers building wins games, and the match ends at 50 with one winner."""
    for players in (2, 4, 6):
        state = GAME.setup(players, Options(), f"greedy-{players}")
        rng = random.Random(players)
        while not GAME.is_over(state):
            legal = GAME.legal_actions(state, state.current)
            plays = [a for a in legal if a.kind in ("play", "draw")]
            GAME.apply(state, state.current, rng.choice(plays if plays and rng.random() < 0.9 else legal))
        result = GAME.result(state)
        best = max(result.scores)
        assert best >= 50 and result.winners == frozenset({result.scores.index(best)})
        assert len(result.breakdown) == state.game_no > 1
        for game in result.breakdown:
            assert sum(1 for line in game.lines if line.points) <= players - 1
            assert len({line.seat for line in game.lines}) == 1
        assert result.breakdown[-1].totals == result.scores
