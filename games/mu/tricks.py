"""Trick play: follow the led effective suit if you can (any trump follows a trump lead)."""

from __future__ import annotations

from games.base import Event, IllegalAction
from games.mu.cards import trick_winner
from games.mu.flow import finish_hand
from games.mu.scoring import played_hand, trick_points
from games.mu.state import MuState


def holding(s: MuState, seat: int) -> tuple[str, ...]:
    """Every card ``seat`` may play: face-down and shown cards alike."""
    return s.hidden[seat] + s.shown[seat]


def led_suit(s: MuState) -> str:
    return s.ranks[s.trick[0][1]][0] if s.trick else ""


def playable(s: MuState, seat: int) -> list[str]:
    cards = holding(s, seat)
    led = led_suit(s)
    if led:
        ranks = s.ranks
        follow = [c for c in cards if ranks[c][0] == led]
        if follow:
            return follow
    return list(cards)


def check_play(s: MuState, seat: int, cid: str) -> None:
    if cid not in s.hidden[seat] and cid not in s.shown[seat]:
        raise IllegalAction("mu.card_not_in_hand")
    led = led_suit(s)
    if led and s.ranks[cid][0] != led and any(s.ranks[c][0] == led for c in holding(s, seat)):
        raise IllegalAction(f"mu.must_follow.{led}")


def play(s: MuState, seat: int, cid: str) -> list[Event]:
    if cid in s.shown[seat]:
        s.shown[seat] = tuple(c for c in s.shown[seat] if c != cid)
    else:
        s.hidden[seat] = tuple(c for c in s.hidden[seat] if c != cid)
    led = led_suit(s)
    if led and s.ranks[cid][0] != led and led not in s.voids[seat]:
        s.voids[seat] = s.voids[seat] | {led}
    s.trick.append((seat, cid))
    events = [Event("play", seat, {"card": cid})]
    if len(s.trick) < s.players:
        s.turn = (seat + 1) % s.players
        return events
    winner = trick_winner(s.trick, s.ranks)
    s.last_trick, s.last_winner = tuple(s.trick), winner
    s.won[winner] = s.won[winner] + tuple(c for _, c in s.trick)
    s.tricks_won[winner] += 1
    s.trick = []
    s.turn = s.leader = winner
    events.append(Event("trick", winner, {"cards": s.last_trick}))
    if s.hidden[winner] or s.shown[winner]:
        return events
    points = [trick_points(w) for w in s.won]
    lines = played_hand(s.players, s.chef, s.partner, s.bids[s.chef], s.chef_trump, points, s.tricks_won)
    return events + finish_hand(s, lines)
