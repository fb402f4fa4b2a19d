"""Computer players for every registered game, at two levels.

``choose(game, state, seat, level, rng)`` (the brain is the game's in ``games.BRAINS``) returns a legal action of ``seat``. Both levels decide
only from what the seat may know: "easy" looks at ``game.view(state, seat)``, the legal actions
and public facts and answers in a few milliseconds; "strong" searches over determinizations
(``game.resample``) with a fixed playout budget, so equal rngs give equal moves. Pure Python, no
I/O: the host calls it from a worker thread.
"""

from __future__ import annotations

import random
from typing import Any

import games
from games.base import Action, Game
from games.computer.strong import search

LEVELS: tuple[str, ...] = ("easy", "strong")


def choose(game: Game[Any, Any], state: Any, seat: int, level: str, rng: random.Random) -> Action:
    """A legal action of ``seat`` (which must be among ``game.to_act(state)``) at ``level``."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {LEVELS}")
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    brain = games.BRAINS[game.key]
    if level == "strong":
        return search(game, state, seat, brain, rng)
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    return brain.easy(game, state, seat, legal, rng)
