"""Rummü's numbers: the first-meld minimum and the scoring of a finished hand."""

from __future__ import annotations

from collections.abc import Sequence

from games.base import ScoreLine
from games.deck import colour, digit
from games.rummu.combos import LING, RUN, YELLOW, is_pure, value

GOING_OUT = 10
JOKER_IN_HAND = -10
CARD_IN_HAND = -5


def opening_minimum(score: int, team: bool) -> int:
    """Cards a player must lay to open, from the player's (or team's) score before the hand.

    Teams need 4 up to 199, where the rulebook's table has no team row (docs/rules-decisions.md D27)."""
    if score < 0:
        return 3
    if team:
        return 4 if score < 200 else 5 if score < 400 else 6
    return 4 if score < 100 else 5 if score < 150 else 6


def combination_line(seat: int, name: str, kind: str, cards: Sequence[str]) -> ScoreLine:
    """The score line of one combination lying in ``seat``'s display."""
    if kind == LING:
        label = "ling_pure" if is_pure(kind, cards) else "ling_mixed"
        params = {"combo": name, "size": len(cards), "digit": digit(cards[0])}
    else:
        label = ("run_pure" if is_pure(kind, cards) else "run_mixed") if kind == RUN else "multi"
        params = {"combo": name, "size": len(cards), "low": digit(cards[0]), "high": digit(cards[-1])}
    return ScoreLine(seat, f"rummu.line.{label}", value(kind, cards), params)


def hand_lines(seat: int, hand: Sequence[str], went_out: bool, partner_out: bool) -> list[ScoreLine]:
    """Going out, and the penalty for the cards left in hand (none when the partner went out)."""
    if went_out:
        return [ScoreLine(seat, "rummu.line.went_out", GOING_OUT)]
    if partner_out:
        return [ScoreLine(seat, "rummu.line.partner_out", 0, {"count": len(hand)})] if hand else []
    jokers = sum(colour(c) == YELLOW for c in hand)
    lines = []
    if jokers:
        lines.append(ScoreLine(seat, "rummu.line.jokers_in_hand", JOKER_IN_HAND * jokers, {"count": jokers}))
    if len(hand) - jokers:
        others = len(hand) - jokers
        lines.append(ScoreLine(seat, "rummu.line.cards_in_hand", CARD_IN_HAND * others, {"count": others}))
    return lines
