"""Calcory: the worked cases C1–C11 on rigged positions, plus the edge rules
(docs/rules-decisions.md D2, D16, D17)."""

from __future__ import annotations

import random
import re
from dataclasses import fields, is_dataclass
from pathlib import Path

import pytest

from bot.i18n import t
from games.base import Action, IllegalAction, replay
from games.calcory import GAME, SLOT_INDEX, SLOTS, FailedView, SlotView, position
from games.deck import DECK, digit
from tests.games.invariants import check_playouts


def act(state, seat, kind, arg=""):
    return GAME.apply(state, seat, Action(kind, arg))


def flip(state, seat, *slots):
    events = []
    for slot in slots:
        events += act(state, seat, "flip", slot)
    return events


def kinds(events):
    return [e.kind for e in events]


def status(state, *slots):
    grid = GAME.view(state, None).grid
    return [grid[SLOT_INDEX[s]].status for s in slots]


def on_table(state):
    return sum(1 for c in state.grid if c)


def counts(state):
    return GAME.view(state, None).hand_counts


def refused(state, seat, kind, arg=""):
    with pytest.raises(IllegalAction) as info:
        act(state, seat, kind, arg)
    return info.value


def spare(*used, n):
    """``n`` card ids not among ``used``, for rigged hands."""
    return [c for c in DECK if c not in used][:n]


# A's marked set {4, 3, 4} (sum 11, 3 cards) in A1-C1; used by C5-C10.
MARKED = {"A1": "y4", "B1": "g3", "C1": "b4"}


def marked_position(active=1, **slots):
    return position(3, {**MARKED, **slots}, active=active, marked=("A1", "B1", "C1"), owner=0)


# -- the worked cases ----------------------------------------------------------------------------
def test_c1_hit_takes_the_cards_and_returns_one():
    s = position(2, {"A1": "r5", "B1": "r8"}, active=0)
    events = flip(s, 0, "A1", "B1")
    assert kinds(events) == ["flip", "flip", "hit", "take"]
    view = GAME.view(s, 0)
    assert (view.phase, view.active, view.hand_counts, view.choices) == ("return", 0, (2, 0), ("r5", "r8"))
    assert {a.key for a in GAME.legal_actions(s, 0)} == {"ret:r5-A1", "ret:r5-B1", "ret:r8-A1", "ret:r8-B1"}
    events = act(s, 0, "ret", "r8-A1")
    assert counts(s) == (1, 0)
    assert on_table(s) == 59
    assert status(s, "A1", "B1") == ["down", "empty"]
    assert (s.active, s.phase, s.hands[0]) == (1, "flip", ["r5"])
    public, private = [e for e in events if e.kind == "return"]
    assert public.to is None and public.data == {"slot": "A1"}
    assert private.to == frozenset({0}) and private.data == {"slot": "A1", "card": "r8"}


def test_c2_bust_over_13():
    s = position(2, {"A1": "r9", "B1": "r6"}, active=0)
    events = flip(s, 0, "A1", "B1")
    assert kinds(events)[-1] == "bust" and events[-1].data["why"] == "over"
    assert status(s, "A1", "B1") == ["shown", "shown"]  # until the next move (docs/rules-decisions.md D16)
    assert (s.active, counts(s), on_table(s)) == (1, (0, 0), 60)
    flip(s, 1, "C1")
    assert status(s, "A1", "B1") == ["down", "down"]


def test_c3_second_zero_busts_below_13():
    s = position(2, {"A1": "r0", "B1": "r4", "C1": "y0"}, active=0)
    assert kinds(flip(s, 0, "A1", "B1")) == ["flip", "flip"]
    events = flip(s, 0, "C1")
    assert kinds(events) == ["flip", "bust"] and events[-1].data["why"] == "zero"
    assert status(s, "A1", "B1", "C1") == ["shown"] * 3
    flip(s, 1, "D1")
    assert status(s, "A1", "B1", "C1") == ["down"] * 3
    assert (s.active, counts(s)) == (1, (0, 0))


