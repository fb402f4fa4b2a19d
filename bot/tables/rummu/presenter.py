"""Rummü on Discord: one public table message, the hand in ``rummu_hand``.

The table (Components V2) shows the scores (per team when partners play), the piles with the
discard pile's visible top, every display grouped by its owner, and whose turn it is. Displays are
named A, B … in the order the engine numbers them (``m1`` is A), as the picture prints them under the
displays, so the table, the picture, the hand's add and swap choices and the hand's score breakdown
point at the same combinations. Every player's line starts with the seat's badge.
"""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import t
from bot.storage.status import Status
from bot.tables.rummu.hand import batch, combo_number, piles, playable, render_hand
from bot.tables.rummu.picture import PICTURES
from bot.ui.base import Rendered, hand_button, row, text
from bot.ui.cards import label, labels
from bot.ui.labels import seat_badge
from bot.ui.pictured import framed, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand as render_hand_score
from games.base import Event, HandScore, ScoreLine
from games.deck import ORDER, split_cards
from games.rummu.state import DRAW, RummuView


def _name(session: Shown, seat: int | None) -> str:
    return session.seats[seat].name if seat is not None else "?"


def _badged(session: Shown, seat: int) -> str:
    return f"{seat_badge(seat)} {_name(session, seat)}"


def _side_names(session: Shown, view: RummuView, side: int) -> str:
    return " & ".join(_badged(session, s) for s in range(view.players) if s % view.sides == side)


def _scores(session: Shown, view: RummuView, lang: str) -> str:
    options = session.options
    if view.sides < view.players:
        parts = [t(lang, "rummu.ui.entry", name=_side_names(session, view, side), value=view.totals[side])
                 for side in range(view.sides)]
        return t(lang, "rummu.ui.team_scores", scores=" · ".join(parts), target=options.team_target)
    parts = [t(lang, "rummu.ui.entry", name=_badged(session, s), value=view.totals[s]) for s in range(view.players)]
    return t(lang, "rummu.ui.scores", scores=" · ".join(parts), target=options.target)


def _header(session: Shown, view: RummuView, lang: str) -> str:
    return "\n".join([
        t(lang, "rummu.ui.title", number=view.hand_no, dealer=_name(session, view.dealer)),
        _scores(session, view, lang),
        piles(lang, view),
    ])


def _displays(session: Shown, view: RummuView, lang: str) -> str:
    lines = [t(lang, "rummu.ui.displays")]
    for seat in range(view.players):
        own = [c for c in view.combos if c.owner == seat]
        if own:
            shown = " · ".join(f"{combo_number(c.name)}: {labels(c.cards, sort=False)}" for c in own)
        else:
            shown = t(lang, "rummu.ui.no_display", need=view.minimum[seat])
        lines.append(t(lang, "rummu.ui.display", badge=seat_badge(seat), name=_name(session, seat),
                       hand=view.hand_sizes[seat], combos=shown))
    return "\n".join(lines)


def _turn(session: Shown, view: RummuView, lang: str, last: str | None) -> str:
    lines = [last] if last else []
    if session.status == Status.STOPPED:
        lines.append(t(lang, "table.stopped"))
    elif view.over or session.status != Status.PLAYING:
        lines.append(t(lang, "rummu.ui.over"))
    elif view.phase == DRAW:
        lines.append(t(lang, "rummu.ui.to_draw", name=_name(session, view.turn)))
    else:
        lines.append(t(lang, "rummu.ui.to_play", name=_name(session, view.turn)))
    return "\n".join(lines)


class RummuPresenter:
    table_messages = 1

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        hand = hand_button(session, lang)
        displays = _displays(session, view, lang)
        picture = table_picture(PICTURES, session, view, lang, f"{piles(lang, view)}\n{displays}")
        return [framed([
            text(_header(session, view, lang)),
            text(displays),
            text(_turn(session, view, lang, last)),
            row(hand, *rules_or_rematch(session, lang)),
        ], picture)]

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        return render_hand(session, seat, lang, ui, notice)

    def playable(self, session: Shown, seat: int) -> tuple[str, ...]:
        return playable(session, session.game.view(session.state, seat), seat)

    def canonical(self, session: Shown, seat: int, key: str) -> str:
        """A batch of new combinations as the hand offers it: the combinations in the order of
        their lowest cards (the same combinations, perhaps named in another order)."""
        kind, _, arg = key.partition(":")
        if kind != "meld" or "/" not in arg:
            return key
        try:
            groups = [split_cards(part) for part in arg.split("/")]
        except ValueError:
            return key
        return "meld:" + batch(sorted(groups, key=lambda group: min(map(ORDER.__getitem__, group))))

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """Everything public a move did, in one line: a discard may end the hand and deal the next."""
        parts = [part for event in events if event.to is None
                 and (part := self._event(session, event, lang, voice)) is not None]
        return " ".join(parts) or None

    @staticmethod
    def _event(session: Shown, event: Event, lang: str, voice: Voice) -> str | None:
        data = event.data
        name = _name(session, event.seat) if event.seat is not None else ""
        kind = event.kind
        if kind == "take":
            return t(lang, voiced("rummu.ui.did_take", voice), name=name)
        if kind == "takediscard":
            key = "rummu.ui.did_take_top" if data["count"] == 1 else "rummu.ui.did_take_n"
            return t(lang, voiced(key, voice), name=name, count=data["count"], card=label(data["top"]))
        if kind == "meld":
            combos = ", ".join(f"{combo_number(n)}: {labels(cards, sort=False)}" for n, cards in data["combos"])
            return t(lang, voiced("rummu.ui.did_meld", voice), name=name, combos=combos)
        if kind == "add":
            return t(lang, voiced("rummu.ui.did_add", voice), name=name, cards=labels(data["cards"]),
                     number=combo_number(data["combo"]))
        if kind == "swap":
            return t(lang, voiced("rummu.ui.did_swap", voice), name=name, card=label(data["card"]), joker=label(data["joker"]),
                     number=combo_number(data["combo"]))
        if kind == "discard":
            return t(lang, voiced("rummu.ui.did_discard", voice), name=name, card=label(data["card"]))
        if kind == "reshuffle":
            return t(lang, "rummu.ui.did_reshuffle", count=data["stock"])
        if kind == "hand_end":
            if event.seat is None:
                return t(lang, "rummu.ui.did_end_dry", number=data["hand"])
            return t(lang, "rummu.ui.did_go_out", name=name, number=data["hand"])
        if kind == "deal":
            return t(lang, "rummu.ui.did_deal", number=data["hand"], name=name, card=label(data["discard"]))
        return None

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """The breakdown of a hand that just ended; the match's closing summary covers the last one."""
        ended = next((e for e in events if e.kind == "hand_end"), None)
        if ended is None:
            return None
        view = session.game.view(session.state, None)
        if view.over:
            return None
        score = next((h for h in view.history if h.number == ended.data["hand"]), None)
        if score is None:
            return None
        lines = tuple(self.score_line(line, lang) for line in score.lines)
        return render_hand_score(session, HandScore(score.number, lines, score.totals), lang)

    @staticmethod
    def score_line(line: ScoreLine, lang: str) -> ScoreLine:
        """A score line naming its combination as the table does (display A, not the engine's ``m1``)."""
        combo = line.params.get("combo")
        return replace(line, params={**line.params, "combo": combo_number(combo)}) if combo else line


PRESENTER = RummuPresenter()
