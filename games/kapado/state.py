"""Kapado's options, state and views.

Stacks are flat: stack ``i`` of seat ``s`` is ``stacks[s * per_seat + i]``, a tuple of card ids
from bottom to top (tuples, so a clone copies only the outer list). ``face_down`` holds the ids
of every card lying face down; those are hidden from everyone (also from the owner unless the
``owner_may_peek`` option is on). A stack is OPEN (top face up, or empty), LOCKED (a face-down
key on top) or DEAD (a wrong unlock attempt, for the rest of the game).
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from games.base import HandScore
from games.keys import number

OPEN, LOCKED, DEAD = 0, 1, 2
LOCK_NAMES = ("open", "locked", "dead")

# Phases. PLACE: a number card waits to be placed; WISH: a wish card waits to be used or kept;
# EXTRA: after a double fit the player may draw again; OVER: the match is over.
PLACE = "place"
WISH = "wish"
EXTRA = "extra"
OVER = "over"


class Options(BaseModel):
    """House rules, with the rulebook's defaults (docs/rules-decisions.md D30, D32)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stacks: int = Field(5, ge=3, le=5, description="Starting stacks per player; the rules say five.")
    auto_extra_draw: bool = Field(
        False, description="After a double fit draw again at once instead of offering the choice."
    )
    owner_may_peek: bool = Field(
        False, description="Players may look at their own face-down cards (a mode for children)."
    )
    ban_multiples: bool = Field(
        False, description="A ban also forbids every multiple of its number as the common divisor."
    )
    games: int = Field(1, ge=1, le=7, description="Games in a match; each player's card counts add up.")


@dataclass(slots=True)
class KapadoState:
    players: int
    options: Options
    seed: str
    shuffles: int  # the next shuffle's counter
    game_no: int  # 0-based game of the match
    dealer: int
    current: int
    phase: str
    drawn: str | None  # the card waiting to be placed (or the wish card waiting to be used)
    from_wish: bool  # ``drawn`` was taken from an opponent with a wish card (public)
    pile: list[str]  # draw pile, top at the end
    middle: list[str]  # ban cards drawn this game
    banned: frozenset[int]
    stacks: list[tuple[str, ...]]
    locks: list[int]
    face_down: set[str]
    wishes: list[tuple[str, ...]]  # kept wish cards per seat
    totals: list[int]
    history: list[HandScore]
    last: str | None = None  # the stack the last action put a card on (the table picture marks it)

    @property
    def per_seat(self) -> int:
        return self.options.stacks

    @property
    def held(self) -> str:
        """``drawn`` where the phase says a card waits (to be placed, or the wish card to be used)."""
        assert self.drawn is not None, f"no card drawn in phase {self.phase}"
        return self.drawn


def stack_id(seat: int, index: int) -> str:
    return f"s{seat}:{index}"


def parse_stack(arg: str, players: int, per_seat: int) -> tuple[int, int] | None:
    """``s2:4`` -> (2, 4), or None when the id names no stack."""
    if not arg.startswith("s"):
        return None
    seat, _, index = arg[1:].partition(":")
    s, i = number(seat), number(index)
    if s is None or i is None or s >= players or i >= per_seat:
        return None
    return s, i


@dataclass(frozen=True, slots=True)
class StackView:
    id: str
    cards: tuple[str | None, ...]  # bottom to top; None for a face-down card the viewer may not see
    face_down: tuple[bool, ...]
    lock: str  # "open", "locked" or "dead"

    @property
    def top(self) -> str | None:
        """The face-up top card, if the stack has one."""
        if self.cards and not self.face_down[-1]:
            return self.cards[-1]
        return None

    @property
    def count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, slots=True)
class KapadoView:
    seat: int | None
    players: int
    game: int  # 1-based
    games: int
    dealer: int
    current: int | None
    phase: str  # "place", "wish", "extra", "over"; "resolve" when the drawn card is hidden
    stacks: tuple[tuple[StackView, ...], ...]
    counts: tuple[int, ...]  # cards each player owns in this game
    wishes: tuple[tuple[str, ...], ...]
    middle: tuple[str, ...]
    banned: tuple[int, ...]
    deck: int
    drawn: str | None  # seen by the drawer, and by all when it was taken with a wish card
    drawn_from_wish: bool
    totals: tuple[int, ...]
    history: tuple[HandScore, ...]
    last: str | None = None  # the stack the last action put a card on, face up or down

    @property
    def held(self) -> str:
        """``drawn`` where the viewer is to place it (or to use the wish card): the phase guarantees one."""
        assert self.drawn is not None, f"no card drawn in phase {self.phase}"
        return self.drawn


def card_counts(state: KapadoState) -> list[int]:
    """Every card a player owns: all stacks (locked and dead ones too) plus kept wish cards."""
    per, stacks = state.per_seat, state.stacks
    return [sum(map(len, stacks[s * per:s * per + per])) + len(state.wishes[s]) for s in range(state.players)]


def clone_state(s: KapadoState) -> KapadoState:
    return KapadoState(
        s.players, s.options, s.seed, s.shuffles, s.game_no, s.dealer, s.current, s.phase, s.drawn,
        s.from_wish, s.pile[:], s.middle[:], s.banned, s.stacks[:], s.locks[:], set(s.face_down),
        s.wishes[:], s.totals[:], s.history[:], s.last,
    )
