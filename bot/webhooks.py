"""Edits through an interaction's token that keep Discord's answer as it came (a dict).

``Interaction.edit_original_response``, ``Webhook.edit_message`` and
``InteractionResponse.edit_message`` send exactly these requests, then parse the answer into a
``Message`` with every component: the table writer needs only its attachments, a click's answer
nothing, and those parses were a tenth of the bot's time on a move. Same route, same body, same
query; our views are never stored (``bot.ui.base``), so nothing else of it is needed.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.enums import InteractionResponseType, InteractionType
from discord.http import handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import async_context, interaction_message_response_params


def _params(interaction: discord.Interaction, view, content: Any, attachments: Any):
    return handle_message_parameters(content=content, attachments=attachments, view=view,
                                     previous_allowed_mentions=interaction._state.allowed_mentions)


async def update_message(interaction: discord.Interaction, *, view, content: Any = MISSING,
                         attachments: Any = MISSING) -> dict | None:
    """``interaction.response.edit_message(view=..., content=..., attachments=...)``, unparsed: the
    callback that redraws the clicked message (``None`` where discord.py sends nothing either)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    if interaction.type not in (InteractionType.component, InteractionType.modal_submit):
        return None
    state = interaction._state
    if view is not MISSING and interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content=content, view=view, attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions)
    http = state.http
    data = await async_context.get().create_interaction_response(
        interaction.id, interaction.token, session=interaction._session, proxy=http.proxy,
        proxy_auth=http.proxy_auth, params=params)
    response._response_type = InteractionResponseType.message_update
    return data


async def edit_original(interaction: discord.Interaction, *, view, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.edit_original_response(view=..., content=..., attachments=...)``, unparsed."""
    http = interaction._state.http
    with _params(interaction, view, content, attachments) as params:
        return await async_context.get().edit_original_interaction_response(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files)


async def edit_followup(interaction: discord.Interaction, message_id: int, *, view, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.followup.edit_message(message_id, view=..., ...)``, unparsed."""
    http = interaction._state.http
    with _params(interaction, view, content, attachments) as params:
        return await async_context.get().edit_webhook_message(
            interaction.application_id, interaction.token, message_id, session=interaction._session,
            proxy=http.proxy, proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart,
            files=params.files, with_components=bool(view))


async def send_followup(interaction: discord.Interaction, *, content: Any = MISSING, view: Any = MISSING,
                        files: Any = MISSING, ephemeral: bool = False,
                        allowed_mentions: discord.AllowedMentions = MISSING) -> dict:
    """``interaction.followup.send(..., wait=True)``, unparsed: the new message's ``id`` is in it."""
    http = interaction._state.http
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    with handle_message_parameters(content=content, files=files, flags=flags, view=view,
                                   allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=interaction._state.allowed_mentions) as params:
        return await async_context.get().execute_webhook(
            interaction.application_id, interaction.token, session=interaction._session, proxy=http.proxy,
            proxy_auth=http.proxy_auth, payload=params.payload, multipart=params.multipart, files=params.files,
            wait=True, with_components=view is not MISSING)
