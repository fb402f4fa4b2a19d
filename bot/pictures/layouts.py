"""What each game's table and hand pictures show, laid out in rows of sprites.

Every function reads one view and nothing else: a table layout gets the public view
(``view(state, None)``), a hand layout its owner's view. Seats are numbered badges (seat order,
1-based, as the text table lists them); the seat to act has a filled badge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import cache

from PIL import Image

from bot.pictures import faces
from bot.pictures.faces import FACES, back, build_top, coloured
from bot.pictures.palette import DIABOLO, INKS, PAPER
from bot.pictures.sheet import GAP, MARGIN, WIDTH, Piece, Sheet, cascade, lifted, piece, strip
from bot.pictures.sprites import (
    CARD,
    DARK,
    MINI_ROW,
    Face,
    arrow,
    badge,
    card,
    crossed,
    lock_mark,
    pill,
    side_mark,
    slot,
    text,
    token,
)

WIDE_GAP = 26  # between groups (combos, a player's pile and helpers)
CASCADE = 56  # how much of each card under a helper pile's top shows: its number
SHOWN_UNDER = 4  # cards of a helper pile shown under its top


def _cards(face_of: Callable[[str], Face], cids: Iterable[str], state: str = "plain") -> list[Piece]:
    return [piece(card(face_of(c), CARD, state)) for c in cids]


def _seat(seat: int, current: int | None) -> Piece:
    return Piece((badge(seat, seat == current),), gap_after=WIDE_GAP - GAP, lead=True)


def _count(n: int) -> Image.Image:
    return text(str(n))


# -- hands ----------------------------------------------------------------------------------------
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


# -- Mü ---------------------------------------------------------------------------------------------
def _trump(name: str) -> Face:
    if name in INKS:
        return coloured("", name)
    return Face(name, PAPER, DARK)


def mu_table(v) -> Sheet:
    """Trumps named so far (hexagons, the Chef's first) and the colours out of this hand (struck out),
    each seat's face-up bid cards (before the tricks every seat, its badge alone when it shows none), the trick in
    play order with its players' badges and an empty place for the seat to play next, and the last
    trick faded with the winner's card in full colour."""
    sheet = Sheet()
    trumps = [piece(token(_trump(t))) for t in (v.chef_trump, v.vize_trump) if t and t != "none"]
    if trumps:
        trumps[-1].gap_after = WIDE_GAP
    out = [piece(crossed(coloured("", c))) for c in v.removed_colours]  # three players: out of this hand
    sheet.row(trumps + out, gap=0)
    for seat, shown in enumerate(v.shown):  # before the tricks every seat, so the one to act shows
        if shown or v.phase != "tricks":
            sheet.row([_seat(seat, v.to_act), *_cards(faces.mu, shown)])
    if v.phase == "tricks":
        trick = _played(v.trick, None)
        if v.to_act is not None:  # an empty place over the filled badge of the seat to play next
            trick += [Piece((arrow(),), (CARD[1] // 2 - 15,))] if trick else []
            trick.append(piece(slot(), badge(v.to_act, True)))
        sheet.row(trick, gap=WIDE_GAP)
    if v.last_trick:
        sheet.row(_played(v.last_trick, v.last_winner), gap=WIDE_GAP)
    return sheet


def _played(trick, winner: int | None) -> list[Piece]:
    """Cards in play order, each over its player's badge; with a winner, the others' cards fade."""
    out: list[Piece] = []
    for i, (seat, cid) in enumerate(trick):
        state = "dim" if winner is not None and seat != winner else "plain"
        out.append(piece(card(faces.mu(cid), CARD, state), badge(seat)))
        if i < len(trick) - 1:
            out.append(Piece((arrow(),), (CARD[1] // 2 - 15,)))
    return out


# -- Safarü and Rummü ---------------------------------------------------------------------------------
def safaru_table(v) -> Sheet:
    """The draw pile with its count, then the free cards in the middle, in the order they lie; under
    them the seats, the one to act filled."""
    sheet = Sheet()
    deck = [piece(card(back(v.deck_size)), gap_after=WIDE_GAP)] if v.deck_size else []
    sheet.row(deck + (_cards(faces.mu, v.table) or [piece(slot())]), centre=True)
    sheet.row([piece(badge(seat, seat == v.turn)) for seat in range(v.players)], centre=True)
    return sheet


def rummu_table(v) -> Sheet:
    """The draw pile (with its count) and the discard pile's top, then each player's displays (its
    badge alone before it opens)."""
    sheet = Sheet()
    top = card(faces.mu(v.discard_top)) if v.discard_top else slot()
    sheet.row([piece(card(back(v.stock_size))), piece(top)])
    for seat in range(v.players):
        combos = [c for c in v.combos if c.owner == seat]
        pieces = [_seat(seat, v.turn)]  # a badge alone until the seat opens: whose turn always shows
        pieces += [strip([card(faces.mu(c)) for c in combo.cards], 4, WIDE_GAP) for combo in combos]
        sheet.row(pieces)
    return sheet


# -- Da Capo! and Skippo ------------------------------------------------------------------------------
def buildpiles_table(game_key: str, v) -> Sheet:
    """The draw pile and the build piles (their tops; a joker shows the number it stands for), then per
    player their pile's top over its size, the helper piles (the top whole, the cards beneath
    showing their numbers) and Skippo's jokers set aside."""
    face_of = FACES[game_key]
    sheet = Sheet()
    builds = [piece(card(build_top(game_key, pile[-1], len(pile)))) if pile else piece(slot()) for pile in v.build]
    sheet.row([piece(card(back(v.draw_size)), gap_after=WIDE_GAP), *builds])
    for seat, sv in enumerate(v.seats):
        top = card(face_of(sv.pile_top)) if sv.pile_top else slot()
        pieces = [_seat(seat, v.current), piece(top, _count(sv.pile_size), gap_after=WIDE_GAP)]
        for helper in sv.helpers:
            shown = helper[-(SHOWN_UNDER + 1):]
            pieces.append(cascade([card(face_of(c)) for c in shown], CASCADE) if shown else piece(slot()))
        pieces += _cards(face_of, sv.reserve)
        sheet.row(pieces)
    return sheet


# -- Kapado -------------------------------------------------------------------------------------------
def _stack(stack) -> Piece:
    if not stack.cards:
        return piece(slot())
    cid = stack.cards[-1]
    dead = stack.lock == "dead"
    sprite = card(back() if stack.face_down[-1] or cid is None else faces.kapado(cid), CARD, "dim" if dead else "plain")
    marks = [_count(stack.count)]
    if stack.lock != "open":
        marks.append(lock_mark(stack.lock))
    return piece(sprite, *marks)


def kapado_table(v) -> Sheet:
    """The draw pile with its count, the ban cards in the middle, a drawn card the table has seen,
    then each player's stacks: the top (or its back), the number of cards, a padlock when locked
    and a cross when dead."""
    sheet = Sheet()
    head = [piece(card(back(v.deck)), gap_after=WIDE_GAP), *_cards(faces.kapado, v.middle)]
    if v.drawn is not None:
        head[-1].gap_after = WIDE_GAP
        head.append(piece(card(faces.kapado(v.drawn))))
    sheet.row(head)
    for seat, stacks in enumerate(v.stacks):
        sheet.row([_seat(seat, v.current), *(_stack(s) for s in stacks)])
    return sheet


# -- Diabolo ------------------------------------------------------------------------------------------
@cache
def _row_face(cid: str) -> Face:
    """A card as it lies in a colour row: its number without the colour's symbol (the row's chip
    shows it), made once per card rather than on every picture."""
    return replace(faces.diabolo(cid), mark=None)


def diabolo_table(v) -> Sheet:
    """The five colour rows: devils' cards and sum left of the colour's symbol, angels' sum and cards
    right of it, as around the real table, under a horned head (devils) and a haloed one (angels);
    a closed row fades."""
    sheet = Sheet()
    width = WIDTH - 2 * MARGIN
    centre = MARGIN + width // 2
    mini_w, mini_h = MINI_ROW
    devil, angel = side_mark("devil"), side_mark("angel")  # over the sums: whose side is whose
    sheet.place([(devil, centre - mini_w // 2 - 10 - devil.width, 0), (angel, centre + mini_w // 2 + 10, 0)])
    for row in v.rows:
        name = DIABOLO[row.colour]
        state = "dim" if row.closed else "plain"
        chip = card(coloured("", name), MINI_ROW)
        items: list[tuple[Image.Image, int, int]] = [(chip, centre - mini_w // 2, 0)]
        for side, cids, total in (("devil", row.devil, row.devil_sum), ("angel", row.angel, row.angel_sum)):
            sign = -1 if side == "devil" else 1
            number = pill(str(total))
            near = centre + sign * (mini_w // 2 + 10)
            x_num = near - number.width if sign < 0 else near
            items.append((number, x_num, (mini_h - number.height) // 2))
            edge = x_num - 12 if sign < 0 else x_num + number.width + 12
            room = edge - MARGIN if sign < 0 else WIDTH - MARGIN - edge
            step = min(mini_w + 10, (room - mini_w) // max(1, len(cids) - 1)) if len(cids) > 1 else 0
            # the card laid last lies nearest the middle
            for i, cid in enumerate(reversed(cids)):
                sprite = card(_row_face(cid), MINI_ROW, state)
                x = edge - mini_w - i * step if sign < 0 else edge + i * step
                items.append((sprite, x, 0))
        sheet.place(items)
    return sheet
