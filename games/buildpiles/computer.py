"""Computer players for the build-pile games.

Da Capo! and Skippo are both races to empty the own pile (Skippo: stock) onto shared build piles,
and a turn is many actions: plays, then a discard. So both levels think in whole turns. A
``Model`` turns what the seat sees into a small ``Turn`` (values only) and its ``plan`` searches
every sequence of plays the seat could make this turn, judging where each would leave the table:
own pile cards played, how near the next players are to their pile tops (feeding them is bad,
overtaking their needs is good), jokers kept, helper piles kept playable, and the best discard.
Cards turned up during the turn (a new pile top, a fresh hand) are unknown to the plan, so it stops
there and plans again once they are seen.

Easy follows a short plan (``Model.easy_limit`` positions: a few steps of the turn, then one step
at a time). Strong plans the whole turn and lets ``games.computer.strong`` compare the plan's best few
first moves by playing each out, in redealt worlds, to the start of the seat's next turn, with
every seat following its own plan, and judges that position (``BuildPileBrain.value``). Its time
is bounded by the positions its playouts plan (``BuildPileBrain.positions``), counted from a
fresh memo so that equal rngs still give equal moves.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from games.base import Action
from games.buildpiles.rules import BuildPileGame
from games.buildpiles.state import Table, TableView
from games.computer.brain import Brain

#: A value not known to the seat: a pile top turned up during the turn.
HIDDEN = -1

# A move of the plan, values only (``Model.action`` names the cards):
#   ("play", source, slot)              one card onto build slot ``slot``
#   ("run", joker sources, source, slot) Skippo: jokers covered by a natural card
#   ("aside",)                          Skippo: the stock's joker top set aside
#   ("draw",)                           Da Capo: four new cards for an empty hand
# A source: ("hand", value), ("helper", i), ("pile",), ("other", j) (j-th other seat), ("reserve",).
Move = tuple[Any, ...]


class Turn(NamedTuple):
    """The seat's side of the table in values (0 is a joker), as the plan changes it."""

    tops: tuple[int, ...]  # the build piles' top values, highest first (0: a free slot)
    hand: tuple[int, ...]  # sorted
    helpers: tuple[tuple[int, ...], ...]  # bottom → top
    pile: int  # own pile top, HIDDEN once played during the turn
    left: int  # cards in the own pile
    reserve: int  # Skippo: jokers set aside from the stock (they still count as stock)
    others: tuple[tuple[int, int], ...]  # the other seats in turn order: (pile top, cards left)


class Outlook(NamedTuple):
    """What stays fixed during the turn."""

    rivals: tuple[tuple[int, ...], ...]  # per other seat: the values it surely has (helper tops, reserve)
    start: tuple[int, ...]  # their pile sizes when the turn began
    drawable: bool  # Da Capo: an emptied hand can be refilled
    rules: tuple[Any, ...]  # the house rules the game's moves depend on (``Model.rules``)


class Sight(NamedTuple):
    """One seat's knowledge in card ids: its own cards and the public table."""

    seat: int
    build: tuple[tuple[str, ...], ...]
    pile_top: str | None
    pile_size: int
    hand: tuple[str, ...]
    helpers: tuple[tuple[str, ...], ...]
    reserve: tuple[str, ...]
    others: tuple[tuple[int, str | None, int, tuple[tuple[str, ...], ...], tuple[str, ...]], ...]
    drawable: bool
    rules: tuple[Any, ...]


def tops_of(build: tuple[tuple[str, ...], ...] | list[list[str]]) -> tuple[int, ...]:
    """The build piles' top values, highest first (a pile's top value is its length)."""
    return tuple(sorted((len(b) for b in build), reverse=True))


def sight(view: TableView, seat: int, rules: tuple[Any, ...]) -> Sight:
    me = view.seats[seat]
    n = len(view.seats)
    others = tuple((j, s.pile_top, s.pile_size, s.helpers, s.reserve)
                   for j, s in ((j % n, view.seats[j % n]) for j in range(seat + 1, seat + n)))
    return Sight(seat, view.build, me.pile_top, me.pile_size, view.hand, me.helpers, me.reserve, others,
                 view.draw_size + view.set_aside_size > 0, rules)


@dataclass(frozen=True, slots=True)
class Plan:
    value: float
    move: Move | None  # None: stop playing (discard or end the turn)


