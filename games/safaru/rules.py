"""Safarü's catching and scoring rules, apart from the turn structure (mu-and-more §3.3, §3.5).

A catch is written as the played card followed by the methods used, each naming its table cards
with the ids run together (``r7a/add=g3b4/sev=k6/pair=k7b``). Run-together ids parse without a
separator because only the 1s and 7s carry a copy letter, which keeps even a big catch short.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from games.base import IllegalAction
from games.deck import ORDER, colour, digit, split_cards, triangles

#: Which suit shows which animal. No public source names them: this is the project's own
#: assignment (README ruling 1), stated in the help text. Change it here and nowhere else.
ANIMAL_COLOURS = MappingProxyType({"unicorn": "red", "fish": "blue"})

SEVENTEEN = 17
UNICORN_BONUS = 24
FISH_PENALTY = -12
BABY_PENALTY = -5
METHODS = ("add", "sev", "pair")


# -- card lists ---------------------------------------------------------------------------------

def join_cards(cards: Iterable[str]) -> str:
    """Ids run together in deck order: ``g3b4``."""
    return "".join(sorted(cards, key=ORDER.__getitem__))


# -- catches ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Catch:
    """One play: the card and the table cards it takes by each method (none: a release)."""

    card: str
    add: tuple[str, ...] = ()
    sev: tuple[str, ...] = ()
    pair: str | None = None

    @property
    def released(self) -> bool:
        return not (self.add or self.sev or self.pair)

    @property
    def taken(self) -> tuple[str, ...]:
        """The table cards caught."""
        return self.add + self.sev + ((self.pair,) if self.pair else ())

    @property
    def arg(self) -> str:
        parts = [self.card]
        if self.add:
            parts.append("add=" + join_cards(self.add))
        if self.sev:
            parts.append("sev=" + join_cards(self.sev))
        if self.pair:
            parts.append("pair=" + self.pair)
        return "/".join(parts)


def parse_catch(arg: str) -> Catch:
    """Read an action argument; raises ``ValueError`` when it is malformed."""
    head, *parts = arg.split("/")
    (card,) = split_cards(head)
    groups: dict[str, tuple[str, ...]] = {}
    for part in parts:
        name, sep, cards = part.partition("=")
        if not sep or not cards or name not in METHODS or name in groups:
            raise ValueError(arg)
        groups[name] = split_cards(cards)
    pair = groups.get("pair", ())
    if len(pair) > 1:
        raise ValueError(arg)
    return Catch(card, groups.get("add", ()), groups.get("sev", ()), pair[0] if pair else None)


def _subsets_by_sum(digits: Sequence[int]) -> dict[int, list[int]]:
    """Every subset of the table (as a bit mask) whose digits sum to at most 17, by its sum."""
    found: list[tuple[int, int]] = [(0, 0)]
    for i, d in enumerate(digits):
        bit = 1 << i
        found += [(total + d, mask | bit) for total, mask in found if total + d <= SEVENTEEN]
    out: dict[int, list[int]] = {}
    for total, mask in found:
        out.setdefault(total, []).append(mask)
    return out


def _masks(d: int, digits: Sequence[int], sums: dict[int, list[int]]) -> Iterator[tuple[int, int, int]]:
    """(add, sev, pair) masks of every legal catch with a card of digit ``d``."""
    zeros = sum(1 << i for i, x in enumerate(digits) if x == 0)
    adds = [0] + [m for m in sums.get(d, ()) if m & (m - 1)]  # two or more cards
    sevs = [0] + [m for m in sums.get(SEVENTEEN - d, ()) if m]
    pairs = [0] + [1 << i for i, x in enumerate(digits) if x == d]
    for p in pairs:
        for a in adds:
            if a & p:
                continue
            for s in sevs:
                if s & (a | p) or not (a | s | p):
                    continue
                if zeros and (a or s) and not (a | s | p) & zeros:
                    continue  # the baby rule: adding or seventeen must take a table 0 along
                yield a, s, p


def _cards(mask: int, table: Sequence[str]) -> tuple[str, ...]:
    return tuple(c for i, c in enumerate(table) if mask >> i & 1)


def catches(card: str, table: Sequence[str], sums: dict[int, list[int]] | None = None) -> list[Catch]:
    """Every legal catch of ``card`` against ``table``; empty when it can only be released."""
    digits = [digit(c) for c in table]
    sums = _subsets_by_sum(digits) if sums is None else sums
    out = []
    for a, s, p in _masks(digit(card), digits, sums):
        pair = _cards(p, table)
        out.append(Catch(card, _cards(a, table), _cards(s, table), pair[0] if pair else None))
    return out


def can_catch(card: str, table: Sequence[str]) -> bool:
    digits = [digit(c) for c in table]
    return next(_masks(digit(card), digits, _subsets_by_sum(digits)), None) is not None


def plays(hand: Iterable[str], table: Sequence[str]) -> list[Catch]:
    """Every legal play of a hand: each card's catches, or its release when it cannot catch."""
    sums = _subsets_by_sum([digit(c) for c in table])
    out: list[Catch] = []
    for card in hand:
        found = catches(card, table, sums)
        out += found if found else [Catch(card)]
    return out


