"""Da Capo! on Discord: the shared build-pile table and hand (``bot/tables/buildpiles/presenter.py``).

Da Capo needs nothing of its own on screen: other players' pile tops come into the hand as plays
like any other (marked with the owner's name), and "draw four" appears whenever the hand ran empty.
"""

from __future__ import annotations

from bot.tables.buildpiles.presenter import BuildPilePresenter
from bot.tables.dacapo.picture import PICTURES

PRESENTER = BuildPilePresenter("dacapo", PICTURES)
