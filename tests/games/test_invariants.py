"""Every registered game keeps the generic invariants over seeded random playouts.

Three player counts per game (the smallest, the largest and one between) and a handful of games
each: enough to pass through every phase of a game while staying a few seconds per game.
"""

from __future__ import annotations

import random

import pytest

from games import REGISTRY
from games.base import replay, walk
from tests.games.invariants import check_playouts

GAMES_PER_COUNT = 4


def _cases() -> list[tuple[str, int]]:
    cases = []
    for key, game in REGISTRY.items():
        counts = sorted({game.min_players, (game.min_players + game.max_players) // 2, game.max_players})
        cases += [(key, players) for players in counts]
    return cases


@pytest.mark.long(seconds=2)
@pytest.mark.parametrize(("key", "players"), _cases())
def test_random_playouts_keep_the_invariants(key: str, players: int) -> None:
    check_playouts(REGISTRY[key], players, GAMES_PER_COUNT)


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_walking_a_log_passes_every_position_the_match_had(key: str) -> None:
    """``walk`` (what replays and reviews step through) yields the deal, then the position after each
    logged move, and ends where ``replay`` ends."""
    game = REGISTRY[key]
    players = game.min_players
    options, seed = game.default_options(), "walk-7"
    state, _ = game.begin(players, options, seed)
    rng = random.Random(7)
    log, seen = [], [game.view(state, None)]
    while not game.is_over(state) and len(log) < 60:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        log.append((seat, action))
        seen.append(game.view(state, None))
    steps = [(step.seat, step.action, game.view(step.state, None)) for step in walk(game, players, options, seed, log)]
    assert [(seat, action) for seat, action, _ in steps] == [(None, None), *log]
    assert [view for _, _, view in steps] == seen
    assert game.view(replay(game, players, options, seed, log).state, None) == seen[-1]
