"""Rummü's combinations: which card sets are valid, what they are worth, and a small meld search.

Yellow cards are jokers for their own digit. Yellow also counts (docs/rules-decisions.md D25) as a colour of
its own, so a Ling or a multi-coloured sequence may hold one yellow card beside four other colours; the
``yellow_is_colour=False`` reading caps multi-coloured sequences at four cards instead. Card lists in action
keys are ids run together (``r3r4y5``): only 1s and 7s carry a copy letter, so they parse without separators.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from games.base import IllegalAction
from games.deck import COLOURS, DECK, ORDER, colour, digit, sort_cards
from games.deck import split_cards as deck_split_cards

YELLOW = "yellow"
REAL_COLOURS = ("red", "green", "blue", "black")
LING, RUN, MULTI = "ling", "run", "multi"  # set of equal digits, one-colour and multi-coloured sequence


def join_cards(cards: Iterable[str]) -> str:
    return "".join(cards)


def split_cards(text: str) -> tuple[str, ...]:
    """Like ``games.deck.split_cards``, but an empty list is no combination either."""
    cards = deck_split_cards(text)
    if not cards:
        raise ValueError(text)
    return cards


def _wraps(digits: Sequence[int]) -> bool:
    n = len(digits)
    return any(set(digits) == {(start + k) % 10 for k in range(n)} for start in digits)


def classify(cards: Sequence[str], yellow_is_colour: bool = True) -> str:
    """The kind of a valid combination; raises ``IllegalAction`` naming the first rule it breaks."""
    n = len(cards)
    if len(set(cards)) != n:
        raise IllegalAction("rummu.card_twice")
    if n < 3:
        raise IllegalAction("rummu.too_short")
    digits = [digit(c) for c in cards]
    jokers = sum(colour(c) == YELLOW for c in cards)
    real = [colour(c) for c in cards if colour(c) != YELLOW]
    if len(set(digits)) == 1:
        if jokers > 1:
            raise IllegalAction("rummu.ling_two_jokers")
        if len(set(real)) != len(real):
            raise IllegalAction("rummu.ling_colour_twice")
        return LING
    ordered = sorted(digits)
    if ordered != list(range(ordered[0], ordered[0] + n)):
        if len(set(digits)) == n and _wraps(digits):
            raise IllegalAction("rummu.no_wrap")
        raise IllegalAction("rummu.not_consecutive")
    if len(set(real)) <= 1:
        if 2 * len(real) <= n:
            raise IllegalAction("rummu.too_many_jokers", most=(n - 1) // 2)
        return RUN
    if len(set(real)) == len(real):
        if jokers > 1:
            raise IllegalAction("rummu.multi_two_jokers")
        if not yellow_is_colour and n > 4:
            raise IllegalAction("rummu.multi_too_long")
        return MULTI
    raise IllegalAction("rummu.colours_mixed")


def arrange(kind: str, cards: Iterable[str]) -> tuple[str, ...]:
    """Display order: sequences by digit, Lings by colour."""
    if kind == LING:
        return tuple(sort_cards(cards))
    return tuple(sorted(cards, key=lambda c: (digit(c), ORDER[c])))


def is_pure(kind: str, cards: Iterable[str]) -> bool:
    """A multi-coloured sequence is never pure; anything else is pure without a yellow card."""
    return kind != MULTI and all(colour(c) != YELLOW for c in cards)


def value(kind: str, cards: Sequence[str]) -> int:
    """Points of a combination from the value table; +10 per card past five (docs/rules-decisions.md D26)."""
    n = len(cards)
    pure = is_pure(kind, cards)
    if kind == LING:
        low = digit(cards[0]) in (1, 7)
        if n == 3:
            return 0
        if n == 4:
            return (15 if low else 30) if pure else (5 if low else 10)
        return 25 if low else 50
    mixed, clean = {3: (0, 10), 4: (10, 20)}.get(n, (20 + 10 * (n - 5), 40 + 10 * (n - 5)))
    return clean if pure else mixed


def valid(cards: Sequence[str], yellow_is_colour: bool = True) -> str | None:
    try:
        return classify(cards, yellow_is_colour)
    except IllegalAction:
        return None


def fitting(kind: str, cards: Sequence[str], yellow_is_colour: bool = True) -> set[tuple[int, str]]:
    """The (digit, colour) of every single card that extends this valid combination: the fast
    path of ``legal_actions`` (it agrees with ``classify``, which a test checks)."""
    colours = {colour(c) for c in cards}
    digits = [digit(c) for c in cards]
    n = len(cards)
    if kind == LING:
        return {(digits[0], col) for col in (*REAL_COLOURS, YELLOW) if col not in colours}
    lo, hi = min(digits), max(digits)
    ends = [d for d in (lo - 1, hi + 1) if 0 <= d <= 9]
    if kind == RUN:
        (col,) = colours - {YELLOW}
        real = sum(colour(c) == col for c in cards)
        allowed = [col, YELLOW] if 2 * real > n + 1 else [col]
    elif not yellow_is_colour and n >= 4:
        allowed = []
    else:
        allowed = [col for col in (*REAL_COLOURS, YELLOW) if col not in colours]
    return {(d, col) for d in ends for col in allowed}


#: The card ids of each (digit, colour): two for the 1s and 7s.
IDS: dict[tuple[int, str], tuple[str, ...]] = {
    (d, col): tuple(c for c in DECK if (digit(c), colour(c)) == (d, col)) for d in range(10) for col in COLOURS
}
#: Every card's (digit, colour), looked up instead of parsed on the hot path.
KEY: dict[str, tuple[int, str]] = {c: (digit(c), colour(c)) for c in DECK}


@lru_cache(maxsize=4096)
def accepts(kind: str, cards: tuple[str, ...], yellow_is_colour: bool = True) -> tuple[frozenset[str], frozenset[str]]:
    """The card ids a lay-off may add to this valid combination, and those that may be swapped for
    one of its jokers. A combination lies unchanged through many turns and every legal-move list
    asks about it, so the answer is kept (keyed by its cards, so ``clone`` copies nothing more)."""
    adds = frozenset(c for key in fitting(kind, cards, yellow_is_colour) for c in IDS[key])
    jokers = [j for j in cards if colour(j) == YELLOW]
    swaps = frozenset(
        c for j in jokers for col in REAL_COLOURS for c in IDS[(digit(j), col)]
        if valid(tuple(c if x == j else x for x in cards), yellow_is_colour)
    )
    return adds, swaps


# -- a small search, for the random player's list of complete melds -----------------------------

def _first_copies(hand: Iterable[str]) -> dict[tuple[int, str], str]:
    out: dict[tuple[int, str], str] = {}
    for c in sort_cards(hand):
        out.setdefault(KEY[c], c)
    return out


def _distinct(by: dict[tuple[int, str], str], digits: range, used: frozenset[str]) -> tuple[str, ...] | None:
    """One card per digit, every colour (yellow included) at most once."""
    if not digits:
        return ()
    d = digits[0]
    for col in (*REAL_COLOURS, YELLOW):
        card = by.get((d, col))
        if card and col not in used:
            rest = _distinct(by, digits[1:], used | {col})
            if rest is not None:
                return (card, *rest)
    return None


def find_melds(hand: Iterable[str], yellow_is_colour: bool = True) -> list[tuple[str, ...]]:
    """Some valid combinations in ``hand``: the largest Ling per digit (with and without its
    joker), each colour's sequences (longest from every start, and every three-card one) and
    multi-coloured sequences of three to five. Not every combination: the rest is ``check``'s.

    Every legal-move list asks this, so it skips what cannot be there: a colour with fewer than two
    cards has no sequence, and a digit missing from the hand ends every multi-coloured sequence
    across it (as does a window without one card per colour: a longer one has none either)."""
    by = _first_copies(hand)
    present = [False] * 10
    count = dict.fromkeys(REAL_COLOURS, 0)
    for d, col in by:
        present[d] = True
        if col != YELLOW:
            count[col] += 1
    found: list[tuple[str, tuple[str, ...]]] = []
    for d in range(10):
        if not present[d]:
            continue
        real = [by[(d, col)] for col in REAL_COLOURS if (d, col) in by]
        joker = by.get((d, YELLOW))
        if len(real) >= 3:
            found.append((LING, tuple(real)))
        if joker and len(real) >= 2:
            found.append((LING, (*real, joker)))
    for col in REAL_COLOURS:
        if count[col] < 2:
            continue  # a one-colour sequence has more cards of its colour than jokers
        slots = [by.get((d, col)) or by.get((d, YELLOW)) for d in range(10)]
        for lo in range(8):
            if slots[lo] is None:
                continue
            best = None
            for hi in range(lo + 2, 10):
                run = [card for card in slots[lo: hi + 1] if card is not None]
                if len(run) < hi + 1 - lo:
                    break  # a gap: no longer sequence starts here
                if 2 * sum(colour(c) == col for c in run) > len(run):
                    if best is None:
                        found.append((RUN, tuple(run)))
                    best = tuple(run)
            if best is not None and len(best) > 3:
                found.append((RUN, best))
    for lo in range(8):
        for length in (3, 4, 5):
            if lo + length > 10 or (length == 5 and not yellow_is_colour) or not all(present[lo: lo + length]):
                break
            pick = _distinct(by, range(lo, lo + length), frozenset())
            if pick is None:
                break
            found.append((MULTI, pick))
    out: dict[frozenset[str], tuple[str, ...]] = {}
    for kind, cards in found:
        out.setdefault(frozenset(cards), arrange(kind, cards))
    return list(out.values())
