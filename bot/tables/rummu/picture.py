"""Rummü's table picture: the draw and discard piles, then each player's displays."""

from __future__ import annotations

from PIL import Image

from bot.pictures import Pictures, faces
from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP
from bot.pictures.sheet import GAP, MARGIN, WIDTH, Piece, Sheet, piece
from bot.pictures.sprites import BADGE, CARD, badge, card, chip, slot, tag
from bot.ui.labels import pile_label

STEP = CARD[0] + 4  # from one card of a display to the next
#: Beside a seat's badge: a display wider than this breaks over two lines of its own, so the badge
#: always stands beside (never above) its first display.
ROOM = WIDTH - 2 * MARGIN - BADGE - (WIDE_GAP - GAP) - 24


def _display(cards: list[Image.Image], label: Image.Image) -> Piece:
    """One display's cards side by side (two lines when they would not fit beside the badge), its
    letter under its first card."""
    per_line = max(1, min(len(cards), (ROOM + 4) // STEP))
    xs = [(i % per_line) * STEP for i in range(len(cards))]
    ys = [(i // per_line) * (CARD[1] + 6) for i in range(len(cards))]
    lines = (len(cards) + per_line - 1) // per_line
    xs.append((CARD[0] - label.width) // 2)
    ys.append(lines * (CARD[1] + 6) - 2)
    return Piece((*cards, label), tuple(ys), WIDE_GAP, tuple(xs))


def rummu_table(v) -> Sheet:
    """The draw pile (with its count) and the discard pile's top, then each player's badge with the
    count of the cards in their hand at its foot, and their displays, each over its letter (display k of the table is
    ``pile_label(k)``, as the text and buttons name it); the cards the last move laid are framed."""
    sheet = Sheet()
    last = frozenset(v.last)
    top = card(faces.mu(v.discard_top), CARD, "last" if v.discard_top in last else "plain") if v.discard_top \
        else slot()
    sheet.row([piece(card(back(v.stock_size))), piece(top)])
    for seat in range(v.players):
        mark, count = badge(seat, seat == v.turn), chip(str(v.hand_sizes[seat]))
        pieces = [Piece((mark, count), (0, mark.height - count.height // 2), WIDE_GAP - GAP,
                        (0, mark.width - count.width // 2), lead=True)]
        for k, combo in enumerate(v.combos):
            if combo.owner == seat:
                shown = [card(faces.mu(c), CARD, "last" if c in last else "plain") for c in combo.cards]
                pieces.append(_display(shown, tag(pile_label(k))))
        sheet.row(pieces)
    return sheet


PICTURES = Pictures(table=rummu_table, face=faces.mu)
