"""Faces every deck draws from (a coloured card, a joker, a card's back) and the Mü deck's faces,
which four games share; a game with a deck of its own draws its faces in its table package."""

from __future__ import annotations

from functools import cache

from bot.pictures.palette import INKS, JOKER, RGB, contrast
from bot.pictures.sprites import DARK, WHITE, Face
from games import deck as mu_deck


def writing(fill: RGB) -> RGB:
    """Dark writing on light cards, white on dark ones: whichever contrasts more (WCAG ratio)."""
    return DARK if contrast(fill, DARK) > contrast(fill, WHITE) else WHITE


def coloured(label: str, colour: str, triangles: int = 0) -> Face:
    ink = INKS[colour]
    return Face(label, ink.rgb, writing(ink.rgb), ink.shape, triangles)


def joker(label: str = "") -> Face:
    """A joker: a star on its own colour, with the number it stands for where that is known."""
    return Face(label, JOKER.rgb, WHITE, JOKER.shape)


def back(count: int | None = None) -> Face:
    """A face-down card, with how many lie there when that is public."""
    return Face("" if count is None else str(count), DARK, WHITE, back=True)


@cache
def mu(cid: str) -> Face:
    """The Mü deck (Mü, Safarü, Rummü, Calcory): colour, digit, and the triangles that score."""
    c = mu_deck.card(cid)
    return coloured(str(c.digit), c.colour, c.triangles)
