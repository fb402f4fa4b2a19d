"""Pieces every game's pictures are laid out from: rows of cards, seat badges, counts, and a hand.

A game's own table layout lives in its table package (``bot/tables/<key>/picture.py``) and reads
one view and nothing else: the public view (``view(state, None)``) for the table, the owner's view
for a hand. Seats are numbered badges (seat order, 1-based, as the text table lists them); the seat
to act has a filled badge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from PIL import Image

from bot.pictures.sheet import GAP, MARGIN, WIDTH, Piece, Sheet, lifted, piece
from bot.pictures.sprites import CARD, Face, badge, card, text

WIDE_GAP = 26  # between groups (combos, a player's pile and helpers)
#: The width of one of two columns of seats' rows, ``WIDE_GAP`` between them.
COLUMN = (WIDTH - 2 * MARGIN - WIDE_GAP) // 2


def cards(face_of: Callable[[str], Face], cids: Iterable[str], state: str = "plain") -> list[Piece]:
    return [piece(card(face_of(c), CARD, state)) for c in cids]


def seat_badge(seat: int, current: int | None) -> Piece:
    return Piece((badge(seat, seat == current),), gap_after=WIDE_GAP - GAP, lead=True)


def two_columns(rows: list[list[Piece]]) -> list[list[Piece]]:
    """Seats' rows two to a line where both fit in a column, the second starting at the picture's
    middle, so a table of six seats fits a phone's screen; a row too wide for a column keeps its
    own line. The rows stay in seat order, left to right, then down."""
    out: list[list[Piece]] = []
    i = 0
    while i < len(rows):
        left = rows[i]
        if i + 1 < len(rows) and _width(left) <= COLUMN and _width(rows[i + 1]) <= COLUMN:
            out.append([*left[:-1], replace(left[-1], gap_after=COLUMN + WIDE_GAP - _width(left)), *rows[i + 1]])
            i += 2
        else:
            out.append(left)
            i += 1
    return out


def _width(pieces: list[Piece]) -> int:
    return sum(p.width + p.gap_after for p in pieces) - pieces[-1].gap_after


def count(n: int) -> Image.Image:
    return text(str(n))


def hand(face_of: Callable[[str], Face], cids: Iterable[str], playable: frozenset[str]) -> Sheet | None:
    """A hand: playable cards stand up, the others fade while there is something to play."""
    cids = list(cids)
    if not cids:
        return None
    sheet = Sheet()
    some = any(c in playable for c in cids)
    sheet.row([lifted(card(face_of(c), CARD, "plain" if not some or c in playable else "dim"), c in playable)
               for c in cids])
    return sheet
