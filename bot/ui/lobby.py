"""The lobby message: who sits at the table, the table's language, and Join/Leave/Start/Cancel."""

from __future__ import annotations

from bot import ids
from bot.i18n import LANGUAGES, t
from bot.ui import options as options_ui
from bot.ui.base import Rendered, StaticView, Style, button, relative_time, row, rows, select


def render(session, expires_at: float) -> Rendered:
    lang = session.lang
    game = session.game
    title = game.name
    components: list[dict] = []
    names = ", ".join(seat.name for seat in session.seats) or "—"
    lines = [t(lang, "lobby.title", game=title)]
    if session.status == "lobby":
        lines += [
            t(lang, "lobby.host", name=_host_name(session)),
            t(lang, "lobby.players", count=len(session.seats), max=game.max_players, names=names),
            t(lang, "lobby.needs", min=game.min_players, max=game.max_players),
            t(lang, "lobby.expires", when=relative_time(expires_at)),
        ]
        lines += options_ui.changed_lines(session, lang)
        enough = len(session.seats) >= game.min_players
        full = len(session.seats) >= game.max_players
        components += rows([
            button(t(lang, "lobby.join"), ids.lobby(session.id, "join"), style=Style.success, disabled=full),
            button(t(lang, "lobby.leave"), ids.lobby(session.id, "leave")),
            button(t(lang, "lobby.start"), ids.lobby(session.id, "start"), style=Style.primary,
                   disabled=not enough),
            button(t(lang, "lobby.cancel"), ids.lobby(session.id, "cancel"), style=Style.danger),
            *([button(t(lang, "lobby.rules"), ids.lobby(session.id, "rules"))] if options_ui.fields(session) else []),
        ])
        languages = [(t(code, "lobby.language_name"), code) for code in LANGUAGES]
        components.append(row(select(ids.lobby(session.id, "lang"), languages,
                                     placeholder=t(lang, "lobby.language"), default=lang)))
    elif session.status in ("playing", "finished", "stopped") and session.started_at is not None:
        lines.append(t(lang, "lobby.started", names=names))
    elif session.status == "expired":
        lines.append(t(lang, "lobby.expired"))
    else:
        lines.append(t(lang, "lobby.cancelled"))
    return Rendered(StaticView(components), "\n".join(lines))


def _host_name(session) -> str:
    return next((seat.name for seat in session.seats if seat.user_id == session.host_id), "?")
