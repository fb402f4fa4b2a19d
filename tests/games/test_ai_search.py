"""The search behind the strong and expert players (games.computer.strong) and the coach's
evaluation (games.computer.coach): a CPU deadline that stops a move with its best candidate so far,
the expert's bigger budget, and move values from the seat's information set only.

Time is never measured here: the clocks are fakes that read the playouts run so far, so "the time
is up" falls on a known playout.
"""

from __future__ import annotations

import math
import random

import pytest

import games.computer.strong as strong
from games import BRAINS, REGISTRY
from games.base import Action, IllegalAction
from games.calcory import GAME as CALCORY
from games.calcory import SLOT_INDEX
from games.calcory import position as calcory_position
from games.computer import LIMITS, SCALES, choose
from games.computer.coach import MoveValue, _drawn, evaluate
from tests.games.test_ai import count_playouts, positions, seats


def never(*_: object) -> float:
    raise AssertionError("a move without a limit read the clock")


# -- the deadline ---------------------------------------------------------------------------------
@pytest.mark.parametrize("level", ["strong", "expert"])
def test_a_move_stops_when_its_time_is_up(level: str, monkeypatch) -> None:
    """The clock is read before every playout: past the limit no playout starts, and the move is
    still legal."""
    game = REGISTRY["calcory"]
    (state,) = positions(game, 2, 1, "deadline")
    seat = seats(game, state)[0]
    spent = count_playouts(monkeypatch)
    choose(game, state, seat, level, random.Random(3))
    full = len(spent)
    assert full > 50
    for limit in (0, 1, 7, 40):
        spent.clear()
        action = choose(game, state, seat, level, random.Random(3), limit=limit, clock=lambda: len(spent))
        game.check(state, seat, action)
        assert len(spent) == limit


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_a_move_ends_within_its_limit_when_its_playouts_run_long(level: str, monkeypatch) -> None:
    """The host promises a move within its limit (issue 26's max): no playout starts that would
    overrun it if it took as long as the longest so far. Each playout here costs three units of the
    fake clock, so a limit of ten holds three playouts, not the fourth that would end at twelve."""
    game = REGISTRY["calcory"]
    (state,) = positions(game, 2, 1, "deadline")
    seat = seats(game, state)[0]
    spent = count_playouts(monkeypatch)
    for limit, playouts in ((10, 3), (12, 4), (5, 1), (3, 1)):
        spent.clear()
        action = choose(game, state, seat, level, random.Random(3), limit=limit, clock=lambda: 3 * len(spent))
        game.check(state, seat, action)
        assert len(spent) == playouts
        assert 3 * len(spent) <= limit


def test_without_a_limit_the_clock_is_never_read_and_a_generous_one_changes_nothing(monkeypatch) -> None:
    game = REGISTRY["rummu"]
    spent = count_playouts(monkeypatch)
    for state in positions(game, 3, 3, "generous"):
        seat = seats(game, state)[0]
        free = choose(game, state, seat, "strong", random.Random(4), clock=never)
        timed = choose(game, state, seat, "strong", random.Random(4), limit=10**9, clock=lambda: len(spent))
        assert timed == free


def test_when_the_time_is_up_the_best_candidate_played_so_far_is_played(monkeypatch) -> None:
    """Sequential halving stopped in its first round: the best of the candidates played out so far
    wins, even where a candidate still waiting would have been better; with no playout at all, the
    brain's favourite."""
    game = REGISTRY["rummu"]
    state = next(s for s in positions(game, 3, 12, "best") if s.phase != "draw")
    seat = seats(game, state)[0]
    played: list[Action] = []
    worth: dict[Action, float] = {}

    def playout(game, world, seat, action, brain, mark, rng):
        played.append(action)
        return worth.get(action, 0.0), 1

    monkeypatch.setattr(strong, "playout", playout)
    choose(game, state, seat, "strong", random.Random(2))
    arms = played[: played.index(played[0], 1)]  # the first world plays every candidate in turn
    assert len(arms) >= 4
    worth.update({a: float(i) for i, a in enumerate(arms)})  # each candidate beats the ones before it
    assert choose(game, state, seat, "strong", random.Random(2)) == arms[-1]
    for k in range(len(arms)):
        played.clear()
        assert choose(game, state, seat, "strong", random.Random(2), limit=k, clock=lambda: len(played)) \
            == arms[max(0, k - 1)]


def test_the_host_limits_bound_a_strong_move_by_a_second_and_an_expert_move_by_three():
    assert LIMITS == {"strong": 1.0, "expert": 3.0}


# -- the expert -----------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["calcory", "diabolo", "mu"])
def test_the_expert_plays_out_its_scale_times_the_strong_players_playouts(key: str, monkeypatch) -> None:
    game = REGISTRY[key]
    (state,) = positions(game, game.min_players, 1, "expert")
    seat = seats(game, state)[0]
    spent = count_playouts(monkeypatch)
    choose(game, state, seat, "strong", random.Random(6))
    strong_playouts = len(spent)
    spent.clear()
    game.check(state, seat, choose(game, state, seat, "expert", random.Random(6)))
    assert SCALES["expert"] * strong_playouts * 0.9 <= len(spent) <= SCALES["expert"] * BRAINS[key].most


