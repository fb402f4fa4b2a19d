"""Skippo: every worked case (SK-01 … SK-19) from rigged positions, the decisions of
docs/rules-decisions.md (D7, D8, D11, D14, D15), joker runs, the ace rule, options, and the generic invariants
for 2–6 players.

Positions come from ``games.buildpiles.rig``: cards named by face (``"A"`` … ``"K"``, ``"X"`` =
joker), every list bottom → top; a build pile given as an int holds the naturals A … that value.
Seat 0 is to act unless a test says otherwise.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.i18n import catalogue
from games.base import Action
from games.buildpiles import rig
from games.skippo import GAME, Options, face
from tests.games.buildpile_moves import shorthands
from tests.games.invariants import check_playouts

FULL = [2, 3, 4, 5]  # four occupied build piles


def table(players: int = 2, **kw):
    """A rigged position in which every seat has a stock (9, 9) unless the test names one."""
    piles = {s: ["9", "9"] for s in range(players)}
    piles.update(kw.pop("piles", {}))
    return rig(GAME, players, piles=piles, **kw)


act, refused, keys, find, faces = shorthands(GAME, face)


def runs(state) -> set[str]:
    return {k for k in keys(state) if k.startswith("run:")}


# -- the worked cases --------------------------------------------------------------------------
def test_sk01_helper_piles_never_rise():
    state = table(helpers={0: [["9"], ["Q"], ["K"], ["J"]]}, hands={0: ["7", "9", "10"]})
    hand = state.seats[0].hand
    GAME.check(state, 0, Action.parse(f"discard:{find(hand, '7')}>helper:1"))
    GAME.check(state, 0, Action.parse(f"discard:{find(hand, '9')}>helper:1"))
    refused(state, f"discard:{find(hand, '10')}>helper:1", "skippo.helper_too_high", top="9")
    assert f"discard:{find(hand, '10')}>helper:1" not in keys(state)


def test_sk02_an_empty_helper_place_takes_any_card():
    state = table(hands={0: ["K"]})
    king = state.seats[0].hand[0]
    assert f"discard:{king}>new" in keys(state)
    act(state, f"discard:{king}>new")
    assert state.seats[0].helpers[0] == [king]


def test_sk03_a_helper_joker_below_its_cap_covered_from_the_hand():
    state = table(build=[8], helpers={0: [["9", "X"]]}, hands={0: ["10", "4"]})
    joker, ten = state.seats[0].helpers[0][-1], find(state.seats[0].hand, "10")
    key = f"run:{joker}+{ten}>b1"
    assert key in runs(state)
    act(state, key)
    assert state.build[0][-2:] == [joker, ten] and len(state.build[0]) == 10


def test_sk04_a_helper_joker_cannot_exceed_the_card_beneath():
    state = table(build=[9], helpers={0: [["9", "X"]]}, hands={0: ["J", "4"]})
    joker, jack = state.seats[0].helpers[0][-1], find(state.seats[0].hand, "J")
    refused(state, f"run:{joker}+{jack}>b1", "skippo.joker_cap", cap=9)
    assert not any(r.endswith(">b1") for r in runs(state))


def test_sk05_a_helper_joker_may_be_the_ace():
    state = table(helpers={0: [["9", "X"]]}, hands={0: ["2", "7"]})
    joker, two = state.seats[0].helpers[0][-1], find(state.seats[0].hand, "2")
    assert f"run:{joker}+{two}>new" in runs(state)
    act(state, f"run:{joker}+{two}>new")
    assert state.build[0] == [joker, two]


def test_sk06_a_hand_joker_covered_by_a_hand_card():
    state = table(build=[4], hands={0: ["X", "6"]})
    joker, six = find(state.seats[0].hand, "X"), find(state.seats[0].hand, "6")
    act(state, f"run:{joker}+{six}>b1")
    assert len(state.build[0]) == 6 and state.seats[0].hand == []


def test_sk07_a_joker_that_cannot_be_covered_stays():
    state = table(build=[4], hands={0: ["X", "7"]})
    joker, seven = find(state.seats[0].hand, "X"), find(state.seats[0].hand, "7")
    refused(state, f"play:{joker}@hand>b1", "skippo.joker_needs_cover")
    refused(state, f"run:{joker}>b1", "skippo.run_shape")
    refused(state, f"run:{joker}+{seven}>b1", "skippo.wrong_value", need=6)
    assert runs(state) == set()
    assert not any(k.startswith("play:") for k in keys(state))


def test_sk08_a_joker_king_completes_the_pile_and_the_stock_ace_restarts_it():
    state = table(build=[12, 3, 4, 5], piles={0: ["9", "5", "A"]}, hands={0: ["X", "8"]})
    joker, ace = find(state.seats[0].hand, "X"), state.seats[0].pile[-1]
    key = f"run:{joker}+{ace}>b1"
    assert key in runs(state)
    act(state, key)
    assert len(state.set_aside) == 13 and state.set_aside[-1] == joker
    assert state.build[0] == [ace]
    assert face(state.seats[0].pile[-1]) == "5"


def test_sk09_a_joker_king_needs_an_ace_after_it():
    state = table(build=[12, 3, 4, 5], piles={0: ["9", "7"]}, hands={0: ["X", "5"]})
    joker, five = find(state.seats[0].hand, "X"), find(state.seats[0].hand, "5")
    refused(state, f"run:{joker}+{five}>b1", "skippo.ace_after_king")
    assert not any(r.endswith(">b1") for r in runs(state))


def test_sk10_aces_go_out_at_the_start_of_the_turn_with_a_replacement():
    state = table(build=[2, 3, 4], hands={0: ["A", "4", "7", "9", "K"]}, draw=["3"])
    ace = find(state.seats[0].hand, "A")
    GAME.start_turn(state)
    assert state.build[3] == [ace]
    assert faces(state.seats[0].hand) == ["4", "7", "9", "K", "3"]


def test_sk11_an_ace_is_held_while_every_build_pile_is_taken():
    state = table(build=FULL, hands={0: ["A", "4", "7"]}, draw=["8", "9"], rest="box")
    GAME.start_turn(state)
    assert faces(state.seats[0].hand) == ["A", "4", "7", "9", "8"]
    assert state.draw == []


def test_sk12_a_held_ace_goes_out_when_a_pile_is_cleared_without_a_replacement():
    state = table(build=[12, 3, 4, 5], hands={0: ["A", "4", "K"]}, draw=["8", "9"])
    GAME.start_turn(state)
    ace, king = find(state.seats[0].hand, "A"), find(state.seats[0].hand, "K")
    draw_size = len(state.draw)
    events = act(state, f"play:{king}@hand>b1")
    assert state.build[0] == [ace]
    assert faces(state.seats[0].hand) == ["4", "9", "8"]
    assert len(state.draw) == draw_size
    assert [e.kind for e in events if e.kind in ("complete", "ace_out")] == ["complete", "ace_out"]


def test_sk13_a_stock_joker_set_aside_blocks_the_stock_until_it_is_played():
    state = table(build=[5, 1], piles={0: ["9", "2", "7", "X"]}, hands={0: ["K", "K"]})
    joker = state.seats[0].pile[-1]
    assert f"aside:{joker}" in keys(state)
    act(state, f"aside:{joker}")
    seven = state.seats[0].pile[-1]
    assert state.seats[0].reserve == [joker] and face(seven) == "7"
    assert GAME.view(state, None).seats[0].reserve == (joker,)
    refused(state, f"play:{seven}@stock>b1", "skippo.stock_blocked")
    assert f"run:{joker}+{seven}>b1" in runs(state)
    act(state, f"run:{joker}+{seven}>b1")
    two = state.seats[0].pile[-1]
    assert face(two) == "2" and state.seats[0].reserve == []
    assert f"play:{two}@stock>b2" in keys(state)


def test_sk14_the_stock_card_under_a_set_aside_joker_cannot_be_played_alone():
    state = table(build=[6], piles={0: ["9", "7"]}, reserves={0: ["X"]}, hands={0: ["K"]})
    seven = state.seats[0].pile[-1]
    refused(state, f"play:{seven}@stock>b1", "skippo.stock_blocked")
    assert not any(k.startswith(f"play:{seven}") for k in keys(state))


def test_sk15_a_king_completes_a_pile():
    state = table(build=[12], hands={0: ["K", "5"]})
    act(state, f"play:{find(state.seats[0].hand, 'K')}@hand>b1")
    assert state.build[0] == [] and len(state.set_aside) == 13


def test_sk16_the_set_aside_piles_become_the_draw_pile():
    thirteen = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    state = table(build=FULL, hands={0: ["K", "Q"]}, set_aside=thirteen, rest="box")
    events = GAME.start_turn(state)
    assert len(state.seats[0].hand) == 5 and len(state.draw) == 10 and state.set_aside == []
    assert [e.data["count"] for e in events if e.kind == "reshuffle"] == [13]


def test_sk17_emptying_the_stock_wins_at_once():
    state = table(options=Options(games=1), build=[7], piles={0: ["8"]}, hands={0: ["K", "Q"], 1: ["K"]})
    events = act(state, f"play:{state.seats[0].pile[0]}@stock>b1")
    assert GAME.is_over(state) and state.winners == (0,)
    assert GAME.result(state).winners == frozenset({0})
    assert not any(e.kind == "discard" for e in events)


def test_sk18_points_for_leftover_cards():
    state = table(options=Options(games=1), build=[7], piles={0: ["8"], 1: ["?"] * 5},
                hands={0: ["2"], 1: ["K", "7", "X"]}, helpers={1: [["Q"], ["5", "3"]]})
    act(state, f"play:{state.seats[0].pile[0]}@stock>b1")
    result = GAME.result(state)
    assert result.scores == (15, -45)
    lines = {(line.seat, line.label): line.points for line in result.breakdown[0].lines}
    assert lines == {
        (0, "skippo.line_numbers"): -5, (0, "skippo.line_winner"): 20,
        (1, "skippo.line_pictures"): -20, (1, "skippo.line_numbers"): -15, (1, "skippo.line_jokers"): -10,
    }


def test_sk19_no_legal_discard_ends_the_turn_without_one():
    state = table(helpers={0: [["2"], ["3"], ["4"], ["5"]]}, hands={0: ["9", "10", "J"]})
    assert keys(state) == {"end"}
    act(state, "end")
    assert state.current == 1 and faces(state.seats[0].hand) == ["9", "10", "J"]


# -- decisions, joker rules and options ---------------------------------------------------------
def test_d7_one_romme_deck_for_two_to_four_players_two_for_five_and_six():
    for players, size in ((2, 110), (4, 110), (5, 220), (6, 220)):
        state = GAME.setup(players, Options(), f"deck-{players}")
        cards = GAME.cards(state)
        assert len(cards) == len(set(cards)) == size
        assert sum(1 for c in cards if face(c) == "X") == size // 110 * 6
        assert [len(s.pile) for s in state.seats] == [10] * players


def test_d11_the_hand_is_not_refilled_during_the_turn_by_default():
    state = table(build=[4], piles={0: ["9", "9"]}, hands={0: ["5"]})
    act(state, f"play:{state.seats[0].hand[0]}@hand>b1")
    assert state.seats[0].hand == [] and keys(state) == {"end"}


def test_d11_option_refills_an_emptied_hand_at_once():
    state = table(options=Options(refill_when_empty=True), build=[4], piles={0: ["9", "9"]},
                hands={0: ["5"]}, draw=["7", "8", "9", "10", "J"])
    act(state, f"play:{state.seats[0].hand[0]}@hand>b1")
    assert faces(state.seats[0].hand) == ["J", "10", "9", "8", "7"]
    assert state.current == 0


def test_d11_run_cards_must_be_face_up():
    state = table(build=[4], piles={0: ["9", "6", "X"]}, hands={0: ["K"]})
    joker, six = state.seats[0].pile[-1], state.seats[0].pile[-2]
    refused(state, f"run:{joker}+{six}>b1", "skippo.run_not_face_up")
    assert runs(state) == set()
    act(state, f"aside:{joker}")
    assert f"run:{joker}+{six}>b1" in runs(state)


def test_a_helper_natural_under_its_joker_may_cover_it():
    state = table(build=[5], helpers={0: [["7", "X"]]}, hands={0: ["K"]})
    seven, joker = state.seats[0].helpers[0]
    assert f"run:{joker}+{seven}>b1" in runs(state)
    act(state, f"run:{joker}+{seven}>b1")
    assert state.seats[0].helpers[0] == [] and len(state.build[0]) == 7


def test_joker_chains_and_the_option_that_forbids_them():
    state = table(build=[4], hands={0: ["X", "X", "7"]})
    j1, j2 = [c for c in state.seats[0].hand if face(c) == "X"]
    seven = find(state.seats[0].hand, "7")
    assert f"run:{j1}+{j2}+{seven}>b1" in runs(state)
    GAME.check(state, 0, Action.parse(f"run:{j2}+{j1}+{seven}>b1"))
    off = table(options=Options(allow_joker_chains=False), build=[4], hands={0: ["X", "X", "7"]})
    refused(off, f"run:{j1}+{j2}+{seven}>b1", "skippo.no_chains")
    assert runs(off) == set()


def test_helper_jokers_take_the_low_values_of_a_chain():
    state = table(build=[5], helpers={0: [["6", "X"]]}, hands={0: ["X", "8"]})
    helper_joker, hand_joker = state.seats[0].helpers[0][-1], find(state.seats[0].hand, "X")
    eight = find(state.seats[0].hand, "8")
    assert f"run:{helper_joker}+{hand_joker}+{eight}>b1" in runs(state)
    assert f"run:{hand_joker}+{helper_joker}+{eight}>b1" not in runs(state)
    refused(state, f"run:{hand_joker}+{helper_joker}+{eight}>b1", "skippo.joker_cap", cap=6)
    act(state, f"run:{helper_joker}+{hand_joker}+{eight}>b1")
    assert state.build[0][-3:] == [helper_joker, hand_joker, eight]


def test_a_low_capped_helper_joker_does_not_hide_runs_from_other_jokers():
    """A helper joker capped below a build pile is left out; the hand joker still makes the run."""
    state = table(build=[5], helpers={0: [["3", "X"], ["7"]]}, hands={0: ["X", "K"]})
    hand_joker, seven = find(state.seats[0].hand, "X"), state.seats[0].helpers[1][-1]
    assert f"run:{hand_joker}+{seven}>b1" in runs(state)
    act(state, f"run:{hand_joker}+{seven}>b1")
    assert state.build[0][-2:] == [hand_joker, seven]


def test_a_joker_discarded_on_a_helper_pile_keeps_the_cap_of_the_card_beneath():
    state = table(helpers={0: [["9", "X"], ["K"], ["K"], ["K"]]}, hands={0: ["10", "9"]})
    hand = state.seats[0].hand
    refused(state, f"discard:{find(hand, '10')}>helper:1", "skippo.helper_too_high", top="9")
    GAME.check(state, 0, Action.parse(f"discard:{find(hand, '9')}>helper:1"))
    empty_joker = table(build=[*FULL[:3], 12], helpers={0: [["X"]]}, hands={0: ["A", "5"]})
    joker, ace = empty_joker.seats[0].helpers[0][0], find(empty_joker.seats[0].hand, "A")
    act(empty_joker, f"run:{joker}+{ace}>b4")  # a joker on an empty place may be the king
    assert empty_joker.build[3] == [ace]


def test_a_held_ace_cannot_be_discarded():
    state = table(build=FULL, hands={0: ["A", "5"]})
    ace = find(state.seats[0].hand, "A")
    refused(state, f"discard:{ace}>new", "skippo.ace_discard")
    assert not any(ace in k for k in keys(state))


def test_aces_out_of_turn_option_places_other_players_held_aces():
    for option, placed in ((False, False), (True, True)):
        state = table(options=Options(aces_out_of_turn=option), build=[12, 3, 4, 5],
                    hands={0: ["K", "5"], 1: ["A", "9"]})
        act(state, f"play:{find(state.seats[0].hand, 'K')}@hand>b1")
        assert (faces(state.build[0]) == ["A"]) is placed
        assert ("A" in faces(state.seats[1].hand)) is not placed


# -- D15: with aces out of turn, the dealt aces go out before the first turn -------------------
def dealt(option: bool):
    """Three players, seat 1 first, every build pile free, six aces dealt (more than four piles):
    seat 1 holds one, seat 2 two (and draws a third as a replacement), seat 0 two."""
    return table(3, current=1, options=Options(aces_out_of_turn=option),
                 hands={1: ["A", "5", "6", "7", "8"], 2: ["A", "A", "9", "10", "J"], 0: ["A", "A", "3", "4", "K"]},
                 draw=["3", "2", "A", "Q"])


def opening(state) -> list:
    """What happens between the deal and the first choice, as the engine runs it after a deal."""
    events: list = []
    GAME.before_first_turn(state, events)
    GAME.start_turn(state, events)
    return events


def test_d15_dealt_aces_go_out_in_turn_order_with_replacements_until_the_piles_are_full():
    state = dealt(True)
    events = opening(state)
    assert [faces(p) for p in state.build] == [["A"]] * 4
    assert faces(state.seats[1].hand) == ["5", "6", "7", "8", "Q"]
    assert faces(state.seats[2].hand) == ["9", "10", "J", "2", "3"]  # the ace it drew went out too
    assert faces(state.seats[0].hand) == ["A", "A", "3", "4", "K"]  # no pile left: held aces
    public = [(e.kind, e.seat, e.data.get("to", e.data.get("count"))) for e in events if e.to is None]
    assert public == [("ace_out", 1, "b1"), ("draw", 1, 1), ("ace_out", 2, "b2"), ("ace_out", 2, "b3"),
                      ("draw", 2, 2), ("ace_out", 2, "b4"), ("draw", 2, 1)]
    drew = [e for e in events if e.kind == "drew"]
    assert [(e.seat, e.to, faces(e.data["cards"])) for e in drew] == [
        (1, frozenset({1}), ["Q"]), (2, frozenset({2}), ["A", "2"]), (2, frozenset({2}), ["3"])]
    board = GAME.view(state, None)
    assert [sv.hand_size for sv in board.seats] == [5, 5, 5] and board.hand == ()
    assert state.current == 1 and keys(state, 1)


def test_d15_held_aces_after_the_deal_go_out_when_a_pile_is_freed_even_in_another_turn():
    state = table(3, current=1, options=Options(aces_out_of_turn=True), build=[12, None, None, None],
                  hands={1: ["K", "A", "5", "6", "7"], 2: ["A", "A", "9", "10", "J"], 0: ["A", "4", "K"]},
                  draw=["8", "7", "6"])
    opening(state)
    assert faces(state.seats[2].hand) == ["9", "10", "J", "7", "8"] and faces(state.seats[0].hand) == ["A", "4", "K"]
    events = act(state, f"play:{find(state.seats[1].hand, 'K')}@hand>b1")
    assert faces(state.build[0]) == ["A"]
    assert [(e.kind, e.seat) for e in events if e.kind in ("complete", "ace_out")] == [("complete", None), ("ace_out", 0)]
    assert faces(state.seats[0].hand) == ["4", "K"]  # a held ace: no replacement


def test_d15_with_the_option_off_dealt_aces_wait_for_their_owners_turn():
    state = dealt(False)
    events = opening(state)
    assert [faces(p) for p in state.build] == [["A"], [], [], []]
    assert faces(state.seats[1].hand) == ["5", "6", "7", "8", "Q"]
    assert faces(state.seats[2].hand) == ["A", "A", "9", "10", "J"]
    assert [(e.kind, e.seat) for e in events if e.to is None] == [("ace_out", 1), ("draw", 1)]


def test_d15_the_deal_itself_reports_the_aces_in_its_events():
    """Through ``begin`` (what a session starts with): every ace that went out is on a build pile,
    named in a public event, in turn order from the first player; only then are aces held."""
    options, seen = Options(aces_out_of_turn=True), 0
    for n in range(200):
        state, events = GAME.begin(3, options, f"deal{n}")
        held = [j for j, s in enumerate(state.seats) if "A" in faces(s.hand)]
        outs = [e for e in events if e.kind == "ace_out"]
        assert events[0].kind == "deal" and events[0].data["first"] == state.current
        assert sorted(e.data["card"] for e in outs) == sorted(c for p in state.build for c in p)
        order = [(e.seat - state.current) % 3 for e in outs]
        assert order == sorted(order)
        assert not held or state.free_slot() < 0
        if held and len({e.seat for e in outs}) > 1:
            seen += 1
            off, off_events = GAME.begin(3, Options(), f"deal{n}")
            assert {e.seat for e in off_events if e.kind == "ace_out"} <= {off.current}
    assert seen  # some deal had more aces than piles, spread over several players


def test_d15_resample_keeps_what_the_deal_told_everybody():
    """Seat 1 (first) found piles free and put its one ace out, so the redeal gives it no ace; seat 0
    came after the piles were full, so its hand may hold aces. Seen from seat 2."""
    state = dealt(True)
    opening(state)
    holds = set()
    for n in range(60):
        other = GAME.resample(state, 2, random.Random(n))
        assert "A" not in faces(other.seats[1].hand)
        assert GAME.view(other, 2) == GAME.view(state, 2) and GAME.view(other, None) == GAME.view(state, None)
        holds.add("A" in faces(other.seats[0].hand))
    assert holds == {True, False}


def test_d15_a_player_with_no_ace_at_the_deal_keeps_none_in_the_redeal_after_the_piles_fill():
    """Seat 1 puts nothing out (no ace, piles free), seat 2 fills all four piles and draws four cards
    with no pile left: seat 1's hand is known to hold no ace though no pile is free any more, seat
    2's replacements may hold some."""
    state = table(3, current=1, options=Options(aces_out_of_turn=True),
                  hands={1: ["5", "6", "7", "8", "9"], 2: ["A", "A", "A", "A", "J"], 0: ["A", "3", "4", "K", "Q"]},
                  draw=["3", "2", "10", "Q"])
    opening(state)
    assert state.free_slot() < 0 and faces(state.seats[0].hand)[0] == "A"
    holds = set()
    for n in range(60):
        other = GAME.resample(state, 0, random.Random(n))
        assert "A" not in faces(other.seats[1].hand)
        assert GAME.view(other, 0) == GAME.view(state, 0)
        holds.add("A" in faces(other.seats[2].hand))
    assert holds == {True, False}


