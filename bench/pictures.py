"""Table pictures: how long one takes to draw and how large its PNG is, over every game's positions.

The positions are the preview's seeded ones (``bot.preview.positions``) at each game's smallest and
largest table. The first pass after dropping the sprite caches is reported on its own (a bot
process draws each card face once); the timed passes then render every position again, each with no
band kept from before (a table's first picture: the ones after a move redo only the bands that changed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import games
from bot.pictures import sheet, sprites
from bot.preview import positions
from bot.registry import pictures, with_pictures


@dataclass(frozen=True)
class PictureResult:
    times: list[float]  # seconds per table picture, warm sprite cache
    cold: float  # seconds of the first pass over every position, sprites drawn on the way
    largest: int  # bytes of the largest PNG
    positions: int
    games: int


def _views() -> list[tuple[str, object]]:
    out = []
    for key in sorted(with_pictures()):
        game = games.REGISTRY[key]
        for players in sorted({game.min_players, game.max_players}):
            out += [(key, game.view(pos.state, None)) for pos in positions(key, players, count=6)]
    return out


def measure(rounds: int) -> PictureResult:
    views = _views()
    sprites.forget()
    sheet.forget()
    started = time.perf_counter()
    largest = max(len(pictures(key).table_png(view) or b"") for key, view in views)
    cold = time.perf_counter() - started
    times: list[float] = []
    for _ in range(rounds):
        for key, view in views:
            sheet.forget()
            t0 = time.perf_counter()
            pictures(key).table_png(view)
            times.append(time.perf_counter() - t0)
    return PictureResult(times, cold, largest, len(views), len(with_pictures()))
