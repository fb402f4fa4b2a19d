"""Requests through an interaction's token, sent by ``bot.wire`` and answered as a dict.

Each function sends exactly the request of the discord.py call it names (route, query, body, files:
tests/host/test_webhooks.py compares them) and keeps the interaction's response state as discord.py
does (``interaction.response.is_done()``). discord.py would then parse the answer into a ``Message``
with every component: the table writer needs only its attachments, a click's answer nothing, and
those parses were a tenth of the bot's time on a move. Our views are never stored (``bot.ui.base``),
so nothing else of it is needed.

A token is good for 15 minutes after the interaction (interactions/receiving-and-responding in
Discord's documentation). The bot judges a token's age on its own clock from the moment it received
the interaction (``received``), never through discord.py's ``is_expired`` (the wall clock against
the id's time): tests move the bot's clock, and the bot's own margin covers the difference.
"""

from __future__ import annotations

import functools
from typing import Any

import discord
from discord.enums import InteractionResponseType, InteractionType
from discord.http import MultipartParameters, handle_message_parameters
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bot.wire import Wire, quoted

#: Seconds Discord accepts an interaction's token for follow-ups and edits.
TOKEN_LIFETIME = 15 * 60.0
#: The last minute of a token the bot does not start ordinary requests in: a request needs time to
#: land (a rate-limit wait, five tries of a 5xx take 25 s), the interaction reached the bot a moment
#: after Discord made it, and clocks differ by a little. An open hand gets its last edit in it.
TOKEN_MARGIN = 60.0
#: How long after receiving an interaction the bot sends ordinary requests through its token.
TOKEN_USABLE = TOKEN_LIFETIME - TOKEN_MARGIN
#: The key of ``Interaction.extras`` that holds when the bot received the interaction.
_RECEIVED = "spieltisch.received"

#: Interactions whose callback can update the clicked message or defer that update.
_COMPONENT_LIKE = (InteractionType.component, InteractionType.modal_submit)


def _wire(interaction: discord.Interaction) -> Wire:
    return interaction.client.wire


def received(interaction: discord.Interaction, now: float) -> float:
    """When the bot received the interaction (its clock): the first ``now`` it was told, kept with
    the interaction; its token's age counts from there."""
    return interaction.extras.setdefault(_RECEIVED, now)


def _expired(interaction: discord.Interaction) -> bool:
    """The token is past Discord's 15 minutes by the bot's clock (False when the bot never noted
    when it received the interaction: a slash command, answered at once)."""
    at = interaction.extras.get(_RECEIVED)
    return at is not None and interaction.client.clock.now() - at > TOKEN_LIFETIME


async def _callback(interaction: discord.Interaction, params: MultipartParameters) -> Any:
    """``AsyncWebhookAdapter.create_interaction_response``."""
    path = f"/interactions/{interaction.id}/{quoted(interaction.token)}/callback"
    bucket = (interaction.id, interaction.token)
    if params.files:
        return await _wire(interaction).call("POST", path, bucket, query="with_response=1",
                                             multipart=params.multipart, files=params.files)
    return await _wire(interaction).call("POST", path, bucket, query="with_response=1", payload=params.payload)


async def _webhook(interaction: discord.Interaction, method: str, tail: str, params: MultipartParameters | None,
                   query: str = "") -> Any:
    """A request on the interaction's webhook (``/webhooks/<application>/<token><tail>``)."""
    path = f"/webhooks/{interaction.application_id}/{quoted(interaction.token)}{tail}"
    bucket = (interaction.application_id, interaction.token)
    expired = functools.partial(_expired, interaction)
    if params is None:
        return await _wire(interaction).call(method, path, bucket, query=query, expired=expired)
    return await _wire(interaction).call(method, path, bucket, query=query, payload=params.payload,
                                         multipart=params.multipart, files=params.files, expired=expired)


def _responded(interaction: discord.Interaction) -> None:
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)


async def defer(interaction: discord.Interaction) -> None:
    """``interaction.response.defer()``: type 6 (the clicked message is updated later) for a click,
    type 5 for a slash command, nothing for other interactions."""
    _responded(interaction)
    if interaction.type in _COMPONENT_LIKE:
        kind = InteractionResponseType.deferred_message_update
    elif interaction.type is InteractionType.application_command:
        kind = InteractionResponseType.deferred_channel_message
    else:
        return
    await _callback(interaction, MultipartParameters(payload={"type": kind.value}, multipart=None, files=None))
    interaction.response._response_type = kind


async def send_message(interaction: discord.Interaction, content: Any = None, *, view: Any = MISSING,
                       files: Any = MISSING, ephemeral: bool = False) -> dict | None:
    """``interaction.response.send_message(content, view=..., files=..., ephemeral=...)``, unparsed."""
    _responded(interaction)
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    params = interaction_message_response_params(
        type=InteractionResponseType.channel_message.value, content=content, files=files, view=view,
        flags=flags, previous_allowed_mentions=interaction._state.allowed_mentions)
    try:
        data = await _callback(interaction, params)
    finally:
        for file in params.files or ():
            file.close()
    interaction.response._response_type = InteractionResponseType.channel_message
    return data


async def update_message(interaction: discord.Interaction, *, view, content: Any = MISSING,
                         attachments: Any = MISSING) -> dict | None:
    """``interaction.response.edit_message(view=..., content=..., attachments=...)``, unparsed: the
    callback that redraws the clicked message (``None`` where discord.py sends nothing either)."""
    _responded(interaction)
    if interaction.type not in _COMPONENT_LIKE:
        return None
    state = interaction._state
    if view is not MISSING and interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)
    params = interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content=content, view=view, attachments=attachments,
        previous_allowed_mentions=state.allowed_mentions)
    data = await _callback(interaction, params)
    interaction.response._response_type = InteractionResponseType.message_update
    return data


def _params(interaction: discord.Interaction, view, content: Any, attachments: Any):
    return handle_message_parameters(content=content, attachments=attachments, view=view,
                                     previous_allowed_mentions=interaction._state.allowed_mentions)


async def edit_original(interaction: discord.Interaction, *, view, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.edit_original_response(view=..., content=..., attachments=...)``, unparsed."""
    with _params(interaction, view, content, attachments) as params:
        return await _webhook(interaction, "PATCH", "/messages/@original", params)


async def edit_followup(interaction: discord.Interaction, message_id: int, *, view, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.followup.edit_message(message_id, view=..., ...)``, unparsed."""
    with _params(interaction, view, content, attachments) as params:
        return await _webhook(interaction, "PATCH", f"/messages/{message_id}", params,
                              query=f"with_components={int(bool(view))}")


async def send_followup(interaction: discord.Interaction, content: Any = MISSING, *, view: Any = MISSING,
                        files: Any = MISSING, ephemeral: bool = False,
                        allowed_mentions: discord.AllowedMentions = MISSING) -> dict:
    """``interaction.followup.send(content, ...)`` (an application's webhook always waits), unparsed:
    the new message's ``id`` is in it."""
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    with handle_message_parameters(content=MISSING if content is None else content, files=files, flags=flags,
                                   view=view, allowed_mentions=allowed_mentions,
                                   previous_allowed_mentions=interaction._state.allowed_mentions) as params:
        return await _webhook(interaction, "POST", "", params,
                              query=f"wait=1&with_components={int(view is not MISSING)}")


async def delete_followup(interaction: discord.Interaction, message_id: int) -> None:
    """``interaction.followup.delete_message(message_id)``."""
    await _webhook(interaction, "DELETE", f"/messages/{message_id}", None)
