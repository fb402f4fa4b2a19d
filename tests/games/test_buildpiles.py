"""The machinery Da Capo! and Skippo share (games.buildpiles): rigged positions, the supply with
its reshuffle of finished piles, build piles, copying and resampling."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import Event
from games.buildpiles import draw_card, draw_to, push_build, rig
from games.dacapo import GAME as DACAPO
from games.dacapo import face
from games.skippo import GAME as SKIPPO


def test_rig_places_faces_in_deck_order_and_keeps_every_card():
    state = rig(DACAPO, piles={0: ["8", "1"]}, hands={1: ["X", "1", "7c"]}, build=[2, None, ["X"]])
    assert state.seats[0].pile == ["8a", "1a"]
    assert state.seats[1].hand == ["Xa", "1b", "7c"]  # hands are filled before build piles
    assert state.build == [["1c", "2a"], [], ["Xb"]]
    assert sorted(DACAPO.cards(state)) == sorted(DACAPO.deck(DACAPO.options_model(), 2))
    boxed = rig(DACAPO, hands={0: ["5"]}, rest="box")
    assert boxed.draw == [] and len(boxed.box) == 164


def test_rig_refuses_impossible_positions():
    with pytest.raises(ValueError):
        rig(DACAPO, hands={0: ["7c", "7c"]})
    with pytest.raises(ValueError):
        rig(DACAPO, hands={0: ["11"]})
    with pytest.raises(ValueError):
        rig(DACAPO, build=[10])
    with pytest.raises(ValueError):
        rig(DACAPO, build=[1, 1, 1, 1])
    with pytest.raises(ValueError):
        rig(DACAPO, hands={0: ["X"] * 16})


def test_question_marks_take_unnamed_cards():
    state = rig(SKIPPO, piles={0: ["?"] * 7 + ["K"]})
    assert len(state.seats[0].pile) == 8 and state.seats[0].pile[-1] == "Kca"
    assert len(set(SKIPPO.cards(state))) == 110


def test_an_empty_draw_pile_takes_the_set_aside_piles_shuffled_by_seed_and_counter():
    def drawn(seed: str) -> list[str]:
        state = rig(DACAPO, set_aside=[str(v) for v in range(1, 11)], rest="box", seed=seed)
        events: list[Event] = []
        cards = [draw_card(state, events) for _ in range(10)]
        assert draw_card(state, events) is None
        assert state.shuffles == 2 and state.set_aside == []
        assert [e.kind for e in events] == ["reshuffle"]
        return cards

    assert drawn("a") == drawn("a")
    assert drawn("a") != drawn("b")
    assert sorted(map(face, drawn("a")), key=int) == [str(v) for v in range(1, 11)]


def test_draw_to_fills_the_hand_and_tells_only_the_drawer_which_cards():
    state = rig(DACAPO, hands={0: ["5"]})
    events: list[Event] = []
    drawn = draw_to(state, 0, 4, events)
    assert len(drawn) == 3 and len(state.seats[0].hand) == 4 and state.moved
    public, private = events
    assert public.to is None and public.data == {"count": 3}
    assert private.to == frozenset({0}) and private.data["cards"] == drawn


def test_a_build_pile_is_set_aside_when_it_reaches_the_top_value():
    state = rig(DACAPO, build=[8], hands={0: ["9", "10"]})
    events: list[Event] = []
    assert not push_build(state, 0, state.seats[0].hand.pop(0), 10, events)
    assert push_build(state, 0, state.seats[0].hand.pop(0), 10, events)
    assert state.build[0] == [] and len(state.set_aside) == 10 and state.built
    assert events[0].data == {"pile": "b1", "count": 10}


def test_copy_shares_no_mutable_part():
    state = DACAPO.setup(3, DACAPO.options_model(), "copy")
    copy = DACAPO.clone(state)
    copy.seats[0].hand.append(copy.draw.pop())
    copy.seats[1].helpers[0].append("Xz")
    copy.build[0].append("1z")
    copy.scores[0] = 9
    assert len(state.seats[0].hand) == 4 and state.seats[1].helpers[0] == [] and state.build[0] == []
    assert state.scores == [0, 0, 0]


@pytest.mark.parametrize("game", [DACAPO, SKIPPO], ids=lambda g: g.key)
def test_resample_redeals_only_hidden_cards(game):
    state = game.setup(4, game.options_model(), "resample")
    before = game.view(state, None)
    moved = Counter()
    for n in range(20):
        other = game.resample(state, 2, random.Random(n))
        assert game.view(other, 2) == game.view(state, 2) and game.view(other, None) == before
        assert [len(s.pile) for s in other.seats] == [len(s.pile) for s in state.seats]
        assert [len(s.hand) for s in other.seats] == [len(s.hand) for s in state.seats]
        assert len(other.draw) == len(state.draw)
        assert Counter(game.cards(other)) == Counter(game.cards(state))
        moved["hand"] += other.seats[0].hand != state.seats[0].hand
        moved["under"] += other.seats[2].pile[:-1] != state.seats[2].pile[:-1]  # hidden from its owner too
        assert other.seed != state.seed
    assert moved["hand"] == 20 and moved["under"] == 20
