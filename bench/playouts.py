"""Random playouts per second for every registered game (the engine's hot path, docs/architecture.md).

Computer players will simulate thousands of games per move, so this is the figure to watch when a
rules engine changes. No target yet: the rows are information.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from games import REGISTRY
from games.base import random_playout


@dataclass(frozen=True)
class Playouts:
    game: str
    players: int
    playouts: int
    actions: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.playouts / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds


def measure(seconds_per_game: float) -> list[Playouts]:
    out = []
    for key, game in REGISTRY.items():
        players = max(game.min_players, min(game.max_players, 4))
        options = game.default_options()
        rng = random.Random(f"bench:{key}")
        playouts = actions = 0
        start = time.perf_counter()
        while True:
            state = game.setup(players, options, f"bench-{key}-{playouts}")
            actions += random_playout(game, state, rng)
            playouts += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds_per_game:
                break
        out.append(Playouts(key, players, playouts, actions, elapsed))
    return out
