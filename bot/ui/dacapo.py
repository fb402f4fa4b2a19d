"""Da Capo! on Discord: the shared build-pile table and hand (``bot/ui/buildpiles.py``).

Da Capo needs nothing of its own on screen: other players' pile tops come into the hand as plays
like any other (marked with the owner's name), and "draw four" appears whenever the hand ran empty.
"""

from __future__ import annotations

from bot.ui.buildpiles import BuildPilePresenter

PRESENTER = BuildPilePresenter("dacapo")
