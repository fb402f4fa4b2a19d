"""Diabolo: lay hand cards on the devil or angel side of five colour rows, then score the hands.

A turn draws a card (automatically: it is never a choice) and places one hand card beside its
colour's row, at most three per side and five per row; a full row closes, and the round ends
the moment two rows are closed (three with five players). A player who cannot place shows the
hand to everyone and discards a card out of the round. Scoring goes colour by colour in the
fixed order red, yellow, green, purple, blue (docs/rules-decisions.md D37): more angel points pay the highest
hand sum of that colour, more devil points cost it, a tie scores nothing. Before a paying colour is revealed,
every player who still holds the doubler chooses in secret whether to spend it there
(docs/rules-decisions.md D9); the choices are revealed together, then the hands of that colour. One round per
player.
"""

from __future__ import annotations

import random
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
from games.diabolo.cards import COLOUR, COLOURS, DECK, ROW, sort_cards, total
from games.diabolo.state import (
    DISCARD,
    DOUBLER,
    NO,
    OVER,
    PLACE,
    USE,
    DiaboloState,
    DiaboloView,
    Options,
    RowView,
    clone_state,
)

SIDES = ("devil", "angel")


class Diabolo(Game[DiaboloState, DiaboloView, Options]):
    key: ClassVar[str] = "diabolo"
    name: ClassVar[str] = "Diabolo"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    rules_version: ClassVar[int] = 1
    options_model = Options
    #: A round has at most 65 turns and 25 doubler choices; ten rounds at most.
    playout_cap: ClassVar[int] = 2000

    # -- setup -------------------------------------------------------------------------------
    def setup(self, players: int, options: Options, seed: str) -> DiaboloState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Diabolo needs 3 to 5 players, not {players}")
        dealer = draw_rng(seed, 0).randrange(players)
        state = DiaboloState(
            players, options, seed, 1, 0, dealer, dealer, PLACE, [], [[] for _ in range(players)],
            [()] * 5, [()] * 5, [False] * 5, [], [frozenset()] * players, [True] * players, 0,
            [None] * players, frozenset(), [], [0] * players, [],
        )
        self._deal(state, [])
        return state

    def _deal(self, state: DiaboloState, events: list[Event]) -> None:
        n = state.players
        deck = shuffled(state.seed, state.shuffles, DECK)
        state.shuffles += 1
        hands: list[list[str]] = [[] for _ in range(n)]
        for _ in range(state.options.hand_size):
            for k in range(n):
                hands[(state.dealer + 1 + k) % n].append(deck.pop())
        state.hands, state.pile = hands, deck
        state.devil, state.angel, state.closed = [()] * 5, [()] * 5, [False] * 5
        state.removed, state.known = [], [frozenset()] * n
        state.doublers, state.choices, state.waiting = [True] * n, [None] * n, frozenset()
        state.colour, state.lines, state.last = 0, [], None
        state.laid = [[] for _ in range(n)]
        state.current = (state.dealer + 1) % n
        events.append(Event("deal", None, {"round": state.round_no + 1, "dealer": state.dealer}))
        self._begin_turn(state, events)

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: DiaboloState) -> frozenset[int]:
        if state.phase == OVER:
            return frozenset()
        if state.phase == DOUBLER:
            return state.waiting
        return frozenset((state.current,))

    def _open_sides(self, state: DiaboloState, card: str) -> tuple[bool, bool]:
        r = ROW[card]
        if state.closed[r]:
            return False, False
        side = state.options.max_per_side
        return len(state.devil[r]) < side, len(state.angel[r]) < side

    def legal_actions(self, state: DiaboloState, seat: int) -> list[Action]:
        if state.phase == DOUBLER:
            if seat not in state.waiting:
                return []
            return [Action("doubler", COLOURS[state.colour]), Action("doubler", NO)]
        if state.phase == OVER or seat != state.current:
            return []
        hand = state.hands[seat]
        if state.phase == DISCARD:
            return [Action("discard", c) for c in hand]
        out = []
        for card in hand:
            devil, angel = self._open_sides(state, card)
            if devil:
                out.append(Action("devil", card))
            if angel:
                out.append(Action("angel", card))
        return out

    def check(self, state: DiaboloState, seat: int, action: Action) -> None:
        if state.phase == OVER:
            raise IllegalAction("core.game_over")
        kind = action.kind
        if state.phase == DOUBLER:
            if kind != "doubler":
                raise IllegalAction("diabolo.choose_doubler" if seat in state.waiting else "core.not_your_turn")
            if not 0 <= seat < state.players:
                raise IllegalAction("core.not_your_turn")
            if not state.doublers[seat]:
                raise IllegalAction("diabolo.doubler_spent")
            if seat not in state.waiting:
                raise IllegalAction("diabolo.doubler_chosen")
            if action.arg not in (COLOURS[state.colour], NO):
                raise IllegalAction("diabolo.doubler_wrong_colour")
            return
        if seat != state.current:
            raise IllegalAction("core.not_your_turn")
        if kind == "doubler":
            raise IllegalAction("diabolo.doubler_at_scoring")
        if kind not in ("devil", "angel", "discard"):
            raise IllegalAction("diabolo.unknown_move")
        if action.arg not in state.hands[seat]:
            raise IllegalAction("diabolo.not_in_hand")
        if kind == "discard":
            if state.phase != DISCARD:
                raise IllegalAction("diabolo.can_place")
            return
        r = ROW[action.arg]
        if state.closed[r]:
            raise IllegalAction("diabolo.row_closed")
        devil, angel = self._open_sides(state, action.arg)
        if not (devil if kind == "devil" else angel):
            raise IllegalAction("diabolo.side_full", most=state.options.max_per_side)

    # -- moves -----------------------------------------------------------------------------------
    def apply(self, state: DiaboloState, seat: int, action: Action) -> list[Event]:
        self.check(state, seat, action)
        events: list[Event] = []
        kind, card = action.kind, action.arg
        if kind == "doubler":
            state.choices[seat] = NO if card == NO else USE
            state.waiting = state.waiting - {seat}
            events.append(Event("doubler_chosen", seat))
            if not state.waiting:
                users = frozenset(s for s, c in enumerate(state.choices) if c == USE)
                events.append(Event("doublers", None, {"colour": COLOURS[state.colour],
                                                       "used": tuple(sorted(users))}))
                self._score_colour(state, state.colour, users, events)
                self._score(state, state.colour + 1, events)
            return events
        state.hands[seat].remove(card)
        if card in state.known[seat]:
            state.known[seat] = state.known[seat] - {card}
        state.last = None if kind == "discard" else card
        if kind == "discard":
            state.removed.append(card)
            events.append(Event("discard", seat, {"card": card}))
            self._next_turn(state, events)
            return events
        r = ROW[card]
        if kind == "devil":
            state.devil[r] = (*state.devil[r], card)
        else:
            state.angel[r] = (*state.angel[r], card)
        state.laid[seat].append((kind, card))
        events.append(Event("place", seat, {"card": card, "side": kind}))
        if len(state.devil[r]) + len(state.angel[r]) >= state.options.max_per_row:
            state.closed[r] = True
            events.append(Event("closed", None, {"colour": COLOURS[r]}))
            if sum(state.closed) >= state.options.limit(state.players):
                events.append(Event("round_over", None, {"round": state.round_no + 1}))
                self._score(state, 0, events)
                return events
        self._next_turn(state, events)
        return events

    def _next_turn(self, state: DiaboloState, events: list[Event]) -> None:
        state.current = (state.current + 1) % state.players
        self._begin_turn(state, events)

    def _begin_turn(self, state: DiaboloState, events: list[Event]) -> None:
        """Draw for the current player; a player who then cannot place shows the hand
        (docs/rules-decisions.md D38)."""
        seat = state.current
        if not state.pile:  # D10: practically unreachable; the round is scored as it stands
            events.append(Event("round_over", None, {"round": state.round_no + 1}))
            self._score(state, 0, events)
            return
        card = state.pile.pop()
        hand = state.hands[seat]
        hand.append(card)
        events.append(Event("draw", seat))
        events.append(Event("drawn", seat, {"card": card}, to=frozenset((seat,))))
        if any(any(self._open_sides(state, c)) for c in hand):
            state.phase = PLACE
        else:
            state.phase = DISCARD
            state.known[seat] = frozenset(hand)
            events.append(Event("blocked", seat, {"hand": tuple(sort_cards(hand))}))

    # -- scoring -------------------------------------------------------------------------------
    def _score(self, state: DiaboloState, start: int, events: list[Event]) -> None:
        """Score colours from ``start`` on; stop to ask for doublers before a paying colour."""
        for index in range(start, len(COLOURS)):
            devil, angel = total(state.devil[index]), total(state.angel[index])
            if devil == angel:
                events.append(Event("colour_tied", None, {"colour": COLOURS[index], "points": devil}))
                continue
            if angel > devil and any(state.doublers):
                state.phase = DOUBLER
                state.colour = index
                state.choices = [None] * state.players
                state.waiting = frozenset(s for s in range(state.players) if state.doublers[s])
                events.append(Event("choose_doubler", None, {"colour": COLOURS[index]}))
                return
            self._score_colour(state, index, frozenset(), events)
        self._finish_round(state, events)

    def _score_colour(self, state: DiaboloState, index: int, users: frozenset[int],
                      events: list[Event]) -> None:
        """Reveal every hand's cards of one colour and pay (or charge) the highest sum."""
        colour = COLOURS[index]
        sign = 1 if total(state.angel[index]) > total(state.devil[index]) else -1
        shown = []
        for s in range(state.players):
            cards = frozenset(c for c in state.hands[s] if COLOUR[c] == colour)
            state.known[s] = state.known[s] | cards
            shown.append(tuple(sort_cards(cards)))
        sums = [total(cards) for cards in shown]
        events.append(Event("reveal", None, {"colour": colour, "hands": tuple(shown)}))
        best = max(sums)
        for s in range(state.players):
            if best > 0 and sums[s] == best:
                if sign < 0:
                    label, points = "diabolo.line_devil", -best
                elif s in users:
                    label, points = "diabolo.line_angel_doubled", 2 * best
                else:
                    label, points = "diabolo.line_angel", best
                state.lines.append(ScoreLine(s, label, points, {"colour": colour, "sum": best}))
                state.totals[s] += points
            elif s in users:
                state.lines.append(ScoreLine(s, "diabolo.line_doubler_wasted", 0, {"colour": colour}))
        for s in users:
            state.doublers[s] = False

    def _finish_round(self, state: DiaboloState, events: list[Event]) -> None:
        state.history.append(HandScore(state.round_no + 1, tuple(state.lines), tuple(state.totals)))
        state.waiting, state.choices = frozenset(), [None] * state.players
        events.append(Event("round_scored", None, {"round": state.round_no + 1,
                                                   "totals": tuple(state.totals)}))
        if state.round_no + 1 < state.options.round_count(state.players):
            state.round_no += 1
            state.dealer = (state.dealer + 1) % state.players
            self._deal(state, events)
        else:
            state.phase = OVER

    # -- information ---------------------------------------------------------------------------
    def view(self, state: DiaboloState, seat: int | None) -> DiaboloView:
        rows = tuple(
            RowView(COLOURS[i], state.devil[i], state.angel[i], total(state.devil[i]),
                    total(state.angel[i]), state.closed[i])
            for i in range(len(COLOURS))
        )
        deciding = state.phase == DOUBLER
        return DiaboloView(
            seat=seat,
            players=state.players,
            round=state.round_no + 1,
            rounds=state.options.round_count(state.players),
            dealer=state.dealer,
            current=None if state.phase in (DOUBLER, OVER) else state.current,
            phase=state.phase,
            rows=rows,
            close_limit=state.options.limit(state.players),
            deck=len(state.pile),
            hand_counts=tuple(len(h) for h in state.hands),
            shown=tuple(tuple(sort_cards(k)) for k in state.known),
            removed=tuple(state.removed),
            doublers=tuple(state.doublers),
            deciding=COLOURS[state.colour] if deciding else None,
            waiting=tuple(sorted(state.waiting)) if deciding else (),
            lines=tuple(state.lines),
            totals=tuple(state.totals),
            history=tuple(state.history),
            hand=tuple(sort_cards(state.hands[seat])) if seat is not None else (),
            my_choice=state.choices[seat] if deciding and seat is not None else None,
            last=state.last,
        )

    def resample(self, state: DiaboloState, seat: int, rng: random.Random) -> DiaboloState:
        """Redeal the pile and every other hand's cards the table has not seen, and draw anew the
        doubler choices other seats have made but not yet revealed."""
        new = clone_state(state)
        pool = new.pile
        gaps = []
        for s in range(new.players):
            if s == seat:
                continue
            keep = [c for c in new.hands[s] if c in new.known[s]]
            pool.extend(c for c in new.hands[s] if c not in new.known[s])
            gaps.append((s, len(new.hands[s]) - len(keep)))
            new.hands[s] = keep
        pool.sort()  # a canonical order first, so the redeal never depends on the real one
        rng.shuffle(pool)
        for s, count in gaps:
            for _ in range(count):
                new.hands[s].append(pool.pop())
        if new.phase == DOUBLER:
            for s in range(new.players):
                if s != seat and new.choices[s] is not None:
                    new.choices[s] = rng.choice((USE, NO))
        new.seed = fresh_seed(rng)
        return new

    def cards(self, state: DiaboloState) -> list[str]:
        out = state.pile + state.removed
        for hand in state.hands:
            out.extend(hand)
        for side in (state.devil, state.angel):
            for row in side:
                out.extend(row)
        return out

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: DiaboloState) -> bool:
        return state.phase == OVER

    def result(self, state: DiaboloState) -> Result:
        return Result(tuple(state.totals), top_scorers(state.totals), tuple(state.history))

    def clone(self, state: DiaboloState) -> DiaboloState:
        return clone_state(state)


