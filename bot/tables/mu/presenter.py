"""Mü on Discord: one Components V2 table message, the ephemeral hand in ``mu_hand``.

The table is text: the dealer and the players (cards in hand, the cards each laid out, roles,
tricks, match points), then the auction or the contract (Chef, Vize, trumps "green over 7s",
partner, team goal), the trick in play order, and whose turn it is. Every choice is made in the
hand, so the table carries only the Hand button and never a card that is still face down.
"""

from __future__ import annotations

from bot.i18n import t
from bot.storage.status import Status
from bot.tables.mu.hand import hand, playable
from bot.tables.mu.picture import PICTURES
from bot.tables.mu.words import name, team_names, trick_text, trump_name, trumps_text
from bot.ui.base import Rendered, hand_button, row, text
from bot.ui.cards import colour_name, label, labels, symbol
from bot.ui.labels import seat_badge
from bot.ui.pictured import framed, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand
from games.base import Event
from games.mu.cards import NO_TRUMP
from games.mu.state import AUCTION, OVER, TRICKS
from games.mu.views import MuView


def _roles(lang: str, view: MuView, seat: int) -> str:
    roles = []
    if seat == view.chef:
        roles.append(t(lang, "mu.ui.role_chef"))
    if seat == view.vize:
        roles.append(t(lang, "mu.ui.role_vize"))
    if seat == view.partner:
        roles.append(t(lang, "mu.ui.role_partner"))
    return t(lang, "mu.ui.roles", roles=", ".join(roles)) if roles else ""


def _seat_line(session: Shown, view: MuView, lang: str, seat: int) -> str:
    marker = "▶ " if view.to_act == seat and session.status == Status.PLAYING else ""
    line = t(lang, "mu.ui.seat", badge=seat_badge(seat), marker=marker, name=name(session, seat), roles=_roles(lang, view, seat),
             cards=view.hand_counts[seat], score=view.scores[seat])
    if view.phase == AUCTION:
        if view.bids[seat]:
            line += t(lang, "mu.ui.seat_bid", count=view.bids[seat], cards=labels(view.shown[seat], sort=False))
    elif view.phase != OVER:
        if view.shown[seat]:
            line += t(lang, "mu.ui.seat_shown", count=view.bids[seat], cards=labels(view.shown[seat], sort=False))
        elif view.bids[seat]:
            line += t(lang, "mu.ui.seat_bid_played", count=view.bids[seat])
        if view.phase == TRICKS:
            line += t(lang, "mu.ui.seat_tricks", count=view.tricks_won[seat])
    return line


def _header(session: Shown, view: MuView, lang: str) -> str:
    lines = [t(lang, "mu.ui.title", number=view.hand_no),
             t(lang, "mu.ui.dealer", name=name(session, view.dealer), target=view.target)]
    if view.removed_colours:
        colours = ", ".join(f"{symbol(c)} {colour_name(lang, c)}" for c in view.removed_colours)
        lines.append(t(lang, "mu.ui.removed", colours=colours))
    lines += [_seat_line(session, view, lang, seat) for seat in range(view.players)]
    return "\n".join(lines)


def _contract(session: Shown, view: MuView, lang: str) -> list[str]:
    """The auction's standing, or who plays what against whom."""
    if view.phase == AUCTION:
        return [t(lang, "mu.ui.auction", most=max(view.bids), passes=view.passes, players=view.players)]
    if view.chef is None:
        return []
    line = t(lang, "mu.ui.declarer", chef=name(session, view.chef), cards=view.bids[view.chef])
    if view.vize is not None:
        line += t(lang, "mu.ui.vize", name=name(session, view.vize))
    elif view.players > 3:
        line += t(lang, "mu.ui.no_vize")
    if view.partner is not None:
        line += t(lang, "mu.ui.partner", name=name(session, view.partner))
    parts = [line]
    trumps = trumps_text(lang, view)
    if trumps:
        parts.append(t(lang, "mu.ui.trumps", trumps=trumps))
    if view.goal is not None:
        parts.append(t(lang, "mu.ui.goal", goal=view.goal, team=team_names(session, view)))
    return parts


def _play(session: Shown, view: MuView, lang: str, last: str | None) -> str:
    lines = _contract(session, view, lang)
    if view.phase == TRICKS:
        number = sum(view.tricks_won) + 1
        if view.trick:
            lines.append(t(lang, "mu.ui.trick", number=number, cards=trick_text(session, view.trick)))
        if view.last_trick:
            lines.append(t(lang, "mu.ui.last_trick", cards=trick_text(session, view.last_trick),
                           name=name(session, view.last_winner)))
    if last:
        lines.append(last)
    if session.status == Status.STOPPED:
        lines.append(t(lang, "table.stopped"))
    elif view.phase == OVER or session.status != Status.PLAYING:
        lines.append(t(lang, "mu.ui.over"))
    else:
        lines.append(_turn(session, view, lang))
    return "\n".join(lines)


