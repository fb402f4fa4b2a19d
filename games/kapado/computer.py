"""Kapado: take the double fit now, keep stack tops that invite double fits, take what hurts most.

Every drawn card ends up owned, face up or face down, so a card is never lost; what wins is
drawing more often. Extra draws come from double fits (colour and number), so a player wants open
stack tops that many of the remaining cards fit doubly: ``prospect`` measures that. A card that
fits nowhere is better spent on trying a locked stack (it is useless while locked) than on locking
an open one.

The easy player weighs its tops as if they stood for the rest of the game over the whole deck, so
it often lays a card where it fits singly to keep a top it likes and lets the extra draw go. The
strong player knows a top lasts a few turns only (every card laid replaces one of five), so it
weighs its tops over ``HORIZON`` turns: a double fit now is worth more than a slightly better top
later. It counts only the number cards it has not seen (the face-up cards are out of the pile)
under the bans in force, and takes with a wish card the top it lays best itself and whose loss
costs its owner most. It lays a card looking one draw further (``Table.ahead``): for each place,
the best it could do with every unseen card it may draw next, which sees a top that only catches
cards that would otherwise lock a stack; it weighs the tops that draw on under the bans a ban card
still in the pile may toggle by then (``Judgement.flips``), so it keeps a top whose double fits a
lifted ban would bring back. Those are its only choices (the extra draw is always
drawn), so it plays that favourite without playouts (``KapadoBrain.candidates`` says why); the
expert searches. With at most ``Judgement.ending`` number cards left in the pile it counts every
way the game can still go instead (``games.kapado.ending``, the other seat laying as the easy
player would) and lays for the win.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import cast

from games.base import Action
from games.computer.brain import Brain, margin
from games.kapado.cards import BAN, COLOUR, DECK, DOUBLE, KIND, NUMBER, VALUE, WISH, fit
from games.kapado.ending import Ending, TooBig, easy_model
from games.kapado.rules import Kapado
from games.kapado.state import (
    DEAD,
    EXTRA,
    LOCK_NAMES,
    LOCKED,
    OPEN,
    PLACE,
    KapadoState,
    KapadoView,
    card_counts,
    parse_stack,
)
from games.kapado.state import WISH as WISH_PHASE

_NUMBERS = [c for c in DECK.ids if KIND[c] == NUMBER]
#: Each number card's bit in the bit sets of number cards.
BIT: dict[str, int] = {c: 1 << i for i, c in enumerate(_NUMBERS)}
#: Per divisor, the deck's ban cards for it.
BANS: dict[int, int] = {VALUE[c]: sum(1 for o in DECK.ids if KIND[o] == BAN and VALUE[o] == VALUE[c])
                        for c in DECK.ids if KIND[c] == BAN}
#: Every number card of the deck.
EVERY = (1 << len(_NUMBERS)) - 1
_NO_BANS: frozenset[int] = frozenset()
#: Turns a stack top is weighed over by the strong player: with five stacks a top is covered
#: within a few turns, so its worth beyond that is not the seat's to count on.
HORIZON = 3.0


@cache
def fitting(card: str, banned: frozenset[int] = _NO_BANS) -> int:
    """The number cards that would fit ``card`` at all (colour or number) under ``banned``, as a bit set."""
    return sum(BIT[o] for o in _NUMBERS if o != card and fit(o, card, banned))


@cache
def doubles(card: str, banned: frozenset[int] = _NO_BANS) -> int:
    """The number cards that would fit ``card`` doubly under ``banned``, as a bit set."""
    return sum(BIT[o] for o in _NUMBERS if o != card and fit(o, card, banned) == DOUBLE)


def prospect(tops: list[str | None], unseen: int = EVERY, banned: frozenset[int] = _NO_BANS) -> float:
    """The share of the ``unseen`` number cards that would fit one of ``tops`` doubly."""
    bits = 0
    for top in tops:
        if top is not None:
            bits |= doubles(top, banned)
    return (bits & unseen).bit_count() / (unseen.bit_count() or 1)


def seen_bits(cards: Iterable[str | None]) -> int:
    """The number cards among ``cards`` (None: a face-down card not seen), as a bit set."""
    bits = 0
    for card in cards:
        if card is not None:
            bits |= BIT.get(card, 0)
    return bits


@lru_cache(maxsize=8192)
def _stack_bits(stack: tuple[str, ...]) -> int:
    return seen_bits(stack)


def unseen_in(state: KapadoState) -> int:
    """The number cards not face up and not the drawn card in a (determinized) state: what the
    player to act there cannot see."""
    seen = 0
    for stack in state.stacks:
        seen |= _stack_bits(stack)
    seen &= ~seen_bits(state.face_down)
    if state.drawn is not None:
        seen |= BIT.get(state.drawn, 0)
    return EVERY & ~seen


def unseen_by(view: KapadoView) -> int:
    """The number cards ``view``'s seat has not seen: the pile and every hidden card."""
    seen = seen_bits((view.drawn,))
    for row in view.stacks:
        for s in row:
            seen |= seen_bits(s.cards)
    return EVERY & ~seen