def validate(catch: Catch, hand: Sequence[str], table: Sequence[str]) -> None:
    """Raise ``IllegalAction`` with the first rule ``catch`` breaks."""
    if catch.card not in hand:
        raise IllegalAction("safaru.not_in_hand")
    taken = catch.taken
    if any(c not in table for c in taken):
        raise IllegalAction("safaru.not_on_table")
    if len(set(taken)) != len(taken):
        raise IllegalAction("safaru.card_twice")
    d = digit(catch.card)
    if catch.released:
        if can_catch(catch.card, table):
            raise IllegalAction("safaru.must_catch", digit=d)
        return
    if catch.add and len(catch.add) < 2:
        raise IllegalAction("safaru.add_needs_two")
    if catch.add and sum(map(digit, catch.add)) != d:
        raise IllegalAction("safaru.add_sum", digit=d)
    if catch.sev and sum(map(digit, catch.sev)) + d != SEVENTEEN:
        raise IllegalAction("safaru.sev_sum", digit=d, need=SEVENTEEN - d)
    if catch.pair and digit(catch.pair) != d:
        raise IllegalAction("safaru.pair_digit", digit=d)
    if (catch.add or catch.sev) and any(digit(c) == 0 for c in table) \
            and not any(digit(c) == 0 for c in taken):
        raise IllegalAction("safaru.baby_rule")


# -- scoring ------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Tally:
    """What counts in one catch pile."""

    unicorns: int
    fish: int
    babies: int
    triangles: int


def tally(pile: Iterable[str]) -> Tally:
    cards = list(pile)
    return Tally(
        unicorns=sum(colour(c) == ANIMAL_COLOURS["unicorn"] for c in cards),
        fish=sum(colour(c) == ANIMAL_COLOURS["fish"] for c in cards),
        babies=sum(digit(c) == 0 for c in cards),
        triangles=sum(triangles(c) for c in cards),
    )


def _majority(counts: Sequence[int], award: int) -> list[int]:
    """The award split evenly among the sides with the most (none when nobody has any, A24)."""
    most = max(counts)
    if most == 0:
        return [0] * len(counts)
    holders = [i for i, n in enumerate(counts) if n == most]
    return [award // len(holders) if i in holders else 0 for i in range(len(counts))]


def score_lines(tallies: Sequence[Tally]) -> list[list[tuple[str, int, dict[str, int]]]]:
    """Per side, the (label, points, params) lines of one game's scoring."""
    unicorns = _majority([t.unicorns for t in tallies], UNICORN_BONUS)
    fish = _majority([t.fish for t in tallies], FISH_PENALTY)
    out = []
    for side, t in enumerate(tallies):
        lines = []
        if unicorns[side]:
            lines.append(("safaru.line.most_unicorns", unicorns[side], {"count": t.unicorns}))
        if fish[side]:
            lines.append(("safaru.line.most_fish", fish[side], {"count": t.fish}))
        lines.append(("safaru.line.babies", BABY_PENALTY * t.babies, {"count": t.babies}))
        lines.append(("safaru.line.triangles", t.triangles, {"count": t.triangles}))
        out.append(lines)
    return out
