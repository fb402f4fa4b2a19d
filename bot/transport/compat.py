"""Every private part of discord.py the bot relies on, in one place.

discord.py is pinned (``pyproject.toml``); tests/host/test_compat.py checks each name below against
it (signatures, attributes and behaviour), so a new discord.py that changes one fails there, not in
a game. Nothing else in ``bot/`` or ``cogs/`` reaches into discord.py's private names.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import discord.http
from discord.enums import InteractionResponseType
from discord.webhook.async_ import AsyncWebhookAdapter, async_context


def webhook_adapter() -> AsyncWebhookAdapter:
    """discord.py's adapter for requests on interaction tokens, the one ``interaction.response`` and
    ``interaction.followup`` send through (per-token lock, ``X-RateLimit-*`` waits, 429s and 5xx tried
    again, discord.py's exceptions). Its methods answer Discord's JSON as it came: the public calls
    would parse it into a ``Message`` with an object per component, which the bot never reads
    (``bot.transport.webhooks``). Private because ``AsyncWebhookAdapter`` is not exported."""
    return async_context.get()


def responded(interaction: discord.Interaction, kind: InteractionResponseType) -> None:
    """Note that the interaction is answered (``kind``), as discord.py's ``InteractionResponse`` methods
    do after their callback, so ``interaction.response.is_done()`` and ``.type`` say so. Needed because
    ``bot.transport.webhooks`` sends the callback through the adapter itself (its answer unparsed). Private:
    ``InteractionResponse._response_type``."""
    interaction.response._response_type = kind


def settled(interaction: discord.Interaction) -> None:
    """Let the interaction's response object stop referring back to it, keeping what it says (done,
    and how). The two refer to each other, a cycle that reference counting never frees; the table
    writer keeps a handled click's interaction for its token for minutes, long enough for the
    collector's freeze (``bot.play.heap``) to take it out of sight, so each click's pair stayed in
    memory until a full collection (1.3 MB a second at a thousand tables). The bot answers through
    ``bot.transport.webhooks``, never through the response's own methods, which need the link.
    Private: ``InteractionResponse._parent``."""
    interaction.response._parent = None  # type: ignore[assignment]


class Upload(io.BytesIO):
    """The bytes of one file for ``discord.File``, which stubs the file's ``close`` while it is sent
    and puts the file's own bound ``close`` back on it when closed: kept on the file itself, that is a
    cycle (the file, its attribute, the method bound to the file) reference counting never frees, one
    per picture uploaded, which the collector's freeze (``bot.play.heap``) kept with its PNG until a
    full collection. Given its own ``close`` back, this file drops the stub instead (the class's
    ``close`` is the same method). Private: ``discord.File.close`` restoring ``fp.close``."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "close" and getattr(value, "__self__", None) is self:
            vars(self).pop("close", None)
            return
        super().__setattr__(name, value)


def point_api_at(base: str) -> None:
    """Send discord.py's REST requests (the bot session's and the webhook adapter's) to ``base``
    instead of Discord: the tests' Discord double. Private: ``Route.BASE`` is a class attribute
    every ``Route`` builds its URL from; discord.py has no setting for it."""
    discord.http.Route.BASE = base.rstrip("/")
