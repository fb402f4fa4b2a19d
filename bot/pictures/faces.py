"""Which face each deck's card ids show: colour, symbol, number, and Mü's triangles."""

from __future__ import annotations

from functools import cache

from bot.pictures.palette import DIABOLO, INKS, JOKER, KAPADO, PAPER, RGB, SUITS
from bot.pictures.sprites import DARK, WHITE, Face
from games import deck as mu_deck
from games.dacapo import cards as dacapo_cards
from games.diabolo import cards as diabolo_cards
from games.kapado import cards as kapado_cards
from games.skippo import cards as skippo_cards


def _luminance(rgb: RGB) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def writing(fill: RGB) -> RGB:
    """Dark writing on light cards, white on dark ones: whichever contrasts more (WCAG ratio)."""
    lum = _luminance(fill)
    on_dark = (lum + 0.05) / (_luminance(DARK) + 0.05)
    on_white = 1.05 / (lum + 0.05)
    return DARK if on_dark > on_white else WHITE


def coloured(label: str, colour: str, triangles: int = 0) -> Face:
    ink = INKS[colour]
    return Face(label, ink.rgb, writing(ink.rgb), ink.shape, triangles)


def joker(label: str = "") -> Face:
    """A joker: a star on its own colour, with the number it stands for where that is known."""
    return Face(label, JOKER.rgb, WHITE, JOKER.shape)


def back(count: int | None = None) -> Face:
    """A face-down card, with how many lie there when that is public."""
    return Face("" if count is None else str(count), DARK, WHITE, back=True)


@cache
def mu(cid: str) -> Face:
    """The Mü deck (Mü, Safarü, Rummü, Calcory): colour, digit, and the triangles that score."""
    c = mu_deck.card(cid)
    return coloured(str(c.digit), c.colour, c.triangles)


@cache
def diabolo(cid: str) -> Face:
    return coloured(str(diabolo_cards.VALUE[cid]), DIABOLO[diabolo_cards.COLOUR[cid]])


@cache
def kapado(cid: str) -> Face:
    """Number cards in their colour; the special cards black (white would merge with yellow for a
    tritanope): a wish card as a star, a ban card as its number crossed out."""
    kind = kapado_cards.KIND[cid]
    special = INKS["black"].rgb
    if kind == kapado_cards.WISH:
        return Face("", special, WHITE, "star")
    if kind == kapado_cards.BAN:
        return Face(str(kapado_cards.VALUE[cid]), special, WHITE, slash=True)
    ink = INKS[KAPADO.get(kapado_cards.COLOUR[cid], "black")]
    return Face(str(kapado_cards.VALUE[cid]), ink.rgb, writing(ink.rgb), ink.shape)


@cache
def dacapo(cid: str) -> Face:
    return joker() if dacapo_cards.is_joker(cid) else Face(dacapo_cards.face(cid), PAPER, DARK)


@cache
def skippo(cid: str) -> Face:
    """A Rommé card: rank and suit pip in red or black on white; a joker is a star."""
    if skippo_cards.is_joker(cid):
        return joker()
    pip, colour = SUITS[cid[-2]]
    return Face(skippo_cards.face(cid), PAPER, INKS[colour].rgb, pip)


def build_top(game_key: str, cid: str, value: int) -> Face:
    """A build pile's top card: a joker there shows the number it stands for."""
    cards = dacapo_cards if game_key == "dacapo" else skippo_cards
    if cards.is_joker(cid):
        return joker(cards.face_of_value(value))
    return dacapo(cid) if game_key == "dacapo" else skippo(cid)


FACES = {"mu": mu, "safaru": mu, "rummu": mu, "calcory": mu, "diabolo": diabolo, "kapado": kapado,
         "dacapo": dacapo, "skippo": skippo}
