"""House rules in the lobby, drawn from each game's pydantic ``Options`` model.

No game writes its own settings screen: a ``bool`` field becomes an on/off pair of buttons, a
``Literal`` field a select of its values, an ``int`` field a select of sensible values within its
bounds. Texts come from ``<game>.ui.option.<field>.label`` / ``.help`` / ``.<value>``; a number that
means "as the rulebook says" (Skippo's 0 decks, Diabolo's 0 rounds) has such a value text.

The panel also holds the one table setting every game has, whether the table carries pictures
(``PICTURES``); it is stored with the session, not with the game's options.
"""

from __future__ import annotations

import typing
from typing import Any

from annotated_types import Ge, Le
from pydantic.fields import FieldInfo

from bot.i18n import has, t
from bot.storage.status import Status
from bot.transport import ids
from bot.ui.base import Rendered, StaticView, Style, button, row, select
from bot.ui.shown import Shown

#: The panel's entry for the pictures setting (no game option has this name).
PICTURES = "~pictures"

#: Fallback steps around an int field's default when its range is too wide to list.
_SCALE = (0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 4, 5)


def fields(session: Shown) -> dict[str, FieldInfo]:
    return dict(session.game.options_model.model_fields)


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    """An int house rule's ``ge`` and ``le`` bounds, where it has them."""
    low = next((m.ge for m in info.metadata if isinstance(m, Ge) and isinstance(m.ge, int)), None)
    high = next((m.le for m in info.metadata if isinstance(m, Le) and isinstance(m.le, int)), None)
    return low, high


def choices(info: FieldInfo) -> list[Any]:
    """The values a house rule can take in the lobby (at most 25)."""
    kind = info.annotation
    if kind is bool:
        return [True, False]
    if typing.get_origin(kind) is typing.Literal:
        return list(typing.get_args(kind))[:25]
    low, high = _bounds(info)
    default = info.default
    if low is not None and high is not None and high - low <= 24:
        return list(range(low, high + 1))
    if default == 0:
        values = {0, 25, 50, 100, 150, 200, 300, 500}
    else:
        values = {max(1, round(default * step)) for step in _SCALE}
    return sorted(v for v in values if (low is None or v >= low) and (high is None or v <= high))[:25]


def spelled(value: Any) -> str:
    """A value as the panel's custom_ids and select options carry it (the one spelling accepted)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def offered(session: Shown, name: str) -> list[str] | None:
    """The spellings the panel offers for a house rule; None when the game has no such rule."""
    info = fields(session).get(name)
    return None if info is None else [spelled(value) for value in choices(info)]


def value_label(session: Shown, lang: str, name: str, value: Any) -> str:
    """A value as players read it: on/off, a Literal's own words, or a number; a number with a text
    of its own (``…option.decks.0 = "Auto (rulebook: …)"``) shows that text, never a bare 0."""
    if isinstance(value, bool):
        return t(lang, "lobby.on" if value else "lobby.off")
    key = f"{session.game.key}.ui.option.{name}.{value}"
    return t(lang, key) if has(key) else str(value)


def label(session: Shown, lang: str, name: str) -> str:
    return t(lang, f"{session.game.key}.ui.option.{name}.label")


def changed_lines(session: Shown, lang: str) -> list[str]:
    """One line per house rule that differs from the rulebook, for the lobby message."""
    current = session.options.model_dump()
    out = []
    for name, info in fields(session).items():
        if current[name] != info.default:
            out.append(t(lang, "lobby.option_line", label=label(session, lang, name),
                         value=value_label(session, lang, name, current[name])))
    return out


def render_panel(session: Shown, lang: str, picked: str | None) -> Rendered:
    """The ephemeral house-rules panel: every rule with its value, a select to pick one, its values."""
    current = session.options.model_dump()
    infos = fields(session)
    lines = [t(lang, "lobby.rules_title" if infos else "lobby.settings_title", game=session.game.name)]
    for name in infos:
        lines.append(t(lang, "lobby.option_line", label=label(session, lang, name),
                       value=value_label(session, lang, name, current[name])))
    lines.append(t(lang, "lobby.option_line", label=t(lang, "lobby.pictures"),
                   value=t(lang, "lobby.on" if session.pictures else "lobby.off")))
    lines.append(t(lang, "lobby.rules_host_only"))
    if session.status != Status.LOBBY:
        return Rendered(StaticView([]), "\n".join([*lines[:-1], t(lang, "lobby.already_started")]))
    picked = picked if picked in infos or picked == PICTURES else None
    names = list(infos)[:24]
    pick = select(ids.lobby(session.id, "opt"),
                  [*((label(session, lang, name), name) for name in names), (t(lang, "lobby.pictures"), PICTURES)],
                  placeholder=t(lang, "lobby.rules_pick"), default=picked)
    for option, name in zip(pick["options"], names, strict=False):
        key = f"{session.game.key}.ui.option.{name}.help"
        if has(key):
            option["description"] = t(lang, key)[:100]
    pick["options"][-1]["description"] = t(lang, "lobby.pictures_help")[:100]
    components = [row(pick)]
    if picked == PICTURES:
        components.append(row(*(
            button(t(lang, f"lobby.{value}"), ids.lobby(session.id, f"pictures:{value}"),
                   style=Style.primary if session.pictures == (value == "on") else Style.secondary)
            for value in ("on", "off"))))
    elif picked is not None:
        values = choices(infos[picked])
        if infos[picked].annotation is bool:
            components.append(row(*(
                button(value_label(session, lang, picked, value), ids.lobby(session.id, f"set:{picked}:{spelled(value)}"),
                       style=Style.primary if current[picked] == value else Style.secondary)
                for value in values)))
        else:
            options = [(value_label(session, lang, picked, value), spelled(value)) for value in values]
            components.append(row(select(ids.lobby(session.id, f"set:{picked}"), options,
                                         placeholder=label(session, lang, picked), default=spelled(current[picked]))))
    return Rendered(StaticView(components), "\n".join(lines))
