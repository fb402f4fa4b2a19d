"""Mü's options, its state, the deal, and ``position`` for rigged test positions.

The state keeps every seat's hand as two parts: ``hidden`` (face down) and ``shown`` (laid face up
in the auction and still in hand). ``bids`` counts the cards a seat laid out, which stays the bid
after shown cards are played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from games.base import HandScore, draw_rng, shuffled
from games.deck import COLOURS, deck, sort_cards
from games.mu.cards import PLAIN, ranking, trump_choices

AUCTION = "auction"
VIZE_TRUMP = "vize_trump"
CHEF_TRUMP = "chef_trump"
PARTNER = "partner"
TRICKS = "tricks"
OVER = "over"

#: The two colours a 3-player table may leave out for good, e.g. ``"yellow-black"``.
COLOUR_PAIRS: tuple[str, ...] = tuple(f"{a}-{b}" for i, a in enumerate(COLOURS) for b in COLOURS[i + 1:])
RemovedColours = Literal[("random", *COLOUR_PAIRS)]  # type: ignore[valid-type]


class MuOptions(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    target: int = Field(
        200, ge=10, le=2000,
        description="The match ends after the hand in which some total exceeds this score.",
    )
    removed_colours: RemovedColours = Field(
        "random",
        description="With 3 players: the two colours left out of the deck, drawn anew each hand "
                    "('random') or always the same pair.",
    )
    tie_plays_on: bool = Field(
        False,
        description="When the match ends with the highest totals tied, play more hands until one "
                    "player leads alone (otherwise the tied players share the win).",
    )


@dataclass(slots=True)
class MuState:
    players: int
    options: MuOptions
    seed: str
    draws: int  # how many random draws the seed has given so far
    dealer: int
    hand_no: int  # 1-based number of the hand in play (Patt hands count)
    phase: str
    turn: int  # the seat to act (-1 when the match is over)
    hidden: list[tuple[str, ...]]  # face-down hand cards per seat, deck order
    shown: list[tuple[str, ...]]  # face-up hand cards per seat, in the order laid out
    bids: list[int]  # cards each seat laid out in the auction
    bid_times: list[int]  # number of the seat's latest bid in this auction, -1 for none
    clock: int  # bids made in this auction
    passes: int  # consecutive passes
    removed: tuple[str, ...]  # cards out of play this hand (3 players)
    removed_colours: tuple[str, ...]
    chef: int
    vize: int
    vize_trump: str  # "" until named
    chef_trump: str  # "" until named, "none" for no Chef trump
    partner: int
    ranks: dict[str, tuple[str, int]]  # shared lookup for the hand's trumps, never mutated
    leader: int
    trick: list[tuple[int, str]]  # (seat, card) in play order
    won: list[tuple[str, ...]]  # cards of the tricks each seat took this hand
    tricks_won: list[int]
    voids: list[frozenset[str]]  # effective suits a seat failed to follow this hand (public)
    last_trick: tuple[tuple[int, str], ...]
    last_winner: int
    scores: list[int]
    history: list[HandScore]
    last: tuple[str, ...] = ()  # the cards the last action laid out or played (the table picture marks them)
    last_chef: int = -1  # the Chef of the latest scored hand (-1: a Patt, or none scored yet)


def clone(s: MuState) -> MuState:
    """A cheap copy: lists are copied, everything inside them is immutable."""
    return MuState(
        s.players, s.options, s.seed, s.draws, s.dealer, s.hand_no, s.phase, s.turn, s.hidden.copy(),
        s.shown.copy(), s.bids.copy(), s.bid_times.copy(), s.clock, s.passes, s.removed, s.removed_colours,
        s.chef, s.vize, s.vize_trump, s.chef_trump, s.partner, s.ranks, s.leader, s.trick.copy(),
        s.won.copy(), s.tricks_won.copy(), s.voids.copy(), s.last_trick, s.last_winner, s.scores.copy(),
        s.history.copy(), s.last, s.last_chef,
    )


def new_state(players: int, options: MuOptions, seed: str, dealer: int, draws: int) -> MuState:
    n = players
    return MuState(
        n, options, seed, draws, dealer, 0, AUCTION, dealer, [()] * n, [()] * n, [0] * n, [-1] * n, 0, 0,
        (), (), -1, -1, "", "", -1, PLAIN, -1, [], [()] * n, [0] * n, [frozenset()] * n, (), -1, [0] * n, [],
    )


def reset_hand(s: MuState, hands: list[tuple[str, ...]], removed_colours: tuple[str, ...]) -> None:
    """Start the auction of a new hand with ``hands`` dealt; the dealer bids first."""
    n = s.players
    s.hand_no += 1
    s.phase, s.turn = AUCTION, s.dealer
    s.hidden = [tuple(sort_cards(h)) for h in hands]
    s.shown, s.bids, s.bid_times, s.clock, s.passes = [()] * n, [0] * n, [-1] * n, 0, 0
    s.removed_colours = removed_colours
    s.removed = tuple(deck(removed_colours))
    s.chef = s.vize = s.partner = s.leader = s.last_winner = -1
    s.vize_trump = s.chef_trump = ""
    s.ranks = PLAIN
    s.trick, s.won, s.tricks_won, s.voids = [], [()] * n, [0] * n, [frozenset()] * n
    s.last_trick = ()
    s.last = ()


def deal(s: MuState) -> None:
    """Shuffle and deal every card; with 3 players two colours sit out first."""
    removed: tuple[str, ...] = ()
    if s.players == 3:
        choice = s.options.removed_colours
        if choice == "random":
            picked = draw_rng(s.seed, s.draws).sample(list(COLOURS), 2)
            s.draws += 1
        else:
            picked = choice.split("-")
        removed = tuple(c for c in COLOURS if c in picked)
    cards = shuffled(s.seed, s.draws, deck(c for c in COLOURS if c not in removed))
    s.draws += 1
    size = len(cards) // s.players
    reset_hand(s, [tuple(cards[i * size:(i + 1) * size]) for i in range(s.players)], removed)


def hand_size(players: int) -> int:
    return (36 if players == 3 else 60) // players


def position(
    players: int,
    hands: dict[int, list[str]] | None = None,
    *,
    dealer: int = 0,
    options: MuOptions | None = None,
    removed_colours: tuple[str, str] = ("yellow", "black"),
    shown: dict[int, list[str]] | None = None,
    chef: int | None = None,
    vize: int = -1,
    vize_trump: str = "",
    chef_trump: str = "none",
    partner: int = -1,
    scores: list[int] | None = None,
    seed: str = "rigged",
) -> MuState:
    """A rigged position for tests and help pages, built from chosen hands.

    ``hands`` gives some or all cards of chosen seats (``shown`` cards are added to them); the rest
    of the deck fills every hand up to its size in deck order, seat by seat. With 3 players ``removed_colours`` sit out. Without
    ``chef`` the position is the start of the auction (``dealer`` to bid). With ``chef`` it is the
    first trick of a hand with the cards of ``shown`` laid out (the bids are their counts), the
    given trumps and partner, and the Chef to lead; no rule checks the bids that got there.
    """
    options = options or MuOptions()
    removed = tuple(c for c in COLOURS if c in removed_colours) if players == 3 else ()
    s = new_state(players, options, seed, dealer, 0)
    s.scores = list(scores) if scores else [0] * players
    hands = hands or {}
    size = hand_size(players)
    chosen = [list(hands.get(seat, [])) for seat in range(players)]
    for seat, cards in (shown or {}).items():
        chosen[seat] += [c for c in cards if c not in chosen[seat]]
    placed = [c for h in chosen for c in h]
    pool = deck(c for c in COLOURS if c not in removed)
    if len(set(placed)) != len(placed) or not set(placed) <= set(pool):
        raise ValueError("a card is placed twice or is not in play")
    rest = iter(c for c in pool if c not in set(placed))
    for h in chosen:
        if len(h) > size:
            raise ValueError("too many cards in a hand")
        h.extend(next(rest) for _ in range(size - len(h)))
    reset_hand(s, [tuple(h) for h in chosen], removed)
    if chef is None:
        return s
    for seat, cards in (shown or {}).items():
        s.shown[seat] = tuple(cards)
        s.hidden[seat] = tuple(c for c in s.hidden[seat] if c not in cards)
        s.bids[seat] = len(cards)
    if vize_trump and (vize < 0 or vize_trump not in trump_choices(s.shown[vize])):
        raise ValueError("the Vize trump is not among the Vize's shown cards")
    s.chef, s.vize, s.partner = chef, vize, partner
    s.vize_trump, s.chef_trump = vize_trump, chef_trump
    s.ranks = ranking(vize_trump, chef_trump)
    s.phase, s.turn, s.leader = TRICKS, chef, chef
    return s
