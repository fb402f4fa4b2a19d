"""Rummü: turns, melds, lay-offs, joker swaps, hand ends and match play.

Actions: ``take`` (the draw pile's top), ``takediscard:<n>`` (the top n discards: only the top one
is visible, so a count is all a player can name), ``meld:<cards>[/<cards>…]`` (new combinations in
one's own display; an opening is one such batch), ``add:<combo>:<cards>`` (lay off at the ends of
any combination), ``swap:<combo>:<card>`` (a hand card for that combination's joker of its digit),
``discard:<card>``. ``legal_actions`` lists every draw, discard, single-card lay-off and swap, but
only the complete melds a small search finds (``combos.find_melds``): ``check`` judges any other.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

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
from games.base import action as _act
from games.deck import DECK, colour, digit, sort_cards
from games.keys import number
from games.rummu.combos import (
    YELLOW,
    accepts,
    arrange,
    classify,
    find_melds,
    join_cards,
    split_cards,
)
from games.rummu.scoring import combination_line, hand_lines, opening_minimum
from games.rummu.state import (
    DRAW,
    HAND_SIZES,
    PLAY,
    Combo,
    ComboView,
    Options,
    RummuState,
    RummuView,
)

MAX_KEY = 60
TAKE = Action("take")


class Rummu(Game[RummuState, RummuView, Options]):
    key = "rummu"
    name = "Rummü"
    min_players = 3
    max_players = 6
    rules_version = 1
    options_model = Options
    playout_cap = 1500  # random players seldom go out (a hand takes some 400 actions), so cap the match

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Options, seed: str) -> RummuState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Rummü needs 3 to 6 players, not {players}")
        sides = players // 2 if players in (4, 6) and options.teams else players
        state = RummuState(
            players=players, options=options, seed=seed, draws=1, sides=sides, hand_no=0,
            dealer=draw_rng(seed, 0).randrange(players), turn=0, phase=DRAW, stock=[], discard=[],
            hands=[() for _ in range(players)], known=[frozenset()] * players, origin={}, generation=0,
            combos=[], next_id=1, totals=[0] * sides, history=[], over=False,
        )
        self._new_hand(state, state.dealer)
        return state

    def side(self, state: RummuState, seat: int) -> int:
        return seat % state.sides

    def teams(self, state: RummuState) -> bool:
        return state.sides < state.players

    def _new_hand(self, state: RummuState, dealer: int) -> list[Event]:
        n = state.players
        state.hand_no += 1
        state.dealer = dealer
        deck = shuffled(state.seed, state.draws, DECK)
        state.draws += 1
        size = HAND_SIZES[n]
        state.hands = [tuple(sort_cards(deck[s * size: (s + 1) * size])) for s in range(n)]
        rest = deck[n * size:]
        state.discard = [rest.pop()]
        state.stock = rest
        state.known = [frozenset()] * n
        state.origin = {c: 0 for h in state.hands for c in h}
        state.generation = 0
        state.combos = []
        state.next_id = 1
        state.last = ()
        events = [Event("deal", dealer, {"hand": state.hand_no, "discard": state.discard[-1]})]
        events += [Event("hand", s, {"cards": state.hands[s]}, to=frozenset({s})) for s in range(n)]
        return events + self._start_turn(state, (dealer + 1) % n)

    def _start_turn(self, state: RummuState, seat: int) -> list[Event]:
        """Refill an empty draw pile from the discards under the top card (docs/rules-decisions.md D4)."""
        state.turn = seat
        state.phase = DRAW
        if state.stock:
            return []
        if len(state.discard) <= 1:
            return self._end_hand(state, None)
        top = state.discard.pop()
        state.stock = shuffled(state.seed, state.draws, state.discard)
        state.draws += 1
        state.discard = [top]
        state.generation += 1
        return [Event("reshuffle", None, {"stock": len(state.stock)})]

    # -- helpers -------------------------------------------------------------------------------
    def opened(self, state: RummuState, seat: int) -> bool:
        return any(c.owner == seat for c in state.combos)

    def minimum(self, state: RummuState, seat: int) -> int:
        """Cards ``seat`` must still lay to open this hand (0 once it has a display)."""
        if self.opened(state, seat):
            return 0
        return opening_minimum(state.totals[self.side(state, seat)], self.teams(state))

    def _combo(self, state: RummuState, name: str) -> Combo:
        for combo in state.combos:
            if combo.name == name:
                return combo
        raise IllegalAction("rummu.no_such_combination")

    def _take_from_hand(self, state: RummuState, seat: int, cards: tuple[str, ...]) -> None:
        gone = set(cards)
        state.hands[seat] = tuple(c for c in state.hands[seat] if c not in gone)
        state.known[seat] = state.known[seat] - gone
        for c in cards:
            state.origin.pop(c, None)

    def _give(self, state: RummuState, seat: int, cards: tuple[str, ...], *, seen: bool) -> None:
        state.hands[seat] = tuple(sort_cards(state.hands[seat] + cards))
        if seen:
            state.known[seat] = state.known[seat] | set(cards)
        else:
            state.origin.update((c, state.generation) for c in cards)

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: RummuState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_actions(self, state: RummuState, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        if state.phase == DRAW:
            return [TAKE] + [_act("takediscard", str(n)) for n in range(1, len(state.discard) + 1)]
        return [*(_act("discard", c) for c in state.hands[seat]), *self.melds(state, seat), *self.layoffs(state, seat)]

    def melds(self, state: RummuState, seat: int) -> list[Action]:
        """The listed melds of ``seat``, who is in its play phase: before its opening, every batch of
        one or two found melds that reaches the minimum; after it, every found meld."""
        hand = state.hands[seat]
        melds = find_melds(hand, state.options.yellow_is_colour)
        need = self.minimum(state, seat)
        if not need:
            return [_act("meld", join_cards(m)) for m in melds if len(m) < len(hand)]
        batches: list[tuple[tuple[str, ...], ...]] = [(m,) for m in melds if len(m) >= need]
        batches += [(a, b) for i, a in enumerate(melds) for b in melds[i + 1:]
                    if len(a) + len(b) >= need and not set(a) & set(b)]
        batches = [b for b in batches if sum(map(len, b)) < len(hand)]
        return [a for a in (_act("meld", "/".join(map(join_cards, b))) for b in batches) if len(a.key) <= MAX_KEY]

    def layoffs(self, state: RummuState, seat: int) -> Iterator[Action]:
        """The single-card lay-offs and joker swaps of ``seat`` in its play phase, combination by
        combination, lazily: a player who only wants the first one builds no others."""
        if not self.opened(state, seat):
            return
        hand = state.hands[seat]
        yellow = state.options.yellow_is_colour
        for combo in state.combos:
            adds, swaps = accepts(combo.kind, combo.cards, yellow)
            if len(hand) > 1:
                yield from (_act("add", f"{combo.name}:{c}") for c in hand if c in adds)
            yield from (_act("swap", f"{combo.name}:{c}") for c in hand if c in swaps)

    def check(self, state: RummuState, seat: int, action: Action) -> None:
        self._plan(state, seat, action)

    def _plan(self, state: RummuState, seat: int, action: Action) -> tuple[Any, ...]:
        """Validate ``action`` and return what ``apply`` needs to carry it out."""
        if state.over:
            raise IllegalAction("core.game_over")
        if seat != state.turn:
            raise IllegalAction("core.not_your_turn")
        kind, arg = action.kind, action.arg
        if kind not in ("take", "takediscard", "meld", "add", "swap", "discard"):
            raise IllegalAction("rummu.bad_action")
        if kind in ("take", "takediscard"):
            if state.phase != DRAW:
                raise IllegalAction("rummu.already_drew")
            if kind == "take":
                if arg:
                    raise IllegalAction("rummu.bad_action")
                return ()
            count = number(arg)
            if count is None or not 1 <= count <= len(state.discard):
                raise IllegalAction("rummu.take_count", most=len(state.discard))
            return (count,)
        if state.phase != PLAY:
            raise IllegalAction("rummu.draw_first")
        hand = state.hands[seat]
        yellow = state.options.yellow_is_colour
        if kind == "discard":
            if arg not in hand:
                raise IllegalAction("rummu.not_in_hand")
            return (arg,)
        if kind == "meld":
            try:
                groups = [split_cards(part) for part in arg.split("/")]
            except ValueError:
                raise IllegalAction("rummu.bad_action") from None
            laid = [c for g in groups for c in g]
            self._own(hand, laid)
            kinds = [classify(g, yellow) for g in groups]
            need = self.minimum(state, seat)
            if len(laid) < need:
                raise IllegalAction("rummu.opening_minimum", need=need, have=len(laid))
            if len(laid) >= len(hand):
                raise IllegalAction("rummu.keep_one")
            return tuple((k, arrange(k, g)) for k, g in zip(kinds, groups, strict=True))
        name, _, rest = arg.partition(":")
        try:
            cards = split_cards(rest)
        except ValueError:
            raise IllegalAction("rummu.bad_action") from None
        if not self.opened(state, seat):
            raise IllegalAction("rummu.not_opened")
        combo = self._combo(state, name)
        self._own(hand, cards)
        if kind == "add":
            if len(cards) >= len(hand):
                raise IllegalAction("rummu.keep_one")
            # A valid result is always of the combination's own kind: a Ling keeps its digit,
            # and a one-colour sequence repeats a colour, which a multi-coloured one never does.
            grown = classify((*combo.cards, *cards), yellow)
            return (combo, arrange(grown, (*combo.cards, *cards)))
        if len(cards) != 1:
            raise IllegalAction("rummu.bad_action")
        card = cards[0]
        if colour(card) == YELLOW:
            raise IllegalAction("rummu.swap_needs_colour")
        joker = next((c for c in combo.cards if colour(c) == YELLOW and digit(c) == digit(card)), None)
        if joker is None:
            raise IllegalAction("rummu.no_joker_to_swap", digit=digit(card))
        swapped = tuple(card if c == joker else c for c in combo.cards)
        classify(swapped, yellow)
        return (combo, arrange(combo.kind, swapped), joker, card)

    @staticmethod
    def _own(hand: tuple[str, ...], cards: list[str] | tuple[str, ...]) -> None:
        if any(c not in hand for c in cards):
            raise IllegalAction("rummu.not_in_hand")
        if len(set(cards)) != len(cards):
            raise IllegalAction("rummu.card_twice")

    def apply(self, state: RummuState, seat: int, action: Action) -> list[Event]:
        plan = self._plan(state, seat, action)
        kind = action.kind
        state.last = ()
        if kind == "take":
            card = state.stock.pop()
            self._give(state, seat, (card,), seen=False)
            state.phase = PLAY
            return [Event("take", seat, {"stock": len(state.stock)}),
                    Event("drew", seat, {"card": card}, to=frozenset({seat}))]
        if kind == "takediscard":
            (n,) = plan
            cards = tuple(state.discard[-n:])
            del state.discard[-n:]
            self._give(state, seat, cards, seen=True)
            state.phase = PLAY
            return [Event("takediscard", seat, {"count": n, "top": cards[-1]}),
                    Event("took", seat, {"cards": cards}, to=frozenset({seat}))]
        if kind == "discard":
            (card,) = plan
            self._take_from_hand(state, seat, (card,))
            state.discard.append(card)
            state.last = (card,)
            events = [Event("discard", seat, {"card": card})]
            if not state.hands[seat]:
                return events + self._end_hand(state, seat)
            return events + self._start_turn(state, (seat + 1) % state.players)
        if kind == "meld":
            laid = []
            for combo_kind, cards in plan:
                combo = Combo(state.next_id, seat, combo_kind, cards)
                state.next_id += 1
                state.combos.append(combo)
                self._take_from_hand(state, seat, combo.cards)
                laid.append((combo.name, combo.cards))
            state.last = tuple(c for _, cards in laid for c in cards)
            return [Event("meld", seat, {"combos": tuple(laid)})]
        combo, cards = plan[0], plan[1]
        index = state.combos.index(combo)
        state.combos[index] = Combo(combo.id, combo.owner, combo.kind, cards)
        if kind == "add":
            added = tuple(c for c in cards if c not in combo.cards)
            self._take_from_hand(state, seat, added)
            state.last = added
            return [Event("add", seat, {"combo": combo.name, "cards": added})]
        joker, card = plan[2], plan[3]
        self._take_from_hand(state, seat, (card,))
        self._give(state, seat, (joker,), seen=True)
        state.last = (card,)
        return [Event("swap", seat, {"combo": combo.name, "card": card, "joker": joker})]

    def _end_hand(self, state: RummuState, out: int | None) -> list[Event]:
        lines: list[ScoreLine] = []
        for seat in range(state.players):
            for combo in state.combos:
                if combo.owner == seat:
                    lines.append(combination_line(seat, combo.name, combo.kind, combo.cards))
            partner_out = out is not None and out != seat and self.side(state, out) == self.side(state, seat)
            lines += hand_lines(seat, state.hands[seat], out == seat, partner_out)
        for line in lines:
            state.totals[self.side(state, line.seat)] += line.points
        per_seat = tuple(state.totals[self.side(state, s)] for s in range(state.players))
        state.history.append(HandScore(state.hand_no, tuple(lines), per_seat))
        events = [Event("hand_end", out, {"hand": state.hand_no, "hands": tuple(state.hands),
                                          "totals": per_seat})]
        target = state.options.team_target if self.teams(state) else state.options.target
        if max(state.totals) >= target:
            state.over = True
            return events
        return events + self._new_hand(state, (state.dealer + 1) % state.players)

    # -- information ---------------------------------------------------------------------------
    def view(self, state: RummuState, seat: int | None) -> RummuView:
        return RummuView(
            seat=seat, players=state.players, sides=state.sides,
            hand=None if seat is None else state.hands[seat],
            hand_sizes=tuple(len(h) for h in state.hands), stock_size=len(state.stock),
            discard_top=state.discard[-1] if state.discard else None, discard_size=len(state.discard),
            combos=tuple(ComboView(c.name, c.owner, c.kind, c.cards) for c in state.combos),
            minimum=tuple(self.minimum(state, s) for s in range(state.players)),
            turn=None if state.over else state.turn, phase=state.phase, dealer=state.dealer,
            hand_no=state.hand_no, totals=tuple(state.totals[self.side(state, s)] for s in range(state.players)),
            history=tuple(state.history), over=state.over, last=state.last,
        )

    def resample(self, state: RummuState, seat: int, rng: random.Random) -> RummuState:
        """Redeal what ``seat`` cannot know: other hands' cards not seen going there, and the
        draw pile. Cards from different draw-pile generations (before and after a reshuffle of
        the public discards) are only exchanged among themselves."""
        out = self.clone(state)
        others = [s for s in range(state.players) if s != seat]
        by_gen: dict[int, list[tuple[int, str]]] = {}
        for s in others:
            for c in state.hands[s]:
                if c in state.origin:
                    by_gen.setdefault(state.origin[c], []).append((s, c))
        by_gen.setdefault(state.generation, [])
        hands = {s: [c for c in state.hands[s] if c not in state.origin] for s in others}
        for gen, slots in by_gen.items():
            pool = sorted([c for _, c in slots] + (state.stock if gen == state.generation else []))
            rng.shuffle(pool)  # from a canonical order, so the redeal never depends on the real one
            for (s, _), card in zip(slots, pool, strict=False):
                hands[s].append(card)
                out.origin[card] = gen
            if gen == state.generation:
                out.stock = pool[len(slots):]
        for s in others:
            out.hands[s] = tuple(sort_cards(hands[s]))
        for c in out.stock:
            out.origin.pop(c, None)
        out.seed = fresh_seed(rng)
        return out

    def cards(self, state: RummuState) -> list[str]:
        return [*state.stock, *state.discard, *(c for h in state.hands for c in h),
                *(c for combo in state.combos for c in combo.cards)]

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: RummuState) -> bool:
        return state.over

    def result(self, state: RummuState) -> Result:
        scores = tuple(state.totals[self.side(state, s)] for s in range(state.players))
        sides = tuple(self.side(state, s) for s in range(state.players)) if state.sides < state.players else ()
        return Result(scores, top_scorers(scores), tuple(state.history), sides)

    def clone(self, state: RummuState) -> RummuState:
        return RummuState(
            state.players, state.options, state.seed, state.draws, state.sides, state.hand_no, state.dealer,
            state.turn, state.phase, list(state.stock), list(state.discard), list(state.hands),
            list(state.known), dict(state.origin), state.generation, list(state.combos), state.next_id,
            list(state.totals), list(state.history), state.over, state.last,
        )


GAME = Rummu()
