"""Safarü's reading measure (bench/safaru_reading.py): the exact chance of a hand under a reading."""

from __future__ import annotations

import itertools
import math

from bench.safaru_reading import READINGS, log_chance, measure, weight
from games.safaru.catches import parse_catch
from games.safaru.state import Play


def test_a_card_that_would_have_caught_more_than_the_play_made_is_read_as_unlikely():
    """With r3 and y2 free the seat released its g8: a k3 in its hand would have paired the unicorn,
    a y8 would have been released as well."""
    played = (Play(parse_catch("g8"), ("r3", "y2")),)
    assert weight("k3", played, READINGS["product"]) < 0.1
    assert weight("y8", played, READINGS["product"]) == 1.0
    assert weight("k3", played, None) == 1.0


def test_the_chance_of_a_hand_is_its_weights_share_of_every_hand_of_its_size():
    played = (Play(parse_catch("g8"), ("r3", "y2")),)
    pool = ["k3", "y8", "b9", "g1a"]
    reading = READINGS["product"]
    hands = list(itertools.combinations(pool, 2))
    chances = {h: math.exp(log_chance(h, pool, played, reading)) for h in hands}
    assert math.isclose(sum(chances.values()), 1.0)
    assert chances["y8", "b9"] > chances["k3", "y8"]
    assert math.isclose(log_chance(("y8", "b9"), pool, (), None), -math.log(len(hands)))


def test_over_easy_games_each_sharper_reading_names_the_true_hand_better():
    positions, means = measure(6)
    assert positions > 100
    assert means["uniform"] < means["product"] < means["hard"] < means["exact"] < 0
