"""The Da Capo! deck: 15 copies of each number 1–10 and 15 jokers, 165 cards.

Card ids are the number and a copy letter (``7c``, ``10o``); jokers are ``X`` and a letter
(``Xa`` … ``Xo``). A joker's value here is 0: on a build pile it stands for the next number.
"""

from __future__ import annotations

COPIES = "abcdefghijklmno"
JOKER = "X"
TOP = 10

DECK: tuple[str, ...] = tuple(f"{v}{c}" for v in range(1, TOP + 1) for c in COPIES) + tuple(
    JOKER + c for c in COPIES
)
#: Value of every card, 0 for a joker.
VALUE: dict[str, int] = {cid: (0 if cid[0] == JOKER else int(cid[:-1])) for cid in DECK}
ORDER: dict[str, int] = {cid: i for i, cid in enumerate(DECK)}


def face(cid: str) -> str:
    """What the card shows: its number, or ``X`` for a joker."""
    return JOKER if cid[0] == JOKER else cid[:-1]


def face_of_value(value: int) -> str:
    return str(value)


def is_joker(cid: str) -> bool:
    return cid[0] == JOKER


def sort_cards(cids: list[str]) -> list[str]:
    return sorted(cids, key=ORDER.__getitem__)
