"""Safarü's catching and scoring rules, apart from the turn structure.

A catch is written as the played card followed by the methods used, each naming its table cards
with the ids run together (``r7a/add=g3b4/sev=k6/pair=k7b``). Run-together ids parse without a
separator because only the 1s and 7s carry a copy letter, which keeps even a big catch short.

Many free cards make tens of thousands of catches, so nothing here lists them all up front:
catches come lazily and each costs one pass over the free cards, lists stop at ``LISTED`` a card,
and ``splits`` turns the free cards a player picks into the (at most two) catches they make.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import chain, islice, product
from types import MappingProxyType

from games.base import IllegalAction
from games.deck import CARDS, ORDER, digit, split_cards

#: Which suit shows which animal. No public source names them: this is the project's own
#: assignment (docs/rules-decisions.md D1), stated in the help text. Change it here and nowhere else.
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


#: Catches a card lists at most: ``legal_actions`` and the hand's list stop there, and a card with
#: more is played by picking the free cards to take (``splits``); ``check`` accepts every catch.
LISTED = 100


def _sums(cards: Sequence[tuple[str, int]], target: int, least: int) -> Iterator[tuple[str, ...]]:
    """Every subset of nonzero ``(card, digit)`` pairs with digits summing to ``target`` and at least
    ``least`` cards, lazily: a bit set of the sums each suffix can still make prunes every branch
    that cannot reach the target, so each subset found costs at most one pass over the cards."""
    full = (1 << (SEVENTEEN + 1)) - 1
    reach = [1] * (len(cards) + 1)
    for i in range(len(cards) - 1, -1, -1):
        reach[i] = (reach[i + 1] | reach[i + 1] << cards[i][1]) & full
    stack: list[tuple[int, int, tuple[str, ...]]] = [(0, target, ())] if target > 0 else []
    while stack:  # depth first, taking a card before leaving it
        i, left, chosen = stack.pop()
        if left == 0:
            if len(chosen) >= least:
                yield chosen
            continue
        if not reach[i] >> left & 1:
            continue
        card, d = cards[i]
        stack.append((i + 1, left, chosen))
        if d <= left:
            stack.append((i + 1, left - d, (*chosen, card)))


@cache
def _zeros(count: int, zero: bool, add: bool, sev: bool, pair: bool,
           single_add: bool) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int | None], ...]:
    """The ways to place ``count`` free 0s next to the nonzero cards of a catch, as positions among
    the 0s: (adding, seventeen, pairing). ``zero``: the played card is a 0 too.

    Zeros change no sum; they join adding or seventeen when that method is used, and with a
    played 0 they are also its adding group and its pair. The baby rule wants one 0 taken by any
    catch that adds or makes seventeen while a 0 is free."""
    choices = ["-"] + (["add"] if add or zero else []) + (["sev"] if sev else []) \
        + (["pair"] if zero and not pair else [])
    out = []
    for placed in product(choices, repeat=count):
        z_add = tuple(i for i, p in enumerate(placed) if p == "add")
        z_sev = tuple(i for i, p in enumerate(placed) if p == "sev")
        z_pair = [i for i, p in enumerate(placed) if p == "pair"]
        if len(z_pair) > 1 or (zero and len(z_add) == 1) or (single_add and not z_add):
            continue
        adds = add or bool(z_add)
        if not (adds or sev or pair or z_pair):
            continue
        if count and (adds or sev) and not (z_add or z_sev or z_pair):
            continue  # the baby rule
        out.append((z_add, z_sev, z_pair[0] if z_pair else None))
    return tuple(out)


def _catches(card: str, table: Sequence[str]) -> Iterator[Catch]:
    """Every legal catch of ``card``, lazily and in a fixed order; none when it can only be released."""
    d = digit(card)
    nonzero = [(c, digit(c)) for c in table if digit(c)]
    zeros = [c for c in table if digit(c) == 0]
    least = 1 if zeros else 2  # a single card adds up only together with a 0
    order = {c: i for i, c in enumerate(table)}

    def joined(group: tuple[str, ...], places: tuple[int, ...]) -> tuple[str, ...]:
        if not places:
            return group
        return tuple(sorted(group + tuple(zeros[i] for i in places), key=order.__getitem__))

    for pair in [None, *(c for c, x in nonzero if x == d)]:
        free = [(c, x) for c, x in nonzero if c != pair]
        for add in chain([()], _sums(free, d, least)):
            rest = [(c, x) for c, x in free if c not in add] if add else free
            for sev in chain([()], _sums(rest, SEVENTEEN - d, 1)):
                for z_add, z_sev, z_pair in _zeros(len(zeros), d == 0, bool(add), bool(sev), pair is not None,
                                                   len(add) == 1):
                    yield Catch(card, joined(add, z_add), joined(sev, z_sev),
                                pair or (zeros[z_pair] if z_pair is not None else None))


def catches(card: str, table: Sequence[str], limit: int | None = None) -> list[Catch]:
    """The legal catches of ``card`` against ``table``, the first ``limit`` of them when given."""
    return list(islice(_catches(card, table), limit))


def can_catch(card: str, table: Sequence[str]) -> bool:
    return next(_catches(card, table), None) is not None


def plays(hand: Iterable[str], table: Sequence[str], limit: int | None = LISTED) -> list[Catch]:
    """Each card's catches (at most ``limit`` each), or its release when it cannot catch."""
    out: list[Catch] = []
    for card in hand:
        found = catches(card, table, limit)
        out += found if found else [Catch(card)]
    return out


