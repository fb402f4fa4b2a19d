"""The 60-card Mü & more deck, shared by Calcory, Mü, Safarü and Rummü.

Five colours of twelve cards: digits 0–9 with the 1 and the 7 twice. Every card is its own object
with a short id: colour letter, digit, and ``a``/``b`` for the two copies (``r7a``, ``r7b``). The
small triangles on each card are its point value in Mü and Safarü.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
#: The first letter of a card id; black is ``k`` so it does not clash with blue.
LETTERS: dict[str, str] = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}
_COLOUR_OF_LETTER = {letter: colour for colour, letter in LETTERS.items()}

#: The twelve cards of one colour, by the id's tail.
RANKS: tuple[str, ...] = ("0", "1a", "1b", "2", "3", "4", "5", "6", "7a", "7b", "8", "9")
#: Triangles (points) per digit: 12 per colour, 60 in the deck.
TRIANGLES: dict[int, int] = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1, 9: 0}


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    colour: str
    digit: int
    triangles: int


def deck(colours: Iterable[str] = COLOURS) -> list[str]:
    """The card ids of the given colours, colour by colour, digits ascending."""
    return [LETTERS[c] + rank for c in colours for rank in RANKS]


#: Every card id of the full deck in a fixed order (also the sort order of hands).
DECK: tuple[str, ...] = tuple(deck())
CARDS: dict[str, Card] = {
    cid: Card(cid, _COLOUR_OF_LETTER[cid[0]], int(cid[1]), TRIANGLES[int(cid[1])]) for cid in DECK
}
ORDER: dict[str, int] = {cid: i for i, cid in enumerate(DECK)}


def card(cid: str) -> Card:
    return CARDS[cid]


def colour(cid: str) -> str:
    return _COLOUR_OF_LETTER[cid[0]]


def digit(cid: str) -> int:
    return int(cid[1])


def triangles(cid: str) -> int:
    return TRIANGLES[int(cid[1])]


def sort_cards(cids: Iterable[str]) -> list[str]:
    """Cards in deck order (colour, then digit, then copy)."""
    return sorted(cids, key=ORDER.__getitem__)


def split_cards(text: str) -> tuple[str, ...]:
    """Card ids run together (``g3b4k7a``) split again: only 1s and 7s carry a copy letter, so this
    is unambiguous. Raises ``ValueError`` on anything that is not a card list."""
    out: list[str] = []
    i = 0
    while i < len(text):
        size = 3 if text[i + 1: i + 2] in ("1", "7") else 2
        cid = text[i: i + size]
        if cid not in CARDS:
            raise ValueError(text)
        out.append(cid)
        i += size
    return tuple(out)
