"""The table both build-pile games share (Da Capo!, Skippo): its state, views and card supply.

Everything the two games have in common lives here once: shared ascending build piles, a personal
pile (Da Capo's player pile, Skippo's stock) of which only the top is face up, face-up helper piles
in front of each player, a hand drawn up to a size from a face-down draw pile, and finished build
piles set aside until the draw pile runs out and they are shuffled into a new one.

A build pile always starts at 1 and rises by one per card, so the value a card (a joker too)
represents on it is its position: the pile's top value is its length, and jokers need no stored
value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Event, HandScore, shuffled


@dataclass(slots=True)
class Seat:
    """One player's cards. Every list runs bottom → top (the top is the last element)."""

    pile: list[str]  # player pile / stock: face down except the top
    hand: list[str]
    helpers: list[list[str]]  # a fixed number of slots, each a face-up pile (maybe empty)
    reserve: list[str]  # Skippo: jokers set aside from the stock (face up); Da Capo: unused

    def copy(self) -> Seat:
        return Seat(self.pile[:], self.hand[:], [h[:] for h in self.helpers], self.reserve[:])


@dataclass(slots=True)
class Table:
    """The whole match. ``options`` is the game's frozen pydantic model (shared, never copied)."""

    options: Any
    players: int
    seed: str
    shuffles: int  # counter of the next ``shuffled``/``draw_rng`` call
    dealer: int
    current: int
    seats: list[Seat]
    build: list[list[str]]  # build slots; an empty list is a free slot
    draw: list[str]  # face down, the next card drawn is the last
    set_aside: list[str]  # finished build piles waiting for the next reshuffle
    box: list[str]  # cards out of play for the whole game (rigged positions only)
    game_no: int = 1
    scores: list[int] | None = None
    history: tuple[HandScore, ...] = ()
    winners: tuple[int | None, ...] = ()  # per finished game: its winner, None when it stalled
    built: bool = False  # a card went to a build pile during this turn
    moved: bool = False  # any card changed place during this turn (drawn, played, discarded)
    quiet: int = 0  # turns in a row that brought the game no closer to its end (see ``end_turn``)
    over: bool = False
    #: Skippo: bit ``j`` is set while everybody knows seat j's hand holds no ace (it had to put its
    #: aces out while a build pile stayed free, and has drawn nothing since). ``resample`` keeps it.
    aceless: int = 0
    #: The cards the last action put somewhere everyone sees (a build pile, a helper pile, set aside):
    #: the table picture marks them.
    last: tuple[str, ...] = ()

    def copy(self) -> Table:
        return Table(
            self.options, self.players, self.seed, self.shuffles, self.dealer, self.current,
            [s.copy() for s in self.seats], [b[:] for b in self.build], self.draw[:], self.set_aside[:],
            self.box[:], self.game_no, self.scores[:] if self.scores is not None else None, self.history,
            self.winners, self.built, self.moved, self.quiet, self.over, self.aceless, self.last,
        )

    def free_slot(self) -> int:
        """The lowest free build slot, -1 when all are taken."""
        for i, pile in enumerate(self.build):
            if not pile:
                return i
        return -1

    def can_draw(self) -> bool:
        return bool(self.draw or self.set_aside)


@dataclass(frozen=True, slots=True)
class SeatView:
    """What everybody sees of one player: the pile top and size, reserve, helpers, hand size."""

    pile_top: str | None
    pile_size: int
    helpers: tuple[tuple[str, ...], ...]
    hand_size: int
    reserve: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableView:
    """One seat's picture of the table (``seat`` None: the public table, ``hand`` empty)."""

    seat: int | None
    current: int | None
    dealer: int
    game_no: int
    build: tuple[tuple[str, ...], ...]  # build slots bottom → top; the value of a card is its position
    draw_size: int
    set_aside_size: int
    seats: tuple[SeatView, ...]
    scores: tuple[int, ...]
    history: tuple[HandScore, ...]
    quiet: int
    over: bool
    hand: tuple[str, ...] = ()
    winners: tuple[int | None, ...] = ()  # per finished game: its winner, None when it stalled
    last: tuple[str, ...] = ()  # the cards the last action put where everyone sees them


def view(table: Table, seat: int | None) -> TableView:
    seats = tuple(
        SeatView(s.pile[-1] if s.pile else None, len(s.pile), tuple(tuple(h) for h in s.helpers),
                 len(s.hand), tuple(s.reserve))
        for s in table.seats
    )
    return TableView(
        seat, None if table.over else table.current, table.dealer, table.game_no,
        tuple(tuple(b) for b in table.build), len(table.draw), len(table.set_aside), seats,
        tuple(table.scores or ()), table.history, table.quiet, table.over,
        tuple(table.seats[seat].hand) if seat is not None else (), table.winners, table.last,
    )


def all_cards(table: Table) -> list[str]:
    out = table.draw + table.set_aside + table.box
    for pile in table.build:
        out += pile
    for s in table.seats:
        out += s.pile + s.hand + s.reserve
        for h in s.helpers:
            out += h
    return out


# -- the supply ---------------------------------------------------------------------------------
def draw_card(table: Table, events: list[Event]) -> str | None:
    """The next card of the draw pile; an empty draw pile is first replaced by the set-aside
    piles, shuffled. None when both are empty."""
    if not table.draw:
        if not table.set_aside:
            return None
        table.draw = shuffled(table.seed, table.shuffles, table.set_aside)
        table.shuffles += 1
        events.append(Event("reshuffle", None, {"count": len(table.set_aside)}))
        table.set_aside = []
    return table.draw.pop()


def draw_to(table: Table, seat: int, size: int, events: list[Event]) -> list[str]:
    """Fill ``seat``'s hand up to ``size`` cards (as far as the supply allows)."""
    hand = table.seats[seat].hand
    drawn = []
    while len(hand) < size:
        card = draw_card(table, events)
        if card is None:
            break
        hand.append(card)
        drawn.append(card)
    note_draw(table, seat, drawn, events)
    return drawn


def note_draw(table: Table, seat: int, drawn: list[str], events: list[Event]) -> None:
    if drawn:
        table.moved = True
        events.append(Event("draw", seat, {"count": len(drawn)}))
        events.append(Event("drew", seat, {"cards": list(drawn)}, frozenset((seat,))))


def push_build(table: Table, slot: int, card: str, top: int, events: list[Event]) -> bool:
    """Put ``card`` on build slot ``slot``; a pile that reaches ``top`` is set aside. True then."""
    pile = table.build[slot]
    pile.append(card)
    table.built = table.moved = True
    if len(pile) == top:
        table.set_aside += pile
        table.build[slot] = []
        events.append(Event("complete", None, {"pile": f"b{slot + 1}", "count": top}))
        return True
    return False
