"""Calcory's grid, hands and what each seat sees: the state, its views and rigged positions."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import (
    Action,
)
from games.deck import DECK

COLUMNS = "ABCDEFGHIJ"
ROWS = 6
#: Slot names row by row: A1 … J1, A2 … J6.
SLOTS: tuple[str, ...] = tuple(f"{c}{r}" for r in range(1, ROWS + 1) for c in COLUMNS)
SLOT_INDEX: dict[str, int] = {name: i for i, name in enumerate(SLOTS)}
TARGET = 13

FLIP = "flip"
RETURN = "return"
OVER = "over"

_FLIPS = tuple(Action("flip", name) for name in SLOTS)
_STOP = Action("stop")
_RETS: dict[tuple[str, int], Action] = {}


def _ret(card: str, slot: int) -> Action:
    action = _RETS.get((card, slot))
    if action is None:
        action = _RETS[(card, slot)] = Action("ret", f"{card}-{SLOTS[slot]}")
    return action


@dataclass(frozen=True, slots=True)
class Failed:
    """A turn that failed and still lies face up: a bust (``why`` "over" or "zero") or an underbid
    (``why`` "underbid", against the marked set's ``their_total`` from ``their_count`` cards)."""

    seat: int
    why: str
    slots: tuple[int, ...]
    their_total: int = 0
    their_count: int = 0


@dataclass(slots=True)
class CalcoryState:
    players: int
    seed: str
    draws: int
    grid: list[str]  # card id per slot, "" when empty
    flips: list[int]  # slots flipped this turn, in order
    marks: list[int]  # slots of the marked set
    owner: int  # seat owning the marked set, -1 for none
    hands: list[list[str]]
    active: int
    phase: str
    choices: list[str]  # cards the active seat must return one of (already in its hand)
    seen: set[int]  # face-down slots the table saw turned down in place
    groups: dict[int, tuple[int, tuple[str, ...]]]  # slot -> (returner, cards it was one of)
    turns: int
    failed: Failed | None = None  # the failed turn still face up until the next action


@dataclass(frozen=True, slots=True)
class SlotView:
    slot: str
    status: str  # "empty", "down", "up" (flipped this turn), "marked" or "shown" (a failed turn's card)
    card: str | None = None  # only when face up or marked
    digit: int | None = None
    owner: int | None = None  # marker owner


#: The cells that show no card, made once: a view is drawn several times per move, mostly of these.
_EMPTY = tuple(SlotView(slot, "empty") for slot in SLOTS)
_DOWN = tuple(SlotView(slot, "down") for slot in SLOTS)


@dataclass(frozen=True, slots=True)
class MarkedView:
    owner: int
    total: int
    count: int
    slots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FailedView:
    """The failed turn everyone sees until the next action: its cards in flip order and the reason."""

    seat: int
    why: str  # "over", "zero" or "underbid"
    slots: tuple[str, ...]
    digits: tuple[int, ...]
    total: int
    their_total: int = 0
    their_count: int = 0


@dataclass(frozen=True, slots=True)
class CalcoryView:
    grid: tuple[SlotView, ...]
    active: int | None
    phase: str
    flipped: tuple[int, ...]  # digits flipped this turn, in order
    flipped_slots: tuple[str, ...]
    total: int
    marked: MarkedView | None
    hand_counts: tuple[int, ...]
    seat: int | None = None
    hand: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    failed: FailedView | None = None


def position(
    players: int,
    slots: dict[str, str] | None = None,
    hands: dict[int, list[str]] | None = None,
    *,
    active: int = 0,
    marked: tuple[str, ...] = (),
    owner: int = -1,
    empty: tuple[str, ...] = (),
    seed: str = "rigged",
) -> CalcoryState:
    """A rigged position for tests and help pages: chosen cards in chosen slots and hands.

    The rest of the deck fills the other slots in slot order (deck order of the cards), except the
    ``empty`` ones; when the cards run out the remaining slots stay empty. ``marked`` slots form
    ``owner``'s marked set.
    """
    slots = slots or {}
    hands = hands or {}
    grid = [""] * len(SLOTS)
    placed = set()
    for name, cid in slots.items():
        grid[SLOT_INDEX[name]] = cid
        placed.add(cid)
    hand_lists = [list(hands.get(seat, [])) for seat in range(players)]
    for hand in hand_lists:
        placed.update(hand)
    if len(placed) != len(slots) + sum(map(len, hand_lists)):
        raise ValueError("a card is placed twice")
    rest = [cid for cid in DECK if cid not in placed]
    kept = {SLOT_INDEX[name] for name in empty}
    free = [i for i in range(len(SLOTS)) if not grid[i] and i not in kept]
    if len(rest) > len(free):
        raise ValueError("more cards than free slots")
    for i, cid in zip(free, rest, strict=False):
        grid[i] = cid
    marks = [SLOT_INDEX[name] for name in marked]
    if marks and not 0 <= owner < players:
        raise ValueError("a marked set needs an owner")
    return CalcoryState(players, seed, 0, grid, [], marks, owner if marks else -1, hand_lists, active, FLIP,
                        [], set(), {}, 0)
