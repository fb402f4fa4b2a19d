"""The seeing bound's redeals (bench/seeing.py): they keep what the bound lets the strong seat see, in
Diabolo and in Kapado."""

from __future__ import annotations

import random

import pytest

from bench.seeing import seeing, seeing_redeal
from games import BRAINS
from games.diabolo import GAME
from games.diabolo.rules import Diabolo
from games.kapado import GAME as KAPADO
from games.kapado import position as kapado_position


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


def test_kapado_seeing_everything_keeps_the_face_down_cards_and_the_draw_order():
    """Kapado's hidden cards are the face-down ones and the pile: the real redeal deals them again,
    the bound's keeps them, and within the block the strong player searches what it sees."""
    state = kapado_position(2, {0: [["b3", "d7"], ["a5"], ["c8"], ["c4"], ["c16"]]}, face_down=("d7",),
                            next_cards=("b21",))
    real = KAPADO.resample(state, 0, random.Random(3))
    assert real.stacks[0][-1] != "d7" or real.pile != state.pile
    with seeing("all", "kapado"):
        assert BRAINS["kapado"].searching
        seen = KAPADO.resample(state, 0, random.Random(3))
        assert seen.stacks == state.stacks and seen.face_down == state.face_down and seen.pile == state.pile
    assert not BRAINS["kapado"].searching
    assert KAPADO.resample(state, 0, random.Random(3)).pile == real.pile
    with pytest.raises(ValueError), seeing("all", "mu"):
        pass
