"""Messages of the turn clock: the reminder before a deadline and the notice that a seat went away."""

from __future__ import annotations

from bot.i18n import t
from bot.transport import ids
from bot.ui.base import StaticView, Style, button, relative_time, row
from bot.ui.shown import Shown


def reminder(session: Shown, user_ids: list[int], due: float) -> str:
    mentions = " ".join(f"<@{user_id}>" for user_id in user_ids)
    return t(session.lang, "table.reminder", mentions=mentions, game=session.game.name, when=relative_time(due))


def away_notice(session: Shown, seat: int) -> tuple[str, StaticView]:
    """Said once, with the button that gives the seat back to its player."""
    lang = session.lang
    text = t(lang, "table.away", name=session.seats[seat].name)
    view = StaticView([row(button(t(lang, "table.rejoin"), ids.table(session.id, "rejoin"), style=Style.success))])
    return text, view


def deadline_line(lang: str, due: float | None) -> str:
    return t(lang, "table.deadline", when=relative_time(due)) if due is not None else ""
