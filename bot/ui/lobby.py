"""The lobby message: who sits at the table, the table's language, and Join/Leave/Start/Cancel."""

from __future__ import annotations

from bot.i18n import LANGUAGES, t
from bot.storage.status import Status
from bot.transport import ids
from bot.ui import options as options_ui
from bot.ui.base import Rendered, StaticView, Style, button, relative_time, row, rows, select
from bot.ui.shown import Seated, Shown
from games import BRAINS
from games.computer import LEVELS

#: Seconds a player has for a turn at each pace (``None``: no clock).
PACES: dict[str, float | None] = {"live": 120.0, "relaxed": 12 * 3600.0, "none": None}


def computers_offered(game_key: str) -> bool:
    """Whether computer players, and so the turn clock that needs one, exist for this game."""
    return game_key in BRAINS


def render(session: Shown, timeout: float) -> Rendered:
    """The lobby message; an open lobby closes by itself ``timeout`` seconds after it opened."""
    lang = session.lang
    game = session.game
    title = game.name
    components: list[dict] = []
    names = ", ".join(_seat_name(lang, seat) for seat in session.seats) or "—"
    lines = [t(lang, "lobby.title", game=title)]
    if session.status == Status.LOBBY:
        lines += [
            t(lang, "lobby.host", name=_host_name(session)),
            t(lang, "lobby.players", count=len(session.seats), max=game.max_players, names=names),
            t(lang, "lobby.needs", min=game.min_players, max=game.max_players),
            t(lang, "lobby.expires", when=relative_time(session.created_at + timeout)),
        ]
        if computers_offered(game.key):
            lines.append(t(lang, "lobby.pace_line", pace=t(lang, f"lobby.pace_{session.pace}")))
        lines += options_ui.changed_lines(session, lang)
        if not session.pictures:
            lines.append(t(lang, "lobby.pictures_off_line"))
        enough = len(session.seats) >= game.min_players
        full = len(session.seats) >= game.max_players
        components += rows([
            button(t(lang, "lobby.join"), ids.lobby(session.id, "join"), style=Style.success, disabled=full),
            button(t(lang, "lobby.leave"), ids.lobby(session.id, "leave")),
            button(t(lang, "lobby.start"), ids.lobby(session.id, "start"), style=Style.primary,
                   disabled=not enough),
            button(t(lang, "lobby.cancel"), ids.lobby(session.id, "cancel"), style=Style.danger),
            # house rules and the pictures setting; only the latter for a game without house rules
            button(t(lang, "lobby.rules" if options_ui.fields(session) else "lobby.settings"),
                   ids.lobby(session.id, "rules")),
        ])
        languages = [(t(code, "lobby.language_name"), code) for code in LANGUAGES]
        components.append(row(select(ids.lobby(session.id, "lang"), languages,
                                     placeholder=t(lang, "lobby.language"), default=lang)))
        if computers_offered(game.key):
            components.append(row(select(ids.lobby(session.id, "pace"),
                                         [(t(lang, f"lobby.pace_{pace}"), pace) for pace in PACES],
                                         placeholder=t(lang, "lobby.pace"), default=session.pace)))
            levels = [(t(lang, f"lobby.add_{level}"), level, t(lang, f"lobby.strength_{level}")) for level in LEVELS]
            components.append(row(select(ids.lobby(session.id, "cpu"), levels,
                                         placeholder=t(lang, "lobby.add_computer"), disabled=full)))
        removable = [(seat.name, str(i)) for i, seat in enumerate(session.seats) if seat.user_id != session.host_id]
        if removable:
            components.append(row(select(ids.lobby(session.id, "remove"), removable[:25],
                                         placeholder=t(lang, "lobby.remove"))))
    elif session.status in (Status.PLAYING, Status.FINISHED, Status.STOPPED) and session.started_at is not None:
        lines.append(t(lang, "lobby.started", names=names))
    elif session.status == Status.EXPIRED:
        lines.append(t(lang, "lobby.expired"))
    else:
        lines.append(t(lang, "lobby.cancelled"))
    return Rendered(StaticView(components), "\n".join(lines))


def _host_name(session: Shown) -> str:
    return next((seat.name for seat in session.seats if seat.user_id == session.host_id), "?")


#: Names of computer players, in the order they sit down.
COMPUTER_NAMES = ("Ada", "Konrad", "Emmy", "Alan", "Grace", "Kurt", "Hedy")


def computer_name(session: Shown) -> str:
    taken = {seat.name for seat in session.seats}
    return next((f"🤖 {n}" for n in COMPUTER_NAMES if f"🤖 {n}" not in taken), f"🤖 {len(session.seats) + 1}")


def _seat_name(lang: str, seat: Seated) -> str:
    if seat.level is None:
        return seat.name
    return f"{seat.name} ({t(lang, f'lobby.level_{seat.level}')})"
