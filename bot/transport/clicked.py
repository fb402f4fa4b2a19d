"""The clicked message as the click path reads it, from discord.py's parse of it.

Discord sends the clicked message with every component interaction, and discord.py parses it into
``interaction.message`` before any listener runs. The click path reads four things of it
(``ClickedMessage``): its id, its flags, the custom_ids on it, and the pictures it shows, read as
Discord sent them (``bot.transport.media.shown_on``), so one reading serves both the clicked message
and Discord's answers to our edits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import discord


class ClickedMessage:
    """The clicked message as the click path reads it: its id, flags, custom_ids, and its components
    and attachments as Discord sent them (``bot.transport.media.shown_on`` reads its pictures from both: a
    picture a gallery shows is not listed in ``attachments``). ``flags`` is discord.py's
    ``MessageFlags``, as on a ``Message``.
    """

    __slots__ = ("attachments", "components", "custom_ids", "flags", "id")

    def __init__(self, message: discord.Message) -> None:
        self.id = message.id
        self.flags = message.flags
        self.attachments: tuple[Mapping[str, Any], ...] = tuple(a.to_dict() for a in message.attachments)
        self.components: list[Mapping[str, Any]] = [_as_sent(c) for c in message.components]
        self.custom_ids = _custom_ids(self.components)

    def carries(self, custom_id: str) -> bool:
        """Whether ``custom_id`` is on this message (rows, containers, sections' accessories)."""
        return custom_id in self.custom_ids

    def __repr__(self) -> str:
        return f"<ClickedMessage id={self.id} flags={self.flags.value} components={len(self.custom_ids)}>"


def _as_sent(component: Any) -> dict[str, Any]:
    """``component.to_dict()`` with each media item's ``attachment_id``, which discord.py parses but
    leaves out of ``to_dict()``: it tells which upload a gallery item shows, so an edit keeps it."""
    data = component.to_dict()
    _with_attachment_ids(component, data)
    return data


def _with_attachment_ids(component: Any, data: dict[str, Any]) -> None:
    media = getattr(component, "media", None)                     # a thumbnail, or a gallery's item
    if media is not None and media.attachment_id is not None:
        data["media"]["attachment_id"] = str(media.attachment_id)
    for item, item_data in zip(getattr(component, "items", ()), data.get("items", ()), strict=True):
        _with_attachment_ids(item, item_data)
    for child, child_data in zip(getattr(component, "children", ()), data.get("components", ()), strict=True):
        _with_attachment_ids(child, child_data)
    accessory = getattr(component, "accessory", None)
    if accessory is not None:
        _with_attachment_ids(accessory, data["accessory"])


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


#: The key of ``Interaction.extras`` that keeps the click path's reading of the clicked message.
_READ = "spieltisch.clicked"


def clicked_message(interaction: discord.Interaction) -> ClickedMessage | None:
    """The clicked message as the click path reads it (``None`` for an interaction without one: no
    message is known to carry its click). Read once per interaction and kept with it: a click asks
    two or three times (its custom_id's place, an old table's buttons, the pictures its answer keeps),
    and each reading walks every component."""
    message = interaction.message
    if message is None:
        return None
    kept = interaction.extras.get(_READ)
    if kept is None or kept.id != message.id:
        kept = interaction.extras[_READ] = ClickedMessage(message)
    return kept


def let_go(interaction: discord.Interaction) -> None:
    """A handled click forgets the message it was on (discord.py's parse of it, and the click path's
    reading): the table writer keeps the interaction for its token, up to 15 minutes, and needs only
    the token, the user and when it came. Kept, each held the clicked table or hand with an object per
    component, about four per table (the newest click on each table message, each seat's hand, the
    ping's): some 20 MB at a thousand tables."""
    interaction.message = None
    interaction.extras.pop(_READ, None)
