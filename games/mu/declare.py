"""After the auction: the Vize names a trump, then the Chef (or "none"), then the Chef's partner."""

from __future__ import annotations

from games.base import Event, IllegalAction
from games.keys import number
from games.mu.cards import NO_TRUMP, ranking, trump_choices
from games.mu.state import CHEF_TRUMP, PARTNER, TRICKS, VIZE_TRUMP, MuState


def trump_options(s: MuState) -> list[str]:
    """What the seat naming a trump may name now: from its shown cards; the Chef also "none"."""
    if s.phase == VIZE_TRUMP:
        return trump_choices(s.shown[s.vize])
    return [*trump_choices(s.shown[s.chef]), NO_TRUMP]


def check_trump(s: MuState, name: str) -> None:
    if name not in trump_options(s):
        if s.phase == VIZE_TRUMP:
            raise IllegalAction("mu.vize_no_trump" if name == NO_TRUMP else "mu.trump_not_shown")
        raise IllegalAction("mu.trump_not_shown")


def name_trump(s: MuState, seat: int, name: str) -> list[Event]:
    events = [Event("trump", seat, {"trump": name, "role": "vize" if s.phase == VIZE_TRUMP else "chef"})]
    if s.phase == VIZE_TRUMP:
        s.vize_trump = name
        s.phase, s.turn = CHEF_TRUMP, s.chef
        return events
    s.chef_trump = name
    s.ranks = ranking(s.vize_trump, s.chef_trump)
    if s.players >= 4:
        s.phase, s.turn = PARTNER, s.chef
    else:
        s.phase, s.turn, s.leader = TRICKS, s.chef, s.chef
    return events


def partner_options(s: MuState) -> list[int]:
    return [seat for seat in range(s.players) if seat not in (s.chef, s.vize)]


def check_partner(s: MuState, arg: str) -> int:
    seat = number(arg)
    if seat is None or seat >= s.players:
        raise IllegalAction("mu.partner_unknown")
    if seat == s.chef:
        raise IllegalAction("mu.partner_self")
    if seat == s.vize:
        raise IllegalAction("mu.partner_vize")
    return seat


def choose_partner(s: MuState, seat: int, partner: int) -> list[Event]:
    s.partner = partner
    s.phase, s.turn, s.leader = TRICKS, s.chef, s.chef
    return [Event("partner", seat, {"partner": partner})]
