"""Safarü's table picture: the draw pile, the free cards, and each side with its catch."""

from __future__ import annotations

from bot.pictures import Pictures, faces
from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP
from bot.pictures.sheet import Piece, Sheet, piece
from bot.pictures.sprites import LOW_CARD, badge, card, chip, slot
from games.safaru.state import SafaruView


def safaru_table(v: SafaruView) -> Sheet:
    """The draw pile with its count, then the free cards in the middle, in the order they lie (the
    card played last framed while it lies there); under them each side (a seat, or a team of two):
    its badges, the one to act filled, how many cards its catch pile holds, and the cards the last
    play caught, framed, beside the side that caught them; a side's whole catch where the view shows
    it (open catch piles)."""
    sheet = Sheet()
    last = frozenset(v.last)
    deck = [piece(card(back(v.deck_size)), gap_after=WIDE_GAP)] if v.deck_size else []
    free = [piece(card(faces.mu(c), state="last" if c in last else "plain")) for c in v.table]
    sheet.row(deck + (free or [piece(slot())]), centre=True)
    for side in range(v.sides):
        seats = [s for s in range(v.players) if s % v.sides == side]
        pieces = [Piece(tuple(badge(s, s == v.turn) for s in seats), gap_after=WIDE_GAP),
                  piece(chip(str(v.pile_sizes[side])), gap_after=WIDE_GAP)]
        caught = [c for c in v.last if c not in v.table] if v.last_side == side else []
        pieces += [piece(card(faces.mu(c), LOW_CARD, "last")) for c in caught]
        pile = v.piles[side]
        if pile:
            rest = [c for c in pile if c not in caught]
            pieces += [piece(card(faces.mu(c), LOW_CARD)) for c in rest]
        sheet.row(pieces)
    return sheet


PICTURES = Pictures(table=safaru_table, face=faces.mu)
