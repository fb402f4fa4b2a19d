"""Each game names its state, view and options types in the contract (``Game[S, V, Opts]``), its
views are of the type it names and its ``options_model`` is the options type it names: the host's
presenters and the type checker rely on that."""

from __future__ import annotations

import random
import typing

import pytest

from games import REGISTRY
from games.base import Game


def _game_args(cls: type, bound: dict[typing.Any, typing.Any]) -> tuple[typing.Any, ...] | None:
    """The arguments ``cls`` passes to ``Game``, through generic bases in between (``BuildPileGame``
    names the state and view, ``DaCapo`` the options)."""
    for base in getattr(cls, "__orig_bases__", ()):
        origin = typing.get_origin(base) or base
        args = tuple(bound.get(arg, arg) for arg in typing.get_args(base))
        if origin is Game:
            return args
        found = _game_args(origin, dict(zip(getattr(origin, "__parameters__", ()), args, strict=True)))
        if found is not None:
            return found
    return None


def named_types(game: Game[typing.Any, typing.Any, typing.Any]) -> tuple[type, type, type]:
    args = _game_args(type(game), {})
    if args is None:
        raise AssertionError(f"{game.key} names no Game[S, V, Opts]")
    state, view, options = args
    return state, view, options


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_game_names_its_state_and_view_and_shows_that_view(key):
    game = REGISTRY[key]
    state_type, view_type, _ = named_types(game)
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


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_a_game_names_its_options_model_as_the_options_its_setup_takes(key):
    game = REGISTRY[key]
    _, _, options_type = named_types(game)
    assert isinstance(options_type, type), f"{key} leaves its options type open: {options_type}"
    assert game.options_model is options_type
    assert type(game.default_options()) is options_type
    assert type(game.parse_options({})) is options_type