def test_c4_empty_hand_needs_two_flips_before_stopping():
    s = position(2, {"A1": "r7a", "B1": "r2"}, active=0)
    flip(s, 0, "A1")
    assert Action("stop") not in GAME.legal_actions(s, 0)
    assert refused(s, 0, "stop").reason == "calcory.stop_needs_two"
    flip(s, 0, "B1")
    assert kinds(act(s, 0, "stop")) == ["mark"]
    marked = GAME.view(s, None).marked
    assert (marked.owner, marked.total, marked.count, marked.slots) == (0, 9, 2, ("A1", "B1"))
    assert status(s, "A1", "B1") == ["marked", "marked"]
    assert s.active == 1


def test_c5_equal_sum_with_fewer_cards_is_an_underbid():
    s = marked_position(D1="r5", E1="r6")
    flip(s, 1, "D1", "E1")
    events = act(s, 1, "stop")
    assert kinds(events) == ["underbid"]
    assert status(s, "D1", "E1") == ["shown", "shown"]
    assert status(s, "A1", "B1", "C1") == ["marked"] * 3
    assert GAME.view(s, None).marked.owner == 0
    assert s.active == 2


def test_c6_equal_sum_with_more_cards_is_an_overbid():
    s = marked_position(D1="r2", E1="y2", F1="r3", G1="r4")
    flip(s, 1, "D1", "E1", "F1", "G1")
    assert kinds(act(s, 1, "stop")) == ["overbid", "mark"]
    assert status(s, "A1", "B1", "C1") == ["down"] * 3
    marked = GAME.view(s, None).marked
    assert (marked.owner, marked.total, marked.count, marked.slots) == (1, 11, 4, ("D1", "E1", "F1", "G1"))
    assert s.active == 2


def test_c7_higher_sum_is_an_overbid():
    s = marked_position(D1="r8", E1="r4")
    flip(s, 1, "D1", "E1")
    assert kinds(act(s, 1, "stop")) == ["overbid", "mark"]
    assert status(s, "A1", "B1", "C1", "D1", "E1") == ["down"] * 3 + ["marked"] * 2
    assert GAME.view(s, None).marked.owner == 1


def test_c8_hit_clears_the_marked_set():
    s = marked_position(D1="r9", E1="r4")
    events = flip(s, 1, "D1", "E1")
    assert kinds(events) == ["flip", "flip", "hit", "take"]
    assert events[2].data["cleared"] == ["A1", "B1", "C1"]
    assert status(s, "A1", "B1", "C1") == ["down"] * 3
    assert GAME.view(s, None).marked is None
    assert GAME.view(s, 1).choices == ("r4", "r9")
    act(s, 1, "ret", "r9-D1")
    assert counts(s) == (0, 1, 0)
    assert on_table(s) == 59
    assert s.active == 2


def test_c9_bust_leaves_the_marked_set():
    s = marked_position(D1="r9", E1="r5")
    events = flip(s, 1, "D1", "E1")
    assert kinds(events)[-1] == "bust"
    assert status(s, "A1", "B1", "C1") == ["marked"] * 3
    assert status(s, "D1", "E1") == ["shown", "shown"]
    assert (GAME.view(s, None).marked.owner, s.active) == (0, 2)


def test_c10_walkover_takes_three_and_returns_one():
    s = marked_position(active=2, D1="r9", E1="r6")
    events = flip(s, 2, "D1", "E1")
    assert kinds(events) == ["flip", "flip", "bust", "walkover", "take"]
    assert events[3].seat == 0 and events[3].data["count"] == 3
    view = GAME.view(s, 0)
    assert (view.active, view.phase, view.hand_counts) == (0, "return", (3, 0, 0))
    assert view.choices == ("y4", "g3", "b4")  # deck order: red, yellow, green, blue, black
    assert all(a.kind == "ret" for a in GAME.legal_actions(s, 0))
    assert refused(s, 0, "flip", "F1").reason == "calcory.must_return"
    assert status(s, "D1", "E1") == ["shown", "shown"]  # a refused move changes nothing
    events = act(s, 0, "ret", "g3-B1")
    assert status(s, "D1", "E1") == ["down", "down"]  # the walkover's return was the next move
    assert counts(s) == (2, 0, 0)
    assert on_table(s) == 58
    assert status(s, "A1", "B1", "C1") == ["empty", "down", "empty"]
    assert (s.active, s.phase) == (1, "flip")
    assert GAME.view(s, None).marked is None


