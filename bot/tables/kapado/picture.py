"""Kapado's cards and table picture: every player's stacks under their letters, and beside them the
draw pile, the ban cards and a drawn card the table has seen."""

from __future__ import annotations

from functools import cache

from PIL import Image

from bot.pictures import Pictures
from bot.pictures.faces import back, writing
from bot.pictures.palette import INKS, KAPADO
from bot.pictures.sheet import MARGIN, Sheet
from bot.pictures.sprites import BADGE, CHIP_BELOW, WHITE, Face, badge, card, counted, slot, tag
from bot.ui.labels import pile_label
from games.kapado import cards as kapado_cards
from games.kapado.state import KapadoView, StackView

#: A stack's top: lower than a full card, so seven seats' stacks fit a phone's screen (900 px).
STACK_CARD = (80, 95)
STEP = STACK_CARD[0] + 8  # from one stack to the next
ROW_GAP = 8
SIDE_GAP = 18  # between the stacks and the column of the draw pile
BAN_STEP = 54  # how much of a ban card under the next one shows: its number


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


def _stack(stack: StackView, last: str | None) -> Image.Image:
    """A stack's top (its back when face down) with its count chip, a padlock when locked, faded and
    crossed out when dead, framed when the last move put a card on it."""
    if not stack.cards:
        return slot(STACK_CARD)
    cid = stack.cards[-1]
    top = back() if stack.face_down[-1] or cid is None else face(cid)
    return counted(top, STACK_CARD, stack.count, stack.lock, "last" if stack.id == last else "plain")


def kapado_table(v: KapadoView) -> Sheet:
    """Each player's stacks in a row after the seat's badge, under a header of the stacks' letters
    (stack B is the second of every seat: ``bot.ui.labels.pile_label``); right of them the draw pile
    with its count, the ban cards in the middle, one under the other, and a drawn card the table
    has seen."""
    sheet = Sheet()
    left = MARGIN + BADGE + 8
    per = len(v.stacks[0]) if v.stacks else 0
    items: list[tuple[Image.Image, int, int]] = [(tag(pile_label(i), STACK_CARD[0]), left + i * STEP, 0)
                                                   for i in range(per)]
    top = items[0][0].height + ROW_GAP if items else 0
    row_h = STACK_CARD[1] + CHIP_BELOW
    for seat, stacks in enumerate(v.stacks):
        y = top + seat * (row_h + ROW_GAP)
        mark = badge(seat, seat == v.current)
        items.append((mark, MARGIN, y + (STACK_CARD[1] - mark.height) // 2))
        items += [(_stack(stack, v.last), left + i * STEP, y) for i, stack in enumerate(stacks)]
    x = left + per * STEP - 8 + SIDE_GAP
    y = top
    pile = card(back(v.deck), STACK_CARD)
    items.append((pile, x, y))
    y += pile.height + ROW_GAP
    for cid in v.middle:
        items.append((card(face(cid), STACK_CARD), x, y))
        y += BAN_STEP
    if v.drawn is not None:
        y += STACK_CARD[1] - BAN_STEP + ROW_GAP if v.middle else 0
        items.append((card(face(v.drawn), STACK_CARD, "last" if v.drawn_from_wish else "plain"), x, y))
    sheet.place(items, gap=0)
    return sheet


def hand_cards(view: KapadoView) -> tuple[str, ...]:
    """A Kapado hand is the drawn card (while it is held) and the seat's wish cards."""
    return (*([view.drawn] if view.drawn else []), *(view.wishes[view.seat] if view.seat is not None else ()))


PICTURES = Pictures(table=kapado_table, face=face, hand_cards=hand_cards)
