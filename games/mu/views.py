"""What a seat (or the public table) sees of a Mü hand: everything but other seats' face-down cards."""

from __future__ import annotations

from dataclasses import dataclass

from games.base import HandScore
from games.mu.auction import bid_limit
from games.mu.cards import sort_hand
from games.mu.declare import partner_options, trump_options
from games.mu.scoring import team_goal
from games.mu.state import AUCTION, CHEF_TRUMP, OVER, PARTNER, TRICKS, VIZE_TRUMP, MuState
from games.mu.tricks import playable


@dataclass(frozen=True, slots=True)
class MuView:
    players: int
    hand_no: int
    dealer: int
    phase: str
    to_act: int | None
    target: int
    scores: tuple[int, ...]
    removed_colours: tuple[str, ...]  # 3 players: the colours out of this hand
    bids: tuple[int, ...]  # cards each seat laid out in the auction
    shown: tuple[tuple[str, ...], ...]  # face-up cards still in each hand
    passes: int  # consecutive passes in the auction so far
    hand_counts: tuple[int, ...]
    chef: int | None
    vize: int | None
    vize_trump: str | None
    chef_trump: str | None  # "none" when the Chef plays without trumps
    partner: int | None
    goal: int | None  # points the Chef team needs
    leader: int | None
    trick: tuple[tuple[int, str], ...]  # (seat, card) in play order
    tricks_won: tuple[int, ...]
    last_trick: tuple[tuple[int, str], ...]
    last_winner: int | None
    last_score: HandScore | None  # breakdown of the previous hand
    last_chef: int | None  # the Chef of the previous hand (None after a Patt)
    seat: int | None = None
    hand: tuple[str, ...] = ()  # the seat's whole hand (shown cards too), grouped by effective suit
    bid_limit: int = 0  # the most cards the seat may lay out now (auction, own turn)
    # The seat's own choices on its turn, so a table never re-derives a rule:
    playable: tuple[str, ...] = ()  # cards it may play to the trick (tricks)
    trump_options: tuple[str, ...] = ()  # what it may name: colours, digits, "none" (Vize/Chef trump)
    partner_options: tuple[int, ...] = ()  # seats it may choose as partner (Chef)
    last: tuple[str, ...] = ()  # the cards the last action laid out or played


def _opt(value: int) -> int | None:
    return None if value < 0 else value


def view(s: MuState, seat: int | None) -> MuView:
    hand: tuple[str, ...] = ()
    limit = 0
    cards: tuple[str, ...] = ()
    trumps: tuple[str, ...] = ()
    partners: tuple[int, ...] = ()
    if seat is not None:
        hand = sort_hand(s.hidden[seat] + s.shown[seat], s.ranks)
        if s.turn == seat:
            if s.phase == AUCTION:
                limit = bid_limit(s, seat)
            elif s.phase == TRICKS:
                legal = set(playable(s, seat))
                cards = tuple(c for c in hand if c in legal)
            elif s.phase in (VIZE_TRUMP, CHEF_TRUMP):
                trumps = tuple(trump_options(s))
            elif s.phase == PARTNER:
                partners = tuple(partner_options(s))
    chef = _opt(s.chef)
    return MuView(
        players=s.players,
        hand_no=s.hand_no,
        dealer=s.dealer,
        phase=s.phase,
        to_act=None if s.phase == OVER else s.turn,
        target=s.options.target,
        scores=tuple(s.scores),
        removed_colours=s.removed_colours,
        bids=tuple(s.bids),
        shown=tuple(s.shown),
        passes=s.passes,
        hand_counts=tuple(len(h) + len(v) for h, v in zip(s.hidden, s.shown, strict=True)),
        chef=chef,
        vize=_opt(s.vize),
        vize_trump=s.vize_trump or None,
        chef_trump=s.chef_trump or None,
        partner=_opt(s.partner),
        goal=None if chef is None else team_goal(s.players, s.bids[s.chef]),
        leader=_opt(s.leader),
        trick=tuple(s.trick),
        tricks_won=tuple(s.tricks_won),
        last_trick=s.last_trick,
        last_winner=_opt(s.last_winner),
        last_score=s.history[-1] if s.history else None,
        last_chef=_opt(s.last_chef),
        seat=seat,
        hand=hand,
        bid_limit=limit,
        playable=cards,
        trump_options=trumps,
        partner_options=partners,
        last=s.last,
    )
