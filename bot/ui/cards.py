"""Labels for the cards of the Mü & more deck (Calcory, Mü, Safarü, Rummü).

A card reads as its colour square and digit (``🟩7``): short enough for buttons and select
options, and the two copies of a 1 or 7 look alike, as they do on the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.i18n import t
from games.deck import colour, digit, sort_cards

#: One square per colour of the deck.
SQUARES: dict[str, str] = {"red": "🟥", "yellow": "🟨", "green": "🟩", "blue": "🟦", "black": "⬛"}


def label(card: str) -> str:
    """``🟩7`` for the green 7."""
    return f"{SQUARES[colour(card)]}{digit(card)}"


def labels(cards: Iterable[str], *, sort: bool = True, sep: str = " ") -> str:
    """Several cards in deck order (or as given), or a dash for none."""
    ordered = sort_cards(cards) if sort else list(cards)
    return sep.join(label(card) for card in ordered) or "—"


def colour_name(lang: str, name: str) -> str:
    """A colour's name in the table's language (``green`` → ``Grün``)."""
    return t(lang, f"cards.colour.{name}")


def square(name: str) -> str:
    return SQUARES[name]