def splits(card: str, taken: Sequence[str], table: Sequence[str]) -> list[Catch]:
    """The legal catches of ``card`` that take exactly ``taken``: at most two, one where the played
    card goes free and one where it pairs. Which methods a catch uses follows from the digit sum of
    what it takes, except that a sum of 17 may be adding and seventeen or pairing and seventeen;
    which of several same-digit cards pairs, and where the 0s go, change nothing."""
    if len(set(taken)) != len(taken) or any(c not in table for c in taken):
        return []
    d = digit(card)
    cards = sorted(taken, key=ORDER.__getitem__)
    pairing = next((c for c in cards if digit(c) == d), None)
    legal = []
    for catch in (_split(card, d, cards, None), _split(card, d, cards, pairing) if pairing else None):
        if catch is None:
            continue
        try:
            validate(catch, (card,), table)
        except IllegalAction:
            continue
        legal.append(catch)
    return legal


def _split(card: str, d: int, cards: Sequence[str], pair: str | None) -> Catch | None:
    """One way to take ``cards``, pairing ``pair`` when given; None when the sums rule it out."""
    rest = [c for c in cards if c != pair]
    nonzero = [(c, digit(c)) for c in rest if digit(c)]
    zeros = tuple(c for c in rest if digit(c) == 0)
    total = sum(x for _, x in nonzero)
    plain = tuple(c for c, _ in nonzero)
    if not rest:
        return Catch(card, pair=pair) if pair else None
    if total == 0:
        return Catch(card, add=zeros, pair=pair) if d == 0 else None
    if total == SEVENTEEN - d:
        return Catch(card, sev=plain + zeros, pair=pair)
    if total == d:
        return Catch(card, add=plain + zeros, pair=pair)
    if total == SEVENTEEN:
        add = next(_sums(nonzero, d, 1 if zeros else 2), None)
        if add is not None:
            return Catch(card, add=add + zeros, sev=tuple(c for c in plain if c not in add), pair=pair)
    return None


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
    """One pass over the pile, each card looked up once (the table and every hand show tallies)."""
    unicorn, fish = ANIMAL_COLOURS["unicorn"], ANIMAL_COLOURS["fish"]
    unicorns = fishes = babies = points = 0
    for cid in pile:
        card = CARDS[cid]
        unicorns += card.colour == unicorn
        fishes += card.colour == fish
        babies += card.digit == 0
        points += card.triangles
    return Tally(unicorns=unicorns, fish=fishes, babies=babies, triangles=points)


def _majority(counts: Sequence[int], award: int) -> list[int]:
    """The award split evenly among the sides with the most (none when nobody has any, docs/rules-decisions.md
    D22)."""
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
