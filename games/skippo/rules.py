"""Skippo (2–6 players): Skip-Bo house rules with Rommé cards ("Asse raus").

Empty your 10-card stock onto four shared build piles running A → K. A turn: aces in hand go out
at once with a replacement card, the hand is refilled to five, then the player builds from the
stock top, hand, helper tops and set-aside stock jokers, and ends by putting a hand card on one of
four helper piles that never rise. Jokers only go onto a build pile inside a joker run
(``games.skippo.runs``). Decisions applied (docs/rules-decisions.md): D7 (decks), D8 and D14 (stalls: a full
round in which no card moves anywhere ends the game too), D11 (refill at turn start only, face-up runs), D15
(with aces out of turn, the dealt aces go out before the first turn), D33 (aces in the hand), D34 (jokers),
D35 (helper piles, a stuck discard), D36 (scoring).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.base import Action, Event, IllegalAction, ScoreLine
from games.base import action as _act
from games.buildpiles import (
    END,
    HAND,
    HELPER,
    PILE,
    RESERVE,
    BuildPileGame,
    Table,
    draw_to,
    push_build,
)
from games.skippo.cards import ACE, TOP, VALUE, deck, face, face_of_value, helper_value
from games.skippo.runs import run_actions, validate_run


class Options(BaseModel):
    """House rules, with the rulebook's defaults (docs/rules-decisions.md D7, D11, D15, D34 to D36)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decks: int = Field(0, ge=0, le=3, description="Rommé decks (two packs and the jokers each); 0: one "
                       "for 2–4 players, two for 5–6.")
    jokers_per_deck: int = Field(6, ge=0, le=6, description="Jokers in each Rommé deck.")
    stock_size: int = Field(10, ge=3, le=30, description="Cards in each player's stock.")
    hand_size: int = Field(5, ge=3, le=7, description="Hand cards after refilling.")
    build_piles: int = Field(4, ge=1, le=6, description="Build piles in the middle.")
    helper_piles: int = Field(4, ge=1, le=6, description="Helper piles in front of each player.")
    helper_order: Literal["non_increasing", "any"] = Field(
        "non_increasing", description="Helper piles never rise (a card goes on an equal or higher one), "
        "or any order.")
    allow_joker_chains: bool = Field(True, description="Several jokers may follow each other in one run.")
    refill_when_empty: bool = Field(False, description="A hand emptied during the turn is refilled at once.")
    aces_out_of_turn: bool = Field(False, description="Aces go out as soon as a build pile is free, even "
                                   "in other players' turns: dealt aces before the first turn, held ones "
                                   "whenever a pile is freed.")
    stuck_discard: Literal["skip", "any"] = Field(
        "skip", description="When no hand card may go on a helper pile: the turn ends without a discard, "
        "or any card may go anywhere.")
    scoring: Literal["points", "wins"] = Field(
        "points", description="Score leftover hand and helper cards (pictures and jokers -10, numbers -5, "
        "winner +20), or count wins.")
    games: int = Field(5, ge=1, le=20, description="Games in a match.")

    def deck_count(self, players: int) -> int:
        return self.decks or (1 if players <= 4 else 2)


_BUILD = tuple(f"b{i}" for i in range(1, 10))
_HELPER = tuple(f"helper:{i}" for i in range(1, 10))
_SOURCE = {HAND: "hand", PILE: "stock", RESERVE: "reserve", HELPER: ""}


