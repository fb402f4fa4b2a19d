"""Skippo's cards: Rommé decks (two 52-card packs and six jokers each); suits never matter.

Card ids are rank, suit and pack letter (``Qha`` = queen of hearts from pack a, ``10sb``); jokers
are ``X`` and a letter (``Xa`` …). Values: A = 1, 2–10, J = 11, Q = 12, K = 13; a joker is 0.
"""

from __future__ import annotations

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "cdhs"
PACKS = "abcdef"  # two packs per Rommé deck, at most three decks
JOKERS = "abcdefghijklmnopqr"  # at most six jokers per deck
JOKER = "X"
TOP = 13
ACE = 1

_NAMES = [r + s + p for p in PACKS for s in SUITS for r in RANKS] + [JOKER + j for j in JOKERS]
VALUE: dict[str, int] = {cid: (0 if cid[0] == JOKER else RANKS.index(cid[:-2]) + 1) for cid in _NAMES}
ORDER: dict[str, int] = {cid: i for i, cid in enumerate(_NAMES)}


def deck(decks: int, jokers_per_deck: int) -> list[str]:
    """The card ids of ``decks`` Rommé decks."""
    packs = PACKS[: 2 * decks]
    return [r + s + p for p in packs for s in SUITS for r in RANKS] + [
        JOKER + j for j in JOKERS[: decks * jokers_per_deck]
    ]


def face(cid: str) -> str:
    """What the card shows: its rank, or ``X`` for a joker."""
    return JOKER if cid[0] == JOKER else cid[:-2]


def face_of_value(value: int) -> str:
    return RANKS[value - 1]


def is_joker(cid: str) -> bool:
    return cid[0] == JOKER


def penalty(cid: str) -> int:
    """Points a card left in hand or on a helper pile costs: pictures and jokers 10, numbers 5."""
    v = VALUE[cid]
    return 10 if v == 0 or v > 10 else 5


def helper_value(pile: list[str]) -> int:
    """The value a helper pile's top counts as: a joker counts as the natural card beneath it
    (a joker on a 9 may later only be A–9), a pile of nothing but jokers as a king."""
    for cid in reversed(pile):
        v = VALUE[cid]
        if v:
            return v
    return TOP


def sort_cards(cids: list[str]) -> list[str]:
    return sorted(cids, key=ORDER.__getitem__)
