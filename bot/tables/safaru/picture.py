"""Safarü's table picture: the draw pile, the free cards and the seats."""

from __future__ import annotations

from bot.pictures import Pictures, faces
from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP, cards
from bot.pictures.sheet import Sheet, piece
from bot.pictures.sprites import badge, card, slot


def safaru_table(v) -> Sheet:
    """The draw pile with its count, then the free cards in the middle, in the order they lie; under
    them the seats, the one to act filled."""
    sheet = Sheet()
    deck = [piece(card(back(v.deck_size)), gap_after=WIDE_GAP)] if v.deck_size else []
    sheet.row(deck + (cards(faces.mu, v.table) or [piece(slot())]), centre=True)
    sheet.row([piece(badge(seat, seat == v.turn)) for seat in range(v.players)], centre=True)
    return sheet




PICTURES = Pictures(table=safaru_table, face=faces.mu)
