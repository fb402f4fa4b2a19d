"""Skippo's joker runs: jokers may only go onto a build pile when a natural card covers them in
the same move (the house rules say so), so one or more jokers and the natural card that covers them are one
action, ``run:<joker>+<joker>+<natural>><target>``, played in that order onto one build pile.

Every card of a run must be face up before it is played (docs/rules-decisions.md D11): the hand, the set-aside
jokers, the stock top as it lies at the start, and the helper piles (whose cards are all face up,
so a helper's natural card under its jokers may cover them). Each joker stands for the next value;
a joker from a helper pile may stand only for values up to the card beneath it; a joker standing
for the king completes the pile, and then only a natural ace may follow. The stock top is blocked
until every set-aside joker has been played, in this run or before.

``legal_actions`` lists, per build pile and covering card, the runs with just enough jokers, one
per way of splitting them between their sources (hand, set-aside, stock top, each helper pile);
``check`` accepts any valid run, in any order of its jokers that keeps the limits.
"""

from __future__ import annotations

from collections.abc import Callable

from games.base import Action, IllegalAction
from games.buildpiles import HAND, HELPER, PILE, RESERVE, Table
from games.skippo.cards import TOP, VALUE, helper_value

Step = tuple[str, int, int]  # card, zone kind, index (helper slot)


def validate_run(table: Table, seat: int, cards: list[str], slot: int, chains: bool) -> list[Step]:
    """The steps of a legal run, or ``IllegalAction`` saying what is wrong with it."""
    if len(cards) < 2:
        raise IllegalAction("skippo.run_shape")
    if len(cards) > 2 and not chains:
        raise IllegalAction("skippo.no_chains")
    me = table.seats[seat]
    hand = me.hand[:]
    reserve = me.reserve[:]
    stock_top = me.pile[-1] if me.pile else None
    helpers = [h[:] for h in me.helpers]
    top = len(table.build[slot])
    after_king = False
    last = len(cards) - 1
    steps: list[Step] = []
    for i, card in enumerate(cards):
        value = VALUE.get(card)
        if value is None or (i < last) != (value == 0):
            raise IllegalAction("skippo.run_shape")
        cap = TOP
        if card in hand:
            hand.remove(card)
            step = (card, HAND, 0)
        elif card in reserve:
            reserve.remove(card)
            step = (card, RESERVE, 0)
        elif card == stock_top:
            if reserve:
                raise IllegalAction("skippo.stock_blocked")
            stock_top = None
            step = (card, PILE, 0)
        else:
            for j, h in enumerate(helpers):
                if h and h[-1] == card:
                    cap = helper_value(h)
                    h.pop()
                    step = (card, HELPER, j)
                    break
            else:
                raise IllegalAction("skippo.run_not_face_up")
        if value == 0:
            if after_king:
                raise IllegalAction("skippo.ace_after_king")
            top += 1
            if top > cap:
                raise IllegalAction("skippo.joker_cap", cap=cap)
            if top == TOP:
                after_king = True
                top = 0
        elif value != top + 1:
            if after_king:
                raise IllegalAction("skippo.ace_after_king")
            raise IllegalAction("skippo.wrong_value", need=top + 1)
        steps.append(step)
    return steps


def run_actions(table: Table, seat: int, chains: bool, make: Callable[[str, str], Action],
                names: tuple[str, ...]) -> list[Action]:
    """One run per build pile, covering card and split of the needed jokers between sources."""
    me = table.seats[seat]
    hand_jokers = [c for c in me.hand if not VALUE[c]]
    stock_joker = me.pile[-1] if me.pile and not VALUE[me.pile[-1]] else None
    reserve = me.reserve
    helper_chains: list[tuple[int, list[str], int]] = []  # cap, jokers top first, slot
    naturals: list[tuple[str, int]] = [(c, -1) for c in me.hand if VALUE[c]]  # card, helper slot or -1
    total = len(hand_jokers) + len(reserve) + (stock_joker is not None)
    for i, h in enumerate(me.helpers):
        k = len(h) - 1
        while k >= 0 and not VALUE[h[k]]:
            k -= 1
        jokers = h[:k:-1] if k >= 0 else h[::-1]
        if jokers:
            helper_chains.append((VALUE[h[k]] if k >= 0 else TOP, jokers, i))
            total += len(jokers)
        if k >= 0:
            naturals.append((h[k], i))
    if not total:
        return []
    stock_natural = me.pile[-1] if me.pile and stock_joker is None else None
    if stock_natural is not None:
        naturals.append((stock_natural, -2))
    helper_chains.sort(key=lambda chain: chain[0])
    free = table.free_slot()
    slots = [(i, len(p), names[i]) for i, p in enumerate(table.build) if p]
    if free >= 0:
        slots.append((free, 0, "new"))
    out: dict[str, Action] = {}
    for _slot, base, name in slots:
        for natural, where in naturals:
            v = VALUE[natural]
            need = TOP - base if v == 1 else v - 1 - base
            if need < 1 or need > total or (need > 1 and not chains):
                continue
            # Sources in play order: capped helper jokers (lowest cap first), set-aside, stock, hand.
            sources: list[tuple[list[str], int, int]] = []  # jokers, cap, at least
            for cap, jokers, i in helper_chains:
                sources.append((jokers, cap, len(jokers) if where == i else 0))
            n_helpers = len(sources)
            sources.append((reserve, TOP, len(reserve) if where == -2 else 0))
            if stock_joker is not None:
                sources.append(([stock_joker], TOP, 0))
            sources.append((hand_jokers, TOP, 0))
            _split(sources, 0, need, [], base, n_helpers, len(reserve), stock_joker is not None, natural, name,
                   make, out)
    return list(out.values())


def _split(sources: list[tuple[list[str], int, int]], index: int, left: int, chosen: list[str], value: int,
           n_helpers: int, n_reserve: int, has_stock: bool, natural: str, name: str,
           make: Callable[[str, str], Action], out: dict[str, Action]) -> None:
    if index == len(sources):
        if left == 0:
            arg = "+".join([*chosen, natural]) + ">" + name
            if len(arg) <= 50 and arg not in out:
                out[arg] = make("run", arg)
        return
    jokers, cap, least = sources[index]
    most = min(len(jokers), left)
    if index == n_helpers + 1 and has_stock and len([c for c in chosen if c in sources[n_helpers][0]]) < n_reserve:
        most = 0  # the stock top joker waits until every set-aside joker is played
    for count in range(least, most + 1):
        if count and value + count > cap:
            break  # no helper joker may stand above the card beneath it (taking none is fine)
        _split(sources, index + 1, left - count, chosen + jokers[:count], value + count, n_helpers, n_reserve,
               has_stock, natural, name, make, out)