def place(card: str, tops: list[str | None], banned: frozenset[int], legal: list[Action], seat: int,
          players: int, per: int, turns: float, rng: random.Random, noise: float, unseen: int = EVERY,
          judged: frozenset[int] = _NO_BANS) -> Action:
    """The placing move for ``card``. ``tops`` are the seat's open tops by stack (None: locked, dead
    or empty), ``turns`` how many more turns its tops are weighed over, ``unseen`` and ``judged``
    the cards and bans ``prospect`` weighs them with."""
    return placed(card, tops, banned, legal, players, per, turns, rng, noise, unseen, judged)[0]


def placed(card: str, tops: list[str | None], banned: frozenset[int], legal: list[Action], players: int,
           per: int, turns: float, rng: random.Random, noise: float, unseen: int,
           judged: frozenset[int], keys: list[int] | None = None) -> tuple[Action, float]:
    """``place``'s move with its score (``Prospects.scored``). ``keys`` are the cards each locked stack's
    key may be (else any unseen card)."""
    prospects = Prospects(tops, banned, unseen, turns, [(1.0, judged)], judged)
    news = prospects.news(card)
    best, best_score = legal[0], float("-inf")
    for action in legal:
        _, i = parse_stack(action.arg, players, per)  # type: ignore[misc]
        may = unseen if keys is None else keys[i]
        score = prospects.scored(card, action.kind, i, news, may) + rng.random() * noise
        if score > best_score:
            best, best_score = action, score
    return best, best_score


@lru_cache(maxsize=1024)
def _reach(weight: float, n: int) -> tuple[float, ...]:
    """``weight`` times the share of ``n`` unseen cards that 0 to ``n`` of them make."""
    return tuple(weight * (k / n) for k in range(n + 1))


class Prospects:
    """A seat's open tops as bit sets, the one form in which a placement is scored (by ``placed`` for a
    card in hand and by ``Table.next_draw`` for every card the seat may draw next): per stack, the
    unseen cards the other tops take doubly under each ban regime the tops are weighed over, so a
    placement costs a few bit operations. ``weight`` is how many turns a top's worth counts (a share
    of the unseen cards taken doubly is worth ``weight`` times that share), ``unlocking`` the bans an
    unlock's odds are judged under."""

    def __init__(self, tops: list[str | None], banned: frozenset[int], unseen: int, weight: float,
                 regimes: list[tuple[float, frozenset[int]]], unlocking: frozenset[int]) -> None:
        self.unseen, self.unlocking = unseen, unlocking
        #: Per stack, the cards that fit its top doubly under the bans in force: a double fit now.
        self.doubled = [doubles(top, banned) if top is not None else 0 for top in tops]
        #: By how many unseen cards would fit a top doubly: what the tops are worth.
        self.reach = _reach(weight, unseen.bit_count() or 1)
        #: Per ban regime (its chance, its bans), what the other tops take doubly beside each stack.
        self.regimes: list[tuple[float, frozenset[int], list[int]]] = []
        for chance, bans in regimes:
            won = [doubles(top, bans) & unseen if top is not None else 0 for top in tops]
            before, after = [0], [0]
            for bits in won[:-1]:
                before.append(before[-1] | bits)
            for bits in won[:0:-1]:
                after.append(after[-1] | bits)
            self.regimes.append((chance, bans, [b | a for b, a in zip(before, after[::-1], strict=True)]))

    def news(self, card: str) -> list[tuple[float, list[int], int]]:
        """Per ban regime: its chance, the other tops' cards beside each stack, and what ``card``
        itself would take doubly as a top."""
        return [(chance, others, doubles(card, bans) & self.unseen) for chance, bans, others in self.regimes]

    def scored(self, card: str, kind: str, i: int, news: list[tuple[float, list[int], int]], may: int) -> float:
        """Laying ``card`` on stack ``i`` (``kind``: up, unlock or down): an extra draw now (1) and the
        tops' worth after it (``news``: ``self.news(card)``); an unlock opens the stack (a double fit)
        with the odds that the key is among ``may`` and fits the card doubly."""
        reach = self.reach
        if kind == "up":
            return ((1.0 if self.doubled[i] & BIT[card] else 0.0)
                    + sum(chance * reach[(others[i] | new).bit_count()] for chance, others, new in news))
        stays = sum(chance * reach[others[i].bit_count()] for chance, others, _ in news)
        if kind == "unlock":
            odds = (doubles(card, self.unlocking) & may).bit_count() / (may.bit_count() or 1)
            opens = sum(chance * reach[(others[i] | new).bit_count()] for chance, others, new in news)
            return odds * (1.0 + opens) + (1.0 - odds) * stays
        return stays


