"""Diabolo's cards and table picture: the five colour rows, devils left and angels right, and the seats."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from PIL import Image

from bot.pictures import Pictures
from bot.pictures.faces import coloured
from bot.pictures.palette import DIABOLO, mix
from bot.pictures.sheet import MARGIN, WIDTH, Sheet, piece
from bot.pictures.sprites import BG, DARK, MINI_ROW, Face, badge, card, chip, sealed, side_mark, text
from games.diabolo import cards as diabolo_cards
from games.diabolo.state import DiaboloView

#: A closed row's sums: greyed like its cards, still 5:1 on the table.
CLOSED_INK = mix(DARK, BG, 0.25)
DOUBLER = "x2"  # a seat's doubler, while it still has it this round


@cache
def face(cid: str) -> Face:
    return coloured(str(diabolo_cards.VALUE[cid]), DIABOLO[diabolo_cards.COLOUR[cid]])


@cache
def _row_face(cid: str) -> Face:
    """A card as it lies in a colour row: its number without the colour's symbol (the row's chip
    shows it), made once per card rather than on every picture."""
    return replace(face(cid), mark=None)


def _sum(total: int, closed: bool) -> Image.Image:
    """A side's sum as "=12" on the table, no card's frame around it: it never reads as a card."""
    return text(f"={total}", CLOSED_INK if closed else DARK)


def diabolo_table(v: DiaboloView) -> Sheet:
    """The five colour rows: devils' cards and sum left of the colour's symbol, angels' sum and cards
    right of it, as around the real table, under a horned head (devils) and a haloed one (angels); a
    closed row greys and its colour carries a padlock; the card laid last is framed. Under the rows
    each seat: its badge (filled for the seat to act), its hand's count and its doubler while it
    still has one."""
    sheet = Sheet()
    width = WIDTH - 2 * MARGIN
    centre = MARGIN + width // 2
    mini_w, mini_h = MINI_ROW
    devil, angel = side_mark("devil"), side_mark("angel")  # over the sums: whose side is whose
    sheet.place([(devil, centre - mini_w // 2 - 10 - devil.width, 0), (angel, centre + mini_w // 2 + 10, 0)])
    for row in v.rows:
        name = DIABOLO[row.colour]
        state = "dim" if row.closed else "plain"
        colour = coloured("", name)
        chip_card = sealed(colour, MINI_ROW) if row.closed else card(colour, MINI_ROW)
        items: list[tuple[Image.Image, int, int]] = [(chip_card, centre - mini_w // 2, 0)]
        for side, cids, total in (("devil", row.devil, row.devil_sum), ("angel", row.angel, row.angel_sum)):
            sign = -1 if side == "devil" else 1
            number = _sum(total, row.closed)
            near = centre + sign * (mini_w // 2 + 10)
            x_num = near - number.width if sign < 0 else near
            items.append((number, x_num, (mini_h - number.height) // 2))
            edge = x_num - 12 if sign < 0 else x_num + number.width + 12
            room = edge - MARGIN if sign < 0 else WIDTH - MARGIN - edge
            step = min(mini_w + 10, (room - mini_w) // max(1, len(cids) - 1)) if len(cids) > 1 else 0
            # the card laid last lies nearest the middle
            for i, cid in enumerate(reversed(cids)):
                sprite = card(_row_face(cid), MINI_ROW, "last" if cid == v.last else state)
                x = edge - mini_w - i * step if sign < 0 else edge + i * step
                items.append((sprite, x, 0))
        sheet.place(items)
    seats = []
    for seat, count in enumerate(v.hand_counts):
        marks = [badge(seat, seat == v.current), chip(str(count))]
        if v.doublers[seat]:
            marks.append(chip(DOUBLER, icon=False))
        seats.append(piece(*marks))
    sheet.row(seats, centre=True)
    return sheet


PICTURES = Pictures(table=diabolo_table, face=face)

