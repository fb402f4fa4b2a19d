"""The NumNum deck and the fit relation between its cards.

The real card list is not public (docs/rules-decisions.md D6), so the deck is data:
``games/data/kapado_deck.toml`` holds the project's reconstruction and is read and checked once at import, so
a transcribed deck replaces it without code changes. A malformed file fails loudly with a ``DeckError`` that
names the file and the field.

Card ids: number cards are colour letter + value (``a12``; a copy letter is added when a value
repeats in a colour: ``a12a``, ``a12b``), wish cards ``w1`` …, ban cards ``v2a`` … (``v`` +
banned divisor + copy letter).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from math import gcd
from typing import Any

NUMBER = "number"
WISH = "wish"
BAN = "ban"

NONE, SINGLE, DOUBLE = 0, 1, 2

_SOURCE = "games/data/kapado_deck.toml"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class DeckError(ValueError):
    """The deck file is malformed; the message says which file and which field."""


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    kind: str  # NUMBER, WISH or BAN
    colour: str  # colour letter; "" for wish and ban cards
    value: int  # the number; for a ban card the divisor it bans; 0 for a wish card


@dataclass(frozen=True, slots=True)
class Deck:
    name: str
    reconstruction: bool
    colours: tuple[str, ...]
    symbols: tuple[str, ...]  # one per colour
    cards: tuple[Card, ...]

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(card.id for card in self.cards)


def _fail(source: str, where: str, problem: str) -> DeckError:
    return DeckError(f"{source}: {where} {problem}")


def _copies(values: list[int]) -> list[str]:
    """Copy letters for a colour's values: "" for a unique value, a, b, c … for repeats."""
    seen: dict[int, int] = {}
    total = {v: values.count(v) for v in values}
    out = []
    for v in values:
        n = seen.get(v, 0)
        seen[v] = n + 1
        out.append("" if total[v] == 1 else _LETTERS[n])
    return out


def parse_deck(data: dict[str, Any], source: str = _SOURCE) -> Deck:
    """Check a decoded deck file and build the deck; raise ``DeckError`` saying what is wrong."""
    known = {"name", "reconstruction", "total", "wish", "colours", "bans"}
    unknown = set(data) - known
    if unknown:
        raise _fail(source, ", ".join(sorted(unknown)), "is not a deck field")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _fail(source, "name", "must be a non-empty string")
    reconstruction = data.get("reconstruction", False)
    if not isinstance(reconstruction, bool):
        raise _fail(source, "reconstruction", "must be true or false")
    colours_raw = data.get("colours")
    if not isinstance(colours_raw, list) or not colours_raw:
        raise _fail(source, "colours", "must be a non-empty list of [[colours]] tables")
    cards: list[Card] = []
    colours: list[str] = []
    symbols: list[str] = []
    for i, entry in enumerate(colours_raw):
        where = f"colours[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"id", "symbol", "numbers"}:
            raise _fail(source, where, "must have exactly the fields id, symbol and numbers")
        cid, symbol, numbers = entry["id"], entry["symbol"], entry["numbers"]
        if not isinstance(cid, str) or len(cid) != 1 or cid not in _LETTERS or cid in "vw":
            raise _fail(source, f"{where}.id", "must be one lowercase letter other than v and w")
        if cid in colours:
            raise _fail(source, f"{where}.id", f"repeats the colour {cid!r}")
        if not isinstance(symbol, str) or not symbol:
            raise _fail(source, f"{where}.symbol", "must be a non-empty string")
        if (not isinstance(numbers, list) or not numbers
                or not all(type(n) is int and n >= 1 for n in numbers)):
            raise _fail(source, f"{where}.numbers", "must be a non-empty list of positive integers")
        if max(numbers.count(v) for v in numbers) > len(_LETTERS):
            raise _fail(source, f"{where}.numbers", "repeats a value too often")
        colours.append(cid)
        symbols.append(symbol)
        for value, copy in zip(numbers, _copies(numbers), strict=True):
            cards.append(Card(f"{cid}{value}{copy}", NUMBER, cid, value))
    wish = data.get("wish", 0)
    if type(wish) is not int or not 0 <= wish <= 99:
        raise _fail(source, "wish", "must be an integer from 0 to 99")
    cards.extend(Card(f"w{n}", WISH, "", 0) for n in range(1, wish + 1))
    bans_raw = data.get("bans", [])
    if not isinstance(bans_raw, list):
        raise _fail(source, "bans", "must be a list of [[bans]] tables")
    divisors: list[int] = []
    for i, entry in enumerate(bans_raw):
        where = f"bans[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"divisor", "count"}:
            raise _fail(source, where, "must have exactly the fields divisor and count")
        divisor, count = entry["divisor"], entry["count"]
        if type(divisor) is not int or divisor < 2 or divisor in divisors:
            raise _fail(source, f"{where}.divisor", "must be an integer of at least 2, not repeated")
        if type(count) is not int or not 1 <= count <= len(_LETTERS):
            raise _fail(source, f"{where}.count", "must be an integer from 1 to 26")
        divisors.append(divisor)
        cards.extend(Card(f"v{divisor}{_LETTERS[n]}", BAN, "", divisor) for n in range(count))
    numbers_total = sum(1 for card in cards if card.kind == NUMBER)
    if numbers_total < 7 * 5 + 1:
        raise _fail(source, "colours", "must hold at least 36 number cards (7 players × 5 stacks + 1)")
    total = data.get("total")
    if total is not None and total != len(cards):
        raise _fail(source, "total", f"says {total} cards but the lists above make {len(cards)}")
    return Deck(name, reconstruction, tuple(colours), tuple(symbols), tuple(cards))


