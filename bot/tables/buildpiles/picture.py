"""The table picture Da Capo! and Skippo share: the draw pile, the build piles, each player's piles."""

from __future__ import annotations

from collections.abc import Callable

from bot.pictures.faces import back
from bot.pictures.layouts import WIDE_GAP, cards, count, seat_badge
from bot.pictures.sheet import Sheet, cascade, piece
from bot.pictures.sprites import Face, card, slot

CASCADE = 56  # how much of each card under a helper pile's top shows: its number
SHOWN_UNDER = 4  # cards of a helper pile shown under its top


def buildpiles_table(face_of: Callable[[str], Face], build_top: Callable[[str, int], Face], v) -> Sheet:
    """The draw pile and the build piles (their tops; a joker shows the number it stands for), then per
    player their pile's top over its size, the helper piles (the top whole, the cards beneath
    showing their numbers) and Skippo's jokers set aside."""
    sheet = Sheet()
    builds = [piece(card(build_top(pile[-1], len(pile)))) if pile else piece(slot()) for pile in v.build]
    sheet.row([piece(card(back(v.draw_size)), gap_after=WIDE_GAP), *builds])
    for seat, sv in enumerate(v.seats):
        top = card(face_of(sv.pile_top)) if sv.pile_top else slot()
        pieces = [seat_badge(seat, v.current), piece(top, count(sv.pile_size), gap_after=WIDE_GAP)]
        for helper in sv.helpers:
            shown = helper[-(SHOWN_UNDER + 1):]
            pieces.append(cascade([card(face_of(c)) for c in shown], CASCADE) if shown else piece(slot()))
        pieces += cards(face_of, sv.reserve)
        sheet.row(pieces)
    return sheet
