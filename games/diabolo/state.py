"""Diabolo's options, state and views.

Rows are indexed by colour (red, yellow, green, purple, blue); each has a devil side (left, its
points count against the colour) and an angel side (right). ``known`` holds, per seat, the hand
cards the whole table has seen: a blocked player's shown hand and the colours revealed at
scoring. Doubler choices live in ``choices`` until everyone asked has chosen, and no view shows
another seat's choice before that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field, model_validator

from games.base import HandScore, ScoreLine

# Phases. PLACE: the current player places a hand card; DISCARD: the current player cannot place,
# has shown the hand and discards a card; DOUBLER: the players who still hold a doubler choose in
# secret whether to use it on the colour being scored; OVER: the match is over.
PLACE = "place"
DISCARD = "discard"
DOUBLER = "doubler"
OVER = "over"

USE = "use"
NO = "none"


class Options(BaseModel):
    """House rules, with the rulebook's defaults (docs/rules-decisions.md D39)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    hand_size: int = Field(6, ge=3, le=8, description="Cards dealt to each player per round.")
    max_per_side: int = Field(3, ge=1, le=5, description="Most cards on one side of a row.")
    max_per_row: int = Field(5, ge=2, le=10, description="Cards that fill and close a row.")
    close_limit: int = Field(
        0, ge=0, le=5, description="Closed rows that end a round; 0 means 2, or 3 with five players."
    )
    rounds: int = Field(0, ge=0, le=10, description="Rounds in a match; 0 means one per player.")

    @model_validator(mode="after")
    def _rows_can_close(self) -> Options:
        if self.max_per_row > 2 * self.max_per_side:
            raise ValueError("max_per_row must be at most twice max_per_side, or no row could close")
        return self

    def limit(self, players: int) -> int:
        return self.close_limit or (3 if players == 5 else 2)

    def round_count(self, players: int) -> int:
        return self.rounds or players


@dataclass(slots=True)
class DiaboloState:
    players: int
    options: Options
    seed: str
    shuffles: int  # the next shuffle's counter
    round_no: int  # 0-based
    dealer: int
    current: int
    phase: str
    pile: list[str]  # top at the end
    hands: list[list[str]]
    devil: list[tuple[str, ...]]  # per colour, in the order laid
    angel: list[tuple[str, ...]]
    closed: list[bool]
    removed: list[str]  # discarded by blocked players, out of play for this round
    known: list[frozenset[str]]
    doublers: list[bool]  # still available this round
    colour: int  # the colour being scored (DOUBLER phase)
    choices: list[str | None]  # secret doubler choices for ``colour``: USE, NO or not yet
    waiting: frozenset[int]  # seats that still have to choose
    lines: list[ScoreLine]  # this round's scoring so far
    totals: list[int]
    history: list[HandScore]
    last: str | None = None  # the card the last move laid in a row (the table picture marks it)
    #: Per seat, the cards it laid this round in order, each with its side ("devil" or "angel"):
    #: the table saw every one (the computer players read the others' hands from them).
    laid: list[list[tuple[str, str]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RowView:
    colour: str
    devil: tuple[str, ...]
    angel: tuple[str, ...]
    devil_sum: int
    angel_sum: int
    closed: bool


@dataclass(frozen=True, slots=True)
class DiaboloView:
    seat: int | None
    players: int
    round: int  # 1-based
    rounds: int
    dealer: int
    current: int | None  # None while the doublers are chosen and when the match is over
    phase: str
    rows: tuple[RowView, ...]
    close_limit: int
    deck: int
    hand_counts: tuple[int, ...]
    shown: tuple[tuple[str, ...], ...]  # hand cards the whole table has seen, per seat
    removed: tuple[str, ...]
    doublers: tuple[bool, ...]
    deciding: str | None  # the colour whose doublers are being chosen
    waiting: tuple[int, ...]  # seats that still have to choose
    lines: tuple[ScoreLine, ...]  # this round's scoring so far
    totals: tuple[int, ...]
    history: tuple[HandScore, ...]
    hand: tuple[str, ...] = ()  # the viewer's own hand
    my_choice: str | None = None  # the viewer's own doubler choice for ``deciding``
    last: str | None = None  # the card the last move laid in a row


def clone_state(s: DiaboloState) -> DiaboloState:
    return DiaboloState(
        s.players, s.options, s.seed, s.shuffles, s.round_no, s.dealer, s.current, s.phase, s.pile[:],
        [hand[:] for hand in s.hands], s.devil[:], s.angel[:], s.closed[:], s.removed[:], s.known[:],
        s.doublers[:], s.colour, s.choices[:], s.waiting, s.lines[:], s.totals[:], s.history[:], s.last,
        [seat[:] for seat in s.laid],
    )