def load_deck(text: str, source: str = _SOURCE) -> Deck:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source}: not valid TOML ({exc})") from exc
    return parse_deck(data, source)


def _packaged_deck() -> Deck:
    text = resources.files("games").joinpath("data", "kapado_deck.toml").read_text(encoding="utf-8")
    return load_deck(text)


DECK: Deck = _packaged_deck()
CARDS: dict[str, Card] = {card.id: card for card in DECK.cards}
KIND: dict[str, str] = {card.id: card.kind for card in DECK.cards}
COLOUR: dict[str, str] = {card.id: card.colour for card in DECK.cards}
VALUE: dict[str, int] = {card.id: card.value for card in DECK.cards}
SYMBOL: dict[str, str] = dict(zip(DECK.colours, DECK.symbols, strict=True))
ORDER: dict[str, int] = {cid: i for i, cid in enumerate(DECK.ids)}


@cache
def _divisor_allowed(g: int, banned: frozenset[int], multiples: bool) -> bool:
    """Whether the common divisors ``g`` stands for include one > 1 that no ban forbids."""
    if g <= 1:
        return False
    if not multiples:
        return g not in banned
    return any(g % e == 0 and not any(e % d == 0 for d in banned) for e in range(2, g + 1))


def number_match(a: int, b: int, banned: frozenset[int], multiples: bool = False) -> bool:
    """A 1 matches every number even under bans; otherwise a common divisor > 1 not banned.

    A ban removes only its own number as a divisor (8 on 12 still matches via 4 under the 2-ban);
    with ``multiples`` it removes every multiple of it too.
    """
    if a == 1 or b == 1:
        return True
    return _divisor_allowed(gcd(a, b), banned, multiples)


def fit(card: str, top: str, banned: frozenset[int], multiples: bool = False) -> int:
    """NONE, SINGLE (colour or number) or DOUBLE (both) between two number cards."""
    same = COLOUR[card] == COLOUR[top]
    number = number_match(VALUE[card], VALUE[top], banned, multiples)
    return same + number


def banned_divisor(card: str, top: str, banned: frozenset[int], multiples: bool = False) -> int:
    """The ban that stops two number cards from matching by number, or 0 if none does."""
    a, b = VALUE[card], VALUE[top]
    if a == 1 or b == 1:
        return 0
    g = gcd(a, b)
    if g <= 1 or _divisor_allowed(g, banned, multiples):
        return 0
    return min(d for d in banned if g % d == 0)


def sort_cards(cids: list[str] | tuple[str, ...]) -> list[str]:
    return sorted(cids, key=ORDER.__getitem__)
