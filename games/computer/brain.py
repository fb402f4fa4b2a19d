"""What a computer player has to know about one game: ``Brain``, one subclass per game.

A brain gives the easy move (from the seat's view, its legal actions and public facts only), and
the pieces the strong search (``games.computer.strong``) combines: the candidate moves worth comparing,
a quick playout policy, where a playout stops (the end of the hand, or a cap) and what the
position is then worth to a seat.
"""

from __future__ import annotations

import copy
import random
from typing import Any, Generic, TypeVar

from games.base import Action, Game

G = TypeVar("G", bound=Game[Any, Any, Any])
S = TypeVar("S")


class Brain(Generic[G, S]):
    """Defaults that fit most games; subclasses override what their game needs. ``G`` is the game
    (its own subclass, so a brain reads its views typed), ``S`` its state."""

    #: Playouts for a move with two candidates; more candidates get ``per_arm`` more each,
    #: up to ``most``. A deterministic budget, so the same rng always gives the same move.
    least: int = 40
    per_arm: int = 16
    most: int = 240
    #: A playout stops after this many actions and is judged by ``value`` as it stands.
    cap: int = 400
    #: Playout actions one move may spend in all: the search then decides on what it has seen
    #: (it bounds the CPU time of a move whose playouts run long).
    steps: int = 1_000_000

    # -- easy ----------------------------------------------------------------------------------
    def easy(self, game: G, state: S, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """A sensible move from ``game.view(state, seat)``, ``legal`` and public facts only."""
        return rng.choice(legal)

    # -- strong --------------------------------------------------------------------------------
    def default(self, game: G, state: S, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The strong search's favourite before it plays out anything (ties go to it)."""
        return self.easy(game, state, seat, legal, rng)

    def candidates(self, game: G, state: S, seat: int, legal: list[Action]) -> list[Action]:
        """The moves the search compares: ``legal`` without moves ``same`` calls equal. ``state``
        is a determinization, so only what the seat knows may shape the list."""
        seen: set[Any] = set()
        out = []
        for action in legal:
            key = self.same(game, state, seat, action)
            if key not in seen:
                seen.add(key)
                out.append(action)
        return out

    def same(self, game: G, state: S, seat: int, action: Action) -> Any:
        """A key shared by moves that change nothing that matters between each other."""
        return action

    def solve(self, game: G, state: S, seat: int, legal: list[Action]) -> Action | None:
        """The best move found without sampling, where the brain can (an endgame with nothing
        hidden: ``state`` is a determinization, so it must hide nothing then), or None to search."""
        return None

    def budget(self, game: G, state: S, arms: int) -> int:
        """Playouts for one move with ``arms`` candidates."""
        return min(self.most, max(self.least, self.per_arm * arms))

    def scaled(self, factor: int) -> Brain[G, S]:
        """This brain thinking ``factor`` times as much (the expert level): its playouts and its
        bound on playout actions multiplied. A brain with a bound of its own (``spent``), or whose
        candidates should widen with the time, scales those too."""
        if factor == 1:
            return self
        out = copy.copy(self)
        out.least, out.per_arm, out.most = factor * self.least, factor * self.per_arm, factor * self.most
        out.steps = factor * self.steps
        return out

    def spent(self, mark: Any, steps: int) -> bool:
        """Whether a move has spent its budget after ``steps`` playout actions."""
        return steps >= self.steps

    def likelihood(self, game: G, state: S, seat: int) -> float:
        """How plausible a determinization is beyond being consistent (a model of how the others
        play makes some deals likelier): its weight in the search's averages."""
        return 1.0

    def determinize(self, game: G, state: S, seat: int, rng: random.Random) -> S:
        """A redeal of the cards ``seat`` cannot see: ``game.resample``. A brain with a model of
        how the others play may deal the hands their plays make likelier more often instead of
        weighing them by ``likelihood`` (weights spread over many redeals leave few that count)."""
        redeal: S = game.resample(state, seat, rng)
        return redeal

    def policy(self, game: G, state: S, seat: int, rng: random.Random) -> Action:
        """The playout move (it may read the whole determinized state)."""
        return rng.choice(game.legal_actions(state, seat))

    def playout_move(self, game: G, state: S, actor: int, seat: int, rng: random.Random) -> Action:
        """The move of ``actor`` in a playout judged for ``seat``: ``policy``. A brain may play the
        judged seat's own moves by what they are worth to it while its model of the others stays."""
        return self.policy(game, state, actor, rng)

    def mark(self, game: G, state: S) -> Any:
        """What ``done`` and ``value`` compare against: taken at the root (a determinization)."""
        return None

    def done(self, game: G, mark: Any, state: S) -> bool:
        """Whether a playout has reached its horizon (say, the end of the hand)."""
        return False

    def value(self, game: G, mark: Any, state: S, seat: int) -> float:
        """What the playout's end position is worth to ``seat`` (bigger is better)."""
        raise NotImplementedError


def margin(points: list[float] | tuple[float, ...], seat: int) -> float:
    """``seat``'s points minus the best of the others: what winning a hand is about."""
    best = max(p for s, p in enumerate(points) if s != seat)
    return points[seat] - best


def weighted_subset(items: list[str], weights: list[float], size: int, rng: random.Random) -> list[str]:
    """``size`` of ``items``, each subset drawn with a chance proportional to the product of its
    weights (``weighted_subsets`` drawing one)."""
    return weighted_subsets(items, weights, size, 1, rng)[0]


def weighted_subsets(items: list[str], weights: list[float], size: int, count: int,
                     rng: random.Random) -> list[list[str]]:
    """``count`` independent draws of ``size`` of ``items``, each subset drawn with a chance proportional
    to the product of its weights: item by item, taken with the share of the subsets still possible
    that contain it (``ways[i][k]``: the summed products of the ``k``-subsets of the items from ``i``
    on, counted once for all the draws)."""
    n = len(items)
    ways = [[1.0] + [0.0] * size for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for k in range(1, size + 1):
            ways[i][k] = ways[i + 1][k] + weights[i] * ways[i + 1][k - 1]
    draws = []
    for _ in range(count):
        out: list[str] = []
        for i, item in enumerate(items):
            left = size - len(out)
            if not left:
                break
            if rng.random() * ways[i][left] < weights[i] * ways[i + 1][left - 1]:
                out.append(item)
        draws.append(out)
    return draws
