"""Diabolo's trace of points per cause (bench/losses.py): a rigged round's lines, a watched match's rounds."""

from __future__ import annotations

import random

from bench.losses import Rounds, render, tally
from games.base import Action
from games.computer import choose
from games.diabolo import GAME, position, score_now


def test_a_round_is_tallied_by_its_lines_its_doublers_and_what_the_strong_seat_fed():
    """Purple pays 4 to 1: seat 1 holds 14 of it and doubles it, seat 2 spends its doubler holding 1,
    the strong seat 0 keeps its own and had laid a purple 2 to the angels; blue's devils charge seat 0
    its 9 of blue (its blue 2 on the devil side fed no doubled colour)."""
    state = position(3, {0: ["b5a", "b4a", "r1a", "y1a"], 1: ["p5a", "p5b", "p4a", "g1a"],
                         2: ["g1b", "r1b", "y1b", "p1b"]},
                     angel={"p": ["p2a", "p2b"]}, devil={"p": ["p1a"], "b": ["b2a"]}, draw=False)
    state.laid = [[("angel", "p2a"), ("devil", "b2a")], [("devil", "p1a")], [("angel", "p2b")]]
    laid = [seat[:] for seat in state.laid]
    score_now(state)
    for seat, choice in ((0, "none"), (1, "p"), (2, "p")):
        GAME.apply(state, seat, Action("doubler", choice))
    causes = tally(tuple(state.history), [laid], 0, 3)
    assert causes == {
        ("strong", "diabolo.line_devil"): -9, ("others", "diabolo.line_angel_doubled"): 28,
        ("strong", "kept"): 1, ("others", "doubled"): 1, ("others", "wasted"): 1,
        ("strong", "laid angel on colours others doubled"): 2,
    }
    table = render(causes, 1)
    assert "diabolo.line_angel_doubled                   0.00    14.00" in table


def test_the_watcher_keeps_each_rounds_placements_apart():
    """Watched before every move of an easy match, each of the three rounds keeps the cards laid in it;
    every card a round laid after its last doubler question is there too (a round that asks none may
    miss only the card that ended it)."""
    state = GAME.setup(3, GAME.default_options(), "losses")
    rounds, rng = Rounds(), random.Random(2)
    placed: list[list[str]] = [[]]
    while not GAME.is_over(state):
        rounds(state)
        seat = min(GAME.to_act(state))
        action = choose(GAME, state, seat, "easy", rng)
        number = state.round_no
        GAME.apply(state, seat, action)
        if action.kind in ("devil", "angel"):
            placed[number].append(action.arg)
        if state.round_no != number:
            placed.append([])
    rounds(state)
    laid = [*rounds.laid, rounds.current]
    assert len(laid) == 3
    for watched, cards in zip(laid, placed, strict=True):
        seen = sorted(card for seat in watched for _, card in seat)
        assert seen == sorted(cards) or seen == sorted(cards[:-1])
