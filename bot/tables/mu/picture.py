"""Mü's table picture: trumps, struck colours, the bids laid out, the trick and the last trick."""

from __future__ import annotations

from bot.pictures import Pictures, faces
from bot.pictures.faces import coloured
from bot.pictures.layouts import WIDE_GAP, cards, seat_badge
from bot.pictures.palette import INKS, PAPER
from bot.pictures.sheet import Piece, Sheet, piece
from bot.pictures.sprites import CARD, DARK, Face, arrow, badge, card, crossed, slot, token


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
            sheet.row([seat_badge(seat, v.to_act), *cards(faces.mu, shown)])
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




PICTURES = Pictures(table=mu_table, face=faces.mu)