class Skippo(BuildPileGame[Options]):
    key: ClassVar[str] = "skippo"
    name: ClassVar[str] = "Skippo"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    # 2: with aces out of turn, the dealt aces go out before the first turn (docs/rules-decisions.md D15).
    rules_version: ClassVar[int] = 2
    options_model = Options
    TOP: ClassVar[int] = TOP
    PILE_NAME: ClassVar[str] = "stock"
    # Measured over 200 random matches of 5 games per count: with one deck (2–4 players) random
    # play stalls the first game within ~2,000 actions; with two decks games are mostly won and a
    # match takes up to ~4,800 actions. The cap leaves room for longer matches.
    playout_cap: ClassVar[int] = 20000

    face = staticmethod(face)
    face_of_value = staticmethod(face_of_value)

    # -- setup ---------------------------------------------------------------------------------
    def deck(self, options: Options, players: int) -> list[str]:
        cards = deck(options.deck_count(players), options.jokers_per_deck)
        if players * (options.stock_size + options.hand_size) > len(cards):
            raise ValueError("not enough cards for these players, stock and hand sizes")
        return cards

    def personal_pile_size(self, options: Options) -> int:
        return options.stock_size

    def start_turn(self, table: Table, events: list[Event] | None = None) -> list[Event]:
        """Aces out (each with a replacement card), then refill to the hand size."""
        events = [] if events is None else events
        self._refill(table, table.current, events)
        return events

    def before_first_turn(self, table: Table, events: list[Event]) -> None:
        """With ``aces_out_of_turn`` the dealt aces go out before the first turn too (docs/rules-decisions.md
        D15): in turn order from the first player, each lays their aces on free build piles and draws a card
        for each (aces drawn so go out as well), until the piles are full."""
        if table.options.aces_out_of_turn:
            for k in range(table.players):
                if table.free_slot() < 0:
                    return
                self._refill(table, (table.current + k) % table.players, events)

    def _refill(self, table: Table, seat: int, events: list[Event]) -> None:
        size = table.options.hand_size
        while True:
            self._aces_out(table, seat, events)
            drawn = draw_to(table, seat, size, events)
            if drawn:
                table.aceless &= ~(1 << seat)  # nobody else knows what came
            if not drawn or not (ACE in [VALUE[c] for c in drawn] and table.free_slot() >= 0):
                if table.free_slot() >= 0:
                    table.aceless |= 1 << seat  # any ace would have gone out
                return

    @staticmethod
    def _aces_out(table: Table, seat: int, events: list[Event]) -> None:
        """Put every ace in ``seat``'s hand on a free build slot (no replacement here); a slot still
        free afterwards tells everybody the hand holds no ace."""
        hand = table.seats[seat].hand
        while True:
            slot = table.free_slot()
            if slot < 0:
                return
            for card in hand:
                if VALUE[card] == ACE:
                    break
            else:
                table.aceless |= 1 << seat
                return
            hand.remove(card)
            events.append(Event("ace_out", seat, {"card": card, "to": _BUILD[slot]}))
            push_build(table, slot, card, TOP, events)

    def _after_build(self, table: Table, seat: int, events: list[Event]) -> None:
        """A freed slot takes held aces (the player's own; everybody's with ``aces_out_of_turn``);
        a stock and reserve both empty win; an empty hand may be refilled by option."""
        me = table.seats[seat]
        if not me.pile and not me.reserve:
            events.append(Event("stock_empty", seat, {}))
            self.finish_game(table, seat, events)
            return
        if table.free_slot() >= 0:
            self._aces_out(table, seat, events)
            if table.options.aces_out_of_turn:
                for k in range(1, table.players):
                    self._aces_out(table, (seat + k) % table.players, events)
        if not me.hand and table.options.refill_when_empty:
            self._refill(table, seat, events)

    # -- moves ---------------------------------------------------------------------------------
    def legal_actions(self, state: Table, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        o: Options = state.options
        build = state.build
        free = state.free_slot() >= 0
        targets: dict[int, list[str]] = {1: ["new"] if free else []}
        for i, p in enumerate(build):
            if p:
                targets.setdefault(len(p) + 1, []).append(_BUILD[i])
        out: list[Action] = []

        def add(card: str, source: str) -> None:
            for target in targets.get(VALUE[card], ()):
                out.append(_act("play", f"{card}@{source}>{target}"))

        me = state.seats[seat]
        for card in me.hand:
            add(card, "hand")  # jokers have value 0 and no targets
        if me.pile and not me.reserve:
            add(me.pile[-1], "stock")
        for i, h in enumerate(me.helpers):
            if h:
                add(h[-1], _HELPER[i])
        out += run_actions(state, seat, o.allow_joker_chains, _act, _BUILD)
        if len(me.pile) > 1 and not VALUE[me.pile[-1]]:
            out.append(_act("aside", me.pile[-1]))
        discards = self._discards(state, seat)
        out += discards
        if not discards:
            out.append(END)
        return out

    def _discards(self, table: Table, seat: int, fallback: bool = True) -> list[Action]:
        """The legal discards; with ``stuck_discard="any"`` and none by the order rule, any card
        but an ace may go anywhere (``fallback``)."""
        me = table.seats[seat]
        if not me.hand:
            return []
        out = self._discards_by(me.helpers, me.hand, table.options.helper_order == "non_increasing")
        if not out and fallback and table.options.stuck_discard == "any":
            out = self._discards_by(me.helpers, me.hand, False)
        return out

    @staticmethod
    def _discards_by(helpers: list[list[str]], hand: list[str], ordered: bool) -> list[Action]:
        tops = [(_HELPER[i], helper_value(h)) for i, h in enumerate(helpers) if h]
        has_free = len(tops) < len(helpers)
        out = []
        for card in hand:
            v = VALUE[card]
            if v == ACE:
                continue  # a held ace may not be discarded
            for name, top in tops:
                if not ordered or v <= top:
                    out.append(_act("discard", f"{card}>{name}"))
            if has_free:
                out.append(_act("discard", f"{card}>new"))
        return out

    def locate_other(self, table: Table, seat: int, card: str, source: str) -> tuple[int, int, int]:
        if source == "reserve":
            reserve = table.seats[seat].reserve
            if card in reserve:
                return RESERVE, seat, reserve.index(card)
            raise IllegalAction("skippo.not_in_reserve")
        raise IllegalAction("skippo.no_such_source")

    def check(self, state: Table, seat: int, action: Action) -> None:
        self._plan(state, seat, action)

    def _plan(self, table: Table, seat: int, action: Action) -> tuple[Any, ...]:
        self._turn(table, seat)
        kind = action.kind
        me = table.seats[seat]
        if kind == "play":
            card, source, target = self.split_play(action.arg)
            zone = self.locate(table, seat, card, source)
            value = VALUE[card]
            if value == 0:
                raise IllegalAction("skippo.joker_needs_cover")
            if zone[0] == PILE and me.reserve:
                raise IllegalAction("skippo.stock_blocked")
            slot = self.target_slot(table, target)
            need = len(table.build[slot]) + 1
            if value != need:
                raise IllegalAction("skippo.start_with_ace" if need == 1 else "skippo.wrong_value", need=need)
            return kind, card, source, [(card, zone[0], zone[2])], slot
        if kind == "run":
            body, _, target = action.arg.rpartition(">")
            slot = self.target_slot(table, target)
            steps = validate_run(table, seat, body.split("+"), slot, table.options.allow_joker_chains)
            return kind, body, "run", steps, slot
        if kind == "aside":
            if not me.pile or me.pile[-1] != action.arg or VALUE[action.arg]:
                raise IllegalAction("skippo.aside_not_joker")
            if len(me.pile) == 1:
                raise IllegalAction("skippo.aside_last_card")
            return (kind,)
        if kind == "discard":
            card, _, target = action.arg.partition(">")
            if card not in me.hand:
                raise IllegalAction("skippo.discard_from_hand")
            if VALUE[card] == ACE:
                raise IllegalAction("skippo.ace_discard")
            index = self.helper_target(table, seat, target)
            helper = me.helpers[index]
            if helper and VALUE[card] and table.options.helper_order == "non_increasing":
                top = helper_value(helper)
                stuck_any = table.options.stuck_discard == "any" and not self._discards(table, seat, False)
                if VALUE[card] > top and not stuck_any:
                    raise IllegalAction("skippo.helper_too_high", top=face_of_value(top))
            return kind, card, index
        if action.arg:
            raise IllegalAction("core.illegal_action")
        if kind == "end":
            if self._discards(table, seat):
                raise IllegalAction("skippo.must_discard")
            return (kind,)
        raise IllegalAction("core.illegal_action")

    def apply(self, state: Table, seat: int, action: Action) -> list[Event]:
        plan = self._plan(state, seat, action)
        kind = plan[0]
        events: list[Event] = []
        state.last = ()
        me = state.seats[seat]
        if kind in ("play", "run"):
            _, _, source, steps, slot = plan
            for card, zone, index in steps:
                if zone == HAND:
                    me.hand.remove(card)
                elif zone == RESERVE:
                    me.reserve.remove(card)
                elif zone == HELPER:
                    me.helpers[index].pop()
                else:
                    self.take(state, (PILE, seat, 0), events)
                value = len(state.build[slot]) + 1
                where = source if kind == "play" else _SOURCE[zone] or _HELPER[index]
                events.append(Event("play", seat, {"card": card, "from": where, "to": _BUILD[slot], "value": value}))
                push_build(state, slot, card, TOP, events)
            state.last = tuple(card for card, _, _ in steps)
            self._after_build(state, seat, events)
        elif kind == "aside":
            state.moved = True
            me.reserve.append(me.pile.pop())
            state.last = (me.reserve[-1],)
            events.append(Event("aside", seat, {"card": me.reserve[-1]}))
            events.append(Event("reveal", seat, {"card": me.pile[-1]}))
        elif kind == "discard":
            _, card, index = plan
            me.hand.remove(card)
            me.helpers[index].append(card)
            state.last = (card,)
            state.moved = True
            events.append(Event("discard", seat, {"card": card, "to": _HELPER[index]}))
            self.end_turn(state, events)
        else:
            self.end_turn(state, events)
        return events

    # -- information ---------------------------------------------------------------------------
    def fix_resample(self, table: Table, seat: int, rng: random.Random) -> None:
        """A hand everybody knows to hold no ace gets none in the redeal: while a build pile is free,
        the player to act's (everybody's with ``aces_out_of_turn``), and any hand that had to put
        its aces out while a pile stayed free and drew nothing since (``Table.aceless``: a player
        who found a pile free at the deal, say). Such aces swap with hidden non-aces elsewhere
        (the draw pile, stocks under their tops, other hands)."""
        known = table.aceless
        if table.free_slot() >= 0:
            known |= (1 << table.players) - 1 if table.options.aces_out_of_turn else 1 << table.current
        bound = [j for j in range(table.players) if j != seat and known >> j & 1]
        if not bound:
            return
        # Hidden places a card may come from: (list, how many of its cards are hidden).
        spots: list[tuple[list[str], int]] = [(table.draw, len(table.draw))]
        spots += [(s.pile, len(s.pile) - 1) for s in table.seats if s.pile]
        spots += [(s.hand, len(s.hand)) for j, s in enumerate(table.seats) if j != seat and j not in bound]
        for j in bound:
            hand = table.seats[j].hand
            for i, card in enumerate(hand):
                if VALUE[card] != ACE:
                    continue
                choices = [(spot, k) for spot, hidden in spots for k in range(hidden) if VALUE[spot[k]] != ACE]
                if choices:
                    spot, k = rng.choice(choices)
                    hand[i], spot[k] = spot[k], card

    # -- scoring -------------------------------------------------------------------------------
    def score_game(self, table: Table, winner: int) -> list[ScoreLine]:
        if table.options.scoring == "wins":
            return [ScoreLine(winner, "skippo.line_win", 1)]
        lines = []
        for j, s in enumerate(table.seats):
            left = s.hand + [c for h in s.helpers for c in h]
            jokers = sum(1 for c in left if not VALUE[c])
            pictures = sum(1 for c in left if VALUE[c] > 10)
            numbers = len(left) - jokers - pictures
            if pictures:
                lines.append(ScoreLine(j, "skippo.line_pictures", -10 * pictures, {"count": pictures}))
            if jokers:
                lines.append(ScoreLine(j, "skippo.line_jokers", -10 * jokers, {"count": jokers}))
            if numbers:
                lines.append(ScoreLine(j, "skippo.line_numbers", -5 * numbers, {"count": numbers}))
            if j == winner:
                lines.append(ScoreLine(j, "skippo.line_winner", 20))
        return lines

    def match_over(self, table: Table) -> bool:
        games: int = table.options.games
        return table.game_no >= games


GAME = Skippo()