GAME = Diabolo()


def position(
    players: int,
    hands: dict[int, list[str]] | None = None,
    *,
    devil: dict[str, list[str]] | None = None,
    angel: dict[str, list[str]] | None = None,
    next_cards: tuple[str, ...] = (),
    current: int = 0,
    doublers: tuple[bool, ...] | None = None,
    options: Options | None = None,
    seed: str = "rigged",
    draw: bool = True,
) -> DiaboloState:
    """A rigged round position for tests and help pages.

    ``devil`` and ``angel`` give row sides by colour letter (``{"p": ["p5a", "p1a"]}``); a row
    holding ``max_per_row`` cards is closed. Seats missing from ``hands`` get ``hand_size`` leftover
    cards in deck order; ``next_cards`` lie on top of the draw pile in drawing order, the rest of
    the deck below. With ``draw`` the current player's turn begins (the first card is drawn).
    """
    options = options or Options()
    hands = hands or {}
    devil, angel = devil or {}, angel or {}
    named = [c for cards in (*hands.values(), *devil.values(), *angel.values()) for c in cards]
    named.extend(next_cards)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    rest = [c for c in DECK if c not in set(named)]
    hand_lists = []
    for s in range(players):
        if s in hands:
            hand_lists.append(list(hands[s]))
        else:
            hand_lists.append(rest[: options.hand_size])
            del rest[: options.hand_size]
    devil_rows = [tuple(devil.get(c, ())) for c in COLOURS]
    angel_rows = [tuple(angel.get(c, ())) for c in COLOURS]
    closed = [len(d) + len(a) >= options.max_per_row for d, a in zip(devil_rows, angel_rows, strict=True)]
    pile = list(reversed(rest)) + list(reversed(next_cards))
    state = DiaboloState(
        players, options, seed, 1, 0, (current - 1) % players, current, PLACE, pile, hand_lists,
        devil_rows, angel_rows, closed, [], [frozenset()] * players,
        list(doublers) if doublers is not None else [True] * players, 0, [None] * players,
        frozenset(), [], [0] * players, [], None, [[] for _ in range(players)],
    )
    if draw:
        GAME._begin_turn(state, [])
    return state


def score_now(state: DiaboloState) -> list[Event]:
    """End the round of a rigged position at once and start its scoring (tests, help pages)."""
    events: list[Event] = []
    GAME._score(state, 0, events)
    return events
