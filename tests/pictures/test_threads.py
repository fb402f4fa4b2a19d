"""The drawing kit called from several threads at once (the writer's painter and the event loop):
every picture comes out byte for byte as painted one after another, sprites drawn on the way."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

import games
from bot.pictures import sheet, sprites
from bot.preview import playable, positions
from bot.registry import pictures, with_pictures


def _paintings() -> list:
    """Table and hand pictures of every game's preview positions, as painters to call."""
    out = []
    for key in sorted(with_pictures()):
        game, kit = games.REGISTRY[key], pictures(key)
        for pos in positions(key, game.max_players, count=3, seed="threads"):
            table = game.view(pos.state, None)
            out.append(lambda kit=kit, view=table: kit.table_png(view))
            for seat in range(game.max_players):
                hand, standing = game.view(pos.state, seat), playable(pos, seat)
                out.append(lambda kit=kit, view=hand, standing=standing: kit.hand_png(view, standing))
    return out


def test_pictures_painted_in_several_threads_at_once_are_the_ones_painted_one_by_one():
    paintings = _paintings()
    sprites.forget()
    sheet.forget()
    alone = [paint() for paint in paintings]
    sprites.forget()
    sheet.forget()
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)     # threads take turns every few bytecodes: sprites are drawn in races
    try:
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(lambda paint: paint(), paintings * 3))
    finally:
        sys.setswitchinterval(interval)
    assert together == alone * 3
