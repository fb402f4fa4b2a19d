"""Building blocks for every message the bot renders.

Rendered views are never registered with discord.py's view store (``is_dispatchable`` is False):
clicks reach the bot only through the one ``DynamicItem`` in ``cogs/controls.py``, which parses
the custom_id. So a message keeps working after a restart, and sending thousands of tables costs
no memory in the store.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import discord

Style = discord.ButtonStyle


class StaticView(discord.ui.View):
    """A legacy message's components (content plus up to five rows)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


class StaticLayout(discord.ui.LayoutView):
    """A Components V2 message (text displays and rows, at most 40 components)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False


def button(
    label: str,
    custom_id: str,
    *,
    style: Style = Style.secondary,
    disabled: bool = False,
    emoji: str | None = None,
) -> discord.ui.Button:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, disabled=disabled, emoji=emoji)


def select(
    custom_id: str,
    options: list[tuple[str, str]],
    *,
    placeholder: str,
    default: str | None = None,
    disabled: bool = False,
    max_values: int = 1,
) -> discord.ui.Select:
    """A string select of at most 25 (label, value) options."""
    if len(options) > 25:
        raise ValueError("a select holds at most 25 options; page the list")
    return discord.ui.Select(
        custom_id=custom_id,
        placeholder=placeholder[:150],
        min_values=1,
        max_values=min(max_values, len(options)),
        disabled=disabled,
        options=[
            discord.SelectOption(label=label[:100], value=value, default=value == default)
            for label, value in options
        ],
    )


def rows(items: list[discord.ui.Item], width: int = 5) -> list[discord.ui.ActionRow]:
    """Pack buttons into action rows of ``width``."""
    out = []
    for start in range(0, len(items), width):
        out.append(discord.ui.ActionRow(*items[start:start + width]))
    return out


@dataclass
class Rendered:
    """One message: ``content`` for legacy views, ``None`` for Components V2 layouts."""

    view: discord.ui.View | discord.ui.LayoutView
    content: str | None = None
    _fingerprint: tuple | None = field(default=None, repr=False, compare=False)

    def fingerprint(self) -> tuple:
        """What the message shows, to skip edits that would change nothing (computed once)."""
        if self._fingerprint is None:
            self._fingerprint = (self.content, repr(self.view.to_components()))
        return self._fingerprint


def mention(user_id: int | None, fallback: str) -> str:
    return f"<@{user_id}>" if user_id else fallback


def relative_time(epoch: float) -> str:
    return f"<t:{int(epoch)}:R>"
