"""The end of Kapado's pile, searched exactly: the strong player's placement when few cards are left.

With a handful of cards in the pile the unseen number cards are few, and every way the rest of the
game can go is countable: each draw is one of the unseen cards (or a ban or wish card still in the
pile), the strong seat lays it where the search says, and the other seat lays it as the easy player
would (``games.kapado.computer.placed`` with the easy player's weights: an opponent model built only
from the public table). The search weighs each placement by the chance it wins the game (a tie half),
then by the cards it leads by, so near the end the seat plays for the win, not for the average.

Approximations, all on rare events: a wish card drawn in the search is taken (two cards to its drawer
and one fewer for the other seat, the tops unchanged) whenever the other seat has an open top, else
kept; a locked stack's key is any unseen card that could have gone face down there; a face-down card
laid in the search is known to the search. Two seats only: with more, the rule decides.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import TypeVar

from games.base import Action
from games.kapado.cards import DOUBLE, fit
from games.kapado.state import DEAD, LOCKED, OPEN, stack_id

#: The easy player's choice of move for a card: (card, its open tops, the bans, its legal moves, the
#: pile's size after the draw) to the move.
Model = Callable[[str, list[str | None], frozenset[int], list[Action], int], Action]

#: A tie is half a win; a card of lead is worth this much beside the chance of winning, so that among
#: placements that win as often the search keeps the one that leads by more.
LEAD = 0.001


class TooBig(Exception):
    """The search met its node budget: the rule decides instead."""


class Ending:
    """The rest of one game from the strong seat's turn, both seats' stacks as the seat sees them.

    ``tops``, ``locks`` and ``keys`` are per seat and stack (a top is None when the stack is not open
    or empty; a key is the bit set of the cards a locked stack's face-down top may be), ``numbers``
    the unseen number cards by bit, ``pile`` the number cards still in the pile (the unseen ones less
    the hidden face-down cards), ``wishes`` the wish cards still in the pile, ``bans`` per divisor its
    ban cards still in the pile."""

    def __init__(self, me: int, tops: list[list[str | None]], locks: list[list[int]], keys: list[list[int]],
                 numbers: dict[str, int], pile: int, wishes: int, bans: dict[int, int], banned: frozenset[int],
                 model: Model, budget: int) -> None:
        self.me, self.model, self.budget = me, model, budget
        self.per = len(tops[0])
        self.start = (tuple(map(tuple, tops)), tuple(map(tuple, locks)), tuple(map(tuple, keys)))
        self.numbers, self.pile, self.wishes = numbers, pile, wishes
        self.bans = tuple(sorted(bans.items()))
        self.banned = banned
        self.memo: dict[tuple[object, ...], float] = {}
        self.nodes = 0

    def values(self, card: str, legal: list[Action], lead: int) -> list[float]:
        """What laying ``card`` each way of ``legal`` is worth from a lead of ``lead`` cards (before
        this card): the chance of winning, then the lead; raises ``TooBig`` when the search outgrows its
        budget."""
        unseen = sum(self.numbers.values())
        tops, locks, keys = self.start
        return [self.laid(self.me, card, action.kind, int(action.arg.partition(":")[2]), tops, locks, keys, unseen,
                          self.pile, self.wishes, self.bans, self.banned, lead + 1) for action in legal]

    # -- the search ----------------------------------------------------------------------------------
    def laid(self, seat: int, card: str, kind: str, i: int, tops: tuple[tuple[str | None, ...], ...],
             locks: tuple[tuple[int, ...], ...], keys: tuple[tuple[int, ...], ...], unseen: int, pile: int,
             wishes: int, bans: tuple[tuple[int, int], ...], banned: frozenset[int], lead: int) -> float:
        """``seat`` lays ``card`` on its stack ``i`` (``lead`` already counts the card): each outcome's
        chance times what follows (a double fit draws again, else the other seat draws)."""
        row, shut, known = tops[seat], locks[seat], keys[seat]
        top = row[i]
        outcomes: list[tuple[float, bool, tuple[str | None, ...], tuple[int, ...], tuple[int, ...]]]
        if kind == "up":
            double = top is not None and fit(card, top, banned) == DOUBLE
            outcomes = [(1.0, double, _put(row, i, card), shut, known)]
        elif kind == "unlock":
            key = known[i] & unseen or known[i]
            fits = sum(1 for c, bit in self.numbers.items() if key & bit and fit(card, c, banned) == DOUBLE)
            odds = fits / max(1, sum(1 for bit in self.numbers.values() if key & bit))
            outcomes = [(odds, True, _put(row, i, card), _put(shut, i, OPEN), known),
                        (1.0 - odds, False, row, _put(shut, i, DEAD), known)]
        else:
            outcomes = [(1.0, False, _put(row, i, None), shut if shut[i] == DEAD else _put(shut, i, LOCKED),
                         _put(known, i, self.numbers.get(card, 0)))]
        total = 0.0
        for chance, double, new_row, new_shut, new_keys in outcomes:
            if chance:
                total += chance * self.draw(seat if double else 1 - seat, _put(tops, seat, new_row),
                                            _put(locks, seat, new_shut), _put(keys, seat, new_keys), unseen, pile,
                                            wishes, bans, banned, lead)
        return total

    def draw(self, seat: int, tops: tuple[tuple[str | None, ...], ...], locks: tuple[tuple[int, ...], ...],
             keys: tuple[tuple[int, ...], ...], unseen: int, pile: int, wishes: int,
             bans: tuple[tuple[int, int], ...], banned: frozenset[int], lead: int) -> float:
        """``seat`` draws: the game's worth to the strong seat over every card the pile may give."""
        size = pile + wishes + sum(n for _, n in bans)
        if not size:
            return (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0) + LEAD * lead
        state = (seat, tops, locks, keys, unseen, pile, wishes, bans, banned, lead)
        known = self.memo.get(state)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.budget:
            raise TooBig
        sign = 1 if seat == self.me else -1
        total = 0.0
        for k, (divisor, left) in enumerate(bans):
            if left:
                rest = _put(bans, k, (divisor, left - 1))
                total += left / size * self.draw(seat, tops, locks, keys, unseen, pile, wishes, rest,
                                                 banned ^ {divisor}, lead)
        if wishes:
            takes = any(top is not None for top in tops[1 - seat])
            swing = 3 if takes else 1
            total += wishes / size * self.draw(1 - seat, tops, locks, keys, unseen, pile, wishes - 1, bans, banned,
                                               lead + sign * swing)
        if pile:
            cards = [(c, bit) for c, bit in self.numbers.items() if unseen & bit]
            share = pile / size / len(cards)
            for card, bit in cards:
                total += share * self.lay(seat, card, tops, locks, keys, unseen & ~bit, pile - 1, wishes, bans,
                                          banned, lead + sign, size - 1)
        self.memo[state] = total
        return total

    def lay(self, seat: int, card: str, tops: tuple[tuple[str | None, ...], ...],
            locks: tuple[tuple[int, ...], ...], keys: tuple[tuple[int, ...], ...], unseen: int, pile: int,
            wishes: int, bans: tuple[tuple[int, int], ...], banned: frozenset[int], lead: int, deck: int) -> float:
        """``seat`` holds ``card``: the strong seat lays it where the game is worth most, the other
        seat where the easy player would (``deck``: the pile's size after the draw)."""
        legal = moves(card, tops[seat], locks[seat], banned, seat)
        if seat != self.me:
            legal = (self.model(card, list(tops[seat]), banned, list(legal), deck),)
        best = float("-inf")
        for action in legal:
            i = int(action.arg.partition(":")[2])
            best = max(best, self.laid(seat, card, action.kind, i, tops, locks, keys, unseen, pile, wishes, bans,
                                       banned, lead))
        return best


@lru_cache(maxsize=65536)
def moves(card: str, tops: tuple[str | None, ...], locks: tuple[int, ...], banned: frozenset[int],
          seat: int) -> tuple[Action, ...]:
    """The rules' placements of a drawn card (``Kapado.legal_actions`` on these stacks): face up where
    it fits an open top (or on an empty open stack), an unlock on a locked stack, face down only where
    it fits no open top."""
    ups: list[Action] = []
    unlocks: list[Action] = []
    alive: list[int] = []
    for i, (top, lock) in enumerate(zip(tops, locks, strict=True)):
        if lock == OPEN:
            alive.append(i)
            if top is None or fit(card, top, banned):
                ups.append(Action("up", stack_id(seat, i)))
        elif lock == LOCKED:
            alive.append(i)
            unlocks.append(Action("unlock", stack_id(seat, i)))
    if ups:
        return (*ups, *unlocks)
    return (*unlocks, *[Action("down", stack_id(seat, i)) for i in alive or range(len(tops))])


T = TypeVar("T")


def _put(row: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*row[:i], value, *row[i + 1:])


def easy_model(players: int, per: int, place: Callable[..., Action]) -> Model:
    """The easy player's placement as the search's model of the other seat (no noise), each position
    judged once."""
    rng = random.Random(0)
    seen: dict[tuple[object, ...], Action] = {}

    def model(card: str, tops: list[str | None], banned: frozenset[int], legal: list[Action], deck: int) -> Action:
        position = (card, tuple(tops), banned, tuple(legal), deck)
        action = seen.get(position)
        if action is None:
            action = seen[position] = place(card, tops, banned, legal, 0, players, per, deck / players, rng, 0.0)
        return action

    return model