class TooBig(Exception):
    """A turn with too many ways to play: the plan falls back to one step of look-ahead."""


class Plans(threading.local):
    """Per thread: the plans finished so far, and the positions planned afresh since the last
    ``Model.restart`` (what a strong move has spent: it does not depend on earlier moves)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[Outlook, Turn], tuple[float, Move | None, int]] = {}
        self.work = 0


class Model:
    """One game's turn in values: moves, their effect, discards and the judgement of a position.

    Weights are in own pile cards (playing one is worth 1)."""

    top: int = 10
    value: ClassVar[dict[str, int]] = {}
    pile_name: str = "pile"
    #: Chance that an opponent's unknown hand holds a given value it needs (jokers included),
    #: and that the seat's own next refill brings one.
    rival_odds: float = 0.5
    own_odds: float = 0.35
    #: Reach of an opponent pile top the seat turned up itself (unknown yet).
    unknown_reach: float = 0.35
    #: Reach of a joker pile top (Da Capo: sure; Skippo: needs a natural card to cover it).
    joker_reach: float = 1.0
    danger: float = 1.2  # an opponent's expected pile cards when its top is within reach
    decay: float = 0.6  # the same for seats further on (others play in between)
    access: float = 0.4  # the seat's own chance of reaching its top next turn
    steal: float = 1.05  # an opponent pile card played by the seat (Da Capo)
    joker: float = 0.3  # a joker kept (in hand, set aside or on a helper top)
    hand_card: float = 0.06  # a card kept in hand (it takes the place of a fresh one)
    stuck: float = 0.12  # a helper card that cannot follow the card above it
    helper_pile: float = 0.05  # a helper slot in use
    draw_bonus: float = 0.25  # Da Capo: four fresh cards, beyond their chance to reach the top
    #: Positions one plan may look at before it falls back to one step of look-ahead (a move of
    #: the strong player's own seat, in the search and its playouts).
    limit: int = 2000
    #: The easy level looks only this far: a few steps of its turn, not every way to play it (the
    #: other seats in the strong player's playouts too).
    easy_limit: int = 30
    memo_size: int = 50_000

    def __init__(self) -> None:
        self.plans = Plans()
        self.reaches: dict[tuple[Any, ...], float] = {}
        self.privates: dict[tuple[Any, ...], float] = {}
        self.worths: dict[tuple[int, ...], float] = {}

    # -- reading the table ---------------------------------------------------------------------
    def read(self, s: Sight) -> tuple[Outlook, Turn]:
        v = self.value
        rivals = tuple(tuple(v[h[-1]] for h in helpers if h) + (0,) * len(reserve)
                       for _, _, _, helpers, reserve in s.others)
        out = Outlook(rivals, tuple(size for _, _, size, _, _ in s.others), s.drawable, s.rules)
        turn = Turn(
            tops_of(s.build), tuple(sorted(v[c] for c in s.hand)),
            tuple(tuple(v[c] for c in h) for h in s.helpers),
            v[s.pile_top] if s.pile_top is not None else HIDDEN, s.pile_size, len(s.reserve),
            tuple((v[top] if top is not None else HIDDEN, size) for _, top, size, _, _ in s.others),
        )
        return out, turn

    # -- the game's moves (subclasses) ---------------------------------------------------------
    def rules(self, options: Any) -> tuple[Any, ...]:
        """The house rules (from the game's options) that shape the moves."""
        return ()

    def moves(self, out: Outlook, t: Turn) -> list[Move]:
        raise NotImplementedError

    def discards(self, out: Outlook, t: Turn) -> list[tuple[int, int]]:
        """(hand value, helper slot) of every discard; an empty helper slot stands for all."""
        raise NotImplementedError

    def after(self, t: Turn, move: Move) -> Turn:
        raise NotImplementedError

    def action(self, move: Move, s: Sight, legal: list[Action]) -> Action | None:
        """The legal action ``move`` stands for (None if there is none)."""
        raise NotImplementedError

    # -- shared pieces of moves ----------------------------------------------------------------
    def sources(self, t: Turn) -> list[tuple[Move, int]]:
        """Every single card the seat may play now with its value: pile top (first: of equal
        plans, the one that turns up a new card first learns most), hand, helper tops."""
        out: list[tuple[Move, int]] = [(("pile",), t.pile)] if t.pile != HIDDEN and t.left else []
        out += [(("hand", v), v) for v in sorted(set(t.hand))]
        out += [(("helper", i), h[-1]) for i, h in enumerate(t.helpers) if h]
        return out

    def take(self, t: Turn, source: Move) -> Turn:
        """``t`` without the card at ``source``."""
        kind = source[0]
        if kind == "hand":
            hand = list(t.hand)
            hand.remove(source[1])
            return t._replace(hand=tuple(hand))
        if kind == "helper":
            i = source[1]
            return t._replace(helpers=(*t.helpers[:i], t.helpers[i][:-1], *t.helpers[i + 1:]))
        if kind == "pile":
            return t._replace(pile=HIDDEN, left=t.left - 1)
        if kind == "reserve":
            return t._replace(reserve=t.reserve - 1)
        j = source[1]
        _top, left = t.others[j]
        return t._replace(others=(*t.others[:j], (HIDDEN, left - 1), *t.others[j + 1:]))

    def card_value(self, t: Turn, source: Move) -> int:
        kind = source[0]
        if kind == "hand":
            value: int = source[1]
            return value
        if kind == "helper":
            return t.helpers[source[1]][-1]
        if kind == "pile":
            return t.pile
        if kind == "reserve":
            return 0
        return t.others[source[1]][0]

    def push(self, t: Turn, slot: int, count: int = 1) -> Turn:
        """``count`` more cards on the ``slot``-th build pile; a finished pile frees its slot. The
        piles stay sorted: which slot holds which pile never matters to the plan."""
        tops = list(t.tops)
        value = tops[slot] + count
        tops[slot] = 0 if value == self.top else value
        tops.sort(reverse=True)
        return t._replace(tops=tuple(tops))

    def targets(self, tops: tuple[int, ...], value: int) -> list[int]:
        """The slot a natural card of ``value`` fits (the first of equal ones: they are alike)."""
        return [tops.index(value - 1)] if value - 1 in tops else []

    @staticmethod
    def slots(tops: tuple[int, ...]) -> list[int]:
        """One slot per distinct top (a free slot too): where a joker may go."""
        return [i for i, top in enumerate(tops) if tops.index(top) == i]

    # -- judging a position --------------------------------------------------------------------
    def reach(self, tops: tuple[int, ...], target: int, have: tuple[int, ...], odds: float) -> float:
        """How likely a pile top of value ``target`` can be played: on the best build slot, the
        values in between come from ``have`` (jokers at 0), each missing one with ``odds``."""
        if target == HIDDEN:
            return 0.0
        if target == 0:
            return self.joker_reach
        key = (tops, target, have, odds)
        found = self.reaches.get(key)
        if found is not None:
            return found
        best = 0.0
        for top in set(tops):
            if top >= target or (top == 0 and 0 not in tops):
                continue
            pool = list(have)
            p = 1.0
            for need in range(top + 1, target):
                if need in pool:
                    pool.remove(need)
                elif 0 in pool:
                    pool.remove(0)
                else:
                    p *= odds
                    if p <= best:
                        break
            best = max(best, p)
        if len(self.reaches) >= self.memo_size:
            self.reaches.clear()
        self.reaches[key] = best
        return best

    def held(self, t: Turn) -> tuple[int, ...]:
        """The values the seat can use at the start of its next turn (besides its refill)."""
        return tuple(sorted(t.hand + tuple(h[-1] for h in t.helpers if h) + (0,) * t.reserve))

    def static(self, out: Outlook, t: Turn) -> float:
        """The position at the end of the seat's turn (after its discard)."""
        return self.public(out, t) + self.private(t)

    def public(self, out: Outlook, t: Turn) -> float:
        """What the discard cannot change: the piles, and how near the others are to theirs."""
        if t.left + t.reserve == 0:
            return 1000.0
        score = -float(t.left + t.reserve)
        weight = self.danger
        for j, (top, left) in enumerate(t.others):
            score -= self.steal * (out.start[j] - left)
            if top == HIDDEN:
                score -= weight * self.unknown_reach
            else:
                score -= weight * self.reach(t.tops, top, out.rivals[j], self.rival_odds)
            weight *= self.decay
        return score

    def private(self, t: Turn) -> float:
        """The seat's own cards: its chance at its pile top, jokers kept, hand and helper piles."""
        key = (t.tops, t.pile, t.hand, t.helpers, t.reserve)
        score = self.privates.get(key)
        if score is not None:
            return score
        score = 0.0
        if t.pile != HIDDEN:
            score += self.access * self.reach(t.tops, t.pile, self.held(t), self.own_odds)
        jokers = t.hand.count(0) + t.reserve + sum(1 for h in t.helpers if h and h[-1] == 0)
        score += self.joker * jokers - self.hand_card * len(t.hand)
        score += sum(self.helper_worth(h) for h in t.helpers)
        if len(self.privates) >= self.memo_size:
            self.privates.clear()
        self.privates[key] = score
        return score

    def helper_worth(self, helper: tuple[int, ...]) -> float:
        found = self.worths.get(helper)
        if found is None:
            if len(self.worths) >= self.memo_size:
                self.worths.clear()
            found = self.worths[helper] = self.judge_helper(helper)
        return found

    def judge_helper(self, helper: tuple[int, ...]) -> float:
        """A helper pile in use costs a little, and more for every card it buries."""
        return -(self.helper_pile + self.stuck * self.buried(helper)) if helper else 0.0

    def buried(self, helper: tuple[int, ...]) -> int:
        """Cards under the helper's playable run (each card beneath one higher than the one above;
        a joker follows anything)."""
        k, above = len(helper) - 1, helper[-1]
        while k > 0:
            below = helper[k - 1]
            if below and above and below != above + 1:
                break
            above = below or (above + 1 if above else 0)
            k -= 1
        return k

    def discard(self, t: Turn, value: int, slot: int) -> Turn:
        hand = list(t.hand)
        hand.remove(value)
        return t._replace(hand=tuple(hand), helpers=(*t.helpers[:slot], t.helpers[slot] + (value,), *t.helpers[slot + 1:]))

    def settle(self, out: Outlook, t: Turn) -> tuple[float, tuple[int, int] | None]:
        """Ending the turn now: the best discard and the value it leaves. A discard changes only
        the seat's own cards: one fewer in hand, one helper pile, and the card it covers."""
        public = self.public(out, t)
        choices = self.discards(out, t)
        if not choices:
            return public + self.private(t), None
        base = self.private(t) + self.hand_card
        held = self.held(t)
        access = self.access * self.reach(t.tops, t.pile, held, self.own_odds) if t.pile != HIDDEN else 0.0
        best: tuple[float, tuple[int, int] | None] = (float("-inf"), None)
        covered: dict[int, float] = {}
        for value, slot in choices:
            old = t.helpers[slot]
            score = base + self.helper_worth((*old, value)) - self.helper_worth(old)
            if old:
                top = old[-1]
                if top == 0:
                    score -= self.joker
                if t.pile != HIDDEN:
                    if top not in covered:
                        rest = list(held)
                        rest.remove(top)
                        covered[top] = self.access * self.reach(t.tops, t.pile, tuple(rest), self.own_odds) - access
                    score += covered[top]
            if score > best[0]:
                best = (score, (value, slot))
        return public + best[0], best[1]

    def leaf(self, out: Outlook, t: Turn, move: Move) -> float | None:
        """The value of a move whose outcome the seat cannot know yet, else None."""
        if move[0] == "draw":
            fresh = tuple(h[-1] for h in t.helpers if h)
            chance = self.reach(t.tops, t.pile, fresh, 1.0 - (1.0 - self.rival_odds) ** 1.5)
            return self.static(out, t) + self.draw_bonus + self.access * chance
        return None

    # -- planning ------------------------------------------------------------------------------
    def plan(self, out: Outlook, t: Turn, limit: int) -> Plan:
        """The best way to go on playing this turn from ``t``, looking at up to ``limit``
        positions (else one step ahead). Pure: equal input, equal plan. Every position the plan
        finished looking at is remembered with an upper bound of the positions below it, so a
        later plan from there is reused only where a fresh one would also have finished."""
        memo = self.plans.memo
        found = memo.get((out, t))
        if found is not None and found[2] <= limit:
            return Plan(found[0], found[1])
        seen: dict[Turn, tuple[Plan, int]] = {}
        try:
            plan = self._plan(out, t, seen, limit)
        except TooBig:
            plan = self._greedy(out, t)
        self.plans.work += len(seen)
        if len(memo) + len(seen) > self.memo_size:
            memo.clear()
        for turn, (p, size) in seen.items():
            old = memo.get((out, turn))
            if old is None or old[2] > size:
                memo[(out, turn)] = (p.value, p.move, size)
        return plan

    def restart(self) -> None:
        """Forget this thread's plans and start counting afresh (a strong move begins)."""
        self.plans.memo.clear()
        self.plans.work = 0

    def _plan(self, out: Outlook, t: Turn, seen: dict[Turn, tuple[Plan, int]], limit: int) -> Plan:
        found = seen.get(t)
        if found is not None:
            return found[0]
        if len(seen) >= limit:
            raise TooBig
        value, best = self.settle(out, t)[0], None
        for move in self.moves(out, t):
            v = self._score(out, t, move, seen, limit)
            if v > value + 1e-9:
                value, best = v, move
        plan = Plan(value, best)
        # Every position below is finished by now (moves never come back), so it is in ``seen``.
        seen[t] = (plan, len(seen) + 1)
        return plan

    def _score(self, out: Outlook, t: Turn, move: Move, seen: dict[Turn, tuple[Plan, int]], limit: int) -> float:
        """A move's value: the best plan after it."""
        return self._after_move(out, t, move, lambda nxt: self._plan(out, nxt, seen, limit).value)

    def _step(self, out: Outlook, t: Turn, move: Move) -> float:
        """A move's value one step ahead (for turns too big to plan)."""
        return self._after_move(out, t, move, lambda nxt: self.settle(out, nxt)[0])

    def _after_move(self, out: Outlook, t: Turn, move: Move, rest: Callable[[Turn], float]) -> float:
        """A move's value: its own where the move ends the look ahead, 1000 where it empties the
        pile, else ``rest`` of the position after it."""
        v = self.leaf(out, t, move)
        if v is not None:
            return v
        nxt = self.after(t, move)
        if nxt.left + nxt.reserve == 0:
            return 1000.0
        value = rest(nxt)
        if nxt.pile == HIDDEN and t.pile != HIDDEN:
            # The own pile turned up a card the plan cannot know (it plans again once seen):
            # what else the turn holds, and a fair chance that the new card goes on too.
            value += self.access * 0.5
        return value

    def _greedy(self, out: Outlook, t: Turn) -> Plan:
        value, best = self.settle(out, t)[0], None
        for move in self.moves(out, t):
            v = self._step(out, t, move)
            if v > value + 1e-9:
                value, best = v, move
        return Plan(value, best)

    def ranked(self, out: Outlook, t: Turn) -> list[tuple[float, Move]]:
        """Every first move (and every way to end the turn, as ("discard", value, slot) or
        ("stop",)) with the value of the best plan after it, best first (stable)."""
        scored: list[tuple[float, Move]] = []
        seen: dict[Turn, tuple[Plan, int]] = {}
        for move in self.moves(out, t):
            try:
                v = self._score(out, t, move, seen, self.limit)
            except TooBig:
                v = self._step(out, t, move)
            scored.append((v, move))
        ends = [(self.static(out, self.discard(t, value, slot)), ("discard", value, slot))
                for value, slot in self.discards(out, t)]
        scored += ends or [(self.static(out, t), ("stop",))]
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return [scored[i] for i in order]

    # -- choosing ------------------------------------------------------------------------------
    def choose(self, s: Sight, legal: list[Action], limit: int) -> Action:
        """The first move of the best plan, as a legal action."""
        out, t = self.read(s)
        plan = self.plan(out, t, limit)
        if plan.move is not None:
            action = self.action(plan.move, s, legal)
            if action is not None:
                return action
        return self.finish(out, t, s, legal)

    def finish(self, out: Outlook, t: Turn, s: Sight, legal: list[Action]) -> Action:
        """End the turn: the best discard, else ``end``."""
        _, choice = self.settle(out, t)
        if choice is not None:
            action = self.action(("discard", *choice), s, legal)
            if action is not None:
                return action
        for action in legal:
            if action.kind in ("end", "discard"):
                return action
        return legal[0]

    def shortlist(self, s: Sight, legal: list[Action], plays: int, ends: int, near: float) -> list[Action]:
        """The moves worth comparing: the own pile top when it can be played, alone or ending a
        joker run (nothing beats it; the search adds the plan's favourite, which may reach it
        with natural cards instead), else the ``plays`` best first plays and the ``ends`` best
        ways to end the turn, among those the plan values within ``near`` of its favourite."""
        out, t = self.read(s)
        own = [self.action(move, s, legal) for move in self.moves(out, t)
               if move[0] in ("play", "run") and self.after(t, move).left < t.left]
        if any(own):
            return [a for a in own if a is not None]
        picked: list[Action] = []
        n_plays = n_ends = 0
        ranked = self.ranked(out, t)
        for value, move in ranked:
            if value < ranked[0][0] - near:
                break
            ending = move[0] in ("discard", "stop")
            if (n_ends if ending else n_plays) >= (ends if ending else plays):
                continue
            action = self.action(move, s, legal) if move[0] != "stop" else self.finish(out, t, s, legal)
            if action is not None and action not in picked:
                picked.append(action)
                if ending:
                    n_ends += 1
                else:
                    n_plays += 1
        return picked or [self.choose(s, legal, self.limit)]

    # -- naming cards --------------------------------------------------------------------------
    def target(self, s: Sight, slot: int) -> str:
        """The engine's name of the plan's ``slot``-th build pile (by top value)."""
        value = tops_of(s.build)[slot]
        if not value:
            return "new"
        return f"b{next(i for i, b in enumerate(s.build) if len(b) == value) + 1}"

    def card_at(self, s: Sight, source: Move) -> tuple[str, str] | None:
        """(card id, source name) of a single-card source."""
        kind = source[0]
        if kind == "hand":
            for card in s.hand:
                if self.value[card] == source[1]:
                    return card, "hand"
            return None
        if kind == "helper":
            h = s.helpers[source[1]]
            return (h[-1], f"helper:{source[1] + 1}") if h else None
        if kind == "pile":
            return (s.pile_top, self.pile_name) if s.pile_top is not None else None
        if kind == "other":
            j, top, _, _, _ = s.others[source[1]]
            return (top, f"pile:seat{j}") if top is not None else None
        return None

    def common_action(self, move: Move, s: Sight, legal: list[Action]) -> Action | None:
        """Plays of one card and discards (both games name them alike)."""
        if move[0] == "play":
            found = self.card_at(s, move[1])
            if found is None:
                return None
            action = Action("play", f"{found[0]}@{found[1]}>{self.target(s, move[2])}")
        elif move[0] == "discard":
            found = self.card_at(s, ("hand", move[1]))
            if found is None:
                return None
            name = f"helper:{move[2] + 1}" if s.helpers[move[2]] else "new"
            action = Action("discard", f"{found[0]}>{name}")
        else:
            return None
        return action if action in legal else None


# -- the brain -----------------------------------------------------------------------------------
class Horizon:
    """Where a playout stops: after ``passes`` passes of the turn between the searching seat and
    the others (2: the others have played and the seat's next turn begins; 3: that turn is played
    too), or at the game's end. Playouts run one at a time: it counts for the playout state it
    last saw and starts again at a new one."""

    __slots__ = ("game_no", "mine", "passed", "passes", "seat", "state")

    def __init__(self, game_no: int, seat: int, passes: int) -> None:
        self.game_no, self.seat, self.passes = game_no, seat, passes
        self.state: Any = None
        self.passed, self.mine = 0, True

    def reached(self, state: Table) -> bool:
        if state is not self.state:
            self.state, self.passed, self.mine = state, 0, True
        mine = state.current == self.seat
        if mine != self.mine:
            self.passed += 1
            self.mine = mine
        return self.passed >= self.passes


class BuildPileBrain(Brain[BuildPileGame[Any], Table]):
    """Both levels for a build-pile game, given its ``Model``."""

    least, per_arm, most = 60, 16, 160
    cap = 300
    #: Candidates the search compares: the best first plays and the best ways to end the turn,
    #: among the moves the plan values within ``near`` (own pile cards) of its favourite.
    plays, ends, near = 3, 2, 0.6
    #: A won game against the cards left: winning is worth this many own pile cards.
    win = 12.0
    #: Playouts stop at the start of the seat's next turn (2) or after it (3).
    passes = 2
    #: Positions the playouts' plans may look at in all before the search decides (about half a
    #: second on the 2-core benchmark machine: its slowest moves are those that reach it).
    positions = 8_000
    #: The seat to act when a playout stops may play its pile top at once: its reach counts more.
    imminent = 0.8

    def __init__(self, model: Model, easy: Model | None = None) -> None:
        self.model = model
        #: The easy level's model, which the playouts also follow for the other seats (by default
        #: the strong level's: a game may give its strong player knowledge easy lacks).
        self.easy_model = easy if easy is not None else model
        self.searching = threading.local()  # the seat whose search runs in this thread

    def sight(self, game: BuildPileGame[Any], state: Table, seat: int) -> Sight:
        return sight(game.view(state, seat), seat, self.model.rules(state.options))

    def easy(self, game: BuildPileGame[Any], state: Table, seat: int, legal: list[Action], rng: random.Random) -> Action:
        return self.easy_model.choose(self.sight(game, state, seat), legal, self.easy_model.easy_limit)

    def default(self, game: BuildPileGame[Any], state: Table, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The whole turn planned (the easy level looks only a few steps ahead)."""
        return self.model.choose(self.sight(game, state, seat), legal, self.model.limit)

    def candidates(self, game: BuildPileGame[Any], state: Table, seat: int, legal: list[Action]) -> list[Action]:
        return self.model.shortlist(self.sight(game, state, seat), legal, self.plays, self.ends, self.near)

    def budget(self, game: BuildPileGame[Any], state: Table, arms: int) -> int:
        """Fewer playouts at a bigger table: each plays a turn for every other seat."""
        return super().budget(game, state, arms) * 3 // (state.players + 1)

    def policy(self, game: BuildPileGame[Any], state: Table, seat: int, rng: random.Random) -> Action:
        """Every seat follows its plan. The searching seat's own plan is the same in every
        redealt world (until a card turns up), so it is worth planning fully; the others' plans
        change with their redealt hands, so they look as far as the easy level: a longer look
        mostly ran out of positions and fell back to one step anyway, and spent nine tenths of
        a slow move's time."""
        legal = game.legal_actions(state, seat)
        if seat == getattr(self.searching, "seat", None):
            return self.model.choose(self.sight(game, state, seat), legal, self.model.limit)
        return self.easy_model.choose(self.sight(game, state, seat), legal, self.easy_model.easy_limit)

    def mark(self, game: BuildPileGame[Any], state: Table) -> Horizon:
        self.searching.seat = state.current
        self.model.restart()
        if self.easy_model is not self.model:
            self.easy_model.restart()
        return Horizon(state.game_no, state.current, self.passes)

    def spent(self, mark: Horizon, steps: int) -> bool:
        """Playouts plan every move: the positions planned (by both models) bound a move's time."""
        work = self.model.plans.work + (self.easy_model.plans.work if self.easy_model is not self.model else 0)
        return super().spent(mark, steps) or work >= self.positions

    def done(self, game: BuildPileGame[Any], mark: Horizon, state: Table) -> bool:
        return state.game_no != mark.game_no or state.over or mark.reached(state)

    def value(self, game: BuildPileGame[Any], mark: Horizon, state: Table, seat: int) -> float:
        """A finished game: ``finished``. Else, per seat, the cards left on its pile less what its
        own cards are worth (``Model.private``); against the best other seat."""
        if state.game_no != mark.game_no or state.over:
            return self.finished(mark, state, seat)
        m = self.model
        tops = tops_of(state.build)
        worth = []
        v = m.value
        for j, s in enumerate(state.seats):
            turn = Turn(tops, tuple(sorted(v[c] for c in s.hand)), tuple(tuple(v[c] for c in h) for h in s.helpers),
                        v[s.pile[-1]] if s.pile else HIDDEN, len(s.pile), len(s.reserve), ())
            worth.append(-len(s.pile) - len(s.reserve) + m.private(turn))
            if j == state.current and turn.pile != HIDDEN:
                worth[-1] += self.imminent * m.reach(tops, turn.pile, m.held(turn), m.own_odds)
        best = max(w for j, w in enumerate(worth) if j != seat)
        return worth[seat] - best

    def finished(self, mark: Horizon, state: Table, seat: int) -> float:
        """The game a playout finished: the win, and the cards left on the loser's pile."""
        winner = state.winners[mark.game_no - 1] if len(state.winners) >= mark.game_no else None
        if winner is None:
            return 0.0
        if winner == seat:
            return self.win + min(len(s.pile) + len(s.reserve) for j, s in enumerate(state.seats) if j != seat)
        return -self.win - len(state.seats[seat].pile) - len(state.seats[seat].reserve)