def take(legal: list[Action], owner_of: dict[str, int], counts: list[int]) -> Action:
    """A wish card: take from the player with the most cards (keep it when nothing is takeable)."""
    takes = [a for a in legal if a.kind == "take"]
    if not takes:
        return legal[-1]
    return max(takes, key=lambda a: (counts[owner_of[a.arg]], DOUBLES[a.arg].bit_count(), a.arg))


#: A seat's stacks as the strong player weighs them: open tops, locks and what each key may be.
Stacks = tuple[list[str | None], list[int], list[int]]

#: Per number card, the number cards that fit it doubly (no bans), as a bit set.
DOUBLES: dict[str, int] = {c: doubles(c) for c in _NUMBERS}


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the strong player's placements and takes weigh (``Table``)."""

    #: Turns a stack top is weighed over: with five stacks a top is covered within a few turns, so
    #: its worth beyond that is not the seat's to count on.
    horizon: float = HORIZON
    #: The seat's next draw beside an extra draw now (1).
    ahead: float = 1.0
    #: A take: what the owner loses (the worth of their tops) beside what the seat gains.
    deny: float = 1.0
    #: Draws per seat and weighed turn, by which a ban card still in the pile may come and toggle
    #: its divisor before the tops' worth is drawn on (a turn draws two or three cards).
    flips: float = 2.0
    #: Number cards left in the pile at which the end of the game is searched exactly (``end_search``).
    ending: float = 6.0


