"""A finished match walked from its log, and each of its positions as a read-only session the
presenters draw (``Position``): the table after any move looks as it looked then.

Walking a long match again for every click would cost a replay of hundreds of moves; a ``Walked``
match keeps each move's events and a copy of the state every ``CHECKPOINT`` moves, so a position is
at most that many moves from a kept copy. ``Walks`` keeps the matches stepped through lately.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.storage.status import Status
from games.base import Action, Event, Game, Result, walk

#: Moves between two kept copies of the state.
CHECKPOINT = 16
#: Matches a process keeps walked (a few people stepping through their last matches).
KEPT = 16


@dataclass(frozen=True, slots=True)
class Player:
    """A seat as the replay shows it: the stored name (an anonymous one where /forget-me removed it)."""

    name: str
    user_id: int | None = None
    level: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """Where a hand (or round, or game) begins: the step whose position shows it dealt, and its number;
    in a game of one hand (Calcory), where a player's turn begins (``seat``)."""

    step: int
    number: int
    seat: int | None = None


class Walked:
    """Every position of one match: the moves with their events, and copies of the state to start from."""

    def __init__(self, game: Game, players: int, options: BaseModel, seed: str,
                 actions: Sequence[tuple[int, Action]]) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.seed = seed
        self.actions = list(actions)
        self.opening: list[Event] = []
        #: ``(seat, action, events)`` of each move, in order (a session's ``history``).
        self.history: list[tuple[int, Action, list[Event]]] = []
        self._kept: dict[int, Any] = {}
        acting: list[frozenset[int]] = []
        for index, step in enumerate(walk(game, players, options, seed, self.actions)):
            if step.seat is None or step.action is None:
                self.opening = step.events
            else:
                self.history.append((step.seat, step.action, step.events))
            if index % CHECKPOINT == 0 or index == len(self.actions):
                self._kept[index] = game.clone(step.state)
            acting.append(frozenset() if game.is_over(step.state) else game.to_act(step.state))
        self.starts = _starts(self.opening, self.history, acting)

    @property
    def steps(self) -> int:
        """The last step: one per move (step 0 is the deal)."""
        return len(self.actions)

    def state(self, step: int) -> Any:
        """A copy of the state after ``step`` moves, the caller's to keep."""
        base = step - step % CHECKPOINT
        state = self.game.clone(self._kept[base])
        for seat, action in self.actions[base:step]:
            self.game.apply(state, seat, action)
        return state

    def start_of(self, step: int) -> int:
        """The index in ``starts`` of the hand (or turn) that ``step`` belongs to."""
        found = 0
        for index, start in enumerate(self.starts):
            if start.step > step:
                break
            found = index
        return found


def _starts(opening: list[Event], history: list[tuple[int, Action, list[Event]]],
            acting: list[frozenset[int]]) -> list[Start]:
    """Where each hand begins: the first at the start, each further one at a public deal the game
    reported (a Safarü game redeals within one game: only its first deal, ``deal`` 1, begins one); a
    match of one hand is stepped by turns, where the seat to move changes."""
    events = [opening, *(moved for _, _, moved in history)]
    deals = [0, *(step for step, told in enumerate(events)
                  if step and any(e.kind == "deal" and e.to is None and e.data.get("deal", 1) == 1 for e in told))]
    if len(deals) > 1:
        return [Start(step, number) for number, step in enumerate(deals, 1)]
    turns = [Start(0, 1, min(acting[0], default=None))]
    for step in range(1, len(acting)):
        if acting[step] and acting[step] != acting[step - 1]:
            turns.append(Start(step, len(turns) + 1, min(acting[step])))
    return turns


class Walks:
    """The matches walked lately, by session id: a click steps through a kept one without a replay."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._walked: OrderedDict[int, Walked] = OrderedDict()

    def get(self, session_id: int) -> Walked | None:
        walked = self._walked.get(session_id)
        if walked is not None:
            self._walked.move_to_end(session_id)
        return walked

    def keep(self, session_id: int, walked: Walked) -> Walked:
        self._walked[session_id] = walked
        while len(self._walked) > self.size:
            self._walked.popitem(last=False)
        return walked


@dataclass(eq=False)
class Position:
    """A match at one step, read-only, shaped as the presenters read a session: the table as it stood
    after that move (``status`` playing until the last step, which is the finished match)."""

    id: int
    guild_id: int
    channel_id: int
    game: Game[Any, Any, Any]
    lang: str
    status: Status
    options: BaseModel
    seats: tuple[Player, ...]
    state: Any
    counters: list[int]
    history: list[tuple[int, Action, list[Event] | None]]
    opening: list[Event]
    pictures: bool
    host_id: int = 0
    pace: str = "none"
    end_reason: str | None = None
    started_at: float | None = None
    created_at: float = 0.0  # read only by a lobby, which a replay never shows
    messages: dict[str, Any] = field(default_factory=dict)

    def events_from(self, start: int) -> list[list[Event]]:
        return [events or [] for _, _, events in self.history[start:]]

    def seat_of(self, user_id: int) -> int | None:
        return next((index for index, seat in enumerate(self.seats) if seat.user_id == user_id), None)

    def to_act(self) -> frozenset[int]:
        return self.game.to_act(self.state) if self.status == Status.PLAYING else frozenset()

    def view(self, seat: int | None) -> Any:
        return self.game.view(self.state, seat)

    def result(self) -> Result | None:
        return self.game.result(self.state) if self.game.is_over(self.state) else None


def position(walked: Walked, step: int, *, match_id: int, guild_id: int, channel_id: int, lang: str,
             seats: tuple[Player, ...], pictures: bool) -> Position:
    """The match ``walked`` after ``step`` moves."""
    history: list[tuple[int, Action, list[Event] | None]] = list(walked.history[:step])
    counters = [0] * walked.players
    for seat, _, _ in history:
        counters[seat] += 1
    status = Status.FINISHED if step == walked.steps else Status.PLAYING
    return Position(match_id, guild_id, channel_id, walked.game, lang, status, walked.options, seats,
                    walked.state(step), counters, history, walked.opening, pictures,
                    end_reason="over" if status == Status.FINISHED else None)
