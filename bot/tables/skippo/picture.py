"""Skippo's cards (rank and suit pip, jokers as stars) on the shared build-pile table."""

from __future__ import annotations

from functools import cache

from bot.pictures import Pictures
from bot.pictures.faces import joker
from bot.pictures.palette import INKS, PAPER, SUITS
from bot.pictures.sprites import Face
from bot.tables.buildpiles.picture import buildpiles_table
from games.skippo import cards as skippo_cards


@cache
def face(cid: str) -> Face:
    """A Rommé card: rank and suit pip in red or black on white; a joker is a star."""
    if skippo_cards.is_joker(cid):
        return joker()
    pip, colour = SUITS[cid[-2]]
    return Face(skippo_cards.face(cid), PAPER, INKS[colour].rgb, pip)




def build_top(cid: str, value: int) -> Face:
    """A build pile's top card: a joker there shows the number it stands for."""
    return joker(skippo_cards.face_of_value(value)) if skippo_cards.is_joker(cid) else face(cid)


PICTURES = Pictures(table=lambda view: buildpiles_table(face, build_top, view), face=face)