def known_aceless(state) -> list[int]:
    """The seats whose hands the rules say hold no ace now (what ``resample`` must respect)."""
    free = state.free_slot() >= 0
    return [j for j in range(state.players) if state.aceless >> j & 1
            or (free and (state.options.aces_out_of_turn or j == state.current))]


@pytest.mark.parametrize("option", [True, False])
def test_d15_random_play_and_its_redeals_never_break_the_ace_rule(option: bool) -> None:
    """The engine's own knowledge of ace-free hands is true in real play, and every redeal keeps it."""
    options = Options(aces_out_of_turn=option, games=2)
    checked = 0
    for n in range(4):
        state = GAME.setup(3, options, f"aces-{option}-{n}")
        rng = random.Random(n)
        for step in range(400):
            if GAME.is_over(state):
                break
            bound = known_aceless(state)
            assert all("A" not in faces(state.seats[j].hand) for j in bound)
            if step % 9 == 0:
                for seat in range(3):
                    other = GAME.resample(state, seat, random.Random(step))
                    assert all("A" not in faces(other.seats[j].hand) for j in bound if j != seat)
                    checked += 1
            GAME.apply(state, state.current, rng.choice(GAME.legal_actions(state, state.current)))
    assert checked > 30
    check_playouts(GAME, 3, 2, options=options)


