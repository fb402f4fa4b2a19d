"""A table that must fit a phone tries its layouts from the one that fit last time (``sheet.fitting``):
that finds the same layout as trying them in order only because every layout after one that fits
fits too. Both are checked here on every game that has several layouts, at every seat count."""

from __future__ import annotations

import pytest

import games
from bot.pictures import sheet
from bot.preview import positions
from bot.registry import pictures
from bot.tables.buildpiles import picture as buildpiles_picture
from bot.tables.mu import picture as mu_picture
from bot.tables.rummu import picture as rummu_picture

MODULES = {"mu": mu_picture, "rummu": rummu_picture, "dacapo": buildpiles_picture, "skippo": buildpiles_picture}


def _cases() -> list[tuple[str, int]]:
    return [(key, n) for key in MODULES
            for n in range(games.REGISTRY[key].min_players, games.REGISTRY[key].max_players + 1)]


@pytest.mark.parametrize(("key", "players"), _cases())
def test_layouts_after_one_that_fits_fit_and_any_start_finds_the_first(key, players, monkeypatch):
    asked = []
    monkeypatch.setattr(MODULES[key], "fitting", lambda layouts, hint: asked.append(layouts) or layouts[0]())
    game = games.REGISTRY[key]
    for pos in positions(key, players, count=12):
        pictures(key).table(game.view(pos.state, None))
    assert asked, "the table asked for no fitting"
    for layouts in asked:
        heights = [layout().height() for layout in layouts]
        first = next((i for i, h in enumerate(heights) if h <= sheet.TALLEST), len(heights) - 1)
        assert all(h <= sheet.TALLEST for h in heights[first:]) or first == len(heights) - 1, \
            f"{key} at {players}: a layout after one that fits is too tall: {heights}"
        for start in range(len(layouts)):
            sheet._fitted["test"] = start
            assert sheet.fitting(layouts, "test").height() == heights[first]
            assert sheet._fitted["test"] == first
