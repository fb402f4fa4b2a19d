"""Calcory on Discord: the 6 × 10 grid as buttons over two Components V2 messages.

Layout (the quickest to play: one click per flip, right on the card): message 1 holds the
scoreboard and columns A–E, message 2 columns F–J, the turn line and the Stop and Hand buttons.
Each message has six action rows of five slot buttons (36 components; the second adds a text and a
control row: 40, Discord's limit). A face-down slot shows its name, a flipped card its digit (blue),
a marked card its digit (green), a card of a failed turn its digit (red, still clickable: the next
player may flip it again). Digits appear only while a card is face up, so no message keeps a record
of a card once it is face down again: the failed turn's digits and sum live in a line drawn from the
game's view, which drops them at the next move, while the move line (``describe``) names no digit.
"""

from __future__ import annotations

from bot.i18n import t
from bot.storage.status import Status
from bot.transport import ids
from bot.ui.base import (
    Rendered,
    StaticLayout,
    Style,
    button,
    hand_button,
    hand_message,
    row,
    select,
    text,
)
from bot.ui.labels import seat_badge
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from games.base import Event
from games.calcory import COLUMNS, ROWS
from games.calcory.state import CalcoryView, SlotView
from games.deck import digit

_HALVES = (COLUMNS[:5], COLUMNS[5:])


def _playing(session: Shown) -> bool:
    return session.status == Status.PLAYING


def _name(session: Shown, seat: int | None) -> str:
    return session.seats[seat].name if seat is not None else "?"


def _slot_button(cell: SlotView, flip_id: str, flipping: bool) -> dict:
    custom_id = f"{flip_id}{cell.slot}"
    if cell.status == "down":
        return button(cell.slot, custom_id, disabled=not flipping)
    if cell.status == "up":
        return button(str(cell.digit), custom_id, style=Style.primary, disabled=True)
    if cell.status == "marked":
        return button(str(cell.digit), custom_id, style=Style.success, disabled=True)
    if cell.status == "shown":
        return button(str(cell.digit), custom_id, style=Style.danger, disabled=not flipping)
    return button("·", custom_id, disabled=True)


def _grid_rows(session: Shown, view: CalcoryView, columns: str) -> list[dict]:
    """Six rows of five slots; every slot button is the active seat's flip of that slot."""
    active = view.active if view.active is not None else 0
    flip_id = ids.move(session.id, active, session.counters[active], "flip:")
    flipping = view.phase == "flip" and _playing(session)
    by_slot = {cell.slot: cell for cell in view.grid}
    return [
        row(*(_slot_button(by_slot[f"{c}{line}"], flip_id, flipping) for c in columns))
        for line in range(1, ROWS + 1)
    ]


def _scoreboard(session: Shown, view: CalcoryView, lang: str) -> str:
    lines = [t(lang, "calcory.ui.title")]
    counts = " · ".join(
        t(lang, "calcory.ui.count", badge=seat_badge(seat), name=_name(session, seat), count=n) for seat, n in enumerate(view.hand_counts)
    )
    lines.append(t(lang, "calcory.ui.players", players=counts))
    if view.marked is not None:
        lines.append(t(lang, "calcory.ui.marked", name=_name(session, view.marked.owner), total=view.marked.total,
                       count=view.marked.count, slots=", ".join(view.marked.slots)))
    else:
        lines.append(t(lang, "calcory.ui.no_mark"))
    lines.append(t(lang, "calcory.ui.columns", first=_HALVES[0][0], last=_HALVES[0][-1]))
    return "\n".join(lines)


def _failed_line(view: CalcoryView, lang: str) -> str | None:
    """The failed turn's cards, sum and reason, for as long as the cards lie face up (docs/rules-decisions.md
    D16)."""
    failed = view.failed
    if failed is None:
        return None
    cards = " · ".join(f"{slot} {d}" for slot, d in zip(failed.slots, failed.digits, strict=True))
    return t(lang, f"calcory.ui.failed_{failed.why}", cards=cards, total=failed.total,
             their_total=failed.their_total, their_count=failed.their_count)


def _turn_line(session: Shown, view: CalcoryView, lang: str, last: str | None) -> str:
    lines = []
    if last:
        lines.append(last)
    failed = _failed_line(view, lang)
    if failed:
        lines.append(failed)
    status = session.status
    if status == Status.STOPPED:
        lines.append(t(lang, "table.stopped"))
    elif view.phase == "over":
        lines.append(t(lang, "calcory.ui.over"))
    elif view.phase == "return":
        lines.append(t(lang, "calcory.ui.returning", name=_name(session, view.active)))
    elif view.flipped:
        key = "calcory.ui.flipping" if len(view.flipped) > 1 else "calcory.ui.flipping_one"
        lines.append(t(lang, key, name=_name(session, view.active),
                       digits=" + ".join(map(str, view.flipped)), total=view.total, count=len(view.flipped)))
    else:
        lines.append(t(lang, "calcory.ui.to_flip", name=_name(session, view.active)))
    lines.append(t(lang, "calcory.ui.columns", first=_HALVES[1][0], last=_HALVES[1][-1]))
    return "\n".join(lines)


#: How each slot reads in the grid as text (``board``), by its status: three characters each.
_CELLS = {"down": " · ", "up": " {} ", "marked": "[{}]", "shown": "!{}!", "empty": "   "}


