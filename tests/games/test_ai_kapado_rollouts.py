"""bench/kapado_rollouts.py: the policy-improvement step's playouts see only the seat's view, play every
move on the same redeals, and count a gain only on the redeals that did not pick the move."""

from __future__ import annotations

import random

from bench.kapado_rollouts import Choice, playouts, summary
from games.kapado import GAME
from games.kapado.state import PLACE


def a_placement() -> tuple:
    """A seeded game walked to a placement with more than one legal move."""
    rng = random.Random("kapado-rollouts")
    state = GAME.setup(2, GAME.default_options(), "rollouts")
    while True:
        seat = min(GAME.to_act(state))
        legal = GAME.legal_actions(state, seat)
        if state.phase == PLACE and len(legal) > 1 and len(state.pile) < 80:
            return state, seat, legal
        GAME.apply(state, seat, rng.choice(legal))


def test_playouts_play_every_move_on_the_same_redeals_of_what_the_seat_cannot_see():
    """The same move twice plays out alike; and the pile's real order, which the seat cannot see,
    changes no outcome."""
    state, seat, legal = a_placement()
    twice = playouts(state, seat, [legal[0], legal[0]], 5, random.Random(1))
    assert twice[0] == twice[1]
    shuffled = GAME.clone(state)
    random.Random(2).shuffle(shuffled.pile)
    assert shuffled.pile != state.pile
    assert playouts(shuffled, seat, legal, 5, random.Random(1)) == playouts(state, seat, legal, 5, random.Random(1))


def test_a_choice_gains_only_what_the_second_set_of_redeals_says():
    """The step picks by the first set; the gain is its move against the product's on the second."""
    pick = [[(0.0, -2), (1.0, 3)], [(1.0, 4), (1.0, 2)]]
    judge = [[(1.0, 1), (0.0, -1)], [(0.0, -1), (0.0, 0)]]
    changed = Choice(PLACE, 50, ("up:s0:0", "up:s0:1"), 0, pick, judge)
    assert changed.step() == 1
    assert changed.gain() == (-0.5, -0.5)
    kept = Choice(PLACE, 50, ("up:s0:0", "up:s0:1"), 1, pick, judge)
    assert kept.gain() == (0.0, 0.0)
    line = summary([changed, kept], 40.0)
    assert line.startswith("2 choices, 1 changed; gain a choice -0.2500 ± 0.2500 wins, -0.250 ± 0.250 cards")
    assert "a game (40.0 choices) -1000.0% ± 1000.0% wins, -10.00 ± 10.00 cards" in line
