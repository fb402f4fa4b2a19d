"""Answering one interaction exactly once: a notice, an update of the clicked message, or a new
message, in the language of the person who clicked, whether or not the answer was deferred."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import language, t
from bot.transport import media, webhooks
from bot.transport.clicked import clicked_message


class Reply:
    """Answers one interaction exactly once, whether or not it was deferred."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.lang = language(str(interaction.locale))
        #: The clicked message as Discord answered the newest ``update`` (None before one, or when
        #: the answer carried no message).
        self.updated: dict | None = None

    async def defer(self) -> None:
        if not self.interaction.response.is_done():
            await webhooks.defer(self.interaction)

    async def notice(self, key: str, **params: Any) -> None:
        """A short ephemeral explanation that changes nothing."""
        text = t(self.lang, key, **params)
        if self.interaction.response.is_done():
            await webhooks.send_followup(self.interaction, text, ephemeral=True)
        else:
            await webhooks.send_message(self.interaction, text, ephemeral=True)

    async def send_file(self, text: str, document: media.Document, *, ephemeral: bool = True) -> None:
        """A new message with ``text`` and one file: privately (the default), or, after a deferred
        click, in the channel."""
        files = [document.file()]
        if self.interaction.response.is_done():
            await webhooks.send_followup(self.interaction, text, files=files, ephemeral=ephemeral)
        else:
            await webhooks.send_message(self.interaction, text, files=files, ephemeral=ephemeral)

    async def update(self, rendered: media.Showing) -> None:
        """Redraw the clicked message in place; its pictures are uploaded only where they changed."""
        message = clicked_message(self.interaction)
        kwargs = media.edit_kwargs(rendered, media.shown_on(message) if message else None)
        if rendered.content is None and message is not None and not message.flags.components_v2:
            kwargs["content"] = None    # a legacy message (a hand from before hands were V2) sheds its text
        if self.interaction.response.is_done():
            self.updated = await webhooks.edit_original(self.interaction, **kwargs)
        else:
            answered = await webhooks.update_message(self.interaction, **kwargs)
            self.updated = ((answered or {}).get("resource") or {}).get("message")

    async def send_ephemeral(self, rendered: media.Showing) -> int | None:
        """A new ephemeral message; its id where Discord said it (a follow-up's always)."""
        kwargs = {**media.send_kwargs(rendered), "ephemeral": True}
        sent: dict | None
        if self.interaction.response.is_done():
            sent = await webhooks.send_followup(self.interaction, **kwargs)
        else:
            sent = ((await webhooks.send_message(self.interaction, **kwargs) or {}).get("resource") or {}).get("message")
        return int(sent["id"]) if sent else None


#: Lobby operations answered by redrawing the clicked message as the house-rules panel.