def test_c11_single_card_walkover_ends_the_game():
    slots = {"A1": "r5", "D1": "r9", "E1": "r6", "F1": "y9", "G1": "y6"}
    pool = spare(*slots.values(), n=26)
    s = position(3, slots, {0: pool[:8], 1: pool[8:19], 2: pool[19:]}, active=0)
    flip(s, 0, "A1")
    assert kinds(act(s, 0, "stop")) == ["mark"]  # A holds cards, so one flip is enough
    flip(s, 1, "D1", "E1")
    events = flip(s, 2, "F1", "G1")
    assert kinds(events) == ["flip", "flip", "bust", "walkover", "take", "end"]
    assert GAME.is_over(s)
    assert counts(s) == (9, 11, 7)
    result = GAME.result(s)
    assert result.scores == (9, 11, 7)
    assert result.winners == frozenset({1})
    assert result.ranks == (2, 1, 3)
    (hand,) = result.breakdown
    assert [(line.seat, line.label, line.points) for line in hand.lines] == [
        (0, "calcory.score_cards", 9), (1, "calcory.score_cards", 11), (2, "calcory.score_cards", 7)]
    view = GAME.view(s, None)
    assert (view.phase, view.active) == ("over", None)
    assert GAME.to_act(s) == frozenset()
    assert refused(s, 1, "flip", "B1").reason == "core.game_over"


# -- D16: a failed turn is seen by everyone until the next move ---------------------------------
def every_view(state):
    return [GAME.view(state, seat) for seat in (None, *range(state.players))]


def assert_shown(state, failed, cells):
    """Every view (table and each seat) shows ``failed`` and the failed turn's cards face up."""
    for view in every_view(state):
        assert view.failed == failed
        for slot, cid in cells.items():
            cell = view.grid[SLOT_INDEX[slot]]
            assert (cell.status, cell.card, cell.digit) == ("shown", cid, digit(cid))


def assert_turned_back(state, cells):
    for view in every_view(state):
        assert view.failed is None
        for slot in cells:
            assert view.grid[SLOT_INDEX[slot]] == SlotView(slot, "down")
        assert not _strings(view, set()) & set(cells.values())


def test_a_bust_over_13_lies_open_for_everyone_until_the_next_move():
    cells = {"E6": "r7a", "F6": "r4", "C4": "r9"}
    s = position(3, {**cells, "A1": "y2"}, active=0)
    flip(s, 0, "E6", "F6", "C4")
    assert s.active == 1
    assert_shown(s, FailedView(0, "over", ("E6", "F6", "C4"), (7, 4, 9), 20), cells)
    assert GAME.view(s, None).flipped == ()  # the turn is over; its cards are no longer "flipped"
    assert refused(s, 2, "flip", "A1").reason == "core.not_your_turn"
    assert_shown(s, FailedView(0, "over", ("E6", "F6", "C4"), (7, 4, 9), 20), cells)
    flip(s, 1, "A1")
    assert_turned_back(s, cells)


def test_a_second_zero_lies_open_for_everyone_until_the_next_move():
    cells = {"A1": "r0", "B1": "r4", "C1": "y0"}
    s = position(2, cells, active=0)
    flip(s, 0, "A1", "B1", "C1")
    assert_shown(s, FailedView(0, "zero", ("A1", "B1", "C1"), (0, 4, 0), 4), cells)
    flip(s, 1, "D1")
    assert_turned_back(s, cells)


def test_an_underbid_lies_open_for_everyone_until_the_next_move():
    cells = {"D1": "r5", "E1": "r6"}
    s = marked_position(**cells)
    flip(s, 1, *cells)
    act(s, 1, "stop")
    assert_shown(s, FailedView(1, "underbid", ("D1", "E1"), (5, 6), 11, 11, 3), cells)
    assert GAME.view(s, None).marked.slots == ("A1", "B1", "C1")
    flip(s, 2, "F1")
    assert_turned_back(s, cells)


def test_the_next_player_may_flip_a_card_of_the_failed_turn_again():
    s = position(2, {"A1": "r9", "B1": "r6"}, active=0)
    flip(s, 0, "A1", "B1")
    assert Action("flip", "B1") in GAME.legal_actions(s, 1)
    flip(s, 1, "B1")
    assert status(s, "A1", "B1") == ["down", "up"]
    assert GAME.view(s, None).failed is None


