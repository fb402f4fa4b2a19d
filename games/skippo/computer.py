"""Skippo: the build-pile planner (``games.buildpiles.computer``) with Skippo's moves.

Jokers reach a build pile only in a run covered by a natural card; the plan spends the jokers that
help most first: set-aside stock jokers and the stock's own joker (they are stock cards), then
helper jokers (within their caps), then hand jokers. A finished pile frees a slot for held aces,
helper piles never rise (by default), and an ace is never discarded.
"""

from __future__ import annotations

from typing import Any

from games.base import Action
from games.buildpiles.computer import HIDDEN, BuildPileBrain, Horizon, Model, Move, Outlook, Sight, Turn
from games.buildpiles.state import Table
from games.skippo.cards import TOP, VALUE

RESERVE, PILE, HAND_JOKER = ("reserve",), ("pile",), ("hand", 0)


def cap(helper: tuple[int, ...]) -> int:
    """The highest value a joker on top of this helper pile may stand for (``helper_value``)."""
    for v in reversed(helper):
        if v:
            return v
    return TOP


def joker_chain(helper: tuple[int, ...], slot: int) -> tuple[int, int, int] | None:
    """(cap, count, slot) of the jokers on top of a helper pile, None if its top is natural."""
    k = len(helper)
    while k and helper[k - 1] == 0:
        k -= 1
    return (cap(helper), len(helper) - k, slot) if k < len(helper) else None


class SkippoModel(Model):
    top = TOP
    value = VALUE
    pile_name = "stock"
    rival_odds = 0.45
    own_odds = 0.3
    joker_reach = 0.7
    hand_card = 0.04
    easy_limit = 10  # a Skippo turn has few plays: a shorter look keeps easy easy

    #: Room on the helper piles: a high top still takes most cards, a free slot takes any.
    room = 0.15
    joker = 0.7  # jokers only go on in runs, but a joker covers the one card a run lacks

    def judge_helper(self, helper: tuple[int, ...]) -> float:
        """Helper piles never rise, so a low top closes the pile to most cards (and a hand that
        cannot discard stalls the game)."""
        if not helper:
            return self.room * 1.2
        return super().judge_helper(helper) + self.room * cap(helper) / TOP

    def rules(self, options: Any) -> tuple[Any, ...]:
        """(helpers never rise, jokers may follow each other, any discard when stuck)."""
        return (options.helper_order == "non_increasing", options.allow_joker_chains,
                options.stuck_discard == "any")

    def moves(self, out: Outlook, t: Turn) -> list[Move]:
        naturals = [(s, v) for s, v in self.sources(t) if v and not (s == PILE and t.reserve)]
        moves: list[Move] = [("play", s, slot) for s, v in naturals for slot in self.targets(t.tops, v)]
        chains = sorted(chain for chain in map(joker_chain, t.helpers, range(len(t.helpers))) if chain)
        total = t.reserve + (t.pile == 0 and t.left > 0) + sum(c[1] for c in chains) + t.hand.count(0)
        if total:
            for slot in self.slots(t.tops):
                base = t.tops[slot]
                for source, v in naturals:
                    if 1 <= v - 1 - base <= total:
                        jokers = self.jokers(out, t, chains, source, v - 1 - base, base)
                        if jokers is not None:
                            moves.append(("run", jokers, source, slot))
        if t.pile == 0 and t.left > 1:
            moves.append(("aside",))
        return moves

    def jokers(self, out: Outlook, t: Turn, chains: list[tuple[int, int, int]], natural: Move, need: int,
               base: int) -> tuple[Move, ...] | None:
        """The jokers to fill ``need`` values above ``base``, in the order the engine plays them
        (helper jokers, lowest cap first, then set-aside, stock and hand), or None."""
        if need > 1 and not out.rules[1]:
            return None
        reserve = min(t.reserve, need)
        if natural == PILE and reserve < t.reserve:
            return None  # the stock top waits for every set-aside joker
        left = need - reserve
        stock = 1 if left and t.pile == 0 and t.left and reserve == t.reserve else 0
        left -= stock
        helpers: list[Move] = []
        for limit, count, i in chains:
            for _ in range(count):
                if left and base + len(helpers) + 1 <= limit:
                    helpers.append(("helper", i))
                    left -= 1
        hand = min(t.hand.count(0), left)
        left -= hand
        if left:
            return None
        return (*helpers, *(RESERVE,) * reserve, *(PILE,) * stock, *(HAND_JOKER,) * hand)

    def push(self, t: Turn, slot: int, count: int = 1) -> Turn:
        """As in the engine, a freed slot takes the aces held in hand."""
        finished = t.tops[slot] + count == TOP
        t = super().push(t, slot, count)
        if finished and 1 in t.hand:
            hand, tops = list(t.hand), list(t.tops)
            while 1 in hand and 0 in tops:
                hand.remove(1)
                tops[tops.index(0)] = 1
            tops.sort(reverse=True)
            t = t._replace(hand=tuple(hand), tops=tuple(tops))
        return t

    def after(self, t: Turn, move: Move) -> Turn:
        if move[0] == "aside":
            return t._replace(pile=HIDDEN, left=t.left - 1, reserve=t.reserve + 1)
        if move[0] == "play":
            return self.push(self.take(t, move[1]), move[2])
        _, jokers, natural, slot = move
        for source in (*jokers, natural):
            t = self.take(t, source)
        return self.push(t, slot, len(jokers) + 1)

    def discards(self, out: Outlook, t: Turn) -> list[tuple[int, int]]:
        """By the order rule (when the house rules have it); when stuck, maybe anywhere."""
        return self._discards(t, out.rules[0]) or (self._discards(t, False) if out.rules[2] else [])

    def _discards(self, t: Turn, ordered: bool) -> list[tuple[int, int]]:
        empty = [i for i, h in enumerate(t.helpers) if not h][:1]
        out = []
        for v in sorted(set(t.hand)):
            if v == 1:
                continue
            for i, h in enumerate(t.helpers):
                if h and (not ordered or not v or v <= cap(h)):
                    out.append((v, i))
            out += [(v, i) for i in empty]
        return out

    def action(self, move: Move, s: Sight, legal: list[Action]) -> Action | None:
        if move[0] == "aside":
            action = Action("aside", s.pile_top or "")
            return action if action in legal else None
        if move[0] != "run":
            return self.common_action(move, s, legal)
        _, jokers, natural, slot = move
        want = (natural, self.target(s, slot), tuple(sorted(jokers)))
        for action in legal:
            if action.kind == "run" and self.signature(action.arg, s) == want:
                return action
        return None

    def signature(self, arg: str, s: Sight) -> tuple[Any, ...]:
        """(natural source, target, joker sources sorted) of a legal run."""
        body, _, target = arg.rpartition(">")
        cards = body.split("+")
        jokers = tuple(sorted(self.source_of(c, s) for c in cards[:-1]))
        return self.source_of(cards[-1], s), target, jokers

    def source_of(self, card: str, s: Sight) -> Move:
        if card in s.reserve:
            return RESERVE
        if card == s.pile_top:
            return PILE
        if card in s.hand:
            return ("hand", VALUE[card])
        for i, h in enumerate(s.helpers):
            if card in h:
                return ("helper", i)
        return ("unknown", card)


