"""Mü's table picture: trumps, struck colours, the bids laid out, the trick and the last trick."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from bot.pictures import Pictures, faces
from bot.pictures.faces import coloured
from bot.pictures.layouts import WIDE_GAP, seat_badge, two_columns
from bot.pictures.palette import INKS, PAPER
from bot.pictures.sheet import Piece, Sheet, fitting, piece
from bot.pictures.sprites import CARD, DARK, NARROW_CARD, Face, arrow, badge, card, chip, crossed, slot, token
from games.mu.cards import matches
from games.mu.views import MuView

#: Under each named trump's hexagon, who named it: the role's name is the same in every language.
ROLES = ("Chef", "Vize")
ARROW = 16


def _trump(name: str) -> Face:
    if name in INKS:
        return coloured("", name)
    return Face(name, PAPER, DARK)


def trumps(v: MuView) -> frozenset[str]:
    """The cards of a view's hand that are trumps (the named colours and digits)."""
    named = [t for t in (v.chef_trump, v.vize_trump) if t and t != "none"]
    return frozenset(c for c in v.hand if any(matches(t, c) for t in named)) if named else frozenset()


def _face(v: MuView, cid: str) -> Face:
    named = [t for t in (v.chef_trump, v.vize_trump) if t and t != "none"]
    shown = faces.mu(cid)
    return replace(shown, trump=True) if any(matches(t, cid) for t in named) else shown


def mu_table(v: MuView) -> Sheet:
    """Trumps named so far (hexagons over "Chef" and "Vize") and the colours out of this hand (struck
    out, over a count of 0), each seat's face-up bid cards (before the tricks every seat, its badge
    alone when it shows none), the trick in play order with its players' badges and an empty place
    for the seat to play next, and the last trick faded with the winner's card in full colour. Trump
    cards carry the trumps' small hexagon; the cards the last action laid out or played are framed.
    Where six seats' bids make it too tall for a phone, the trumps and the bid rows stand two to a
    line, and then also on narrower cards (``sheet.TALLEST``)."""
    return fitting([partial(_table, v, size, paired) for size, paired in ((CARD, False), (CARD, True), (NARROW_CARD, True))],
                   ("mu", len(v.shown)))


def _table(v: MuView, size: tuple[int, int], paired: bool) -> Sheet:
    """The table with its bid cards at ``size``, their rows ``paired`` in two columns or one a line."""
    sheet = Sheet()
    last = frozenset(v.last)
    head = [piece(token(_trump(t)), chip(role, icon=False))
            for t, role in ((v.chef_trump, ROLES[0]), (v.vize_trump, ROLES[1])) if t and t != "none"]
    if head:
        head[-1].gap_after = WIDE_GAP
    head += [piece(crossed(coloured("", c)), chip("0")) for c in v.removed_colours]  # three players
    bids = [[seat_badge(seat, v.to_act), *(piece(card(_face(v, c), size, "last" if c in last else "plain"))
                                           for c in shown)]
            for seat, shown in enumerate(v.shown)
            if shown or v.phase != "tricks"]  # before the tricks every seat, so the one to act shows
    rows = [row for row in (head, *bids) if row]
    for row in two_columns(rows) if paired else rows:  # paired, the trumps take the first place
        sheet.row(row)
    if v.phase == "tricks":
        trick = _played(v, v.trick, None, last)
        if v.to_act is not None:  # an empty place over the filled badge of the seat to play next
            trick += [_arrow()] if trick else []
            trick.append(piece(slot(), badge(v.to_act, True)))
        sheet.row(trick, gap=WIDE_GAP)
    if v.last_trick:
        sheet.row(_played(v, v.last_trick, v.last_winner, last), gap=WIDE_GAP)
    return sheet


def _played(v: MuView, trick: Sequence[tuple[int, str]], winner: int | None, last: frozenset[str]) -> list[Piece]:
    """Cards in play order, each over its player's badge; with a winner, the others' cards fade."""
    out: list[Piece] = []
    for i, (seat, cid) in enumerate(trick):
        state = "last" if cid in last else "dim" if winner is not None and seat != winner else "plain"
        out.append(piece(card(_face(v, cid), CARD, state), badge(seat), gap_after=3))
        if i < len(trick) - 1:
            out.append(_arrow())
    return out


def _arrow() -> Piece:
    """A narrow arrow to the next card played, so six players' trick fits one line."""
    return Piece((arrow(ARROW),), (CARD[1] // 2 - 15,), gap_after=3)


PICTURES = Pictures(table=mu_table, face=faces.mu, trumps=trumps)
