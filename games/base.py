"""The rules-engine contract every game implements.

A game is a pure function of (players, options, seed, actions): no I/O, no clock, no RNG object kept
in the state. The host (``bot/``) only ever talks to a game through this contract, and renders only
what ``view`` returns.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

S = TypeVar("S")
V = TypeVar("V")
Opts = TypeVar("Opts", bound=BaseModel)
T = TypeVar("T")


class IllegalAction(Exception):
    """A move the rules forbid.

    ``reason`` is a message key (``"calcory.stop_needs_two"``) that the host translates; ``params``
    fill in its placeholders. Never put hidden information into the params.
    """

    def __init__(self, reason: str, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params


@dataclass(frozen=True, slots=True)
class Action:
    """One move. ``kind`` and ``arg`` name absolute things (slots, card ids), never list positions.

    The key ``kind`` or ``kind:arg`` is stable and short enough to ride in a Discord custom_id.
    """

    kind: str
    arg: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.arg}" if self.arg else self.kind

    @classmethod
    def parse(cls, key: str) -> Action:
        kind, _, arg = key.partition(":")
        return cls(kind, arg)

    def __str__(self) -> str:
        return self.key


_INTERNED: dict[tuple[str, str], Action] = {}


def action(kind: str, arg: str = "") -> Action:
    """The one shared ``Action`` for (kind, arg): hot paths build the same moves again and again."""
    found = _INTERNED.get((kind, arg))
    if found is None:
        found = _INTERNED[(kind, arg)] = Action(kind, arg)
    return found


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, for the table log and for each seat's observation history.

    ``to`` is ``None`` for a public event, else the seats that may see it.
    """

    kind: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One step of a score breakdown: ``label`` is a message key, ``params`` fill it in."""

    seat: int
    label: str
    points: int
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class HandScore:
    """How every point of one hand (or of the whole game) was earned, plus the totals after it."""

    number: int
    lines: tuple[ScoreLine, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """Final standing of a finished match.

    ``winners`` is empty when a game ends without a winner (a stalled Skippo game, say).
    ``sides`` names, per seat, the team whose score the seat shares for the whole match (Safarü's
    and Rummü's partners); empty when every seat plays for itself (Mü's partnerships last one hand).
    """

    scores: tuple[int, ...]
    winners: frozenset[int]
    breakdown: tuple[HandScore, ...] = ()
    sides: tuple[int, ...] = ()

    @property
    def shared(self) -> bool:
        return len(self.winners) > 1

    @property
    def ranks(self) -> tuple[int, ...]:
        """Competition ranking (1, 1, 3) by score, winners always first."""
        def rank(seat: int) -> int:
            if seat in self.winners:
                return 1
            better = sum(
                1 for other in range(len(self.scores))
                if other in self.winners or self.scores[other] > self.scores[seat]
            )
            return better + 1
        return tuple(rank(seat) for seat in range(len(self.scores)))


def top_scorers(scores: Sequence[int]) -> frozenset[int]:
    """The seats holding the highest score: the usual winner rule, ties share."""
    best = max(scores)
    return frozenset(seat for seat, score in enumerate(scores) if score == best)


class NoOptions(BaseModel):
    """A game without house rules still has an (empty) options model."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def shuffled(seed: str, n: int, items: Iterable[T]) -> list[T]:
    """The ``n``-th shuffle of a game: a pure function of its secret seed and the counter."""
    out = list(items)
    random.Random(f"{seed}:{n}").shuffle(out)
    return out


def draw_rng(seed: str, n: int) -> random.Random:
    """A throwaway RNG for the ``n``-th random draw (a first dealer, a removed colour)."""
    return random.Random(f"{seed}:{n}")


def fresh_seed(rng: random.Random) -> str:
    """A new secret seed for a resampled state, so its future shuffles reveal nothing."""
    return f"{rng.getrandbits(64):016x}"