class CountingModel(SkippoModel):
    """The strong player's model: it also counts what its helper cards will cost when the game
    ends (docs/rules-decisions.md D36). A discard stays on its helper pile unless played on, and
    leftovers decide games: between easy players, the one who empties the stock loses on points
    in about one decided game in five. So a helper card played is worth more than a hand card
    played (the hand refills)."""

    #: Own pile cards per card on a helper pile.
    leftover = 0.35

    def judge_helper(self, helper: tuple[int, ...]) -> float:
        return super().judge_helper(helper) - self.leftover * len(helper)


class SkippoBrain(BuildPileBrain):
    """Skippo's search samples more: a turn has few plays, so its playouts are cheap, and the
    arms' values differ by less than the noise of a few dozen redealt hands (a won game swings
    one by 12 points). Its playouts judge a finished game by its points, as the scoring does."""

    least, per_arm, most = 90, 24, 240
    #: Own pile cards per point of a finished game's margin (beyond winning it).
    point = 0.1

    def finished(self, mark: Horizon, state: Table, seat: int) -> float:
        """The game a playout finished: won or lost on points (leftover cards count against the
        one who emptied the stock too), and by how many."""
        lines = state.history[mark.game_no - 1].lines
        points = [sum(line.points for line in lines if line.seat == j) for j in range(state.players)]
        margin = points[seat] - max(p for j, p in enumerate(points) if j != seat)
        return (margin > 0) * self.win - (margin < 0) * self.win + self.point * margin


BRAIN = SkippoBrain(CountingModel(), easy=SkippoModel())
