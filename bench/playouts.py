"""``python -m bench.playouts [--seconds S] [--games rummu,...]``: playouts for every registered game
(the engine's hot path, docs/architecture.md).

Computer players simulate thousands of positions per move, so these are the figures to watch when
a rules engine or a brain changes. Two kinds of playout per game, from a fresh deal:

- random: random legal actions to the end of the match (at most the game's ``playout_cap``), the
  speed of ``legal_actions`` and ``apply``;
- rollout: every seat plays its brain's playout ``policy`` (what the strong search plays out) to the
  end of the first scored hand or game, or of the match where nothing is scored before.

Each prints actions per second and actions per playout. No target: the rows are information
(issue 26 asks Rummü's random actions to be within 2.5 times of the median game's speed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass

from games import BRAINS, REGISTRY
from games.base import Game, random_playout


@dataclass(frozen=True)
class Playouts:
    game: str
    players: int
    playouts: int
    actions: int
    seconds: float
    rollouts: int = 0
    rollout_actions: int = 0
    rollout_seconds: float = 0.0

    @property
    def per_second(self) -> float:
        return self.playouts / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    @property
    def actions_per_playout(self) -> float:
        return self.actions / self.playouts

    @property
    def rollout_actions_per_second(self) -> float:
        return self.rollout_actions / self.rollout_seconds if self.rollout_seconds else 0.0

    @property
    def actions_per_rollout(self) -> float:
        return self.rollout_actions / self.rollouts if self.rollouts else 0.0


def rollout(game: Game, state, rng: random.Random) -> tuple[int, float]:
    """Every seat plays its brain's ``policy`` until the first hand or game is scored or the match
    ends: the actions taken, and the seconds they took (the end test not counted)."""
    brain = BRAINS[game.key]
    actions, seconds = 0, 0.0
    scored = len(game.result(state).breakdown)
    while actions < game.playout_cap and not game.is_over(state) and len(game.result(state).breakdown) == scored:
        start = time.perf_counter()
        seat = min(game.to_act(state))
        game.apply(state, seat, brain.policy(game, state, seat, rng))
        seconds += time.perf_counter() - start
        actions += 1
    return actions, seconds


def measure(seconds_per_game: float, keys: list[str] | None = None) -> list[Playouts]:
    """Random playouts for ``seconds_per_game`` per game, then rollouts for as long again."""
    out = []
    for key in keys or list(REGISTRY):
        game = REGISTRY[key]
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
        rollouts = rolled = 0
        spent = 0.0
        while spent < seconds_per_game:
            steps, seconds = rollout(game, game.setup(players, options, f"bench-rollout-{key}-{rollouts}"), rng)
            rollouts += 1
            rolled += steps
            spent += seconds
        out.append(Playouts(key, players, playouts, actions, elapsed, rollouts, rolled, spent))
    return out


def render(rows: list[Playouts]) -> str:
    head = (f"{'game':<8} {'seats':>5}  {'random actions/s':>16} {'actions/playout':>15} {'playouts':>8}  "
            f"{'rollout actions/s':>17} {'actions/rollout':>15} {'rollouts':>8}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.game:<8} {r.players:>5}  {r.actions_per_second:>16,.0f} {r.actions_per_playout:>15,.1f} "
                     f"{r.playouts:>8}  {r.rollout_actions_per_second:>17,.0f} {r.actions_per_rollout:>15,.1f} "
                     f"{r.rollouts:>8}")
    median = statistics.median(r.actions_per_second for r in rows)
    lines.append(f"median random actions/s {median:,.0f}; per game, its median over its own: "
                 + ", ".join(f"{r.game} {median / r.actions_per_second:.2f}x" for r in rows))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.playouts", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds of each kind of playout per game")
    parser.add_argument("--games", default=",".join(REGISTRY), help="comma-separated game keys")
    args = parser.parse_args(argv)
    keys = [k for k in args.games.split(",") if k]
    unknown = [k for k in keys if k not in REGISTRY]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)}")
    print(render(measure(args.seconds, keys)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
