"""Each game names its state and view types in the contract (``Game[S, V]``), and its views are of
the type it names: the host's presenters and the type checker rely on that."""

from __future__ import annotations

import random
import typing

import pytest

from games import REGISTRY
from games.base import Game


def named_types(game: Game[typing.Any, typing.Any]) -> tuple[type, type]:
    for cls in type(game).__mro__:
        for base in getattr(cls, "__orig_bases__", ()):
            if typing.get_origin(base) is Game:
                state, view = typing.get_args(base)
                return state, view
    raise AssertionError(f"{game.key} names no Game[S, V]")


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_game_names_its_state_and_view_and_shows_that_view(key):
    game = REGISTRY[key]
    state_type, view_type = named_types(game)
    state = game.setup(game.min_players, game.default_options(), "types")
    assert isinstance(state, state_type)
    rng = random.Random(7)
    for _ in range(20):
        if game.is_over(state):
            break
        for seat in (None, *range(game.min_players)):
            assert isinstance(game.view(state, seat), view_type)
        seat = sorted(game.to_act(state))[0]
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
