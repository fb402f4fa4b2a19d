"""Computer players for every registered game, at three levels.

``choose(game, state, seat, level, rng)`` (the brain is the game's in ``games.BRAINS``) returns a
legal action of ``seat``. Every level decides only from what the seat may know: "easy" looks at
``game.view(state, seat)``, the legal actions and public facts and answers in a few milliseconds;
"strong" searches over determinizations (``game.resample``, ``games.computer.strong``) with the
brain's playout budget; "expert" is the same search with ``SCALES["expert"]`` times the budget
(``Brain.scaled``). The budgets are counts, so equal rngs give equal moves. ``limit`` adds a cap
in CPU seconds of the thread (the host passes ``LIMITS``): the search then plays its best move so
far when the time is up. Pure Python, no I/O: the host calls it from a worker process or thread.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import games
from games.base import Action, Game
from games.computer.strong import Deadline, search

LEVELS: tuple[str, ...] = ("easy", "strong", "expert")
#: How many times the strong player's playouts a searching level spends.
SCALES: dict[str, int] = {"strong": 1, "expert": 6}
#: CPU seconds a move may take at each searching level as the host plays it (docs/performance.md):
#: the brains' budgets keep the strong median near 200 ms, the limit bounds the rare long move.
LIMITS: dict[str, float] = {"strong": 1.0, "expert": 3.0}


def choose(game: Game[Any, Any, Any], state: Any, seat: int, level: str, rng: random.Random, *,
           limit: float | None = None, clock: Callable[[], float] = time.thread_time) -> Action:
    """A legal action of ``seat`` (which must be among ``game.to_act(state)``) at ``level``,
    thinking at most ``limit`` seconds on ``clock`` when given (``strong.Deadline``)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {LEVELS}")
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    brain = games.BRAINS[game.key]
    if level in SCALES:
        deadline = None if limit is None else Deadline(limit, clock)
        return search(game, state, seat, brain.scaled(SCALES[level]), rng, deadline)
    legal = game.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    return brain.easy(game, state, seat, legal, rng)
