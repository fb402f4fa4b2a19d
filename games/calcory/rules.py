"""Calcory: flip cards from a face-down 6 × 10 grid, aim for a sum of 13, remember where things lie.

A turn flips cards one at a time. Going over 13 or turning a second 0 busts; exactly 13 takes the
cards (one goes back face down to any empty slot); stopping early marks the cards, and a marked set
that nobody beats by the owner's next turn is taken by the owner (a walkover). Taking a single card
that way ends the game; most cards in hand wins.

Knowledge for ``resample``: every card in a hand was once face up, so hands are public except for
which taken card went back to the table. ``seen`` holds the face-down slots whose card the table
saw turned down in place; ``groups`` holds the slots a card was returned to, with who returned it
and the cards it was one of. Every other face-down slot has never been flipped.

A failed turn (a bust or an underbid) is seen by everyone (docs/rules-decisions.md D16): its cards stay face
up, with their sum and what happened, until the next action, whoever makes it; only then are they face down
again. ``failed`` is that turn while it lies open; its slots are already in ``seen``, so ``resample`` keeps
them in place like any card the table saw.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.base import (
    Action,
    Event,
    Game,
    HandScore,
    IllegalAction,
    NoOptions,
    Result,
    ScoreLine,
    draw_rng,
    fresh_seed,
    shuffled,
    top_scorers,
)
from games.calcory.state import (
    _DOWN,
    _EMPTY,
    _FLIPS,
    _STOP,
    FLIP,
    OVER,
    RETURN,
    SLOT_INDEX,
    SLOTS,
    TARGET,
    CalcoryState,
    CalcoryView,
    Failed,
    FailedView,
    MarkedView,
    SlotView,
    _ret,
)
from games.deck import DECK, digit, sort_cards


class Calcory(Game[CalcoryState, CalcoryView, NoOptions]):
    key: ClassVar[str] = "calcory"
    name: ClassVar[str] = "Calcory"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    rules_version: ClassVar[int] = 1
    options_model = NoOptions
    # Random play picks one of ~50 flips for every stop, so it busts or hits most turns and marks
    # rarely, and nothing in the rules forces an end (players may bust for ever). Measured over
    # 3,000 random games per count: median 190 actions with 2 players, 370 with 6, longest 892.
    # Every capture moves a card into a hand for good and single-card walkovers grow likely as the
    # table thins, so 3,000 actions bound a playout at ~3x the longest game seen.
    playout_cap: ClassVar[int] = 3000

    # -- setup -------------------------------------------------------------------------------
    def setup(self, players: int, options: NoOptions, seed: str) -> CalcoryState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Calcory needs {self.min_players}-{self.max_players} players")
        grid = shuffled(seed, 0, DECK)
        first = draw_rng(seed, 1).randrange(players)
        return CalcoryState(players, seed, 2, grid, [], [], -1, [[] for _ in range(players)], first, FLIP,
                            [], set(), {}, 0)

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: CalcoryState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.active,))

    def on_show(self, state: CalcoryState) -> bool:
        """A failed turn lies face up until the next action: the table should get to see it."""
        return state.failed is not None

    def legal_actions(self, state: CalcoryState, seat: int) -> list[Action]:
        if state.phase == OVER or seat != state.active:
            return []
        if state.phase == RETURN:
            empty = [i for i, cid in enumerate(state.grid) if not cid]
            return [_ret(cid, i) for cid in state.choices for i in empty]
        grid, flips, marks = state.grid, state.flips, state.marks
        out = [_FLIPS[i] for i in range(len(grid)) if grid[i] and i not in flips and i not in marks]
        if flips and (len(flips) >= self._minimum(state) or not out):
            out.append(_STOP)
        return out

    def check(self, state: CalcoryState, seat: int, action: Action) -> None:
        if state.phase == OVER:
            raise IllegalAction("core.game_over")
        if seat != state.active:
            raise IllegalAction("core.not_your_turn")
        kind = action.kind
        if kind == "ret":
            self._parse_return(state, action)
            return
        if state.phase == RETURN:
            raise IllegalAction("calcory.must_return")
        if kind == "flip":
            self._flip_slot(state, action.arg)
        elif kind == "stop":
            if action.arg:
                raise IllegalAction("core.illegal_action")
            if len(state.flips) < self._minimum(state) and (not state.flips or self._available(state)):
                raise IllegalAction("calcory.stop_needs_two" if self._minimum(state) == 2
                                    else "calcory.stop_needs_one")
        else:
            raise IllegalAction("core.illegal_action")

    def apply(self, state: CalcoryState, seat: int, action: Action) -> list[Event]:
        self.check(state, seat, action)
        # the next action turns a failed turn's cards face down (docs/rules-decisions.md D16)
        state.failed = None
        events: list[Event] = []
        if action.kind == "flip":
            self._do_flip(state, seat, SLOT_INDEX[action.arg], events)
        elif action.kind == "stop":
            self._do_stop(state, seat, events)
        else:
            card, slot = self._parse_return(state, action)
            self._do_return(state, seat, card, slot, events)
        return events

    # -- rules ---------------------------------------------------------------------------------
    @staticmethod
    def _minimum(state: CalcoryState) -> int:
        """Flips needed before a stop: two while the hand is still empty, else one."""
        return 1 if state.hands[state.active] else 2

    @staticmethod
    def _available(state: CalcoryState) -> int:
        grid, flips, marks = state.grid, state.flips, state.marks
        return sum(1 for i in range(len(grid)) if grid[i] and i not in flips and i not in marks)

    @staticmethod
    def _flip_slot(state: CalcoryState, name: str) -> int:
        slot = SLOT_INDEX.get(name)
        if slot is None:
            raise IllegalAction("calcory.no_such_slot")
        if not state.grid[slot]:
            raise IllegalAction("calcory.slot_empty", slot=name)
        if slot in state.marks:
            raise IllegalAction("calcory.slot_marked", slot=name)
        if slot in state.flips:
            raise IllegalAction("calcory.slot_face_up", slot=name)
        return slot

    @staticmethod
    def _parse_return(state: CalcoryState, action: Action) -> tuple[str, int]:
        if state.phase != RETURN:
            raise IllegalAction("calcory.nothing_to_return")
        card, _, name = action.arg.partition("-")
        if card not in state.choices:
            raise IllegalAction("calcory.not_a_taken_card")
        slot = SLOT_INDEX.get(name)
        if slot is None:
            raise IllegalAction("calcory.no_such_slot")
        if state.grid[slot]:
            raise IllegalAction("calcory.slot_not_empty", slot=name)
        return card, slot

    def _do_flip(self, state: CalcoryState, seat: int, slot: int, events: list[Event]) -> None:
        state.seen.discard(slot)
        state.groups.pop(slot, None)
        state.flips.append(slot)
        d = digit(state.grid[slot])
        events.append(Event("flip", seat, {"slot": SLOTS[slot], "card": state.grid[slot], "digit": d}))
        digits = [digit(state.grid[i]) for i in state.flips]
        total = sum(digits)
        if d == 0 and digits.count(0) > 1:
            self._bust(state, seat, "zero", events)
        elif total > TARGET:
            self._bust(state, seat, "over", events)
        elif total == TARGET:
            events.append(Event("hit", seat, {"total": total, "count": len(digits), "against": state.owner,
                                              "cleared": [SLOTS[i] for i in state.marks]}))
            self._clear_marks(state)
            taken = [state.grid[i] for i in state.flips]
            self._take(state, seat, state.flips, events)
            state.flips = []
            self._must_return(state, seat, taken)

    def _bust(self, state: CalcoryState, seat: int, why: str, events: list[Event]) -> None:
        events.append(Event("bust", seat, {"why": why, "slots": [SLOTS[i] for i in state.flips]}))
        self._fail(state, Failed(seat, why, tuple(state.flips)))
        self._advance(state, events)

    def _do_stop(self, state: CalcoryState, seat: int, events: list[Event]) -> None:
        total = sum(digit(state.grid[i]) for i in state.flips)
        count = len(state.flips)
        if state.marks:
            mark_total = sum(digit(state.grid[i]) for i in state.marks)
            data = {"total": total, "count": count, "against": state.owner,
                    "their_total": mark_total, "their_count": len(state.marks)}
            if total > mark_total or (total == mark_total and count > len(state.marks)):
                events.append(Event("overbid", seat, {**data, "cleared": [SLOTS[i] for i in state.marks]}))
                self._clear_marks(state)
            else:
                events.append(Event("underbid", seat, {**data, "slots": [SLOTS[i] for i in state.flips]}))
                self._fail(state, Failed(seat, "underbid", tuple(state.flips), mark_total, len(state.marks)))
                self._advance(state, events)
                return
        state.marks = state.flips
        state.owner = seat
        state.flips = []
        events.append(Event("mark", seat, {"slots": [SLOTS[i] for i in state.marks], "total": total,
                                           "count": count}))
        self._advance(state, events)

    @staticmethod
    def _fail(state: CalcoryState, failed: Failed) -> None:
        """The turn failed: its cards count as turned down in place (the table saw them), yet lie
        face up for everyone until the next action."""
        state.seen.update(failed.slots)
        state.flips = []
        state.failed = failed

    @staticmethod
    def _clear_marks(state: CalcoryState) -> None:
        """The marked set goes face down in place; its markers go home."""
        state.seen.update(state.marks)
        state.marks = []
        state.owner = -1

    @staticmethod
    def _take(state: CalcoryState, seat: int, slots: list[int], events: list[Event]) -> None:
        hand = state.hands[seat]
        for i in slots:
            hand.append(state.grid[i])
            state.grid[i] = ""
        events.append(Event("take", seat, {"count": len(slots), "slots": [SLOTS[i] for i in slots],
                                           "hand": len(hand)}))

    @staticmethod
    def _must_return(state: CalcoryState, seat: int, taken: list[str]) -> None:
        state.active = seat
        state.phase = RETURN
        state.choices = taken

    def _do_return(self, state: CalcoryState, seat: int, card: str, slot: int, events: list[Event]) -> None:
        state.hands[seat].remove(card)
        state.grid[slot] = card
        state.groups[slot] = (seat, tuple(state.choices))
        state.choices = []
        state.phase = FLIP
        events.append(Event("return", seat, {"slot": SLOTS[slot]}))
        events.append(Event("return", seat, {"slot": SLOTS[slot], "card": card}, frozenset((seat,))))
        self._advance(state, events)

    def _advance(self, state: CalcoryState, events: list[Event]) -> None:
        """Pass the turn on: a standing marked set is taken by its owner at once (walkover); a
        player with nothing to flip passes. At most one lap, so passing can never loop."""
        state.turns += 1
        for _ in range(state.players):
            seat = (state.active + 1) % state.players
            state.active = seat
            if state.owner == seat:
                slots = state.marks
                taken = [state.grid[i] for i in slots]
                events.append(Event("walkover", seat, {"count": len(slots), "slots": [SLOTS[i] for i in slots]}))
                state.marks = []
                state.owner = -1
                self._take(state, seat, slots, events)
                if len(taken) == 1:
                    self._end(state, events)
                else:
                    self._must_return(state, seat, taken)
                return
            if self._available(state):
                return
            events.append(Event("pass", seat, {}))
        # Nobody can flip and nothing is marked: only an empty table does that, which a capture
        # never leaves behind; end rather than loop.
        self._end(state, events)

    def _end(self, state: CalcoryState, events: list[Event]) -> None:
        state.phase = OVER
        counts = [len(h) for h in state.hands]
        events.append(Event("end", None, {"counts": counts, "winners": sorted(top_scorers(counts))}))

    # -- information ---------------------------------------------------------------------------
    def view(self, state: CalcoryState, seat: int | None) -> CalcoryView:
        grid, flips, marks = state.grid, state.flips, state.marks
        shown = state.failed.slots if state.failed is not None else ()
        cells = []
        for i, cid in enumerate(grid):
            if not cid:
                cells.append(_EMPTY[i])
            elif i in flips:
                cells.append(SlotView(SLOTS[i], "up", cid, digit(cid)))
            elif i in marks:
                cells.append(SlotView(SLOTS[i], "marked", cid, digit(cid), state.owner))
            elif i in shown:
                cells.append(SlotView(SLOTS[i], "shown", cid, digit(cid)))
            else:
                cells.append(_DOWN[i])
        flipped = tuple(digit(grid[i]) for i in flips)
        marked = None
        if marks:
            marked = MarkedView(state.owner, sum(digit(grid[i]) for i in marks), len(marks),
                                tuple(SLOTS[i] for i in marks))
        over = state.phase == OVER
        base: dict[str, Any] = dict(
            grid=tuple(cells),
            active=None if over else state.active,
            phase=state.phase,
            flipped=flipped,
            flipped_slots=tuple(SLOTS[i] for i in flips),
            total=sum(flipped),
            marked=marked,
            hand_counts=tuple(len(h) for h in state.hands),
            failed=self._failed_view(state),
        )
        if seat is None:
            return CalcoryView(**base)
        choices = tuple(sort_cards(state.choices)) if state.phase == RETURN and seat == state.active else ()
        return CalcoryView(**base, seat=seat, hand=tuple(sort_cards(state.hands[seat])), choices=choices)

    @staticmethod
    def _failed_view(state: CalcoryState) -> FailedView | None:
        failed = state.failed
        if failed is None:
            return None
        digits = tuple(digit(state.grid[i]) for i in failed.slots)
        return FailedView(failed.seat, failed.why, tuple(SLOTS[i] for i in failed.slots), digits, sum(digits),
                          failed.their_total, failed.their_count)

    def resample(self, state: CalcoryState, seat: int, rng: random.Random) -> CalcoryState:
        new = self.clone(state)
        new.seed = fresh_seed(rng)
        grid = new.grid
        # Another player's return: any of the cards they took may be the one that went back.
        for slot in sorted(new.groups):
            returner, candidates = new.groups[slot]
            if returner == seat:
                continue
            pick = rng.choice(candidates)
            if pick != grid[slot]:
                hand = new.hands[returner]
                hand[hand.index(pick)] = grid[slot]
                grid[slot] = pick
        # Slots never flipped: their cards are the ones nobody has seen.
        hidden = [i for i, cid in enumerate(grid)
                  if cid and i not in new.flips and i not in new.marks and i not in new.seen
                  and i not in new.groups]
        cards = sorted(grid[i] for i in hidden)  # canonical order: the shuffle must not see the deal
        rng.shuffle(cards)
        for i, cid in zip(hidden, cards, strict=True):
            grid[i] = cid
        return new

    def cards(self, state: CalcoryState) -> list[str]:
        return [c for c in state.grid if c] + [c for h in state.hands for c in h]

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: CalcoryState) -> bool:
        return state.phase == OVER

    def result(self, state: CalcoryState) -> Result:
        counts = tuple(len(h) for h in state.hands)
        lines = tuple(ScoreLine(seat, "calcory.score_cards", n, {"count": n}) for seat, n in enumerate(counts))
        return Result(counts, top_scorers(counts), (HandScore(1, lines, counts),))

    # -- plumbing ------------------------------------------------------------------------------
    def clone(self, state: CalcoryState) -> CalcoryState:
        return CalcoryState(
            state.players, state.seed, state.draws, state.grid[:], state.flips[:], state.marks[:], state.owner,
            [h[:] for h in state.hands], state.active, state.phase, state.choices[:], set(state.seen),
            dict(state.groups), state.turns, state.failed,
        )


GAME = Calcory()