class Table:
    """The table in the strong player's terms, read from its seat's view: every seat's open tops,
    the face-up card under each top (None: hidden or nothing), each stack's lock, the bans, the
    unseen cards and the turns the tops are weighed over."""

    def __init__(self, players: int, per: int, tops: list[list[str | None]], below: list[list[str | None]],
                 locks: list[list[int]], banned: frozenset[int], unseen: int, deck: int,
                 judgement: Judgement = Judgement(), middle: tuple[str, ...] = ()) -> None:
        self.players, self.per, self.tops, self.below, self.locks = players, per, tops, below, locks
        self.banned, self.unseen, self.deck, self.judgement = banned, unseen, deck, judgement
        #: Per stack, the cards its face-down top may be: a card went face down only where it fit no
        #: open top, so never in the colour of the face-up card it lies on (nor a 1, which fits all).
        self.keys = [[unseen & ~key_misfits(b) for b in row] for row in below]
        self.turns = min(judgement.horizon, deck / players)
        #: The turns the tops are weighed over from the seat's next draw on.
        self.later = max(0.0, min(judgement.horizon, deck / players - 1))
        self.numbers = [c for c in _NUMBERS if unseen & BIT[c]]
        #: The bans the tops' worth is judged under, each with its chance: a ban card still in the
        #: pile toggles its divisor when drawn, and some ``flips`` draws per seat and turn come first;
        #: a divisor's ban is toggled when an odd number of its cards come in those draws.
        draws = min(deck, round(judgement.flips * self.later * players))
        self.regimes = [(1.0, banned)]
        for divisor, left in bans_left(middle).items():
            odd = (1.0 - (1.0 - 2.0 * left / deck) ** draws) / 2.0 if left and draws else 0.0
            if odd:
                self.regimes = ([(chance * (1.0 - odd), bans) for chance, bans in self.regimes]
                                + [(chance * odd, bans ^ {divisor}) for chance, bans in self.regimes])

    def ahead(self, seat: int, card: str, legal: list[Action]) -> Action:
        """Where to lay ``card``, weighed one draw further than ``lay``: an extra draw now, then the
        best the seat can do with each unseen card it may draw next on the stacks the move leaves.
        A single fit's choice of top (a third of the seat's placements) is what this decides: it
        sees which tops the next card will want, not only how many cards fit them doubly."""
        stacks = (self.tops[seat], self.locks[seat], self.keys[seat])
        return max(legal, key=lambda action: self.laid(stacks, card, action.kind, self.index(action)))

    def index(self, action: Action) -> int:
        """The seat's stack an action lays on."""
        return parse_stack(action.arg, self.players, self.per)[1]  # type: ignore[index]

    def outcomes(self, stacks: Stacks, card: str, kind: str, i: int) -> list[tuple[float, float, Stacks]]:
        """Laying ``card`` on stack ``i`` (``kind``: up, unlock or down) of ``stacks`` (tops, locks and
        keys): each outcome's chance, the extra draws it earns now, and the stacks it leaves."""
        tops, locks, keys = stacks
        after, shut, known = tops[:], locks[:], keys[:]
        after[i] = card
        if kind == "up":
            top = tops[i]
            double = top is not None and fit(card, top, self.banned) == DOUBLE
            return [(1.0, 1.0 if double else 0.0, (after, locks, keys))]
        if kind == "unlock":
            odds = (doubles(card, self.banned) & keys[i]).bit_count() / (keys[i].bit_count() or 1)
            shut[i] = OPEN
            dead = locks[:]
            dead[i] = DEAD
            return [(odds, 1.0, (after, shut, keys)), (1.0 - odds, 0.0, (tops, dead, keys))]
        after[i] = None
        if locks[i] != DEAD:
            shut[i] = LOCKED
        known[i] = self.unseen & ~key_misfits(tops[i])
        return [(1.0, 0.0, (after, shut, known))]

    def laid(self, stacks: Stacks, card: str, kind: str, i: int) -> float:
        """``ahead``'s worth of laying ``card`` on stack ``i``: the extra draw now, then the next draw."""
        weight = self.judgement.ahead
        return sum(odds * (now + weight * self.next_draw(*after))
                   for odds, now, after in self.outcomes(stacks, card, kind, i))

    def next_draw(self, tops: list[str | None], locks: list[int], keys: list[int]) -> float:
        """What the seat's next draw is worth with these stacks: over the unseen number cards, the
        mean of the best placement each allows (``Prospects.scored``; none when the pile is empty),
        its tops' worth weighed over the bans a ban card still in the pile may bring (``regimes``)."""
        if not self.deck or not self.numbers:
            return 0.0
        prospects = Prospects(tops, self.banned, self.unseen, self.later, self.regimes, self.banned)
        per = len(tops)
        takes = [(fitting(top, self.banned) if top is not None else EVERY) if locks[i] == OPEN else 0
                 for i, top in enumerate(tops)]
        opened = [i for i in range(per) if locks[i] == OPEN]
        shut = [i for i in range(per) if locks[i] == LOCKED]
        alive = [i for i in range(per) if locks[i] != DEAD] or list(range(per))
        scored = prospects.scored
        total = 0.0
        for card in self.numbers:
            bit, news = BIT[card], prospects.news(card)
            ups = [scored(card, "up", i, news, 0) for i in opened if takes[i] & bit]
            unlocks = [scored(card, "unlock", i, news, keys[i]) for i in shut]
            downs = [] if ups else [scored(card, "down", i, news, 0) for i in alive]
            total += max(ups + unlocks + downs)
        return total / len(self.numbers)

    def worth(self, tops: list[str | None]) -> float:
        return self.turns * prospect(tops, self.unseen, self.banned)

    def lay(self, seat: int, card: str, legal: list[Action], rng: random.Random) -> tuple[Action, float]:
        return placed(card, self.tops[seat], self.banned, legal, self.players, self.per, self.turns, rng, 0.0,
                      self.unseen, self.banned, self.keys[seat])

    def wish(self, seat: int, legal: list[Action], ways: Callable[[Action], list[Action]],
             rng: random.Random) -> Action:
        """The top to take: laid best by the seat (``ways``: where it may lay the card a take gives),
        plus what its loss costs its owner (the card under it becomes their top, or nothing when that
        is face down and locks the stack again)."""
        best, best_score = legal[-1], float("-inf")
        for action in legal:
            if action.kind != "take":
                continue
            owner, i = next((s, i) for s in range(self.players) if s != seat
                            for i, top in enumerate(self.tops[s]) if top == action.arg)
            mine = self.lay(seat, action.arg, ways(action), rng)[1]
            after = self.tops[owner][:]
            after[i] = self.below[owner][i]
            deny = self.judgement.deny
            score = mine + deny * self.worth(self.tops[owner]) - deny * self.worth(after)
            if score > best_score:
                best, best_score = action, score
        return best


