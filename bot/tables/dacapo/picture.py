"""Da Capo!'s cards (numbers on paper with their value in dots, jokers as stars) on the shared
build-pile table."""

from __future__ import annotations

from functools import cache

from bot.pictures import Pictures
from bot.pictures.faces import joker
from bot.pictures.palette import PAPER
from bot.pictures.sprites import DARK, Face
from bot.tables.buildpiles.picture import buildpiles_table
from games.dacapo import cards as dacapo_cards


@cache
def face(cid: str) -> Face:
    """A number card: its number on top and as many dots under it, so it reads as a card."""
    if dacapo_cards.is_joker(cid):
        return joker()
    return Face(dacapo_cards.face(cid), PAPER, DARK, pips=dacapo_cards.VALUE[cid])


def build_top(cid: str, value: int) -> Face:
    """A build pile's top card: a joker there shows the number it stands for."""
    return joker(dacapo_cards.face_of_value(value)) if dacapo_cards.is_joker(cid) else face(cid)


PICTURES = Pictures(table=lambda view: buildpiles_table(face, build_top, view), face=face)