class Game(Generic[S, V, Opts]):
    """Base class of every game. Subclasses set the class attributes and implement the methods.

    ``S`` is the game's state, ``V`` what ``view`` shows of it: the host's presenters read that type.
    ``Opts`` is its house rules, the pydantic model ``options_model`` (``NoOptions`` for a game without):
    ``setup`` takes exactly that, so the checker sees what a game reads of its options.

    ``apply`` changes the state it is given; the host applies to a ``clone`` and swaps it in only
    after the action is stored, so a failure never leaves a half-applied state behind.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[int] = 1
    #: Set on the class like the attributes above; not a ClassVar only because it names ``Opts``.
    options_model: type[Opts]
    #: Random playouts stop after this many actions (games that may go on for ever).
    playout_cap: ClassVar[int] = 5000

    # -- setup -------------------------------------------------------------------------------
    def setup(self, players: int, options: Opts, seed: str) -> S:
        raise NotImplementedError

    def begin(self, players: int, options: Opts, seed: str) -> tuple[S, list[Event]]:
        """``setup`` with the events of what already happened before the first move (a deal, cards
        that go out at once), so the table and every seat's memory start with them."""
        return self.setup(players, options, seed), []

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may act now (several for simultaneous secret choices)."""
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Every legal action of ``seat`` (the building blocks, for multi-card moves)."""
        raise NotImplementedError

    def check(self, state: S, seat: int, action: Action) -> None:
        """Raise ``IllegalAction`` with a reason unless ``action`` is legal for ``seat`` now."""
        if self.is_over(state):
            raise IllegalAction("core.game_over")
        if seat not in self.to_act(state):
            raise IllegalAction("core.not_your_turn")
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("core.illegal_action")

    def apply(self, state: S, seat: int, action: Action) -> list[Event]:
        """Check, then perform ``action`` on ``state`` in place; return what happened."""
        raise NotImplementedError

    # -- information ---------------------------------------------------------------------------
    def view(self, state: S, seat: int | None) -> V:
        """What ``seat`` may see (``None``: the public table). Must compare with ``==``."""
        raise NotImplementedError

    def resample(self, state: S, seat: int, rng: random.Random) -> S:
        """The same position with every card hidden from ``seat`` dealt again at random,
        consistent with all ``seat`` has seen, and with a fresh secret seed."""
        raise NotImplementedError

    def on_show(self, state: S) -> bool:
        """Whether the table shows something everyone should get to look at before the next action
        takes it away (Calcory's failed turn, face up until the next flip): the host then lets a
        computer player wait longer before it acts."""
        return False

    def cards(self, state: S) -> list[str]:
        """Every card id in every zone (hands, piles, out of play): the invariant tests check
        that none is created or lost."""
        raise NotImplementedError

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def result(self, state: S) -> Result:
        raise NotImplementedError

    # -- plumbing ------------------------------------------------------------------------------
    def clone(self, state: S) -> S:
        """A deep copy; games with a hot path override it with something cheaper."""
        return copy.deepcopy(state)

    def default_options(self) -> Opts:
        return self.options_model()

    def parse_options(self, raw: dict[str, Any] | None) -> Opts:
        return self.options_model.model_validate(raw or {})


@dataclass(slots=True)
class Replay(Generic[S]):
    state: S
    events: list[tuple[int, Action, list[Event]]]
    opening: list[Event] = field(default_factory=list)  # what ``begin`` reported before the first move


@dataclass(slots=True)
class Step(Generic[S]):
    """One position of a match walked from its log: the live state after ``action`` of ``seat`` (both
    None for the deal), and what that move (or ``begin``) reported."""

    state: S
    seat: int | None
    action: Action | None
    events: list[Event]


def walk(
    game: Game[S, Any, Opts], players: int, options: Opts, seed: str, actions: Iterable[tuple[int, Action]]
) -> Iterator[Step[S]]:
    """Every position of a match from its log, the deal first: what replays and reviews step through.

    The state is the walk's own and moves on with the next step; clone it to keep a position."""
    state, opening = game.begin(players, options, seed)
    yield Step(state, None, None, opening)
    for seat, action in actions:
        yield Step(state, seat, action, game.apply(state, seat, action))


def replay(
    game: Game[S, Any, Opts], players: int, options: Opts, seed: str, actions: Iterable[tuple[int, Action]]
) -> Replay[S]:
    """Rebuild a match from its log: the same inputs always give the same state."""
    steps = walk(game, players, options, seed, actions)
    first = next(steps)
    log: list[tuple[int, Action, list[Event]]] = []
    for step in steps:
        assert step.seat is not None and step.action is not None
        log.append((step.seat, step.action, step.events))
    return Replay(first.state, log, first.events)


def random_playout(game: Game[S, Any, Any], state: S, rng: random.Random, cap: int | None = None) -> int:
    """Play random legal actions until the game ends or ``cap`` actions were made."""
    limit = game.playout_cap if cap is None else cap
    n = 0
    while n < limit and not game.is_over(state):
        seat = rng.choice(sorted(game.to_act(state)))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        n += 1
    return n