def test_d15_needs_a_new_rules_version():
    assert GAME.rules_version == 2


def test_stuck_discard_option_lets_any_card_go_anywhere():
    options = Options(stuck_discard="any")
    state = table(options=options, build=[11] * 4, helpers={0: [["2"], ["3"], ["4"], ["5"]]},
                  hands={0: ["8", "A"]})
    eight = find(state.seats[0].hand, "8")
    assert keys(state) == {f"discard:{eight}>helper:{i}" for i in range(1, 5)}
    refused(state, "end", "skippo.must_discard")
    ordered = table(options=options, build=[11] * 4, helpers={0: [["8"], ["3"], ["4"], ["5"]]},
                    hands={0: ["8", "A"]})
    refused(ordered, f"discard:{find(ordered.seats[0].hand, '8')}>helper:2", "skippo.helper_too_high", top="3")


def test_wins_scoring_counts_games():
    state = table(options=Options(games=1, scoring="wins"), build=[7], piles={0: ["8"]},
                hands={1: ["K", "K"]})
    act(state, f"play:{state.seats[0].pile[0]}@stock>b1")
    assert GAME.result(state).scores == (1, 0)


def test_d8_stalls_with_nothing_to_draw():
    state = table(helpers={0: [["2"]], 1: [["2"]]}, piles={0: ["9", "9"], 1: ["9", "9"]},
                hands={0: ["2", "2"], 1: ["2", "2"]}, rest="box", scores=[-5, 20])
    act(state, f"discard:{state.seats[0].hand[0]}>helper:1")
    act(state, f"discard:{state.seats[1].hand[0]}>helper:1")
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.winners == frozenset() and result.scores == (-5, 20)