def _turn(session: Shown, view: MuView, lang: str) -> str:
    seat = view.to_act
    limit = 0
    if view.phase == AUCTION:  # the engine's bid limit, from public counts (the public view leaves it out)
        assert seat is not None  # someone bids while the auction runs
        face_down = view.hand_counts[seat] - len(view.shown[seat])
        limit = min(max(view.bids) + 1 - view.bids[seat], face_down)
    return t(lang, f"mu.ui.turn.{view.phase}", name=name(session, seat), limit=limit)


def _pictured(session: Shown, view: MuView, lang: str) -> str:
    """What the table picture shows, in words: the trumps named, the cards laid out face up, the
    trick in play order and the last trick (empty while none of these is on the table)."""
    lines = []
    if view.chef_trump or view.vize_trump:
        lines.append(t(lang, "mu.ui.trumps", trumps=trumps_text(lang, view)))
    lines += [f"{name(session, seat)}: {labels(shown, sort=False)}" for seat, shown in enumerate(view.shown) if shown]
    if view.phase == TRICKS and view.trick:
        lines.append(t(lang, "mu.ui.trick", number=sum(view.tricks_won) + 1, cards=trick_text(session, view.trick)))
    if view.last_trick:
        lines.append(t(lang, "mu.ui.last_trick", cards=trick_text(session, view.last_trick),
                       name=name(session, view.last_winner)))
    return "\n".join(lines)


class MuPresenter:
    table_messages = 1

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        parts = [text(_header(session, view, lang)), text(_play(session, view, lang, last)),
                 row(hand_button(session, lang), *rules_or_rematch(session, lang))]
        return [framed(parts, table_picture(PICTURES, session, view, lang, _pictured(session, view, lang)))]

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        return hand(session, seat, lang, ui, notice)

    def playable(self, session: Shown, seat: int) -> tuple[str, ...]:
        return playable(session, session.game.view(session.state, seat), seat)

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """One line for the move and what it set off (a trick taken, a hand scored, a new deal)."""
        parts = [part for event in events if event.to is None and (part := _said(session, event, lang, voice))]
        return " · ".join(parts) or None

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """The breakdown of a hand that just ended, played or Patt."""
        number = next((e.data["hand"] for e in events if e.kind == "hand_scored" and e.to is None), None)
        if number is None:
            return None
        score = session.game.view(session.state, None).last_score
        return render_hand(session, score, lang) if score is not None and score.number == number else None


def _said(session: Shown, event: Event, lang: str, voice: Voice) -> str | None:
    who = name(session, event.seat) if event.seat is not None else ""
    data = event.data
    kind = event.kind
    if kind == "bid":
        return t(lang, voiced("mu.ui.said.bid", voice), name=who, cards=labels(data["cards"]), total=data["total"])
    if kind == "pass":
        return t(lang, voiced("mu.ui.said.pass", voice), name=who)
    if kind == "patt":
        return t(lang, "mu.ui.said.patt", cards=data["cards"]) if data["cards"] else t(lang, "mu.ui.said.all_passed")
    if kind == "chef":
        line = t(lang, "mu.ui.said.chef", name=who, cards=data["cards"])
        vize = data.get("vize", -1)
        return line + (t(lang, "mu.ui.said.vize", name=name(session, vize)) if vize >= 0 else "")
    if kind == "trump":
        if data["trump"] == NO_TRUMP:
            return t(lang, voiced("mu.ui.said.no_trump", voice), name=who)
        return t(lang, voiced(f"mu.ui.said.trump_{data['role']}", voice), name=who, trump=trump_name(lang, data["trump"]))
    if kind == "partner":
        return t(lang, voiced("mu.ui.said.partner", voice), name=who, partner=name(session, data["partner"]))
    if kind == "play":
        return t(lang, voiced("mu.ui.said.play", voice), name=who, card=label(data["card"]))
    if kind == "trick":
        return t(lang, "mu.ui.said.trick", name=who)
    if kind == "deal":
        return t(lang, "mu.ui.said.deal", name=who, number=data["hand"])
    return None     # the match's end among them: the turn line under the log says so


PRESENTER = MuPresenter()
