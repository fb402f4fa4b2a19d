"""Mü's reading of the shared deck: trump names, effective suits, and who wins a trick.

A trump is named by a colour (``"red"``) or a digit (``"7"``); the Chef may also name ``"none"``.
Once both trumps are known every card gets an effective suit (``"trump"`` or its colour: a red 6
is no red card when 6s are trump) and a trump tier (3 both, 2 Chef only, 1 Vize only, 0 none).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from games.deck import COLOURS, DECK, ORDER, colour, digit

TRUMP = "trump"
NO_TRUMP = "none"
DIGITS: tuple[str, ...] = tuple(str(d) for d in range(10))

#: Bonus column shift per Chef trump kind: the rarer the trumps, the higher the bonus.
SHIFT_COLOUR, SHIFT_ONES_SEVENS, SHIFT_DIGIT, SHIFT_NONE = 0, 1, 2, 3


def trump_choices(shown: Iterable[str]) -> list[str]:
    """The colours, then the digits, that occur among ``shown`` cards (what may be named)."""
    cards = list(shown)
    colours = {colour(c) for c in cards}
    digits = {str(digit(c)) for c in cards}
    return [c for c in COLOURS if c in colours] + [d for d in DIGITS if d in digits]


def is_trump_name(name: str) -> bool:
    return name in COLOURS or name in DIGITS


def matches(trump: str, cid: str) -> bool:
    """Whether card ``cid`` belongs to the trump named ``trump`` ("" and "none" match nothing)."""
    if trump in DIGITS:
        return digit(cid) == int(trump)
    return trump in COLOURS and colour(cid) == trump


def trump_kind(chef_trump: str) -> str:
    """``colour``, ``ones_sevens``, ``digit`` or ``none``: what the bonus table asks about."""
    if chef_trump in COLOURS:
        return "colour"
    if chef_trump in ("1", "7"):
        return "ones_sevens"
    if chef_trump in DIGITS:
        return "digit"
    return "none"


SHIFTS = {"colour": SHIFT_COLOUR, "ones_sevens": SHIFT_ONES_SEVENS, "digit": SHIFT_DIGIT, "none": SHIFT_NONE}


@cache
def ranking(vize_trump: str, chef_trump: str) -> dict[str, tuple[str, int]]:
    """Card id -> (effective suit, trump tier) for one pair of trumps; shared, never mutated."""
    table: dict[str, tuple[str, int]] = {}
    for cid in DECK:
        tier = (2 if matches(chef_trump, cid) else 0) + (1 if matches(vize_trump, cid) else 0)
        table[cid] = (TRUMP, tier) if tier else (colour(cid), 0)
    return table


PLAIN = ranking("", "")


def trick_winner(trick: Iterable[tuple[int, str]], ranks: dict[str, tuple[str, int]]) -> int:
    """The seat that takes ``trick`` (cards in play order).

    The highest trump by (tier, digit) wins; without trumps the highest digit of the led suit.
    A later card only wins if strictly higher, so of two equal cards the first played wins.
    """
    best_seat, best_key, led = -1, (-1, -1, -1), ""
    for seat, cid in trick:
        suit, tier = ranks[cid]
        if not led:
            led = suit
        if suit == TRUMP:
            key = (2, tier, digit(cid))
        elif suit == led:
            key = (1, 0, digit(cid))
        else:
            continue
        if key > best_key:
            best_seat, best_key = seat, key
    return best_seat


def sort_hand(cards: Iterable[str], ranks: dict[str, tuple[str, int]]) -> tuple[str, ...]:
    """A hand grouped by effective suit: plain colours in deck order, then trumps weakest to strongest."""

    def key(cid: str) -> tuple[int, int, int, int]:
        suit, tier = ranks[cid]
        if suit == TRUMP:
            return (1, tier, digit(cid), ORDER[cid])
        return (0, 0, 0, ORDER[cid])

    return tuple(sorted(cards, key=key))
