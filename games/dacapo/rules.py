"""Da Capo! (2–6 players): empty your own 20-card pile onto shared build piles running 1 → 10.

A turn refills the hand to four, then plays any number of cards (own pile top, hand, own helper
tops, other players' pile tops) and ends by discarding one hand card onto a helper pile. Emptying
the own pile wins at once; the winner scores a point per card left in the other piles. Decisions
where the rulebook is silent are in docs/rules-decisions.md: a player whose hand runs empty may draw four
(an action, D12), or end the turn without a discard (D28); taking an opponent's last pile card
makes that opponent win (D5, or forbidden by option).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from games.base import Action, Event, IllegalAction, ScoreLine
from games.base import action as _act
from games.buildpiles import END, PILE, BuildPileGame, Table, draw_to, push_build
from games.dacapo.cards import DECK, TOP, VALUE, face, face_of_value
from games.keys import number


class Options(BaseModel):
    """House rules, with the rulebook's defaults (docs/rules-decisions.md D5)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pile_size: int = Field(20, ge=5, le=20, description="Cards in each player's pile.")
    hand_size: int = Field(4, ge=2, le=6, description="Hand cards after refilling.")
    build_piles: int = Field(3, ge=1, le=4, description="Build piles that may lie in the middle at once.")
    helper_piles: int = Field(3, ge=1, le=4, description="Helper piles each player may have.")
    target: int = Field(50, ge=1, le=500, description="Points that win the match.")
    empty_opponent_pile: Literal["owner_wins", "forbidden"] = Field(
        "owner_wins", description="Playing the last card of another player's pile: its owner wins, or "
        "the play is not allowed.")


DRAW = Action("draw")
_BUILD = tuple(f"b{i}" for i in range(1, 10))
_HELPER = tuple(f"helper:{i}" for i in range(1, 10))
_OTHER = tuple(f"pile:seat{i}" for i in range(10))


