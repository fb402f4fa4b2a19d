"""Labels for the cards of the Mü & more deck (Calcory, Mü, Safarü, Rummü).

A card reads as its colour's symbol and digit (``☘️7``): short enough for buttons and select
options, and the two copies of a 1 or 7 look alike, as they do on the table. The symbols are the
shapes the card pictures draw (``bot.pictures.palette``), so no label needs colour vision.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bot.i18n import t
from bot.pictures.palette import emoji
from games.deck import COLOURS, colour, digit, sort_cards

#: One symbol per colour of the deck, each a different shape.
SYMBOLS: dict[str, str] = {name: emoji(name) for name in COLOURS}


@cache
def label(card: str) -> str:
    """``☘️7`` for the green 7 (made once per card: a hand labels every card on every rendering)."""
    return f"{SYMBOLS[colour(card)]}{digit(card)}"


def labels(cards: Iterable[str], *, sort: bool = True, sep: str = " ") -> str:
    """Several cards in deck order (or as given), or a dash for none."""
    ordered = sort_cards(cards) if sort else list(cards)
    return sep.join(label(card) for card in ordered) or "—"


def colour_name(lang: str, name: str) -> str:
    """A colour's name in the table's language (``green`` → ``Grün``)."""
    return t(lang, f"cards.colour.{name}")


def symbol(name: str) -> str:
    return SYMBOLS[name]
