"""What each move is worth to one seat, and how sure that is: the question a coach asks.

``evaluate`` plays every move it is asked about out from the same determinizations of the seat's
information set (``game.resample``: it never reads the cards the seat cannot see) with the same
playout dice, as the strong search does (``games.computer.strong``), but gives every move the same
samples instead of halving them. The values are in the brain's own scale, the mean of
``Brain.value`` at its playout horizon weighted by ``Brain.likelihood``: expected points, not a win
chance (most brains: the seat's points minus the best other seat's at the end of the hand or of a
round of turns; Mü: points won against the others' average). They compare the moves of one
position; they are not comparable between games.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import games
from games.base import Action, Game
from games.computer import strong
from games.computer.strong import Deadline, contenders


@dataclass(frozen=True)
class MoveValue:
    """One move's estimate: its mean value, the standard error of that mean (infinite below two
    samples), and the playouts it rests on."""

    action: Action
    mean: float
    error: float
    samples: int


def evaluate(game: Game[Any, Any, Any], state: Any, seat: int, rng: random.Random, *, played: Action | None = None,
             every: bool = False, worlds: int | None = None, limit: float | None = None,
             clock: Callable[[], float] = time.thread_time) -> list[MoveValue]:
    """The value of each of ``seat``'s moves, best first: the brain's candidates and its favourite,
    or every legal move (``every``), and ``played`` too when given (a move the brain would not
    list). Each is played out in ``worlds`` determinizations (the brain's ``least`` by default),
    fewer when ``limit`` CPU seconds on ``clock`` run out first."""
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    if played is not None:
        game.check(state, seat, played)
    brain = games.BRAINS[game.key]
    root = game.resample(state, seat, rng)
    legal = game.legal_actions(root, seat)
    moves = list(legal) if every else contenders(game, root, seat, brain, legal, rng)
    if played is not None and played not in moves:
        moves.append(played)
    deadline = None if limit is None else Deadline(limit, clock)
    mark = brain.mark(game, root)
    sums = [[0.0, 0.0, 0.0, 0.0] for _ in moves]  # per move: weight, weight², weighted value, weighted square
    count = [0] * len(moves)
    for n in range(brain.least if worlds is None else worlds):
        world = root if n == 0 else game.resample(state, seat, rng)
        w = brain.likelihood(game, world, seat)
        dice = rng.getrandbits(48)
        for i, action in enumerate(moves):
            if deadline is not None and deadline.passed():
                return _ranked(moves, sums, count)
            value, _ = strong.playout(game, world, seat, action, brain, mark, random.Random(dice))
            s = sums[i]
            s[0] += w
            s[1] += w * w
            s[2] += w * value
            s[3] += w * value * value
            count[i] += 1
    return _ranked(moves, sums, count)


def _ranked(moves: list[Action], sums: list[list[float]], count: list[int]) -> list[MoveValue]:
    out = []
    for action, (w, w2, wx, wx2), n in zip(moves, sums, count, strict=True):
        if not w:
            out.append(MoveValue(action, 0.0, math.inf, n))
            continue
        mean = wx / w
        effective = w * w / w2  # the samples' worth once their weights differ
        spread = max(0.0, wx2 / w - mean * mean)
        error = math.sqrt(spread / (effective - 1)) if effective > 1 + 1e-9 else math.inf
        out.append(MoveValue(action, mean, error, n))
    return sorted(out, key=lambda m: (m.samples == 0, -m.mean))