def bans_left(middle: tuple[str, ...]) -> dict[int, int]:
    """Per banned divisor, its ban cards not yet drawn (``middle``: those drawn this game)."""
    left = dict(BANS)
    for card in middle:
        left[VALUE[card]] -= 1
    return left


@cache
def key_misfits(below: str | None) -> int:
    """The cards that cannot have gone face down onto ``below`` (None: nothing known): every card that
    fits it by colour, and the 1s, which fit every card by number."""
    if below is None or VALUE[below] == 1:
        return 0
    return sum(BIT[c] for c in _NUMBERS if COLOUR[c] == COLOUR[below] or VALUE[c] == 1)


def _table_of_view(view: KapadoView, judgement: Judgement = Judgement()) -> Table:
    tops = [[s.top if s.lock == "open" else None for s in row] for row in view.stacks]
    below = [[s.cards[-2] if len(s.cards) > 1 and not s.face_down[-2] else None for s in row]
             for row in view.stacks]
    locks = [[LOCK_NAMES.index(s.lock) for s in row] for row in view.stacks]
    return Table(view.players, len(view.stacks[0]), tops, below, locks, frozenset(view.banned), unseen_by(view),
                 view.deck, judgement, view.middle)


#: Positions the end-of-pile search may weigh for one move before it leaves the move to the rule.
ENDING_BUDGET = 10_000
#: Search values this close are the same (sums of the same chances in another order): the rule chooses.
TIE = 1e-9
#: The wish cards in the deck.
WISHES = sum(1 for c in DECK.ids if KIND[c] == WISH)


def end_search(view: KapadoView, table: Table, legal: list[Action]) -> Action | None:
    """The placement the exact search of the rest of the game finds (``games.kapado.ending``), when
    the pile holds at most ``Judgement.ending`` number cards and the search fits its budget (else
    None); among placements it finds equal, the rule's (``Table.ahead``)."""
    bans = bans_left(view.middle)
    wishes = WISHES - sum(map(len, view.wishes))
    pile = view.deck - wishes - sum(bans.values())
    if pile > table.judgement.ending:
        return None
    seat = view.seat
    assert seat is not None
    numbers = {c: BIT[c] for c in table.numbers}
    search = Ending(seat, table.tops, table.locks, table.keys, numbers, pile, wishes, bans, table.banned,
                    easy_model(view.players, table.per, place), ENDING_BUDGET)
    lead = view.counts[seat] - max(n for s, n in enumerate(view.counts) if s != seat)
    try:
        values = search.values(view.held, legal, lead)
    except TooBig:
        return None
    best = max(values)
    tied = [action for action, value in zip(legal, values, strict=True) if value >= best - TIE]
    return tied[0] if len(tied) == 1 else table.ahead(seat, view.held, tied)


def _tops(state: KapadoState, seat: int) -> list[str | None]:
    per = state.per_seat
    out: list[str | None] = []
    for k in range(seat * per, seat * per + per):
        stack = state.stacks[k]
        out.append(stack[-1] if stack and state.locks[k] == OPEN else None)
    return out


