"""Kapado's cards and table picture: the draw pile, the ban cards, a drawn card, and every player's stacks."""

from __future__ import annotations

from functools import cache

from bot.pictures import Pictures
from bot.pictures.faces import back, writing
from bot.pictures.layouts import WIDE_GAP, cards, count, seat_badge
from bot.pictures.palette import INKS, KAPADO
from bot.pictures.sheet import Piece, Sheet, piece
from bot.pictures.sprites import CARD, WHITE, Face, card, lock_mark, slot
from games.kapado import cards as kapado_cards


@cache
def face(cid: str) -> Face:
    """Number cards in their colour; the special cards black (white would merge with yellow for a
    tritanope): a wish card as a star, a ban card as its number crossed out."""
    kind = kapado_cards.KIND[cid]
    special = INKS["black"].rgb
    if kind == kapado_cards.WISH:
        return Face("", special, WHITE, "star")
    if kind == kapado_cards.BAN:
        return Face(str(kapado_cards.VALUE[cid]), special, WHITE, slash=True)
    ink = INKS[KAPADO.get(kapado_cards.COLOUR[cid], "black")]
    return Face(str(kapado_cards.VALUE[cid]), ink.rgb, writing(ink.rgb), ink.shape)



def _stack(stack) -> Piece:
    if not stack.cards:
        return piece(slot())
    cid = stack.cards[-1]
    dead = stack.lock == "dead"
    sprite = card(back() if stack.face_down[-1] or cid is None else face(cid), CARD, "dim" if dead else "plain")
    marks = [count(stack.count)]
    if stack.lock != "open":
        marks.append(lock_mark(stack.lock))
    return piece(sprite, *marks)


def kapado_table(v) -> Sheet:
    """The draw pile with its count, the ban cards in the middle, a drawn card the table has seen,
    then each player's stacks: the top (or its back), the number of cards, a padlock when locked
    and a cross when dead."""
    sheet = Sheet()
    head = [piece(card(back(v.deck)), gap_after=WIDE_GAP), *cards(face, v.middle)]
    if v.drawn is not None:
        head[-1].gap_after = WIDE_GAP
        head.append(piece(card(face(v.drawn))))
    sheet.row(head)
    for seat, stacks in enumerate(v.stacks):
        sheet.row([seat_badge(seat, v.current), *(_stack(s) for s in stacks)])
    return sheet




def hand_cards(view) -> tuple[str, ...]:
    """A Kapado hand is the drawn card (while it is held) and the seat's wish cards."""
    return (*([view.drawn] if view.drawn else []), *(view.wishes[view.seat] if view.seat is not None else ()))


PICTURES = Pictures(table=kapado_table, face=face, hand_cards=hand_cards)
