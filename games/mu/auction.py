"""The auction: laying cards face up as bids, then Chef, Vize or Patt.

A bid of k cards is legal when the bidder's total after it is at most the largest total anyone
shows plus one; bids need not beat anything. The auction ends after every seat passed in a row.
"""

from __future__ import annotations

from games.base import Event, IllegalAction
from games.deck import digit, sort_cards
from games.mu.flow import finish_hand
from games.mu.scoring import patt
from games.mu.state import CHEF_TRUMP, VIZE_TRUMP, MuState


def bid_limit(s: MuState, seat: int) -> int:
    """The most cards ``seat`` may lay out now."""
    return min(max(s.bids) + 1 - s.bids[seat], len(s.hidden[seat]))


def check_bid(s: MuState, seat: int, cards: list[str]) -> None:
    if not cards or any(not c for c in cards):
        raise IllegalAction("mu.bid_empty")
    if len(set(cards)) != len(cards):
        raise IllegalAction("mu.bid_twice")
    hidden = s.hidden[seat]
    if any(c not in hidden for c in cards):
        raise IllegalAction("mu.bid_not_in_hand")
    limit = bid_limit(s, seat)
    if len(cards) > limit:
        raise IllegalAction("mu.bid_too_many", limit=limit, most=max(s.bids))


def bid(s: MuState, seat: int, cards: list[str]) -> list[Event]:
    cards = sort_cards(cards)
    s.hidden[seat] = tuple(c for c in s.hidden[seat] if c not in cards)
    s.shown[seat] = s.shown[seat] + tuple(cards)
    s.last = tuple(cards)
    s.bids[seat] += len(cards)
    s.bid_times[seat] = s.clock
    s.clock += 1
    s.passes = 0
    s.turn = (seat + 1) % s.players
    return [Event("bid", seat, {"cards": tuple(cards), "total": s.bids[seat]})]


def pass_(s: MuState, seat: int) -> list[Event]:
    s.passes += 1
    events = [Event("pass", seat)]
    if s.passes < s.players:
        s.turn = (seat + 1) % s.players
        return events
    return events + resolve(s)


def find_vize(bids: list[int], shown: list[tuple[str, ...]], chef: int) -> int:
    """The non-Chef seat with the most cards shown, ties broken by the shown digits from the
    highest down; -1 with 3 players, when nobody else showed a card, or when the tie stays."""
    if len(bids) == 3:
        return -1
    second = max(b for seat, b in enumerate(bids) if seat != chef)
    if second == 0:
        return -1
    candidates = [seat for seat, b in enumerate(bids) if seat != chef and b == second]
    keys = {seat: sorted((digit(c) for c in shown[seat]), reverse=True) for seat in candidates}
    best = max(keys.values())
    winners = [seat for seat in candidates if keys[seat] == best]
    return winners[0] if len(winners) == 1 else -1


def resolve(s: MuState) -> list[Event]:
    """The auction is over: a unique top bidder becomes Chef, otherwise it is a Patt."""
    top = max(s.bids)
    tops = [seat for seat, b in enumerate(s.bids) if b == top]
    if len(tops) != 1:
        return [Event("patt", None, {"cards": top}), *finish_hand(s, patt(s.bids, s.bid_times))]
    s.chef = tops[0]
    s.vize = find_vize(s.bids, s.shown, s.chef)
    s.phase, s.turn = (VIZE_TRUMP, s.vize) if s.vize >= 0 else (CHEF_TRUMP, s.chef)
    return [Event("chef", s.chef, {"cards": top, "vize": s.vize})]