def test_a_scaled_brain_is_a_copy_and_the_strong_brain_keeps_its_budget() -> None:
    brain = BRAINS["safaru"]
    most, steps = brain.most, brain.steps
    bigger = brain.scaled(6)
    assert (bigger.least, bigger.per_arm, bigger.most, bigger.steps) == (
        6 * brain.least, 6 * brain.per_arm, 6 * most, 6 * steps)
    assert (brain.most, brain.steps) == (most, steps)
    assert brain.scaled(1) is brain


# -- the coach ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_an_evaluation_is_blind_to_the_cards_the_seat_never_saw(key: str) -> None:
    """Two positions that differ only in cards the seat cannot see get the same values."""
    game = REGISTRY[key]
    (state,) = positions(game, game.min_players, 1, "coach")
    seat = seats(game, state)[0]
    values = evaluate(game, state, seat, random.Random(8), worlds=6)
    other = game.resample(state, seat, random.Random(98))
    assert evaluate(game, other, seat, random.Random(8), worlds=6) == values
    assert all(v.samples == 6 for v in values)
    for value in values:
        game.check(state, seat, value.action)


def missing_seven():
    """Calcory: a 6 is up, and the seat saw the green 7 turned down at J6 (13 with it)."""
    state = calcory_position(2, {"A1": "r6", "J6": "g7a"}, {0: ["k2"], 1: ["b2", "b3", "b4"]})
    state.flips = [SLOT_INDEX["A1"]]
    state.seen = {SLOT_INDEX["J6"]}
    return state


def test_the_coach_values_the_remembered_seven_above_every_other_move_by_more_than_its_error() -> None:
    values = evaluate(CALCORY, missing_seven(), 0, random.Random(1), worlds=60)
    best, second = values[0], values[1]
    assert best.action == Action("flip", "J6")
    assert best.mean - second.mean > 2 * math.hypot(best.error, second.error)
    assert all(0 < v.error < math.inf for v in values)


def test_the_coach_values_a_move_the_brain_would_not_list_when_it_was_played() -> None:
    """Calcory's brain lists one unseen card to flip (they are all alike to it); the human flipped
    another, and the coach still says what that was worth."""
    state = missing_seven()
    listed = {v.action for v in evaluate(CALCORY, state, 0, random.Random(1), worlds=4)}
    other = next(a for a in CALCORY.legal_actions(state, 0) if a.kind == "flip" and a not in listed)
    values = evaluate(CALCORY, state, 0, random.Random(1), worlds=4, played=other)
    assert {v.action for v in values} == listed | {other}
    assert next(v for v in values if v.action == other).samples == 4
    everything = evaluate(CALCORY, state, 0, random.Random(1), worlds=2, every=True)
    assert sorted(v.action.key for v in everything) == sorted(a.key for a in CALCORY.legal_actions(state, 0))
    with pytest.raises(IllegalAction):
        evaluate(CALCORY, state, 0, random.Random(1), played=Action("flip", "A1"))  # already face up
    with pytest.raises(ValueError):
        evaluate(CALCORY, state, 1, random.Random(1))


def test_an_evaluation_stops_when_its_time_is_up_and_says_on_how_few_samples_it_rests(monkeypatch) -> None:
    state = missing_seven()
    spent = count_playouts(monkeypatch)
    moves = len(evaluate(CALCORY, state, 0, random.Random(1), worlds=1, clock=never))
    spent.clear()
    values = evaluate(CALCORY, state, 0, random.Random(1), worlds=50, limit=3 * moves, clock=lambda: len(spent))
    assert len(spent) == 3 * moves      # the third world fitted the limit exactly, and was played
    assert [v.samples for v in values] == [3] * moves       # every move in the same worlds: leads stay paired
    spent.clear()
    values = evaluate(CALCORY, state, 0, random.Random(1), worlds=50, limit=3 * moves - 1, clock=lambda: len(spent))
    assert len(spent) == 2 * moves      # a third world would have overrun the limit: it was not begun
    assert [v.samples for v in values] == [2] * moves
    spent.clear()
    nothing = evaluate(CALCORY, state, 0, random.Random(1), limit=0, clock=lambda: len(spent))
    assert [(v.samples, v.error) for v in nothing] == [(0, math.inf)] * moves
    one = evaluate(CALCORY, state, 0, random.Random(1), worlds=1)
    assert all(isinstance(v, MoveValue) and v.samples == 1 and v.error == math.inf for v in one)


class _TwoWorlds:
    """A brain stub with two worlds, ``b`` a quarter as likely as ``a``."""

    def determinize(self, game, state, seat, rng):
        return rng.choice("ab")

    def likelihood(self, game, world, seat):
        return 1.0 if world == "a" else 0.25


def test_the_coach_keeps_worlds_in_proportion_to_their_likelihood_and_counts_each_alike() -> None:
    rng = random.Random(7)
    kept = [_drawn(None, None, 0, _TwoWorlds(), rng) for _ in range(4000)]
    assert {w for _, w in kept} == {1.0}
    share = sum(world == "b" for world, _ in kept) / len(kept)
    assert share == pytest.approx(0.2, abs=0.02)      # 0.25 / 1.25


def test_the_coach_draws_once_where_every_world_weighs_the_same() -> None:
    class Even(_TwoWorlds):
        def likelihood(self, game, world, seat):
            return 1.0

    drawn, plain = random.Random(3), random.Random(3)
    assert _drawn(None, None, 0, Even(), drawn) == (plain.choice("ab"), 1.0)
    assert drawn.random() == plain.random()
