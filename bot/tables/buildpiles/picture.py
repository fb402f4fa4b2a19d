"""The table picture Da Capo! and Skippo share: the draw pile, the build piles, each player's piles."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PIL import Image

from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP
from bot.pictures.sheet import GAP, Piece, Sheet, cascade, fitting, piece
from bot.pictures.sprites import LOW_CARD, Face, badge, card, counted, slot, tag
from bot.ui.labels import helper_label, pile_label
from games.buildpiles.state import TableView

#: How much of each card under a helper pile's top shows: its number, not a sliver of its symbol.
CASCADE = 54
SHOWN_UNDER = 4  # cards of a helper pile shown under its top, where the picture has room
SEAT_GAP = 8  # between two seats' rows
TAG_GAP = 4  # between a helper pile's top card and its name under it


def _state(cid: str | None, last: frozenset[str]) -> str:
    return "last" if cid in last else "plain"


def buildpiles_table(face_of: Callable[[str], Face], build_top: Callable[[str, int], Face], v: TableView) -> Sheet:
    """The draw pile with its count and the build piles (their tops, a joker showing the number it
    stands for) over their letters A, B, ... (``bot.ui.labels.pile_label``: build pile 1 is A), then
    per player the seat's badge, the pile's top over its count, the helper piles (the top whole, the
    cards beneath showing their numbers where there is room) each over its name H1, H2, ... as the
    text writes it (``bot.ui.labels.helper_label``), and Skippo's jokers set aside (one card, with
    their count when there are several). The cards the last move put down are framed. The picture
    stays at most ``sheet.TALLEST`` pixels tall, showing fewer cards under the helper piles' tops,
    and at six seats, where even the tops over their names are too tall, the tops alone."""
    layouts = [partial(_table, face_of, build_top, v, under, True) for under in range(SHOWN_UNDER, -1, -1)]
    return fitting([*layouts, partial(_table, face_of, build_top, v, 0, False)], ("buildpiles", len(v.seats)))


def _table(face_of: Callable[[str], Face], build_top: Callable[[str, int], Face], v: TableView, under: int,
           named: bool) -> Sheet:
    """The table with ``under`` cards under each helper pile's top, each pile over its name if ``named``."""
    sheet = Sheet()
    last = frozenset(v.last)
    head = [piece(card(back(v.draw_size), LOW_CARD), gap_after=WIDE_GAP)]
    for i, pile in enumerate(v.build):
        top = card(build_top(pile[-1], len(pile)), LOW_CARD, _state(pile[-1], last)) if pile else slot(LOW_CARD)
        head.append(piece(top, tag(pile_label(i), LOW_CARD[0])))
    sheet.row(head)
    for seat, sv in enumerate(v.seats):
        pieces = [Piece((badge(seat, seat == v.current),), gap_after=GAP, lead=True)]
        if sv.pile_top:
            pieces.append(piece(counted(face_of(sv.pile_top), LOW_CARD, sv.pile_size, "open",
                                        _state(sv.pile_top, last)), gap_after=WIDE_GAP))
        else:
            pieces.append(piece(slot(LOW_CARD), gap_after=WIDE_GAP))
        for i, helper in enumerate(sv.helpers):
            shown = [card(face_of(c), LOW_CARD, _state(c, last)) for c in helper[-(under + 1):]] or [slot(LOW_CARD)]
            pieces.append(_labelled(shown, helper_label(i)) if named else cascade(shown, CASCADE))
        if sv.reserve:
            pieces.append(piece(_reserve(face_of, sv.reserve, last)))
        sheet.row(pieces, gap=SEAT_GAP)
    return sheet


def _labelled(cards: list[Image.Image], label: str) -> Piece:
    """A helper pile cascading down to its top card, with its name (H1, ...) under that card as the
    text and the buttons write it, the way a build pile carries its letter."""
    offsets = [i * CASCADE for i in range(len(cards))]
    below = offsets[-1] + cards[-1].height + TAG_GAP
    return Piece((*cards, tag(label, LOW_CARD[0])), (*offsets, below))


def _reserve(face_of: Callable[[str], Face], reserve: tuple[str, ...], last: frozenset[str]) -> Image.Image:
    """Jokers set aside: the newest one, with how many lie there when more than one does."""
    state = _state(reserve[-1], last)
    if len(reserve) == 1:
        return card(face_of(reserve[-1]), LOW_CARD, state)
    return counted(face_of(reserve[-1]), LOW_CARD, len(reserve), "open", state)