def test_a_failed_turn_is_no_secret_to_resample_while_open_or_after():
    cells = {"E6": "r7a", "F6": "r4", "C4": "r9"}
    s = position(3, {**cells, "A1": "y2"}, active=0)
    flip(s, 0, *cells)
    for stage in ("open", "turned back"):
        views = every_view(s)
        for seat in range(3):
            for n in range(10):
                other = GAME.resample(s, seat, random.Random(n))
                assert {slot: other.grid[SLOT_INDEX[slot]] for slot in cells} == cells
                assert GAME.view(other, seat) == views[seat + 1] and GAME.view(other, None) == views[0]
        if stage == "open":
            flip(s, 1, "A1")
    assert all(SLOT_INDEX[slot] in s.seen for slot in cells)


def test_a_failed_turn_replays_open_and_closes_at_the_next_logged_move():
    """After a restart the replayed log shows the failed turn exactly as the table saw it."""
    s = GAME.setup(2, GAME.default_options(), "ruling-16")
    rng, log = random.Random(16), []
    while s.failed is None:
        seat = s.active
        action = rng.choice([a for a in GAME.legal_actions(s, seat) if a.kind == "flip"])
        GAME.apply(s, seat, action)
        log.append((seat, action))
    rebuilt = replay(GAME, 2, GAME.default_options(), "ruling-16", log).state
    assert GAME.view(rebuilt, None).failed is not None
    assert every_view(rebuilt) == every_view(s)
    seat = s.active
    nxt = GAME.legal_actions(s, seat)[0]
    GAME.apply(s, seat, nxt)
    rebuilt = replay(GAME, 2, GAME.default_options(), "ruling-16", [*log, (seat, nxt)]).state
    assert GAME.view(rebuilt, None).failed is None
    assert every_view(rebuilt) == every_view(s)


# -- edge rules -------------------------------------------------------------------------------
def lone_card_position():
    """Three players, one card left on the table, seat 0 to move with an empty hand."""
    return position(3, {"A1": "r5"}, {1: spare("r5", n=59)}, active=0)


def test_fewer_cards_than_the_minimum_flip_all_then_stop():
    s = lone_card_position()
    assert GAME.legal_actions(s, 0) == [Action("flip", "A1")]
    assert refused(s, 0, "stop").reason == "calcory.stop_needs_two"
    flip(s, 0, "A1")
    assert GAME.legal_actions(s, 0) == [Action("stop")]
    events = act(s, 0, "stop")
    assert events[0].kind == "mark" and events[0].data == {"slots": ["A1"], "total": 5, "count": 1}


def test_nothing_to_flip_passes_the_turn_automatically():
    s = lone_card_position()
    flip(s, 0, "A1")
    events = act(s, 0, "stop")
    assert kinds(events) == ["mark", "pass", "pass", "walkover", "take", "end"]
    assert [e.seat for e in events if e.kind == "pass"] == [1, 2]
    assert counts(s) == (1, 59, 0)
    assert GAME.result(s).winners == frozenset({1})


def test_walkover_of_two_returns_one_and_play_goes_on():
    s = position(3, {"A1": "r5", "B1": "r3"}, {1: spare("r5", "r3", n=58)}, active=0)
    flip(s, 0, "A1", "B1")
    events = act(s, 0, "stop")
    assert kinds(events) == ["mark", "pass", "pass", "walkover", "take"]
    assert (s.active, s.phase, GAME.view(s, 0).choices) == (0, "return", ("r3", "r5"))
    assert {a.key for a in GAME.legal_actions(s, 0)} == {
        f"ret:{c}-{slot}" for c in ("r3", "r5") for slot in SLOTS}
    act(s, 0, "ret", "r3-J6")
    assert counts(s) == (1, 58, 0)
    assert status(s, "J6") == ["down"]
    assert not GAME.is_over(s) and s.active == 1
    assert GAME.legal_actions(s, 1) == [Action("flip", "J6")]


