"""The colours of every deck, each with its own symbol, chosen to stay apart for colour-blind players.

One ``Ink`` per colour name: the card colour, the shape drawn on the card and the emoji the buttons
show, so a card reads the same in a picture and in a label even without colour vision. The colour
values start from the Okabe–Ito palette and were moved apart until every pair within a deck keeps a
CAM02-UCS distance of at least 20 in normal vision and in simulated protanopia, deuteranopia and
tritanopia (``tests/pictures/test_palette.py`` checks it). Black and purple share the circle: no
deck holds both.

No Pillow here: the button labels import this module too.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Ink:
    rgb: RGB
    shape: str  # what ``bot.pictures.sprites`` draws on the card
    emoji: str  # what a button label shows


INKS: dict[str, Ink] = {
    "red": Ink((0xC9, 0x33, 0x00), "heart", "❤️"),
    "yellow": Ink((0xFC, 0xEB, 0x2A), "star", "⭐"),
    "green": Ink((0x1F, 0xBA, 0x8A), "shamrock", "☘️"),
    "blue": Ink((0x00, 0x4F, 0xA8), "diamond", "🔷"),
    "black": Ink((0x1A, 0x1A, 0x1A), "circle", "⚫"),
    "purple": Ink((0xD2, 0x8A, 0xE0), "circle", "🟣"),
    "pink": Ink((0xE0, 0x70, 0xD0), "flower", "🌸"),
}

#: The card face of a plain number card (Da Capo!, Rommé) and of a joker.
PAPER: RGB = (0xFB, 0xF8, 0xF0)
JOKER = Ink((0x5B, 0x2A, 0x86), "star", "🃏")

#: Rommé suits: the pip is the symbol, the colour is red or black as on any Rommé deck.
SUITS: dict[str, tuple[str, str]] = {"h": ("heart", "red"), "d": ("diamond", "red"), "c": ("club", "black"),
                                     "s": ("spade", "black")}

#: Kapado's colour letters (``games/data/kapado_deck.toml``) by the names its catalogue gives them.
KAPADO: dict[str, str] = {"a": "pink", "b": "blue", "c": "green", "d": "yellow"}
#: Diabolo's colour letters (``games.diabolo.cards.COLOUR_NAMES``).
DIABOLO: dict[str, str] = {"r": "red", "y": "yellow", "g": "green", "p": "purple", "b": "blue"}

#: The card colours of every deck, as the colour-blind test compares them pair by pair.
DECKS: dict[str, tuple[RGB, ...]] = {
    "mu": tuple(INKS[c].rgb for c in ("red", "yellow", "green", "blue", "black")),
    "diabolo": tuple(INKS[c].rgb for c in DIABOLO.values()),
    "kapado": (*(INKS[c].rgb for c in KAPADO.values()), INKS["black"].rgb),  # black: wish and ban cards
    "romme": (INKS["red"].rgb, INKS["black"].rgb, JOKER.rgb),
    "dacapo": (PAPER, JOKER.rgb),
}


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance of a colour."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def mix(a: RGB, b: RGB, share: float) -> RGB:
    """``a`` moved ``share`` of the way to ``b``."""
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def emoji(name: str) -> str:
    """The button symbol of a colour name (``green`` → ``☘️``)."""
    return INKS[name].emoji
