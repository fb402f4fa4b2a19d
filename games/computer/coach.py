"""What each move is worth to one seat, and how sure that is: the question a coach asks.

``evaluate`` plays every move it is asked about out from the same determinizations of the seat's
information set (``game.resample``: it never reads the cards the seat cannot see) with the same
playout dice, as the strong search does (``games.computer.strong``), but gives every move the same
samples instead of halving them. Worlds are drawn in proportion to ``Brain.likelihood`` (a world
of weight w is kept with chance w), so each counts alike: weighing them instead left a Mü
defender's 96 worlds worth a dozen, too few to tell a sure loss from noise. The values are in the
brain's own scale, the mean of ``Brain.value`` at its playout horizon: expected points, not a win
chance (most brains: the seat's points minus the best other seat's at the end of the hand or of a
round of turns; Mü: points won against the others' average). They compare the moves of one
position; they are not comparable between games.

Given the ``played`` move, each value also carries ``gap``, its mean lead over the played move
sample by sample, with that lead's standard error: both moves were played out in the same worlds
with the same dice, so most of their noise cancels in the difference, which is what a coach asks
("did another move do better than mine, by more than chance?").
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
    samples), and the playouts it rests on; with a ``played`` move, its mean lead over that move in
    the same samples and the lead's standard error (0 and infinite without one)."""

    action: Action
    mean: float
    error: float
    samples: int
    gap: float = 0.0
    gap_error: float = math.inf


def evaluate(game: Game[Any, Any, Any], state: Any, seat: int, rng: random.Random, *, played: Action | None = None,
             every: bool = False, worlds: int | None = None, limit: float | None = None,
             clock: Callable[[], float] = time.thread_time, moves: list[Action] | None = None) -> list[MoveValue]:
    """The value of each of ``seat``'s moves, best first: the brain's candidates and its favourite,
    every legal move (``every``), or the ``moves`` named, and ``played`` too when given (a move the
    brain would not list). Each is played out in ``worlds`` determinizations (the brain's ``least``
    by default), fewer when ``limit`` CPU seconds on ``clock`` run out first (read before each world;
    a world is played out for every move or for none, so the leads over ``played`` stay paired, and
    none is begun that would overrun the limit if it took as long as the longest before it)."""
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act")
    if played is not None:
        game.check(state, seat, played)
    brain = games.BRAINS[game.key]
    root = brain.determinize(game, state, seat, rng)
    legal = game.legal_actions(root, seat)
    if moves is not None:
        moves = list(dict.fromkeys(moves))
    else:
        moves = list(legal) if every else contenders(game, root, seat, brain, legal, rng)
    if played is not None and played not in moves:
        moves.append(played)
    base = None if played is None else moves.index(played)
    deadline = None if limit is None else Deadline(limit, clock)
    mark = brain.mark(game, root)
    sums = [[0.0, 0.0, 0.0, 0.0] for _ in moves]  # per move: weight, weight², weighted value, weighted square
    leads = [[0.0, 0.0, 0.0, 0.0] for _ in moves]  # the same of its lead over ``played``
    count = [0] * len(moves)
    for n in range(brain.least if worlds is None else worlds):
        if deadline is not None and deadline.passed():
            break
        world, w = (root, brain.likelihood(game, root, seat)) if n == 0 else _drawn(game, state, seat, brain, rng)
        dice = rng.getrandbits(48)
        values = [strong.playout(game, world, seat, action, brain, mark, random.Random(dice))[0] for action in moves]
        for i, value in enumerate(values):
            _add(sums[i], w, value)
            if base is not None:
                _add(leads[i], w, value - values[base])
            count[i] += 1
    return sorted((_value(action, sums[i], leads[i] if base is not None else None, count[i])
                   for i, action in enumerate(moves)), key=lambda m: (m.samples == 0, -m.mean))


#: Worlds drawn at most for one that is kept; the last is then kept with its weight.
REDRAWS = 64


def _drawn(game: Game[Any, Any, Any], state: Any, seat: int, brain: Any, rng: random.Random) -> tuple[Any, float]:
    """A determinization kept with the chance of its likelihood, and its weight from then on (1; a
    world kept after ``REDRAWS`` tries keeps its own). A brain whose worlds all weigh 1 draws once and
    uses no more of ``rng`` than before."""
    for _ in range(REDRAWS):
        world = brain.determinize(game, state, seat, rng)
        w = brain.likelihood(game, world, seat)
        if w >= 1.0 or rng.random() < w:
            return world, 1.0
    return world, w


def _add(s: list[float], w: float, x: float) -> None:
    s[0] += w
    s[1] += w * w
    s[2] += w * x
    s[3] += w * x * x


def _mean(s: list[float]) -> tuple[float, float]:
    """The weighted mean of the samples summed in ``s`` and its standard error."""
    w, w2, wx, wx2 = s
    if not w:
        return 0.0, math.inf
    mean = wx / w
    effective = w * w / w2  # the samples' worth once their weights differ
    spread = max(0.0, wx2 / w - mean * mean)
    return mean, (math.sqrt(spread / (effective - 1)) if effective > 1 + 1e-9 else math.inf)


def _value(action: Action, sums: list[float], lead: list[float] | None, n: int) -> MoveValue:
    mean, error = _mean(sums)
    if lead is None:
        return MoveValue(action, mean, error, n)
    gap, gap_error = _mean(lead)
    return MoveValue(action, mean, error, n, gap, gap_error if n else math.inf)
