"""A tiny complete game for the host's tests, independent of the real games.

"High card": every player holds one hidden card from twelve (values 1-6 in two colours). In turn,
for ``rounds`` rounds, a player either passes or swaps: the held card goes face up on the discard
pile and the top card of the stock replaces it (seen only by that player). Highest card wins;
equal cards share the win.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from games.base import (
    Action,
    Event,
    Game,
    HandScore,
    IllegalAction,
    Result,
    ScoreLine,
    fresh_seed,
    shuffled,
    top_scorers,
)

DECK = tuple(f"{colour}{value}" for colour in "ab" for value in range(1, 7))
PASS = Action("pass")
SWAP = Action("swap")


def value(card: str) -> int:
    return int(card[1:])


class ToyOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: int = Field(2, ge=1, le=3, description="How many turns each player gets.")
    allow_swap: bool = Field(True, description="Whether a player may swap the held card.")


@dataclass(slots=True)
class ToyState:
    players: int
    rounds: int
    allow_swap: bool
    seed: str
    shuffles: int
    hands: list[str]
    stock: list[str]
    discard: list[str]
    turn: int
    turns_taken: int


@dataclass(frozen=True, slots=True)
class ToyView:
    turn: int | None
    turns_taken: int
    stock: int
    discard: tuple[str, ...]
    hand: str | None
    hands: tuple[str, ...] | None  # every hand, face up, once the game is over


class ToyGame(Game[ToyState, ToyView, ToyOptions]):
    key = "toy"
    name = "High card"
    min_players = 2
    max_players = 4
    rules_version = 1
    options_model = ToyOptions

    def setup(self, players: int, options: ToyOptions, seed: str) -> ToyState:
        deck = shuffled(seed, 0, DECK)
        return ToyState(players, options.rounds, options.allow_swap, seed, 1, deck[:players], deck[players:], [],
                        0, 0)

    def is_over(self, state: ToyState) -> bool:
        return state.turns_taken >= state.rounds * state.players

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if self.is_over(state) or seat != state.turn:
            return []
        return [PASS, SWAP] if state.allow_swap and state.stock else [PASS]

    def check(self, state: ToyState, seat: int, action: Action) -> None:
        if self.is_over(state):
            raise IllegalAction("core.game_over")
        if seat != state.turn:
            raise IllegalAction("core.not_your_turn")
        if action == SWAP:
            if not state.allow_swap:
                raise IllegalAction("toy.no_swapping")
            if not state.stock:
                raise IllegalAction("toy.stock_empty")
        elif action != PASS:
            raise IllegalAction("core.illegal_action")

    def apply(self, state: ToyState, seat: int, action: Action) -> list[Event]:
        self.check(state, seat, action)
        events = [Event(action.kind, seat)]
        if action == SWAP:
            old, new = state.hands[seat], state.stock.pop()
            state.discard.append(old)
            state.hands[seat] = new
            events = [Event("swap", seat, {"discarded": old}), Event("draw", seat, {"card": new}, frozenset({seat}))]
        state.turns_taken += 1
        state.turn = (state.turn + 1) % state.players
        return events

    def view(self, state: ToyState, seat: int | None) -> ToyView:
        over = self.is_over(state)
        return ToyView(
            None if over else state.turn, state.turns_taken, len(state.stock), tuple(state.discard),
            None if seat is None else state.hands[seat], tuple(state.hands) if over else None,
        )

    def resample(self, state: ToyState, seat: int, rng: random.Random) -> ToyState:
        out = self.clone(state)
        others = [s for s in range(state.players) if s != seat]
        pool = [state.hands[s] for s in others] + list(state.stock)
        rng.shuffle(pool)
        for s in others:
            out.hands[s] = pool.pop()
        out.stock = pool
        out.seed = fresh_seed(rng)
        return out

    def cards(self, state: ToyState) -> list[str]:
        return [*state.hands, *state.stock, *state.discard]

    def result(self, state: ToyState) -> Result:
        scores = tuple(value(card) for card in state.hands)
        lines = tuple(ScoreLine(seat, "toy.card_value", score) for seat, score in enumerate(scores))
        return Result(scores, top_scorers(scores), (HandScore(1, lines, scores),))

    def clone(self, state: ToyState) -> ToyState:
        return ToyState(state.players, state.rounds, state.allow_swap, state.seed, state.shuffles,
                        list(state.hands), list(state.stock), list(state.discard), state.turn, state.turns_taken)


GAME = ToyGame()


class ToyGameV2(ToyGame):
    """The same game after a rules change: stored matches of version 1 must not be replayed."""

    rules_version = 2
