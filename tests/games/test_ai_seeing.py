"""The seeing bound's redeals (bench/seeing.py): they keep what the bound lets the strong seat see."""

from __future__ import annotations

import random

import pytest

from bench.holding import measure, reading, uniform, unseen_by
from bench.seeing import seeing, seeing_redeal
from games import BRAINS
from games.diabolo import BRAIN, GAME, position, score_now
from games.diabolo.computer import DiaboloBrain
from games.diabolo.state import DOUBLER
from games.kapado import GAME as KAPADO
from games.kapado import position as kapado_position
from games.safaru import GAME as SAFARU


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


def test_the_bound_swaps_the_searchs_redeal_only_within_its_block():
    real = DiaboloBrain.determinize
    state = GAME.setup(3, GAME.default_options(), "seeing")
    with seeing("hands"):
        assert BRAIN.determinize(GAME, state, 0, random.Random(2)).hands == state.hands
    assert DiaboloBrain.determinize is real
    assert BRAIN.determinize(GAME, state, 0, random.Random(2)).hands[1:] != state.hands[1:]


def test_kapado_seeing_everything_keeps_the_face_down_cards_and_the_draw_order():
    """Kapado's hidden cards are the face-down ones and the pile: the real redeal deals them again,
    the bound's keeps them, and within the block the strong player searches what it sees."""
    state = kapado_position(2, {0: [["b3", "d7"], ["a5"], ["c8"], ["c4"], ["c16"]]}, face_down=("d7",),
                            next_cards=("b21",))
    brain = BRAINS["kapado"]
    real = brain.determinize(KAPADO, state, 0, random.Random(3))
    assert real.stacks[0][-1] != "d7" or real.pile != state.pile
    with seeing("all", "kapado"):
        assert brain.searching
        seen = brain.determinize(KAPADO, state, 0, random.Random(3))
        assert seen.stacks == state.stacks and seen.face_down == state.face_down and seen.pile == state.pile
    assert not brain.searching
    assert brain.determinize(KAPADO, state, 0, random.Random(3)).pile == real.pile
    with pytest.raises(ValueError), seeing("all", "mu"):
        pass
    with pytest.raises(ValueError), seeing("doubler", "kapado"):
        pass


def test_seeing_for_the_doubler_sees_the_hands_only_while_doublers_are_chosen():
    state = position(3, angel={"r": ["r5a"]}, draw=False)
    redeal = seeing_redeal("doubler")
    assert redeal(GAME, state, 0, random.Random(3)).hands[1:] != state.hands[1:]
    score_now(state)
    assert state.phase == DOUBLER
    assert redeal(GAME, state, 0, random.Random(3)).hands == state.hands


def test_the_holding_table_is_measured_from_what_easy_seats_laid():
    """``bench.holding`` measures ``HELD``: a few easy matches already show its pattern, a colour's
    5s rarer in a hand that laid it to the devils and likelier in one that laid it to the angels."""
    table = measure(40)
    share = {key: [h / t for h, t in cells] for key, cells in table.items()}
    assert share[0, 1][4] < share[0, 0][4] / 2 < share[1, 0][4] / 4
    state = GAME.setup(3, GAME.default_options(), "holding")
    assert sorted(unseen_by(state, 0)) == sorted(state.pile + state.hands[1] + state.hands[2])


def test_the_strong_redeal_reads_the_hands_of_easy_seats_better_than_a_uniform_one():
    """``bench.holding --redeals``: on the same positions of a few easy matches, the strong player's redeal
    (by what each seat laid and how it chose) names a colour's top holder more often than a uniform
    redeal, and misses the other hands' colour sums by less."""
    right, miss = reading(4, BRAINS["diabolo"].determinize)
    uniform_right, uniform_miss = reading(4, uniform)
    assert right > uniform_right + 0.03 and miss < uniform_miss - 0.1, (right, uniform_right, miss, uniform_miss)


def test_safaru_seeing_the_hands_deals_the_other_hand_as_it_lies_and_the_product_never_does():
    """Safarü's hidden cards are the other hand and the deck: within the block the strong search
    redeals the true hand every time (with ``hands`` the deck's order again), outside it the
    product's redeal, read from the other seat's plays, never deals it."""
    state = SAFARU.setup(2, SAFARU.default_options(), "seeing")
    brain = BRAINS["safaru"]
    rng = random.Random(0)
    while not (state.played[1] and state.turn == 0):  # the other seat has played: the product reads it
        seat = state.turn
        SAFARU.apply(state, seat, brain.easy(SAFARU, state, seat, SAFARU.legal_actions(state, seat), rng))
    with seeing("hands", "safaru"):
        seen = [brain.determinize(SAFARU, state, 0, random.Random(n)) for n in range(20)]
    assert all(s.hands == state.hands for s in seen)
    assert all(sorted(s.deck) == sorted(state.deck) for s in seen) and any(s.deck != state.deck for s in seen)
    with seeing("all", "safaru"):
        assert brain.determinize(SAFARU, state, 0, random.Random(1)).deck == state.deck
    guessed = [brain.determinize(SAFARU, state, 0, random.Random(n)) for n in range(20)]
    assert all(g.hands[0] == state.hands[0] and g.hands[1] != state.hands[1] for g in guessed)
