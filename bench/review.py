"""``python -m bench.review [--quick] [--games mu,...]``: the CPU time of a coach's review per game.

Per game, a seeded match of four players (fewer where the game allows fewer) is played by easy
computer players, and the coach reviews seat 0's decisions (``bot.coach.review.review``: the same
passes the bot runs in its worker processes, here one after the other in this process). The row
gives the review's CPU time against the issue's target (30 s on this machine) with the decisions
it judged. The quick run reviews the first 60 moves only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from bench.report import MISSED, OK
from bot.coach.review import Match, review
from games import REGISTRY
from games.computer import choose

#: CPU seconds a review may take (issue 27).
TARGET_S = 30.0


@dataclass(frozen=True)
class Reviewed:
    game: str
    players: int
    moves: int
    judged: int
    named: int
    seconds: float

    @property
    def status(self) -> str:
        return OK if self.seconds <= TARGET_S else MISSED


def match(key: str, seed: str, limit: int | None = None) -> Match:
    """A seeded match of ``key`` at four seats (or the game's most), easy players throughout."""
    game = REGISTRY[key]
    players = min(4, game.max_players)
    options = game.default_options()
    state, _ = game.begin(players, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    while not game.is_over(state) and (limit is None or len(log) < limit):
        seat = min(game.to_act(state))
        move = choose(game, state, seat, "easy", rng)
        game.apply(state, seat, move)
        log.append((seat, move.key))
    return Match(1, key, players, options.model_dump(mode="json"), seed, tuple(log))


def measure(games: list[str] | None = None, quick: bool = False) -> list[Reviewed]:
    out = []
    for key in games or sorted(REGISTRY):
        played = match(key, f"bench-review:{key}", 60 if quick else None)
        began = time.process_time()
        made = review(played, 0)
        out.append(Reviewed(key, played.players, len(played.actions), made.judged, len(made.decisions),
                            time.process_time() - began))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review", description=__doc__.splitlines()[0].strip("`"))
    parser.add_argument("--quick", action="store_true", help="review the first 60 moves of each match only")
    parser.add_argument("--games", default="", help="comma-separated game keys (default: every game)")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g] or None
    for r in measure(games, args.quick):
        print(f"review CPU, {r.game:8} {r.seconds:6.1f} s  <= {TARGET_S:g} s  {r.status:6}  "
              f"{r.players} players, {r.moves} moves, {r.judged} decisions judged, {r.named} named")
    return 0


if __name__ == "__main__":
    sys.exit(main())
