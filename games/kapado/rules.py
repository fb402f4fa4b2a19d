"""Kapado: draw a card and build it onto one of your own stacks; most cards at the end wins.

A card fits a stack top by colour or by a common divisor > 1 that no ban forbids (a 1 fits
everything); colour *and* number is a double fit, which earns an optional extra draw. A card that
fits no open stack goes face down and locks a stack; only a card that fits the hidden key doubly
unlocks it, and a wrong attempt kills the stack for good (docs/rules-decisions.md D10). Ban cards toggle their
ban and the player draws again; a wish card takes an opponent's top card. The game ends when a draw is needed
and the pile is empty.

Decisions where the rulebook is silent (docs/rules-decisions.md D29): the draw at the start of a turn is
automatic (it is never a choice), ban cards resolve automatically, and an unlock attempt turns the key face up
for everyone, success or not (the table has to see it to judge the fit).
"""

from __future__ import annotations

import random
from functools import cache
from typing import ClassVar

from games.base import (
    Action,
    Event,
    Game,
    HandScore,
    IllegalAction,
    Result,
    ScoreLine,
    draw_rng,
    fresh_seed,
    shuffled,
    top_scorers,
)
from games.kapado.cards import BAN, DECK, DOUBLE, KIND, NUMBER, SINGLE, VALUE, WISH, banned_divisor, fit
from games.kapado.state import (
    DEAD,
    EXTRA,
    LOCK_NAMES,
    LOCKED,
    OPEN,
    OVER,
    PLACE,
    KapadoState,
    KapadoView,
    Options,
    StackView,
    card_counts,
    clone_state,
    parse_stack,
    stack_id,
)
from games.kapado.state import WISH as WISH_PHASE

_DRAW = Action("draw")
_STOP = Action("stop")
_KEEP = Action("keep")


