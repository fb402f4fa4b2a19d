"""Safarü's house rules, state and views: what lies where, and what each seat may look at."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from games.base import HandScore
from games.safaru.catches import Catch

HAND_SIZE = 4
TABLE_TOP_UP = 4


class Options(BaseModel):
    """House rules of a Safarü table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teams: bool = Field(True, description="With four players, opposite players form teams and share a catch pile.")
    match_target: int = Field(
        0, ge=0, description="Play games until a player or team has this many points in total; 0 plays one game.",
    )
    open_piles: bool = Field(False, description="Everyone may look through every catch pile, not only their own.")


class Play(NamedTuple):
    """A play seen by everyone: the catch (a release when it took nothing) and the free cards it
    met. A card that can catch must catch (docs/rules-decisions.md D23), but which card to play is
    the player's choice: when another of its cards had a better play there, it chose not to make
    it, and that is what the strong player reads from it."""

    catch: Catch
    table: tuple[str, ...]


@dataclass(slots=True)
class SafaruState:
    players: int
    options: Options
    seed: str
    draws: int  # shuffles and random draws made so far: the counter for ``shuffled``
    sides: int  # catch piles: one per seat, or two with teams
    game_no: int
    first_dealer: int  # dealer of this game's first deal
    dealer: int
    deal_no: int
    turn: int
    deck: list[str]  # face down; the end of the list is the top
    hands: list[tuple[str, ...]]
    table: tuple[str, ...]  # the free cards (Freiwild), in the order they came
    piles: list[tuple[str, ...]]  # per side
    totals: list[int]  # per side, over the match
    history: list[HandScore]
    over: bool
    #: Per seat, its plays in this deal, oldest first. Hands are dealt whole and not refilled
    #: mid-deal, so every card a seat still holds was in its hand at each of them. Public, and no
    #: view shows it: only the computer players read it.
    played: list[tuple[Play, ...]]
    #: The last play: the card played, then the cards it caught, and the side whose pile took them
    #: (None when it caught nothing); the table picture shows them.
    last: tuple[str, ...] = ()
    last_side: int | None = None


@dataclass(frozen=True, slots=True)
class SafaruView:
    seat: int | None
    players: int
    sides: int
    hand: tuple[str, ...] | None
    hand_sizes: tuple[int, ...]
    table: tuple[str, ...]
    deck_size: int
    pile_sizes: tuple[int, ...]
    piles: tuple[tuple[str, ...] | None, ...]  # contents this seat may look through, per side
    turn: int | None
    dealer: int
    deal_no: int
    game_no: int
    totals: tuple[int, ...]
    history: tuple[HandScore, ...]
    over: bool
    last: tuple[str, ...] = ()  # the card last played, then the cards it caught
    last_side: int | None = None  # the side whose pile took them, None when nothing was caught