def test_flipping_an_empty_marked_face_up_or_unknown_slot_is_refused():
    s = position(3, {**MARKED, "D1": "r2"}, {2: ["k9"]}, active=1, marked=("A1", "B1", "C1"), owner=0,
                 empty=("J6",))
    err = refused(s, 1, "flip", "J6")
    assert (err.reason, err.params) == ("calcory.slot_empty", {"slot": "J6"})
    err = refused(s, 1, "flip", "B1")
    assert (err.reason, err.params) == ("calcory.slot_marked", {"slot": "B1"})
    flip(s, 1, "D1")
    err = refused(s, 1, "flip", "D1")
    assert (err.reason, err.params) == ("calcory.slot_face_up", {"slot": "D1"})
    assert refused(s, 1, "flip", "K1").reason == "calcory.no_such_slot"
    assert refused(s, 1, "jump").reason == "core.illegal_action"
    legal = {a.arg for a in GAME.legal_actions(s, 1) if a.kind == "flip"}
    assert not legal & {"A1", "B1", "C1", "D1", "J6"} and len(legal) == 55


def test_stop_without_a_flip_is_refused_even_with_cards_in_hand():
    s = position(2, {"A1": "r5"}, {0: ["k9"]}, active=0)
    assert refused(s, 0, "stop").reason == "calcory.stop_needs_one"
    flip(s, 0, "A1")
    assert kinds(act(s, 0, "stop")) == ["mark"]


def test_out_of_turn_is_refused():
    s = position(3, active=2)
    assert refused(s, 0, "flip", "A1").reason == "core.not_your_turn"
    assert refused(s, 1, "stop").reason == "core.not_your_turn"
    assert GAME.legal_actions(s, 0) == []
    assert GAME.to_act(s) == frozenset({2})


def test_returning_badly_is_refused():
    s = position(2, {"A1": "r5", "B1": "r8"}, active=0)
    assert refused(s, 0, "ret", "r5-A1").reason == "calcory.nothing_to_return"
    flip(s, 0, "A1", "B1")
    err = refused(s, 0, "ret", "r5-C1")
    assert (err.reason, err.params) == ("calcory.slot_not_empty", {"slot": "C1"})
    assert refused(s, 0, "ret", "y5-A1").reason == "calcory.not_a_taken_card"
    assert refused(s, 0, "ret", "r5-Q9").reason == "calcory.no_such_slot"
    assert refused(s, 0, "stop").reason == "calcory.must_return"
    assert s.phase == "return" and counts(s) == (2, 0)


def test_equal_sum_and_equal_count_is_an_underbid():
    s = marked_position(D1="r5", E1="r2", F1="r4")
    flip(s, 1, "D1", "E1", "F1")
    assert kinds(act(s, 1, "stop")) == ["underbid"]
    assert GAME.view(s, None).marked.owner == 0