def test_a_table_that_cannot_move_stalls_even_with_cards_left_to_draw():
    stuck = {"helpers": {s: [["2"], ["2"], ["2"], ["2"]] for s in (0, 1)},
             "hands": {s: ["9", "9", "10", "10", "J"] for s in (0, 1)}}
    state = table(**stuck)
    assert state.draw and keys(state) == {"end"}
    act(state, "end")
    assert not GAME.is_over(state)
    events = act(state, "end")
    assert any(e.kind == "stalled" for e in events) and GAME.result(state).winners == frozenset()


def test_resample_never_gives_the_player_to_act_an_ace_while_a_pile_is_free():
    state = table(current=1, build=[3], hands={0: ["K"], 1: ["7", "8", "9", "10", "J"]})
    for n in range(30):
        other = GAME.resample(state, 0, random.Random(n))
        assert "A" not in faces(other.seats[1].hand)
        assert GAME.view(other, 0) == GAME.view(state, 0)


def test_illegal_targets_and_sources_are_refused_with_reasons():
    state = table(build=[3], piles={0: ["9", "6"]}, hands={0: ["5", "4"]},
                helpers={0: [["K", "Q"]], 1: [["4"]]})
    hand = state.seats[0].hand
    refused(state, f"play:{find(hand, '5')}@hand>b1", "skippo.wrong_value", need=4)
    refused(state, f"play:{find(hand, '5')}@hand>new", "skippo.start_with_ace", need=1)
    refused(state, f"play:{find(hand, '4')}@hand>b9", "skippo.no_such_pile")
    refused(state, f"play:{state.seats[0].pile[0]}@stock>b1", "skippo.not_pile_top")
    refused(state, f"play:{state.seats[0].helpers[0][0]}@helper:1>b1", "skippo.not_helper_top")
    refused(state, f"play:{state.seats[1].helpers[0][0]}@helper:1>b1", "skippo.foreign_helper")
    refused(state, f"play:{find(hand, '4')}@pile:seat1>b1", "skippo.no_such_source")
    refused(state, f"aside:{find(hand, '4')}", "skippo.aside_not_joker")
    refused(state, "end", "skippo.must_discard")
    refused(state, f"play:{find(hand, '4')}@hand>b1", "core.not_your_turn", seat=1)
    assert keys(state, 1) == set()


