"""Rummü's table picture: the draw and discard piles, then each player's displays."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

from PIL import Image

from bot.pictures import Pictures, faces
from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP, two_columns
from bot.pictures.sheet import GAP, MARGIN, WIDTH, Piece, Sheet, fitting, piece
from bot.pictures.sprites import BADGE, CARD, NARROW_CARD, badge, card, chip, counted, slot, tag
from bot.ui.labels import pile_label
from games.rummu.state import RummuView

#: Beside a seat's badge: a display wider than this breaks over two lines of its own, so the badge
#: always stands beside (never above) its first display.
ROOM = WIDTH - 2 * MARGIN - BADGE - (WIDE_GAP - GAP) - 24
#: The layouts tried, most generous first, until one fits a phone's screen (``sheet.TALLEST``): the
#: displays' card size, and how seats' rows are laid: one a line, two to a line where both fit in a
#: column, or the piles and all seats in one flow (a seat starts beside the one before where there is
#: room).
LAYOUTS = ((CARD, "rows"), (CARD, "paired"), (NARROW_CARD, "paired"), (NARROW_CARD, "flow"))


def _display(cards: list[Image.Image], label: Image.Image) -> Piece:
    """One display's cards side by side (two lines when they would not fit beside the badge), its
    letter under its first card."""
    width, height = cards[0].size
    step = width + 4
    per_line = max(1, min(len(cards), (ROOM - width + step) // step))
    xs = [(i % per_line) * step for i in range(len(cards))]
    ys = [(i // per_line) * (height + 6) for i in range(len(cards))]
    lines = (len(cards) + per_line - 1) // per_line
    xs.append((width - label.width) // 2)
    ys.append(lines * (height + 6) - 2)
    return Piece((*cards, label), tuple(ys), WIDE_GAP, tuple(xs))


def rummu_table(v: RummuView) -> Sheet:
    """The draw pile (with its count) and the discard pile's top over how many cards lie there (only
    the top is seen, docs/rules-decisions.md D26: a player takes a number of cards, and checks a take
    by the count), then each player's badge with the
    count of the cards in their hand at its foot, and their displays, each over its letter (display k of the table is
    ``pile_label(k)``, as the text and buttons name it); the cards the last move laid are framed.
    Where many displays make it too tall for a phone, seats' rows pair up, the displays' cards
    narrow, and at last the seats flow one after another (``LAYOUTS``)."""
    return fitting([partial(_table, v, size, how) for size, how in LAYOUTS], ("rummu", v.players))


def _table(v: RummuView, size: tuple[int, int], how: str) -> Sheet:
    sheet = Sheet()
    last = frozenset(v.last)
    top = counted(faces.mu(v.discard_top), CARD, v.discard_size, "open",
                  "last" if v.discard_top in last else "plain") if v.discard_top else slot()
    piles = [piece(card(back(v.stock_size))), piece(top, gap_after=2 * WIDE_GAP)]
    rows = []
    for seat in range(v.players):
        mark, count = badge(seat, seat == v.turn), chip(str(v.hand_sizes[seat]))
        pieces = [Piece((mark, count), (0, mark.height - count.height // 2), WIDE_GAP - GAP,
                        (0, mark.width - count.width // 2), lead=True)]
        for k, combo in enumerate(v.combos):
            if combo.owner == seat:
                shown = [card(faces.mu(c), size, "last" if c in last else "plain") for c in combo.cards]
                pieces.append(_display(shown, tag(pile_label(k))))
        rows.append(pieces)
    if how == "flow":  # the piles too, so the first seat may start beside them
        sheet.row([*piles, *(p for row in rows for p in _seated(row))])
        return sheet
    sheet.row(piles)
    for row in two_columns(rows) if how == "paired" else rows:
        sheet.row(row)
    return sheet


def _seated(row: list[Piece]) -> list[Piece]:
    """A seat's row for the flow: its badge joined to its first display, so they never part, and a
    wider gap after its last piece, between seats."""
    pieces = row[:]
    if len(pieces) > 1:
        mark, first = pieces[0], pieces[1]
        shift = mark.width + mark.gap_after
        pieces[:2] = [Piece((*mark.images, *first.images), (*mark.offsets, *first.offsets), first.gap_after,
                            (*mark.dx, *(shift + x for x in first.dx)))]
    pieces[-1] = replace(pieces[-1], gap_after=2 * WIDE_GAP)
    return pieces


PICTURES = Pictures(table=rummu_table, face=faces.mu)