class DaCapo(BuildPileGame[Options]):
    key: ClassVar[str] = "dacapo"
    name: ClassVar[str] = "Da Capo!"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    rules_version: ClassVar[int] = 1
    options_model = Options
    TOP: ClassVar[int] = TOP
    PILE_NAME: ClassVar[str] = "pile"
    # Random play discards far more often than it builds, so it stalls the first game within a few
    # hundred actions (docs/rules-decisions.md D8 ends the match); play that prefers building takes up to
    # ~5,000 actions for a whole match to 50. The cap leaves room for both.
    playout_cap: ClassVar[int] = 20000

    face = staticmethod(face)
    face_of_value = staticmethod(face_of_value)

    # -- setup ---------------------------------------------------------------------------------
    def deck(self, options: Options, players: int) -> list[str]:
        return list(DECK)

    def personal_pile_size(self, options: Options) -> int:
        return options.pile_size

    def start_turn(self, table: Table, events: list[Event] | None = None) -> list[Event]:
        """Refill the hand (nothing to do in the first round: everybody holds four)."""
        events = [] if events is None else events
        draw_to(table, table.current, table.options.hand_size, events)
        return events

    # -- moves ---------------------------------------------------------------------------------
    def legal_actions(self, state: Table, seat: int) -> list[Action]:
        if state.over or seat != state.current:
            return []
        build = state.build
        new = ["new"] if state.free_slot() >= 0 else []
        targets: dict[int, list[str]] = {0: [_BUILD[i] for i, p in enumerate(build) if p] + new, 1: new}
        for i, p in enumerate(build):
            if p:
                targets.setdefault(len(p) + 1, []).append(_BUILD[i])
        out: list[Action] = []

        def add(card: str, source: str) -> None:
            for target in targets.get(VALUE[card], ()):
                out.append(_act("play", f"{card}@{source}>{target}"))

        me = state.seats[seat]
        for card in me.hand:
            add(card, "hand")
        if me.pile:
            add(me.pile[-1], "pile")
        for i, h in enumerate(me.helpers):
            if h:
                add(h[-1], _HELPER[i])
        owner_wins = state.options.empty_opponent_pile == "owner_wins"
        for j, s in enumerate(state.seats):
            if j != seat and s.pile and (owner_wins or len(s.pile) > 1):
                add(s.pile[-1], _OTHER[j])
        if me.hand:
            helpers = [_HELPER[i] for i, h in enumerate(me.helpers) if h]
            if len(helpers) < len(me.helpers):
                helpers.append("new")
            for card in me.hand:
                for target in helpers:
                    out.append(_act("discard", f"{card}>{target}"))
        else:
            if state.can_draw():
                out.append(DRAW)
            out.append(END)
        return out

    def locate_other(self, table: Table, seat: int, card: str, source: str) -> tuple[int, int, int]:
        owner = number(source[9:]) if source.startswith("pile:seat") else None
        if owner is not None and owner < table.players and owner != seat:
            pile = table.seats[owner].pile
            if pile and pile[-1] == card:
                if len(pile) == 1 and table.options.empty_opponent_pile == "forbidden":
                    raise IllegalAction("dacapo.last_card_forbidden")
                return PILE, owner, 0
            raise IllegalAction("dacapo.not_pile_top")
        raise IllegalAction("dacapo.no_such_source")

    def check(self, state: Table, seat: int, action: Action) -> None:
        self._plan(state, seat, action)

    def _plan(self, table: Table, seat: int, action: Action) -> tuple[Any, ...]:
        self._turn(table, seat)
        kind = action.kind
        me = table.seats[seat]
        if kind == "play":
            card, source, target = self.split_play(action.arg)
            zone = self.locate(table, seat, card, source)
            slot = self.target_slot(table, target)
            pile = table.build[slot]
            value = VALUE[card]
            if not pile:
                if value > 1:
                    raise IllegalAction("dacapo.start_with_one")
            elif value and value != len(pile) + 1:
                raise IllegalAction("dacapo.wrong_value", need=len(pile) + 1, pile=_BUILD[slot])
            return kind, card, source, zone, slot
        if kind == "discard":
            card, _, target = action.arg.partition(">")
            if card not in me.hand:
                raise IllegalAction("dacapo.discard_from_hand")
            return kind, card, self.helper_target(table, seat, target)
        if action.arg:
            raise IllegalAction("core.illegal_action")
        if kind == "draw":
            if me.hand:
                raise IllegalAction("dacapo.hand_not_empty")
            if not table.can_draw():
                raise IllegalAction("dacapo.nothing_to_draw")
            return (kind,)
        if kind == "end":
            if me.hand:
                raise IllegalAction("dacapo.must_discard")
            return (kind,)
        raise IllegalAction("core.illegal_action")

    def apply(self, state: Table, seat: int, action: Action) -> list[Event]:
        plan = self._plan(state, seat, action)
        kind = plan[0]
        events: list[Event] = []
        state.last = ()
        if kind == "play":
            _, card, source, zone, slot = plan
            self.take(state, zone, events)
            value = len(state.build[slot]) + 1
            events.append(Event("play", seat, {"card": card, "from": source, "to": _BUILD[slot], "value": value}))
            push_build(state, slot, card, TOP, events)
            state.last = (card,)
            owner = zone[1]
            if zone[0] == PILE and not state.seats[owner].pile:
                events.append(Event("pile_empty", owner, {"by": seat}))
                self.finish_game(state, owner, events)
        elif kind == "discard":
            _, card, index = plan
            me = state.seats[seat]
            me.hand.remove(card)
            me.helpers[index].append(card)
            state.last = (card,)
            state.moved = True
            events.append(Event("discard", seat, {"card": card, "to": _HELPER[index]}))
            self.end_turn(state, events)
        elif kind == "draw":
            draw_to(state, seat, state.options.hand_size, events)
        else:
            self.end_turn(state, events)
        return events

    # -- scoring -------------------------------------------------------------------------------
    def score_game(self, table: Table, winner: int) -> list[ScoreLine]:
        """The winner scores one point per card left in each other player's pile."""
        return [
            ScoreLine(winner, "dacapo.line_pile", len(s.pile), {"count": len(s.pile), "seat": j})
            for j, s in enumerate(table.seats) if j != winner
        ]

    def match_over(self, table: Table) -> bool:
        target: int = table.options.target
        return max(table.scores or [0]) >= target


GAME = DaCapo()
