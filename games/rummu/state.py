"""Rummü's options, state and views."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from games.base import HandScore

DRAW, PLAY = "draw", "play"
#: Cards dealt to each player by the number of players.
HAND_SIZES = {3: 9, 4: 8, 5: 8, 6: 7}


class Options(BaseModel):
    """House rules of a Rummü table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: bool = Field(True, description="With four or six players, opposite players form teams.")
    target: int = Field(200, ge=1, description="Playing alone, the match ends once a player has this many points.")
    team_target: int = Field(500, ge=1, description="In teams, the match ends once a team has this many points.")
    yellow_is_colour: bool = Field(
        True,
        description="Yellow counts as a colour of its own, so a multi-coloured sequence may have five cards; "
        "off: its one joker must stand for a missing colour, so at most four.",
    )


@dataclass(frozen=True, slots=True)
class Combo:
    """A combination lying in ``owner``'s display; ``id`` is its name for the whole hand."""

    id: int
    owner: int
    kind: str
    cards: tuple[str, ...]

    @property
    def name(self) -> str:
        return f"m{self.id}"


@dataclass(slots=True)
class RummuState:
    players: int
    options: Options
    seed: str
    draws: int  # shuffles made so far: the counter for ``shuffled``
    sides: int  # scoring sides: a seat each, or the teams
    hand_no: int
    dealer: int
    turn: int
    phase: str
    stock: list[str]  # the draw pile; the end of the list is the top
    discard: list[str]  # the end of the list is the top, the only card anyone sees
    hands: list[tuple[str, ...]]
    known: list[frozenset[str]]  # cards in each hand that everyone saw go there
    origin: dict[str, int]  # the other hand cards: the draw pile generation each came from
    generation: int  # counts the reshuffles of this hand
    combos: list[Combo]
    next_id: int
    totals: list[int]  # per side
    history: list[HandScore]
    over: bool
    last: tuple[str, ...] = ()  # the cards the last move laid on a display or the discard pile


@dataclass(frozen=True, slots=True)
class ComboView:
    name: str
    owner: int
    kind: str
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RummuView:
    seat: int | None
    players: int
    sides: int
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_top: str | None
    discard_size: int
    combos: tuple[ComboView, ...]
    minimum: tuple[int, ...]  # cards each seat must lay to open; 0 once it has a display
    turn: int | None
    phase: str
    dealer: int
    hand_no: int
    totals: tuple[int, ...]  # per seat (a team's total for both partners)
    history: tuple[HandScore, ...]
    over: bool
    last: tuple[str, ...] = ()  # the cards the last move laid on a display or the discard pile
