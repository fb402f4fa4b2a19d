"""Diabolo on Discord: five colour rows between the devils (left) and the angels (right).

The table is one Components V2 message: the rows with their cards and sums, the players (cards
in hand, doubler, points, cards the table has seen), and a line about the last move and whose
turn it is. A turn is one click in the hand: two selects, one per side, list the cards that fit
there with the sum they would make. The doubler choice is a pair of buttons in the hand of every
player still holding one; the table says who has chosen but never what, until all have chosen.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bot.i18n import t
from bot.pictures.palette import DIABOLO, emoji
from bot.storage.status import Status
from bot.tables.diabolo.picture import PICTURES
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_button, hand_message, row, select, text
from bot.ui.labels import seat_badge
from bot.ui.pictured import framed, hand_picture, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand
from games.base import Event, HandScore, ScoreLine
from games.diabolo.cards import COLOUR, COLOURS, ROW, VALUE
from games.diabolo.state import DISCARD, DOUBLER, NO, OVER, PLACE, USE, DiaboloView, RowView

#: One symbol per Diabolo colour, the shapes its card pictures draw.
_SYMBOL = {letter: emoji(name) for letter, name in DIABOLO.items()}
_SIDES = ("devil", "angel")


@cache
def label(card: str) -> str:
    """``🟣4`` for a purple 4: the colour's symbol and the value (made once per card)."""
    return f"{_SYMBOL[COLOUR[card]]}{VALUE[card]}"


def labels(cards: Iterable[str]) -> str:
    return " ".join(label(card) for card in cards) or "—"


def colour(lang: str, letter: str) -> str:
    """A colour with its symbol and name in ``lang``: ``❤️ red``."""
    return f"{_SYMBOL[letter]} {t(lang, f'diabolo.colour.{letter}')}"


def _name(session: Shown, seat: int | None) -> str:
    return session.seats[seat].name if seat is not None else "?"


def _names(session: Shown, seats: Iterable[int]) -> str:
    return ", ".join(_name(session, s) for s in seats)


def _playing(session: Shown) -> bool:
    return session.status == Status.PLAYING


# -- the table ------------------------------------------------------------------------------------
def _row_line(row_view: RowView, lang: str) -> str:
    digits = {side: " ".join(str(VALUE[c]) for c in getattr(row_view, side)) or "—" for side in _SIDES}
    return t(lang, "diabolo.ui.row", colour=colour(lang, row_view.colour), devil=digits["devil"],
             devil_sum=row_view.devil_sum, angel_sum=row_view.angel_sum, angel=digits["angel"],
             closed=t(lang, "diabolo.ui.closed") if row_view.closed else "")


def _rows_block(session: Shown, view: DiaboloView, lang: str) -> str:
    closed = sum(r.closed for r in view.rows)
    lines = [
        t(lang, "diabolo.ui.title", round=view.round, rounds=view.rounds),
        t(lang, "diabolo.ui.info", deck=view.deck, closed=closed, limit=view.close_limit,
          dealer=_name(session, view.dealer)),
        t(lang, "diabolo.ui.sides"),
        *(_row_line(r, lang) for r in view.rows),
    ]
    if view.removed:
        lines.append(t(lang, "diabolo.ui.removed", cards=labels(view.removed)))
    return "\n".join(lines)


def _doubler_state(view: DiaboloView, seat: int, lang: str) -> str:
    if not view.doublers[seat]:
        return t(lang, "diabolo.ui.doubler_used")
    if view.deciding is not None:
        key = "diabolo.ui.doubler_choosing" if seat in view.waiting else "diabolo.ui.doubler_chosen"
        return t(lang, key)
    return t(lang, "diabolo.ui.doubler_ready")


def _players_block(session: Shown, view: DiaboloView, lang: str) -> str:
    lines = [t(lang, "diabolo.ui.players")]
    for seat in range(view.players):
        marker = "▶ " if seat == view.current or seat in view.waiting else ""
        line = t(lang, "diabolo.ui.player", badge=seat_badge(seat), marker=marker, name=_name(session, seat), count=view.hand_counts[seat],
                 doubler=_doubler_state(view, seat, lang), points=view.totals[seat])
        if view.shown[seat]:
            line += t(lang, "diabolo.ui.shown", cards=labels(view.shown[seat]))
        lines.append(line)
    return "\n".join(lines)


def _score_line(session: Shown, line: ScoreLine, lang: str) -> str:
    shown = score_line(line, lang)
    return t(lang, "table.summary_line", name=_name(session, line.seat), text=t(lang, shown.label, **shown.params),
             points=f"{line.points:+d}")