def test_every_reason_has_an_english_and_a_german_text():
    root = Path(__file__).resolve().parents[2] / "games"
    source = "".join(p.read_text() for p in [*(root / "skippo").glob("*.py"), *(root / "buildpiles").glob("*.py")])
    reasons = set(re.findall(r'IllegalAction\(\s*"skippo\.(\w+)"', source))
    reasons |= set(re.findall(r'"skippo\.(\w+)" if', source))
    reasons |= set(re.findall(r'IllegalAction\(f"\{self\.key\}\.(\w+)"', source))
    reasons |= set(re.findall(r'"skippo\.(line_\w+)"', source)) | {"line_stalled"}
    reasons |= {f"option.{name}" for name in Options.model_fields}
    assert len(reasons) > 30
    for lang in ("en", "de"):
        texts = catalogue(lang)
        missing = {r for r in reasons if f"skippo.{r}" not in texts}
        assert not missing, (lang, missing)


# -- generic invariants ------------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_random_playouts_keep_the_invariants(players: int) -> None:
    """Random play stalls most games with one deck and wins most with two (D8 and wins)."""
    check_playouts(GAME, players, 3, options=Options(games=2))


def test_random_matches_reach_both_ends_of_a_game():
    """Over a few seeded random matches some games are won and some stall."""
    ends = set()
    for n in range(12):
        state = GAME.setup(5, Options(games=1, stock_size=5), f"ends-{n}")
        rng = random.Random(n)
        while not GAME.is_over(state):
            GAME.apply(state, state.current, rng.choice(GAME.legal_actions(state, state.current)))
        ends.add(state.winners[-1] is None)
    assert ends == {True, False}
