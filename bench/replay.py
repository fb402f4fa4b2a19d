"""A replay step: how long the stepper takes to show one position of a long match, its picture included.

For each game with pictures, one seeded match is played out by random moves (the preview's, a kind of
move drawn first, so Mü's auction ends) and walked as ``/replay`` walks it; then the stepper is drawn
at consecutive steps, as a player clicking Next sees them: the position rebuilt from the nearest kept
copy of the state, the table's picture painted and the message built. The picture caches start
empty, so no step finds its picture drawn already.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

import games
from bot.pictures import sheet
from bot.preview import random_move
from bot.registry import with_pictures
from bot.replays.stepper import stepper
from bot.replays.steps import Player, Walked, position
from bot.ui import pictured
from games.base import Action


@dataclass(frozen=True)
class ReplayStep:
    game: str
    players: int
    moves: int
    walk: float             # seconds to walk the match from its log (the first click on it)
    times: list[float]      # seconds per step drawn


def _moves(key: str, players: int, seed: str, longest: int) -> list[tuple[int, Action]]:
    """A seeded match's log, at most ``longest`` moves (Rummü's random matches can run on for thousands)."""
    game = games.REGISTRY[key]
    rng = random.Random(f"replay:{key}")
    state, _ = game.begin(players, game.default_options(), seed)
    actions: list[tuple[int, Action]] = []
    while not game.is_over(state) and len(actions) < longest:
        seat = rng.choice(sorted(game.to_act(state)))
        move = random_move(game, state, seat, rng)
        game.apply(state, seat, move)
        actions.append((seat, move))
    return actions


def measure(steps: int, longest: int) -> list[ReplayStep]:
    """``steps`` consecutive steps from the middle of each game's match of at most ``longest`` moves."""
    out = []
    for key in sorted(with_pictures()):
        game = games.REGISTRY[key]
        players, seed = game.max_players, f"bench-{key}"
        actions = _moves(key, players, seed, longest)
        started = time.perf_counter()
        walked = Walked(game, players, game.default_options(), seed, actions)
        walk = time.perf_counter() - started
        seats = tuple(Player(f"player {seat + 1}") for seat in range(players))
        pictured._drawn.clear()
        sheet.forget()
        first = max(walked.steps // 2 - steps // 2, 0)
        times = []
        for step in range(first, min(first + steps, walked.steps + 1)):
            t0 = time.perf_counter()
            at = position(walked, step, match_id=1, guild_id=1, channel_id=1, lang="en", seats=seats, pictures=True)
            stepper(walked, at, False, "en", None)
            times.append(time.perf_counter() - t0)
        out.append(ReplayStep(key, players, walked.steps, walk, times))
    return out
