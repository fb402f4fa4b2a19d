"""Diabolo's 70 number cards: five colours with 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5 each.

Card ids are colour letter, value and copy letter: ``r1a`` … ``r1d``, ``r5b``. Colours are red,
yellow, green, purple and blue, which is also the order rows are shown and scored in (docs/rules-decisions.md
D37).
"""

from __future__ import annotations

from collections.abc import Iterable

COLOURS: tuple[str, ...] = ("r", "y", "g", "p", "b")
COLOUR_NAMES: dict[str, str] = {"r": "red", "y": "yellow", "g": "green", "p": "purple", "b": "blue"}
#: How many copies of each value one colour holds.
COPIES: dict[int, int] = {1: 4, 2: 3, 3: 3, 4: 2, 5: 2}

DECK: tuple[str, ...] = tuple(
    f"{colour}{value}{'abcd'[n]}" for colour in COLOURS for value, copies in COPIES.items()
    for n in range(copies)
)
COLOUR: dict[str, str] = {cid: cid[0] for cid in DECK}
VALUE: dict[str, int] = {cid: int(cid[1]) for cid in DECK}
ROW: dict[str, int] = {cid: COLOURS.index(cid[0]) for cid in DECK}
ORDER: dict[str, int] = {cid: i for i, cid in enumerate(DECK)}


def total(cids: Iterable[str]) -> int:
    return sum(VALUE[c] for c in cids)


def sort_cards(cids: Iterable[str]) -> list[str]:
    return sorted(cids, key=ORDER.__getitem__)