def _status_block(session: Shown, view: DiaboloView, lang: str, last: str | None) -> str:
    lines = [last] if last else []
    if session.status == Status.STOPPED:
        lines.append(t(lang, "table.stopped"))
    elif view.phase == OVER:
        lines.append(t(lang, "diabolo.ui.over"))
    elif view.phase == DOUBLER:
        assert view.deciding is not None  # the colour whose doublers are being chosen
        row_view = view.rows[COLOURS.index(view.deciding)]
        lines.append(t(lang, "diabolo.ui.scoring", colour=colour(lang, view.deciding),
                       angel=row_view.angel_sum, devil=row_view.devil_sum, names=_names(session, view.waiting)))
    elif view.phase == DISCARD:
        lines.append(t(lang, "diabolo.ui.turn_discard", name=_name(session, view.current)))
    else:
        lines.append(t(lang, "diabolo.ui.turn", name=_name(session, view.current)))
    if view.lines and view.phase == DOUBLER:
        lines.append(t(lang, "diabolo.ui.so_far"))
        lines.extend(_score_line(session, line, lang) for line in view.lines)
    return "\n".join(lines)


# -- the hand -------------------------------------------------------------------------------------
def _place_rows(session: Shown, seat: int, view: DiaboloView, lang: str) -> tuple[list[str], list[dict]]:
    """One select per side listing the hand cards that fit there, with the sum they would make."""
    counter = session.counters[seat]
    legal = {(a.kind, a.arg) for a in session.game.legal_actions(session.state, seat)}
    text_lines, out = [t(lang, "diabolo.ui.your_turn")], []
    for side in _SIDES:
        options = []
        for card in view.hand:
            if (side, card) in legal:
                now = getattr(view.rows[ROW[card]], f"{side}_sum")
                options.append((t(lang, "diabolo.ui.choice", card=label(card), now=now, then=now + VALUE[card]),
                                card))
        if options:
            out.append(row(select(ids.move_select(session.id, seat, counter, f"{side}:"), options,
                                  placeholder=t(lang, f"diabolo.ui.pick_{side}"))))
        else:
            text_lines.append(t(lang, f"diabolo.ui.none_{side}"))
    return text_lines, out


def _discard_rows(session: Shown, seat: int, view: DiaboloView, lang: str) -> tuple[list[str], list[dict]]:
    options = [(label(card), card) for card in view.hand]
    custom_id = ids.move_select(session.id, seat, session.counters[seat], "discard:")
    return [t(lang, "diabolo.ui.must_discard")], [row(select(custom_id, options,
                                                             placeholder=t(lang, "diabolo.ui.pick_discard")))]


def _doubler_rows(session: Shown, seat: int, view: DiaboloView, lang: str) -> tuple[list[str], list[dict]]:
    letter = view.deciding
    assert letter is not None  # the colour whose doublers are being chosen
    row_view = view.rows[COLOURS.index(letter)]
    mine = [card for card in view.hand if COLOUR[card] == letter]
    lines = [t(lang, "diabolo.ui.doubler_ask", colour=colour(lang, letter), angel=row_view.angel_sum,
               devil=row_view.devil_sum),
             t(lang, "diabolo.ui.doubler_mine", cards=labels(mine), sum=sum(VALUE[c] for c in mine))]
    if view.my_choice is not None:
        key = "diabolo.ui.doubler_you_use" if view.my_choice == USE else "diabolo.ui.doubler_you_keep"
        lines.append(t(lang, key, colour=colour(lang, letter)))
        lines.append(t(lang, "diabolo.ui.doubler_waiting", names=_names(session, view.waiting)))
        return lines, []
    lines.append(t(lang, "diabolo.ui.doubler_secret"))
    counter = session.counters[seat]
    out = [row(
        button(t(lang, "diabolo.ui.double", colour=colour(lang, letter)),
               ids.move(session.id, seat, counter, f"doubler:{letter}"), style=Style.success),
        button(t(lang, "diabolo.ui.keep"), ids.move(session.id, seat, counter, f"doubler:{NO}")),
    )]
    return lines, out


def _waiting_line(session: Shown, seat: int, view: DiaboloView, lang: str) -> str:
    if view.phase == OVER or not _playing(session):
        return t(lang, "diabolo.ui.hand_over")
    if view.phase == DOUBLER:
        assert view.deciding is not None  # the colour whose doublers are being chosen
        return t(lang, "diabolo.ui.scoring_wait", colour=colour(lang, view.deciding),
                 names=_names(session, view.waiting))
    return t(lang, "diabolo.ui.wait", name=_name(session, view.current))


# -- the public line and the round summary ---------------------------------------------------------
def score_line(line: ScoreLine, lang: str) -> ScoreLine:
    """The engine's score line with its colour in the text (``diabolo.line_angel`` becomes
    ``diabolo.ui.score.angel``, whose text starts with the colour)."""
    return ScoreLine(line.seat, "diabolo.ui.score." + line.label.removeprefix("diabolo.line_"), line.points,
                     {**line.params, "colour": colour(lang, line.params["colour"])})