def test_first_player_and_deal_come_from_the_seed():
    a, b = GAME.setup(4, GAME.default_options(), "s1"), GAME.setup(4, GAME.default_options(), "s1")
    assert a == b
    assert sorted(a.grid) == sorted(DECK)
    firsts = {GAME.setup(4, GAME.default_options(), f"s{n}").active for n in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert GAME.setup(4, GAME.default_options(), "s2").grid != a.grid
    with pytest.raises(ValueError):
        GAME.setup(7, GAME.default_options(), "s1")


def test_replay_rebuilds_the_same_state():
    rng = random.Random(5)
    s = GAME.setup(3, GAME.default_options(), "replay")
    log = []
    while not GAME.is_over(s) and len(log) < 400:
        seat = s.active
        action = rng.choice(GAME.legal_actions(s, seat))
        GAME.apply(s, seat, action)
        log.append((seat, action))
    again = replay(GAME, 3, GAME.default_options(), "replay", log)
    assert again.state == s
    assert replay(GAME, 3, GAME.default_options(), "replay", log).events == again.events


def known_position():
    """Seat 0 busts on A1/B1, seat 1 hits and returns r5 to C1, seat 2 hits and returns one of
    y4/y9 to F1, seat 0 marks G1/H1; seat 1 is to move."""
    s = position(3, {"A1": "r9", "B1": "r6", "C1": "r5", "D1": "r8", "E1": "y4", "F1": "y9",
                     "G1": "g2", "H1": "g3"}, active=0)
    flip(s, 0, "A1", "B1")
    flip(s, 1, "C1", "D1")
    act(s, 1, "ret", "r5-C1")
    flip(s, 2, "E1", "F1")
    act(s, 2, "ret", "y4-F1")
    flip(s, 0, "G1", "H1")
    act(s, 0, "stop")
    assert s.active == 1
    return s


def test_resample_keeps_publicly_known_cards_in_place_and_never_changes_a_view():
    s = known_position()
    before = GAME.clone(s)
    views = [GAME.view(s, None)] + [GAME.view(s, seat) for seat in range(3)]
    in_f1, hidden_changed = set(), False
    for n in range(60):
        other = GAME.resample(s, 1, random.Random(n))
        assert other.seed != s.seed
        assert sorted(GAME.cards(other)) == sorted(DECK)
        # seen face down in place, own return, marked: all where they were
        for slot, cid in {"A1": "r9", "B1": "r6", "C1": "r5", "G1": "g2", "H1": "g3"}.items():
            assert other.grid[SLOT_INDEX[slot]] == cid
        assert other.hands[1] == ["r8"]
        # seat 2's return: one of the two it took went back, the other is in its hand
        in_f1.add(other.grid[SLOT_INDEX["F1"]])
        assert sorted([other.grid[SLOT_INDEX["F1"]], *other.hands[2]]) == ["y4", "y9"]
        hidden_changed |= other.grid[SLOT_INDEX["I1"]] != s.grid[SLOT_INDEX["I1"]]
        assert GAME.view(other, 1) == views[2]
        assert GAME.view(other, None) == views[0]
        assert GAME.view(other, 0) == views[1]  # seat 0's hand is empty, nothing of it can move
    assert in_f1 == {"y4", "y9"}
    assert hidden_changed
    assert s == before
    assert [GAME.view(s, None)] + [GAME.view(s, seat) for seat in range(3)] == views
    # seat 2 knows its own return
    for n in range(20):
        assert GAME.resample(s, 2, random.Random(n)).grid[SLOT_INDEX["F1"]] == "y4"


def test_a_flip_reveals_a_returned_card_and_ends_the_doubt():
    s = known_position()
    flip(s, 1, "F1")  # y4, which seat 2 put back
    act(s, 1, "stop")  # 4 < 5 with one card: an underbid, y4 now lies face down where all saw it
    for n in range(20):
        other = GAME.resample(s, 0, random.Random(n))
        assert other.grid[SLOT_INDEX["F1"]] == "y4" and other.hands[2] == ["y9"]


def _strings(value, out):
    if is_dataclass(value):
        for f in fields(value):
            _strings(getattr(value, f.name), out)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for item in value:
            _strings(item, out)
    elif isinstance(value, str):
        out.add(value)
    return out


def test_views_never_show_a_face_down_card():
    for players in (2, 5):
        rng = random.Random(players)
        s = GAME.setup(players, GAME.default_options(), f"leak-{players}")
        steps = 0
        while not GAME.is_over(s) and steps < 600:
            open_ = set(s.flips) | set(s.marks) | set(s.failed.slots if s.failed else ())
            down = {cid for i, cid in enumerate(s.grid) if cid and i not in open_}
            for seat in [None, *range(players)]:
                view = GAME.view(s, seat)
                assert not _strings(view, set()) & down
                assert all(cell.digit is None for cell in view.grid if cell.status in ("down", "empty"))
            seat = s.active
            GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
            steps += 1


def test_flipped_digits_and_sum_are_public():
    s = position(2, {"A1": "r5", "B1": "r0", "C1": "y3"}, active=0)
    flip(s, 0, "A1", "B1", "C1")
    view = GAME.view(s, None)
    assert (view.flipped, view.flipped_slots, view.total) == ((5, 0, 3), ("A1", "B1", "C1"), 8)
    assert view.grid[SLOT_INDEX["A1"]].digit == digit("r5")


@pytest.mark.parametrize("players", [3, 5])
def test_random_playouts_keep_the_invariants(players):
    check_playouts(GAME, players, 2)


def test_every_reason_and_score_label_has_both_texts():
    package = Path(__file__).resolve().parents[2].joinpath("games", "calcory")
    source = "".join(module.read_text() for module in sorted(package.glob("*.py")))
    keys = set(re.findall(r'"(calcory\.[a-z_]+)"', source)) | set(re.findall(r'"(core\.[a-z_]+)"', source))
    assert {"calcory.stop_needs_two", "calcory.slot_not_empty", "calcory.score_cards"} <= keys
    for lang in ("en", "de"):
        for key in keys:
            assert t(lang, key, slot="A1", count=3)
    assert t("de", "calcory.slot_marked", slot="C4") != t("en", "calcory.slot_marked", slot="C4")
