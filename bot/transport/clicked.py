"""The clicked message as the click path reads it, as Discord sent it with the interaction.

Discord sends the clicked message with every component interaction, and discord.py would parse it
into a ``Message`` with an object per component before any listener runs (about 4 % of the event
loop at a thousand tables), for the click path to turn those objects back into dicts. The bot has
discord.py build a ``ClickedMessage`` straight from the payload instead (``compat.read_clicked``):
``interaction.message`` is one. The click path reads four things of it: its id, its flags, the
custom_ids on it, and the pictures it shows, read as Discord sent them
(``bot.transport.media.shown_on``), so one reading serves both the clicked message and Discord's
answers to our edits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord


class ClickedMessage:
    """The clicked message as Discord sent it: its id, flags, custom_ids, and its components and
    attachments as sent (``bot.transport.media.shown_on`` reads its pictures from both: a picture a
    gallery shows is not listed in ``attachments``, and a gallery item carries its upload's
    ``attachment_id``). ``flags`` is discord.py's ``MessageFlags``, as on a ``Message``; ``guild`` is
    where discord.py puts the interaction's server, as it does on a ``Message``.
    """

    __slots__ = ("attachments", "components", "custom_ids", "flags", "guild", "id")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.id = int(data["id"])
        self.flags = discord.MessageFlags()
        self.flags.value = int(data.get("flags") or 0)
        self.attachments: tuple[Mapping[str, Any], ...] = tuple(data.get("attachments") or ())
        self.components: list[Mapping[str, Any]] = list(data.get("components") or ())
        self.custom_ids = _custom_ids(self.components)
        self.guild: discord.Guild | None = None

    def carries(self, custom_id: str) -> bool:
        """Whether ``custom_id`` is on this message (rows, containers, sections' accessories)."""
        return custom_id in self.custom_ids

    def __repr__(self) -> str:
        return f"<ClickedMessage id={self.id} flags={self.flags.value} components={len(self.custom_ids)}>"


def _custom_ids(components: Iterable[Mapping[str, Any]]) -> frozenset[str]:
    found, todo = set(), list(components)
    while todo:
        component = todo.pop()
        custom_id = component.get("custom_id")
        if custom_id is not None:
            found.add(custom_id)
        nested = component.get("components")
        if nested:
            todo.extend(nested)
        accessory = component.get("accessory")
        if accessory is not None:
            todo.append(accessory)
    return frozenset(found)


def clicked_message(interaction: discord.Interaction) -> ClickedMessage | None:
    """The clicked message as the click path reads it (``None`` for an interaction without one: no
    message is known to carry its click)."""
    message = interaction.message
    return message if isinstance(message, ClickedMessage) else None


def let_go(interaction: discord.Interaction) -> None:
    """A handled click forgets the message it was on: the table writer keeps the interaction for its
    token, up to 15 minutes, and needs only the token, the user and when it came. Kept, each held the
    clicked table or hand with every component, about four per table (the newest click on each table
    message, each seat's hand, the ping's)."""
    interaction.message = None