def _event_text(session: Shown, event: Event, lang: str, voice: Voice) -> str | None:
    data, kind = event.data, event.kind
    name = _name(session, event.seat) if event.seat is not None else ""
    if kind == "place":
        return t(lang, voiced(f"diabolo.ui.placed_{data['side']}", voice), name=name, card=label(data["card"]),
                 colour=colour(lang, COLOUR[data["card"]]))
    if kind == "closed":
        return t(lang, "diabolo.ui.row_closed", colour=colour(lang, data["colour"]))
    if kind == "round_over":
        return t(lang, "diabolo.ui.round_over", round=data["round"])
    if kind == "blocked":
        return t(lang, "diabolo.ui.blocked", name=name, cards=labels(data["hand"]))
    if kind == "discard":
        return t(lang, voiced("diabolo.ui.discarded", voice), name=name, card=label(data["card"]))
    if kind == "colour_tied" and data["points"]:  # an empty row goes unmentioned
        return t(lang, "diabolo.ui.tied", colour=colour(lang, data["colour"]), points=data["points"])
    if kind == "doubler_chosen":
        return t(lang, voiced("diabolo.ui.has_chosen", voice), name=name)
    if kind == "doublers":
        if data["used"]:
            return t(lang, "diabolo.ui.doublers_used", colour=colour(lang, data["colour"]),
                     names=_names(session, data["used"]))
        return t(lang, "diabolo.ui.doublers_none", colour=colour(lang, data["colour"]))
    if kind == "reveal":
        hands = " · ".join(f"{_name(session, s)} {labels(cards)}" for s, cards in enumerate(data["hands"]))
        return t(lang, "diabolo.ui.revealed", colour=colour(lang, data["colour"]), hands=hands)
    if kind == "deal" and data["round"] > 1:
        return t(lang, "diabolo.ui.new_round", round=data["round"], dealer=_name(session, data["dealer"]))
    return None


def _playable(session: Shown, seat: int, view: DiaboloView) -> tuple[str, ...]:
    """``DiaboloPresenter.playable`` from the seat's view, which the hand has already."""
    if not _playing(session) or view.current != seat or view.phase not in (PLACE, DISCARD):
        return ()
    if view.phase == DISCARD:
        return view.hand
    fits = {a.arg for a in session.game.legal_actions(session.state, seat) if a.kind in _SIDES}
    return tuple(card for card in view.hand if card in fits)


class DiaboloPresenter:
    table_messages = 1
    #: Score lines that name their colour, for any breakdown of a Diabolo round.
    score_line = staticmethod(score_line)

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        rows = _rows_block(session, view, lang)
        components = [
            text(rows),
            text(_players_block(session, view, lang)),
            text(_status_block(session, view, lang, last)),
            row(hand_button(session, lang), *rules_or_rematch(session, lang)),
        ]
        return [framed(components, table_picture(PICTURES, session, view, lang, rows))]

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        """The seat's cards and its one current choice; no in-hand steps, so ``ui`` is ignored."""
        view = session.game.view(session.state, seat)
        lines = [notice] if notice else []
        alt = t(lang, "diabolo.ui.hand", count=len(view.hand), cards=labels(view.hand),
                round=view.round, rounds=view.rounds, doubler=_doubler_state(view, seat, lang))
        lines.append(alt)
        out: list[dict] = []
        if _playing(session) and view.phase == DOUBLER and view.doublers[seat]:
            more, out = _doubler_rows(session, seat, view, lang)
        elif _playing(session) and view.current == seat and view.phase == PLACE:
            more, out = _place_rows(session, seat, view, lang)
        elif _playing(session) and view.current == seat and view.phase == DISCARD:
            more, out = _discard_rows(session, seat, view, lang)
        else:
            more = [_waiting_line(session, seat, view, lang)]
        lines.extend(more)
        picture = hand_picture(PICTURES, session, view, lang, _playable(session, seat, view), alt, label)
        return hand_message(session, seat, lines, out, picture)

    @staticmethod
    def playable(session: Shown, seat: int) -> tuple[str, ...]:
        """On the seat's turn the cards its selects offer: those that fit a row, or any to discard."""
        return _playable(session, seat, session.game.view(session.state, seat))

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """What the move did, from its public events: the card laid or discarded, rows closed,
        shown hands, who has chosen a doubler (never what, until all have), reveals, a new round."""
        parts = [part for event in events if event.to is None
                 if (part := _event_text(session, event, lang, voice)) is not None]
        return " ".join(parts) or None

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """The breakdown of a round that this move finished, each line naming its colour."""
        done = next((e.data["round"] for e in events if e.to is None and e.kind == "round_scored"), None)
        if done is None:
            return None
        view = session.game.view(session.state, None)
        hand = next((h for h in view.history if h.number == done), None)
        if hand is None:
            return None
        lines = tuple(score_line(line, lang) for line in hand.lines)
        return render_hand(session, HandScore(hand.number, lines, hand.totals), lang)


PRESENTER = DiaboloPresenter()
