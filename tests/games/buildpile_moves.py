"""Test shorthands shared by the Da Capo and Skippo tests: move, refusal, legal keys, card lookup."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from games.base import Action, IllegalAction


def shorthands(game, face: Callable[[str], str]):
    """``act``, ``refused``, ``keys``, ``find`` and ``faces`` bound to one build-pile game."""

    def seat_of(state, seat: int | None) -> int:
        return state.current if seat is None else seat

    def act(state, key: str, seat: int | None = None):
        return game.apply(state, seat_of(state, seat), Action.parse(key))

    def refused(state, key: str, reason: str, seat: int | None = None, **params) -> None:
        with pytest.raises(IllegalAction) as err:
            game.check(state, seat_of(state, seat), Action.parse(key))
        assert err.value.reason == reason
        for name, value in params.items():
            assert err.value.params[name] == value

    def keys(state, seat: int | None = None) -> set[str]:
        return {a.key for a in game.legal_actions(state, seat_of(state, seat))}

    def find(cards, name: str) -> str:
        """The id of the first card with face ``name`` in ``cards``."""
        return next(c for c in cards if face(c) == name)

    def faces(cards) -> list[str]:
        return [face(c) for c in cards]

    return act, refused, keys, find, faces