class Kapado(Game[KapadoState, KapadoView, Options]):
    key: ClassVar[str] = "kapado"
    name: ClassVar[str] = "Kapado"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 7
    rules_version: ClassVar[int] = 1
    options_model = Options
    #: A game has at most ~110 draws and three actions per draw; seven games at most.
    playout_cap: ClassVar[int] = 3000

    # -- setup -------------------------------------------------------------------------------
    def setup(self, players: int, options: Options, seed: str) -> KapadoState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Kapado needs 2 to 7 players, not {players}")
        per = options.stacks
        dealer = draw_rng(seed, 0).randrange(players)
        state = KapadoState(
            players, options, seed, 1, 0, dealer, dealer, PLACE, None, False, [], [], frozenset(),
            [()] * (players * per), [OPEN] * (players * per), set(), [()] * players, [0] * players, [],
        )
        self._deal(state, [])
        return state

    def _deal(self, state: KapadoState, events: list[Event]) -> None:
        """Five face-up cards per player start the stacks; special cards dealt are set aside and
        shuffled back into the pile (docs/rules-decisions.md D29)."""
        n, per = state.players, state.per_seat
        deck = shuffled(state.seed, state.shuffles, DECK.ids)
        aside: list[str] = []
        stacks: list[tuple[str, ...]] = [()] * (n * per)
        for i in range(per):
            for k in range(n):
                seat = (state.dealer + 1 + k) % n
                while KIND[deck[-1]] != NUMBER:
                    aside.append(deck.pop())
                stacks[seat * per + i] = (deck.pop(),)
        state.pile = shuffled(state.seed, state.shuffles + 1, deck + aside)
        state.shuffles += 2
        state.stacks = stacks
        state.last = None
        state.locks = [OPEN] * (n * per)
        state.face_down = set()
        state.middle = []
        state.banned = frozenset()
        state.wishes = [()] * n
        state.drawn, state.from_wish = None, False
        state.current = (state.dealer + 1) % n
        events.append(Event("deal", None, {"game": state.game_no + 1, "dealer": state.dealer}))
        self._draw(state, events)

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: KapadoState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.current,))

    def legal_actions(self, state: KapadoState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.current:
            return []
        if state.phase == EXTRA:
            return [_DRAW, _STOP]
        if state.phase == WISH_PHASE:
            return [Action("take", x) for x in self._takeable(state, seat)] + [_KEEP]
        card, per = state.held, state.per_seat
        banned, multiples = state.banned, state.options.ban_multiples
        ups: list[Action] = []
        unlocks: list[Action] = []
        alive: list[int] = []
        for i in range(per):
            k = seat * per + i
            lock = state.locks[k]
            if lock == OPEN:
                alive.append(i)
                stack = state.stacks[k]
                if not stack or fit(card, stack[-1], banned, multiples):
                    ups.append(Action("up", stack_id(seat, i)))
            elif lock == LOCKED:
                alive.append(i)
                unlocks.append(Action("unlock", stack_id(seat, i)))
        if ups or state.from_wish:
            return ups + unlocks
        targets = alive or range(per)
        return unlocks + [Action("down", stack_id(seat, i)) for i in targets]

    def _placeable(self, state: KapadoState, seat: int, card: str) -> bool:
        """Whether ``card`` could go face up or try an unlock on one of ``seat``'s stacks."""
        per = state.per_seat
        for k in range(seat * per, seat * per + per):
            lock = state.locks[k]
            if lock == LOCKED:
                return True
            if lock == OPEN:
                stack = state.stacks[k]
                if not stack or fit(card, stack[-1], state.banned, state.options.ban_multiples):
                    return True
        return False

    def _takeable(self, state: KapadoState, seat: int) -> list[str]:
        """Opponents' open top cards that ``seat`` could place (docs/rules-decisions.md D31)."""
        out = []
        for k, stack in enumerate(state.stacks):
            if (k // state.per_seat != seat and state.locks[k] == OPEN and stack
                    and self._placeable(state, seat, stack[-1])):
                out.append(stack[-1])
        return out

    def check(self, state: KapadoState, seat: int, action: Action) -> None:
        if state.phase == OVER:
            raise IllegalAction("core.game_over")
        if seat != state.current:
            raise IllegalAction("core.not_your_turn")
        kind = action.kind
        if state.phase == EXTRA:
            if action not in (_DRAW, _STOP):
                raise IllegalAction("kapado.decide_extra_draw")
            return
        if state.phase == WISH_PHASE:
            if action == _KEEP:
                return
            if kind != "take":
                raise IllegalAction("kapado.use_wish")
            self._check_take(state, seat, action.arg)
            return
        if kind not in ("up", "unlock", "down"):
            raise IllegalAction("kapado.place_drawn")
        where = parse_stack(action.arg, state.players, state.per_seat)
        if where is None:
            raise IllegalAction("kapado.no_such_stack")
        if where[0] != seat:
            raise IllegalAction("kapado.not_your_stack")
        k = seat * state.per_seat + where[1]
        lock = state.locks[k]
        if kind == "up":
            if lock == DEAD:
                raise IllegalAction("kapado.stack_dead")
            if lock == LOCKED:
                raise IllegalAction("kapado.stack_locked")
            stack = state.stacks[k]
            if stack and not fit(state.held, stack[-1], state.banned, state.options.ban_multiples):
                divisor = banned_divisor(state.held, stack[-1], state.banned, state.options.ban_multiples)
                if divisor:
                    raise IllegalAction("kapado.divisor_banned", divisor=divisor)
                raise IllegalAction("kapado.no_fit")
        elif kind == "unlock":
            if lock != LOCKED:
                raise IllegalAction("kapado.dead_cannot_unlock" if lock == DEAD else "kapado.not_locked")
        else:
            if state.from_wish:
                raise IllegalAction("kapado.taken_card_face_up")
            if any(a.kind == "up" for a in self.legal_actions(state, seat)):
                raise IllegalAction("kapado.fits_somewhere")
            if lock == DEAD and any(
                state.locks[seat * state.per_seat + i] != DEAD for i in range(state.per_seat)
            ):
                raise IllegalAction("kapado.stack_dead")

    def _check_take(self, state: KapadoState, seat: int, card: str) -> None:
        for k, stack in enumerate(state.stacks):
            if stack and stack[-1] == card and card not in state.face_down:
                if k // state.per_seat == seat:
                    raise IllegalAction("kapado.take_from_opponent")
                if state.locks[k] != OPEN:
                    raise IllegalAction("kapado.take_open_only")
                if not self._placeable(state, seat, card):
                    raise IllegalAction("kapado.taken_card_no_place")
                return
        raise IllegalAction("kapado.take_top_only")

    # -- moves -----------------------------------------------------------------------------------
    def apply(self, state: KapadoState, seat: int, action: Action) -> list[Event]:
        self.check(state, seat, action)
        events: list[Event] = []
        kind = action.kind
        state.last = None
        if kind == "draw":
            events.append(Event("extra_draw", seat))
            self._draw(state, events)
        elif kind == "stop":
            self._end_turn(state, events)
        elif kind == "keep":
            state.wishes[seat] += (state.held,)
            events.append(Event("wish_kept", seat, {"wish": state.held}))
            self._end_turn(state, events)
        elif kind == "take":
            self._take(state, seat, action.arg, events)
        else:
            where = parse_stack(action.arg, state.players, state.per_seat)
            assert where is not None  # check() refused any other id
            k = seat * state.per_seat + where[1]
            card, stack = state.held, state.stacks[k]
            state.drawn, state.from_wish = None, False
            state.last = action.arg
            if kind == "up":
                how = SINGLE if not stack else fit(card, stack[-1], state.banned, state.options.ban_multiples)
                state.stacks[k] = (*stack, card)
                events.append(Event("up", seat, {"card": card, "stack": action.arg, "fit": how}))
                self._after_fit(state, how, events)
            elif kind == "unlock":
                key = stack[-1]
                how = fit(card, key, state.banned, state.options.ban_multiples)
                state.face_down.discard(key)
                state.stacks[k] = (*stack, card)
                state.locks[k] = OPEN if how == DOUBLE else DEAD
                events.append(Event("unlock", seat, {"card": card, "key": key, "stack": action.arg,
                                                     "opened": how == DOUBLE}))
                self._after_fit(state, how, events)
            else:
                state.stacks[k] = (*stack, card)
                state.face_down.add(card)
                if state.locks[k] != DEAD:
                    state.locks[k] = LOCKED
                events.append(Event("down", seat, {"stack": action.arg}))
                self._end_turn(state, events)
        return events

    def _take(self, state: KapadoState, seat: int, card: str, events: list[Event]) -> None:
        """Wish card: take an opponent's open top; a face-down card uncovered re-locks
        (docs/rules-decisions.md D10)."""
        k = next(k for k, stack in enumerate(state.stacks) if stack and stack[-1] == card)
        stack = state.stacks[k][:-1]
        state.stacks[k] = stack
        state.locks[k] = LOCKED if stack and stack[-1] in state.face_down else OPEN
        wish = state.held
        state.wishes[seat] += (wish,)
        state.drawn, state.from_wish, state.phase = card, True, PLACE
        owner, index = divmod(k, state.per_seat)
        events.append(Event("take", seat, {"card": card, "wish": wish, "stack": stack_id(owner, index),
                                           "relocked": state.locks[k] == LOCKED}))

    def _after_fit(self, state: KapadoState, how: int, events: list[Event]) -> None:
        if how != DOUBLE:
            self._end_turn(state, events)
        elif not state.pile:
            self._end_game(state, events)
        elif state.options.auto_extra_draw:
            self._draw(state, events)
        else:
            state.phase = EXTRA

    def _draw(self, state: KapadoState, events: list[Event]) -> None:
        """Draw for the current player; ban cards toggle their ban and are replaced at once."""
        seat = state.current
        while state.pile:
            card = state.pile.pop()
            if KIND[card] == BAN:
                divisor = VALUE[card]
                state.middle.append(card)
                state.banned = state.banned ^ {divisor}
                events.append(Event("ban", seat, {"card": card, "divisor": divisor,
                                                  "on": divisor in state.banned}))
                continue
            state.drawn, state.from_wish = card, False
            state.phase = WISH_PHASE if KIND[card] == WISH else PLACE
            events.append(Event("draw", seat))
            events.append(Event("drawn", seat, {"card": card}, to=frozenset((seat,))))
            return
        self._end_game(state, events)

    def _end_turn(self, state: KapadoState, events: list[Event]) -> None:
        state.drawn, state.from_wish = None, False
        state.current = (state.current + 1) % state.players
        self._draw(state, events)

    def _end_game(self, state: KapadoState, events: list[Event]) -> None:
        counts = card_counts(state)
        lines: list[ScoreLine] = []
        for seat, count in enumerate(counts):
            wishes = len(state.wishes[seat])
            lines.append(ScoreLine(seat, "kapado.line_stacks", count - wishes))
            if wishes:
                lines.append(ScoreLine(seat, "kapado.line_wishes", wishes))
            state.totals[seat] += count
        state.history.append(HandScore(state.game_no + 1, tuple(lines), tuple(state.totals)))
        state.drawn, state.from_wish = None, False
        events.append(Event("game_end", None, {"game": state.game_no + 1, "counts": tuple(counts)}))
        if state.game_no + 1 < state.options.games:
            state.game_no += 1
            state.dealer = (state.dealer + 1) % state.players
            self._deal(state, events)
        else:
            state.phase = OVER

    # -- information ---------------------------------------------------------------------------
    def view(self, state: KapadoState, seat: int | None) -> KapadoView:
        per, peek = state.per_seat, state.options.owner_may_peek
        down, locks, names = state.face_down, state.locks, _stack_ids(state.players, per)
        stacks = []
        k = 0
        for s in range(state.players):
            row = []
            for _ in range(per):
                stack = state.stacks[k]
                if down.isdisjoint(stack):      # most stacks: nothing face down, nothing to hide
                    flags: tuple[bool, ...] = (False,) * len(stack)
                    cards: tuple[str | None, ...] = stack
                else:
                    flags = tuple([c in down for c in stack])
                    see = peek and seat == s
                    cards = stack if see else tuple([None if d else c for c, d in zip(stack, flags, strict=True)])
                row.append(StackView(names[k], cards, flags, LOCK_NAMES[locks[k]]))
                k += 1
            stacks.append(tuple(row))
        playing = state.phase in (PLACE, WISH_PHASE)
        sees_drawn = state.from_wish or seat == state.current
        phase = "resolve" if playing and not sees_drawn else state.phase
        return KapadoView(
            seat=seat,
            players=state.players,
            game=state.game_no + 1,
            games=state.options.games,
            dealer=state.dealer,
            current=None if state.phase == OVER else state.current,
            phase=phase,
            stacks=tuple(stacks),
            counts=tuple(card_counts(state)),
            wishes=tuple(state.wishes),
            middle=tuple(state.middle),
            banned=tuple(sorted(state.banned)),
            deck=len(state.pile),
            drawn=state.drawn if sees_drawn else None,
            drawn_from_wish=state.from_wish,
            totals=tuple(state.totals),
            history=tuple(state.history),
            last=state.last,
        )

    def resample(self, state: KapadoState, seat: int, rng: random.Random) -> KapadoState:
        """Redeal the pile, the face-down cards ``seat`` may not see and, for another seat's turn,
        the drawn card. Face-down slots get number cards; a hidden drawn card is never a ban card
        (bans resolve at once)."""
        new = clone_state(state)
        per, peek = new.per_seat, new.options.owner_may_peek
        slots = [
            (k, pos)
            for k, stack in enumerate(new.stacks)
            if not (peek and k // per == seat)
            for pos, card in enumerate(stack)
            if card in new.face_down
        ]
        hidden = new.drawn if not new.from_wish and seat != new.current else None
        pool = new.pile + [new.stacks[k][pos] for k, pos in slots]
        if hidden is not None:
            pool.append(hidden)
        for k, pos in slots:
            new.face_down.discard(new.stacks[k][pos])
        pool.sort()  # a canonical order first, so the redeal never depends on the real one
        rng.shuffle(pool)
        for k, pos in slots:
            j = next(j for j, c in enumerate(pool) if KIND[c] == NUMBER)
            card = pool.pop(j)
            stack = list(new.stacks[k])
            stack[pos] = card
            new.stacks[k] = tuple(stack)
            new.face_down.add(card)
        if hidden is not None:
            new.drawn = pool.pop(next(j for j, c in enumerate(pool) if KIND[c] != BAN))
            new.phase = WISH_PHASE if KIND[new.drawn] == WISH else PLACE
        new.pile = pool
        new.seed = fresh_seed(rng)
        return new

    def cards(self, state: KapadoState) -> list[str]:
        out = state.pile + state.middle
        for stack in state.stacks:
            out.extend(stack)
        for wishes in state.wishes:
            out.extend(wishes)
        if state.drawn is not None:
            out.append(state.drawn)
        return out

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: KapadoState) -> bool:
        return state.phase == OVER

    def result(self, state: KapadoState) -> Result:
        return Result(tuple(state.totals), top_scorers(state.totals), tuple(state.history))

    def clone(self, state: KapadoState) -> KapadoState:
        return clone_state(state)


GAME = Kapado()


def position(
    players: int,
    stacks: dict[int, list[list[str]]] | None = None,
    *,
    face_down: tuple[str, ...] = (),
    dead: tuple[str, ...] = (),
    next_cards: tuple[str, ...] = (),
    pile: list[str] | None = None,
    banned: tuple[int, ...] = (),
    wishes: dict[int, list[str]] | None = None,
    current: int = 0,
    options: Options | None = None,
    seed: str = "rigged",
) -> KapadoState:
    """A rigged position for tests and help pages, with ``current`` about to draw.

    ``stacks`` gives chosen seats' stacks (bottom to top); every stack not given starts with one
    leftover number card in deck order. ``face_down`` lists cards lying face down: a stack with a
    face-down top is LOCKED, or DEAD when its id is in ``dead`` (ids like ``s0:3``); dead stacks may
    have a face-up top too. ``next_cards`` are drawn first, in order, then the rest of the deck
    follows in deck order. With ``pile`` the draw pile is exactly that list (drawing order) and
    the cards named nowhere are left out: such positions serve scoring tests only. The turn then
    begins: the first card is drawn (ban cards resolve) unless the pile is empty.
    """
    options = options or Options()
    per = options.stacks
    stacks = stacks or {}
    wishes = wishes or {}
    grid: list[tuple[str, ...]] = [()] * (players * per)
    named: list[str] = []
    for seat, rows in stacks.items():
        for i, cards in enumerate(rows):
            grid[seat * per + i] = tuple(cards)
            named.extend(cards)
    given = {seat * per + i for seat, rows in stacks.items() for i in range(len(rows))}
    for cards in wishes.values():
        named.extend(cards)
    named.extend(next_cards)
    if pile is not None:
        named.extend(pile)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in DECK.ids if c not in set(named)]
    numbers = [c for c in rest if KIND[c] == NUMBER]
    for k in range(players * per):
        if k not in given:
            card = numbers.pop(0)
            rest.remove(card)
            grid[k] = (card,)
    locks = [OPEN] * (players * per)
    dead_ks = set()
    for sid in dead:
        where = parse_stack(sid, players, per)
        if where is None:
            raise ValueError(f"no stack {sid}")
        dead_ks.add(where[0] * per + where[1])
    for k, stack in enumerate(grid):
        if k in dead_ks:
            locks[k] = DEAD
        elif stack and stack[-1] in face_down:
            locks[k] = LOCKED
    draw_pile = list(reversed(pile)) if pile is not None else list(reversed(rest)) + list(reversed(next_cards))
    state = KapadoState(
        players, options, seed, 1, 0, (current - 1) % players, current, PLACE, None, False, draw_pile, [],
        frozenset(banned), grid, locks, set(face_down), [tuple(wishes.get(s, ())) for s in range(players)],
        [0] * players, [],
    )
    GAME._draw(state, [])
    return state


@cache
def _stack_ids(players: int, per: int) -> tuple[str, ...]:
    """Every stack's id in flat order (``stack_id`` of each), made once per table size: views name
    every stack on every rendering."""
    return tuple(stack_id(s, i) for s in range(players) for i in range(per))
