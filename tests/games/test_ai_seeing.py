"""The seeing bound's redeals (bench/seeing.py): they keep what the bound lets the strong seat see."""

from __future__ import annotations

import random

import pytest

from bench.seeing import seeing, seeing_redeal
from games.diabolo import GAME
from games.diabolo.rules import Diabolo


def test_a_seeing_redeal_keeps_every_hand_and_with_all_the_pile_order_too():
    state = GAME.setup(3, GAME.default_options(), "seeing")
    hands = seeing_redeal("hands")(GAME, state, 0, random.Random(1))
    assert hands.hands == state.hands
    assert sorted(hands.pile) == sorted(state.pile) and hands.pile != state.pile
    everything = seeing_redeal("all")(GAME, state, 0, random.Random(1))
    assert everything.hands == state.hands and everything.pile == state.pile
    real = GAME.resample(state, 0, random.Random(1))
    assert real.hands[0] == state.hands[0] and real.hands[1:] != state.hands[1:]
    with pytest.raises(ValueError):
        seeing_redeal("pile")


def test_the_bound_swaps_the_redeal_only_within_its_block():
    real = Diabolo.resample
    state = GAME.setup(3, GAME.default_options(), "seeing")
    with seeing("hands"):
        assert GAME.resample(state, 0, random.Random(2)).hands == state.hands
    assert Diabolo.resample is real
    assert GAME.resample(state, 0, random.Random(2)).hands[1:] != state.hands[1:]
