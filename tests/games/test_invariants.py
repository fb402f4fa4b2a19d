"""Every registered game keeps the generic invariants over seeded random playouts.

Three player counts per game (the smallest, the largest and one between) and a handful of games
each: enough to pass through every phase of a game while staying a few seconds per game.
"""

from __future__ import annotations

import pytest

from games import REGISTRY
from tests.games.invariants import check_playouts

GAMES_PER_COUNT = 4


def _cases() -> list[tuple[str, int]]:
    cases = []
    for key, game in REGISTRY.items():
        counts = sorted({game.min_players, (game.min_players + game.max_players) // 2, game.max_players})
        cases += [(key, players) for players in counts]
    return cases


@pytest.mark.parametrize(("key", "players"), _cases())
def test_random_playouts_keep_the_invariants(key: str, players: int) -> None:
    check_playouts(REGISTRY[key], players, GAMES_PER_COUNT)