class KapadoBrain(Brain[Kapado, KapadoState]):
    least, per_arm, most = 400, 200, 1500
    cap = 120
    #: Rounds of turns a playout looks ahead before it judges the stacks as they stand.
    rounds = 2
    #: Whether the search compares placements and takes (the expert) or plays the favourite.
    searching = False
    #: What the favourite's placements and takes weigh.
    judgement = Judgement()

    def easy(self, game: Kapado, state: KapadoState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        view = game.view(state, seat)
        if view.phase == EXTRA:
            return Action("draw")
        per = len(view.stacks[0])
        if view.phase == WISH_PHASE:
            owners = {s.top: p for p, row in enumerate(view.stacks) for s in row if s.top}
            return take(legal, owners, list(view.counts))
        tops = [s.top if s.lock == "open" else None for s in view.stacks[seat]]
        turns = view.deck / view.players
        return place(view.held, tops, frozenset(view.banned), legal, seat, view.players, per, turns, rng, 0.01)

    def default(self, game: Kapado, state: KapadoState, seat: int, legal: list[Action],
                rng: random.Random) -> Action:
        """The strong favourite, from the seat's view: a double fit now over a better top later,
        and the take that hurts most."""
        view = game.view(state, seat)
        if view.phase == EXTRA:
            return Action("draw")
        table = _table_of_view(view, self.judgement)
        if view.phase == PLACE and view.players == 2:
            searched = end_search(view, table, legal)
            if searched is not None:
                return searched
        if view.phase == WISH_PHASE:
            def ways(action: Action) -> list[Action]:
                taken = game.clone(state)
                game.apply(taken, seat, action)
                return game.legal_actions(taken, seat)
            return table.wish(seat, legal, ways, rng)
        return table.ahead(seat, view.held, legal)

    def candidates(self, game: Kapado, state: KapadoState, seat: int, legal: list[Action]) -> list[Action]:
        """Every drawn card ends up owned, so the extra draw is always drawn (one card more, and one
        fewer for the others to draw), and a wish card takes whenever it can: the taken card changes
        owner, two cards' difference more than keeping the wish card alone. The strong player then
        plays its favourite alone: the favourite takes every double fit, and playouts, whose few
        draws swing a count by whole cards, gained nothing measurable over it (the same 67
        benchmark deals: 64 % with the search, 61 % without, ± 6 points) for fifty times the CPU.
        The expert, with six times the playouts, still searches which card to take and where to
        lay a card."""
        if state.phase == EXTRA:
            return [Action("draw")]
        if not self.searching:
            return []
        if state.phase == WISH_PHASE:
            takes = [a for a in legal if a.kind == "take"]
            return takes or legal
        return legal

    def scaled(self, factor: int) -> Brain[Kapado, KapadoState]:
        """A level thinking longer (the expert) searches: its playouts are many enough."""
        out = super().scaled(factor)
        if factor > 1:
            cast(KapadoBrain, out).searching = True
        return out

    def policy(self, game: Kapado, state: KapadoState, seat: int, rng: random.Random) -> Action:
        legal = game.legal_actions(state, seat)
        if state.phase == EXTRA:
            return legal[0]
        per = state.per_seat
        if state.phase == WISH_PHASE:
            owners = {s[-1]: k // per for k, s in enumerate(state.stacks) if s and state.locks[k] == OPEN}
            return take(legal, owners, card_counts(state))
        turns = min(HORIZON, len(state.pile) / state.players)
        return place(state.held, _tops(state, seat), state.banned, legal, seat, state.players, per,
                     turns, rng, 0.05, unseen_in(state), state.banned)

    def mark(self, game: Kapado, state: KapadoState) -> tuple[int, int, tuple[int, ...]]:
        return state.game_no, len(state.pile), tuple(state.totals)

    def done(self, game: Kapado, mark: tuple[int, int, tuple[int, ...]], state: KapadoState) -> bool:
        """``rounds`` rounds of turns: as many draws per round as players."""
        return state.game_no != mark[0] or len(state.pile) <= mark[1] - self.rounds * state.players

    def value(self, game: Kapado, mark: tuple[int, int, tuple[int, ...]], state: KapadoState, seat: int) -> float:
        points = [float(t - m) for t, m in zip(state.totals, mark[2], strict=True)]
        if state.game_no == mark[0] and not game.is_over(state):
            turns = min(HORIZON, len(state.pile) / state.players)
            counts = card_counts(state)
            unseen = unseen_in(state)
            points = [p + c + turns * prospect(_tops(state, s), unseen, state.banned)
                      for s, (p, c) in enumerate(zip(points, counts, strict=True))]
        return margin(points, seat)


BRAIN = KapadoBrain()
