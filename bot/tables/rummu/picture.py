"""Rummü's table picture: the draw and discard piles, then each player's displays."""

from __future__ import annotations

from bot.pictures import Pictures, faces
from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP, seat_badge
from bot.pictures.sheet import Sheet, piece, strip
from bot.pictures.sprites import card, slot


def rummu_table(v) -> Sheet:
    """The draw pile (with its count) and the discard pile's top, then each player's displays (its
    badge alone before it opens)."""
    sheet = Sheet()
    top = card(faces.mu(v.discard_top)) if v.discard_top else slot()
    sheet.row([piece(card(back(v.stock_size))), piece(top)])
    for seat in range(v.players):
        combos = [c for c in v.combos if c.owner == seat]
        pieces = [seat_badge(seat, v.turn)]  # a badge alone until the seat opens: whose turn always shows
        pieces += [strip([card(faces.mu(c)) for c in combo.cards], 4, WIDE_GAP) for combo in combos]
        sheet.row(pieces)
    return sheet




PICTURES = Pictures(table=rummu_table, face=faces.mu)