class CalcoryPresenter:
    table_messages = 2

    def board(self, session: Shown, lang: str) -> list[str]:
        """The grid in words, one half per table message, where a replay cannot show its 60 buttons: a
        code block of the slots as the buttons showed them (face down ·, face up the digit, marked
        [digit], a failed turn's !digit!), the legend under the second."""
        view = session.game.view(session.state, None)
        by_slot = {cell.slot: cell for cell in view.grid}
        halves = []
        for columns in _HALVES:
            lines = ["   " + "".join(f" {column} " for column in columns)]
            for line in range(1, ROWS + 1):
                cells = (by_slot[f"{column}{line}"] for column in columns)
                lines.append(f"{line:>2} " + "".join(_CELLS.get(cell.status, "   ").format(cell.digit) for cell in cells))
            halves.append("\n".join(["```", *lines, "```"]))
        halves[-1] += "\n-# " + t(lang, "calcory.ui.board_legend")
        return halves

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        # The Rules button goes under the first half: the second holds Discord's 40 components already,
        # and the first has room for two buttons beside its grid. A finished table offers Rematch and
        # Replay there; How did I play? is on the closing message under it, with all the others.
        first = [text(_scoreboard(session, view, lang)), *_grid_rows(session, view, _HALVES[0]),
                 row(*rules_or_rematch(session, lang)[:2])]
        second = [text(_turn_line(session, view, lang, last)), *_grid_rows(session, view, _HALVES[1])]
        active = view.active if view.active is not None else 0
        playing = _playing(session) and view.phase == "flip"
        second.append(row(
            button(t(lang, "calcory.ui.stop"), ids.move(session.id, active, session.counters[active], "stop"),
                   style=Style.success, disabled=not playing),
            hand_button(session, lang),
        ))
        return [Rendered(StaticLayout(first)), Rendered(StaticLayout(second))]

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        view = session.game.view(session.state, seat)
        lines = []
        if notice:
            lines.append(notice)
        digits = " · ".join(str(digit(c)) for c in view.hand)
        lines.append(t(lang, "calcory.ui.hand", count=len(view.hand), cards=digits or "—"))
        out: list[dict] = []
        if view.choices and _playing(session):
            lines.append(t(lang, "calcory.ui.choose_return"))
            self._return_controls(session, seat, view, lang, ui, out)
        elif view.active == seat and view.phase == "flip" and _playing(session):
            lines.append(t(lang, "calcory.ui.your_flip"))
        elif view.phase == "over" or not _playing(session):
            lines.append(t(lang, "calcory.ui.hand_over"))
        else:
            lines.append(t(lang, "calcory.ui.wait", name=_name(session, view.active)))
        return hand_message(session, seat, lines, out)

    @staticmethod
    def _return_controls(session: Shown, seat: int, view: CalcoryView, lang: str, ui: str, out: list[dict]) -> None:
        counter = session.counters[seat]
        by_digit: dict[int, str] = {}
        for card in view.choices:
            by_digit.setdefault(digit(card), card)
        chosen = ui.removeprefix("card:") if ui.startswith("card:") else None
        if chosen not in view.choices:
            chosen = next(iter(by_digit.values())) if len(by_digit) == 1 else None
        options = [(str(d), card) for d, card in sorted(by_digit.items())]
        default = chosen if chosen is None else by_digit.get(digit(chosen))
        out.append(row(select(ids.hand_step(session.id, seat, counter, "card"), options,
                              placeholder=t(lang, "calcory.ui.pick_card"), default=default)))
        empty = [cell.slot for cell in view.grid if cell.status == "empty"]
        for part, start in enumerate(range(0, len(empty), 25)):
            chunk = empty[start:start + 25]
            custom_id = ids.move_select(session.id, seat, counter, f"ret:{default or ''}-|{part}")
            out.append(row(select(custom_id, [(slot, slot) for slot in chunk],
                                  placeholder=t(lang, "calcory.ui.pick_slot", first=chunk[0], last=chunk[-1]),
                                  disabled=default is None)))

    def canonical(self, session: Shown, seat: int, key: str) -> str:
        """The move the hand offers for ``key``: taken cards of equal digit are one choice (the
        first of them), since which of them goes back changes nothing in Calcory."""
        if not key.startswith("ret:"):
            return key
        card, _, slot = key.removeprefix("ret:").partition("-")
        choices = session.game.view(session.state, seat).choices
        same = next((c for c in choices if digit(c) == digit(card)), card) if card in choices else card
        return f"ret:{same}-{slot}"

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """Say what ended a turn; flips themselves show on the grid while they are face up."""
        for event in events:
            name = _name(session, event.seat) if event.seat is not None else ""
            if event.kind == "bust":
                return t(lang, f"calcory.ui.bust_{event.data.get('why', 'over')}", name=name)
            if event.kind == "hit":
                return t(lang, "calcory.ui.hit", name=name)
            if event.kind == "overbid":
                return t(lang, voiced("calcory.ui.overbid", voice), name=name)
            if event.kind == "underbid":
                return t(lang, voiced("calcory.ui.underbid", voice), name=name)
            if event.kind == "mark":
                return t(lang, voiced("calcory.ui.mark", voice), name=name)
            if event.kind == "walkover":
                return t(lang, "calcory.ui.walkover", name=name)
            if event.kind == "return" and event.to is None:
                return t(lang, voiced("calcory.ui.returned", voice), name=name, slot=event.data.get("slot", "?"))
        return None


PRESENTER = CalcoryPresenter()
