"""The strong computer player: Monte Carlo search over determinizations of the seat's knowledge.

Every sample starts with ``brain.determinize(game, state, seat, rng)`` (``game.resample`` unless the
brain deals otherwise): the cards the seat cannot see are dealt again at random, consistent with what
it has seen, so the search never reads hidden state.
The candidates (the brain's, plus its favourite move, which wins ties) compete by sequential halving:
in each round every surviving candidate is played out from the same determinizations with the same
playout dice (common random numbers, so their difference is mostly their own), and the worse half
drops out. The budget is a number of playouts and of playout actions (whichever runs out first:
the second bounds the CPU time where playouts run long), so equal rngs give equal moves.

A move may also have a ``Deadline``: CPU seconds of the thread, read before every playout. When
what is left of them would not hold another playout as long as the longest so far, the search stops
and plays the best candidate still in the race on the samples it has (a slow machine plays weaker,
not slower, and a move ends within its limit unless one playout runs far longer than those before
it). Without a deadline the clock is never read.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from games.base import Action, Game
from games.computer.brain import Brain


class Deadline:
    """``limit`` CPU seconds from now on ``clock`` (the thread's CPU time: the host thinks in worker
    processes and threads, where the wall clock would count the others' work too). Tests pass a
    fake clock that jumps."""

    def __init__(self, limit: float, clock: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.at = clock() + limit
        #: When the clock was last read, and the longest stretch between two readings: the work
        #: one reading stands for (a playout, or a world of them), which must still fit in the limit.
        self.read: float | None = None
        self.longest = 0.0

    def passed(self) -> bool:
        """Whether the time is up: the limit is reached, or the work until the next reading would
        overrun it if it took as long as the longest so far. A move's limit is a promise to the
        players (the host's ``LIMITS``), so the search stops a step early rather than a step late."""
        now = self.clock()
        if self.read is not None:
            self.longest = max(self.longest, now - self.read)
        self.read = now
        return now >= self.at or now + self.longest > self.at


def contenders(game: Game[Any, Any, Any], root: Any, seat: int, brain: Brain[Any, Any], legal: list[Action],
               rng: random.Random) -> list[Action]:
    """The brain's candidates in ``root`` with its favourite first (it wins ties), added when the
    candidates lack it."""
    arms = brain.candidates(game, root, seat, legal)
    first = brain.default(game, root, seat, legal, rng)
    if all(brain.same(game, root, seat, first) != brain.same(game, root, seat, a) for a in arms):
        arms.insert(0, first)
    else:
        arms.sort(key=lambda a: brain.same(game, root, seat, a) != brain.same(game, root, seat, first))
    return arms


def search(game: Game[Any, Any, Any], state: Any, seat: int, brain: Brain[Any, Any], rng: random.Random,
           deadline: Deadline | None = None) -> Action:
    root = brain.determinize(game, state, seat, rng)
    legal = game.legal_actions(root, seat)
    if len(legal) == 1:
        return legal[0]
    solved = brain.solve(game, root, seat, legal)
    if solved is not None:
        return solved
    arms = contenders(game, root, seat, brain, legal, rng)
    if len(arms) == 1:
        return arms[0]
    budget = brain.budget(game, root, len(arms))
    mark = brain.mark(game, root)
    total = [0.0] * len(arms)
    count = [0] * len(arms)
    weight = [0.0] * len(arms)
    alive = list(range(len(arms)))
    rounds = max(1, math.ceil(math.log2(len(arms))))
    spent = 0
    late = False
    for r in range(rounds):
        per = max(1, budget // (len(alive) * rounds))
        for _ in range(per):
            world = root if r == 0 and count[alive[0]] == 0 else brain.determinize(game, state, seat, rng)
            w = brain.likelihood(game, world, seat)
            dice = rng.getrandbits(48)
            for i in alive:
                late = deadline is not None and deadline.passed()
                if late:
                    break  # the arms left out of this world keep one sample fewer
                value, steps = playout(game, world, seat, arms[i], brain, mark, random.Random(dice))
                total[i] += w * value
                count[i] += 1
                weight[i] += w
                spent += steps
                if brain.spent(mark, spent):
                    break
            if late or brain.spent(mark, spent):
                break
        alive.sort(key=lambda i: -total[i] / weight[i] if weight[i] else math.inf)  # unplayed arms last
        if len(alive) == 1 or late or brain.spent(mark, spent):
            break
        alive = alive[: max(1, (len(alive) + 1) // 2)] if r < rounds - 1 else alive[:1]
    return arms[alive[0]]


def playout(game: Game[Any, Any, Any], world: Any, seat: int, action: Action, brain: Brain[Any, Any], mark: Any,
            rng: random.Random) -> tuple[float, int]:
    """Play ``action`` in a copy of ``world``, then the brain's playout moves up to its horizon:
    the end position's value, and the playout actions it took."""
    state = game.clone(world)
    game.apply(state, seat, action)
    steps = 0
    while steps < brain.cap and not game.is_over(state) and not brain.done(game, mark, state):
        actors = game.to_act(state)
        actor = min(actors)
        game.apply(state, actor, brain.playout_move(game, state, actor, seat, rng))
        steps += 1
    return brain.value(game, mark, state, seat), steps + 1
