"""Requests through an interaction's token, sent by discord.py's webhook adapter and answered as a dict.

Each function sends exactly the request of the discord.py call it names, through the same adapter
those calls use (``bot.transport.compat.webhook_adapter``: its per-token lock, rate-limit waits, retries and
exceptions), and keeps the interaction's response state as discord.py does
(``interaction.response.is_done()``). discord.py would then parse the answer into a ``Message`` with
every component: the table writer needs only its attachments, a click's answer nothing, and those
parses cost about as much as the rest of the request. Our views are never stored (``bot.ui.base``),
so nothing else of it is needed.

The requests go through one aiohttp session of the bot's (``Tokens``): it counts every answer for
the metrics, and it lets a 5xx on a token past its lifetime end the request at once (see ``Tokens``).

A token is good for 15 minutes after the interaction (interactions/receiving-and-responding in
Discord's documentation). The bot judges a token's age on its own clock from the moment it received
the interaction (``received``), never through discord.py's ``is_expired`` (the wall clock against
the id's time): tests move the bot's clock, and the bot's own margin covers the difference.
"""

from __future__ import annotations

import contextvars
import functools
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import aiohttp
import discord
from aiohttp.hdrs import CONTENT_LENGTH
from discord.enums import InteractionResponseType, InteractionType
from discord.http import HTTPClient, MultipartParameters, handle_message_parameters, json_or_text
from discord.utils import MISSING
from discord.webhook.async_ import interaction_message_response_params

from bot.transport import compat

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

#: Whether the token of the request being sent has run out (set around each webhook request).
_spent: contextvars.ContextVar[Callable[[], bool] | None] = contextvars.ContextVar("spieltisch_token_spent",
                                                                                   default=None)

Observer = Callable[[str, str, int, str | None], None]


class Tokens:
    """The bot's aiohttp session for requests on interaction tokens; ``close()`` it with the bot.

    Every answer is told to ``observe`` (method, URL path, status, reason: the request metrics).
    A multipart body (an upload) is sent as one piece of bytes (``_flat``): aiohttp writes a
    multipart body part by part, nine writes for a picture and its message.
    Discord sometimes answers a request on an expired token with a 5xx, and the adapter would try it
    five times over 25 s: no retry can help then, so a 5xx on a token the caller knows is spent is
    raised at once as ``discord.DiscordServerError`` (callers then use the channel's route).
    """

    def __init__(self, observe: Observer | None = None) -> None:
        self.observe = observe
        self._session: aiohttp.ClientSession | None = None

    @property
    def session(self) -> aiohttp.ClientSession:
        """The session, opened at the first request (aiohttp wants a running event loop for it)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(middlewares=(self._answered,))
        return self._session

    async def _answered(self, request: aiohttp.ClientRequest,
                        handler: Callable[[aiohttp.ClientRequest], Awaitable[aiohttp.ClientResponse]],
                        ) -> aiohttp.ClientResponse:
        await _flat(request)
        response = await handler(request)
        if self.observe is not None:
            self.observe(request.method, request.url.path, response.status, response.reason)
        spent = _spent.get()
        if response.status >= 500 and spent is not None and spent():
            data = await json_or_text(response)
            response.release()
            raise discord.DiscordServerError(response, data)
        return response

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()


#: The largest multipart body ``_flat`` joins into one piece (a picture and its message is 5-60 KB).
FLAT_UP_TO = compat.LEAN_UP_TO


async def _flat(request: aiohttp.ClientRequest) -> None:
    """Send ``request``'s multipart body as the bytes it would write: aiohttp writes each part's
    boundary, headers, content and line end apart, each a trip to the transport, while bytes go out
    with the request's headers in one (the same Content-Type, boundary and length). The length was
    set from the body's size (a multipart body's size walks every part's headers)."""
    body = request.body
    if type(body) is aiohttp.MultipartWriter and int(request.headers.get(CONTENT_LENGTH, FLAT_UP_TO + 1)) <= FLAT_UP_TO:
        await request.update_body(await body.as_bytes())


class _Clock(Protocol):
    def now(self) -> float: ...


class TokenClient(Protocol):
    """What these requests need of the bot's client (``bot.app.Spieltisch`` has it): its session for
    tokens, its clock, and discord.py's HTTP client for the proxy settings."""

    tokens: Tokens
    clock: _Clock
    http: HTTPClient


def _client(interaction: discord.Interaction) -> TokenClient:
    """The bot that received the interaction (discord.py types it as any client)."""
    return cast(TokenClient, interaction.client)


def _sending(interaction: discord.Interaction) -> dict[str, Any]:
    """What every adapter call takes: the bot's session for tokens, and discord.py's proxy settings."""
    client = _client(interaction)
    http = client.http
    return {"session": client.tokens.session, "proxy": http.proxy, "proxy_auth": http.proxy_auth}


def received(interaction: discord.Interaction, now: float) -> float:
    """When the bot received the interaction (its clock): the first ``now`` it was told, kept with
    the interaction; its token's age counts from there."""
    return interaction.extras.setdefault(_RECEIVED, now)


def _expired(interaction: discord.Interaction) -> bool:
    """The token is past Discord's 15 minutes by the bot's clock (False when the bot never noted
    when it received the interaction: a slash command, answered at once)."""
    at = interaction.extras.get(_RECEIVED)
    return at is not None and _client(interaction).clock.now() - at > TOKEN_LIFETIME


async def _callback(interaction: discord.Interaction, params: MultipartParameters) -> Any:
    """``interaction.response``'s callback, its answer unparsed."""
    return await compat.webhook_adapter().create_interaction_response(
        interaction.id, interaction.token, params=params, **_sending(interaction))


async def _on_webhook(interaction: discord.Interaction, request: Awaitable[Any]) -> Any:
    """A request on the interaction's webhook; a 5xx once its token is spent is raised at once."""
    reset = _spent.set(functools.partial(_expired, interaction))
    try:
        return await request
    finally:
        _spent.reset(reset)


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
    compat.responded(interaction, kind)


async def send_message(interaction: discord.Interaction, content: Any = None, *, view: Any = MISSING,
                       files: Any = MISSING, ephemeral: bool = False) -> dict | None:
    """``interaction.response.send_message(content, view=..., files=..., ephemeral=...)``, unparsed."""
    _responded(interaction)
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    params = compat.lean_files(interaction_message_response_params(
        type=InteractionResponseType.channel_message.value, content=content, files=files, view=view,
        flags=flags, previous_allowed_mentions=interaction.client.allowed_mentions))
    try:
        data = await _callback(interaction, params)
    finally:
        for file in params.files or ():
            file.close()
    compat.responded(interaction, InteractionResponseType.channel_message)
    return data


async def update_message(interaction: discord.Interaction, *, view: Any, content: Any = MISSING,
                         attachments: Any = MISSING) -> dict | None:
    """``interaction.response.edit_message(view=..., content=..., attachments=...)``, unparsed: the
    callback that redraws the clicked message (``None`` where discord.py sends nothing either)."""
    _responded(interaction)
    if interaction.type not in _COMPONENT_LIKE:
        return None
    params = compat.lean_files(interaction_message_response_params(
        type=InteractionResponseType.message_update.value, content=content, view=view, attachments=attachments,
        previous_allowed_mentions=interaction.client.allowed_mentions))
    data = await _callback(interaction, params)
    compat.responded(interaction, InteractionResponseType.message_update)
    return data


def _params(interaction: discord.Interaction, view: Any, content: Any, attachments: Any) -> MultipartParameters:
    return compat.lean_files(handle_message_parameters(content=content, attachments=attachments, view=view,
                                                       previous_allowed_mentions=interaction.client.allowed_mentions))


async def edit_original(interaction: discord.Interaction, *, view: Any, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.edit_original_response(view=..., content=..., attachments=...)``, unparsed."""
    with _params(interaction, view, content, attachments) as params:
        return await _on_webhook(interaction, compat.webhook_adapter().edit_original_interaction_response(
            interaction.application_id, interaction.token, payload=params.payload, multipart=params.multipart,
            files=params.files, **_sending(interaction)))


async def edit_followup(interaction: discord.Interaction, message_id: int, *, view: Any, content: Any = MISSING,
                        attachments: Any = MISSING) -> dict:
    """``interaction.followup.edit_message(message_id, view=..., ...)``, unparsed."""
    with _params(interaction, view, content, attachments) as params:
        return await _on_webhook(interaction, compat.webhook_adapter().edit_webhook_message(
            interaction.application_id, interaction.token, message_id, payload=params.payload,
            multipart=params.multipart, files=params.files, with_components=bool(view), **_sending(interaction)))


async def send_followup(interaction: discord.Interaction, content: Any = MISSING, *, view: Any = MISSING,
                        files: Any = MISSING, ephemeral: bool = False,
                        allowed_mentions: discord.AllowedMentions = MISSING) -> dict:
    """``interaction.followup.send(content, ...)`` (an application's webhook always waits), unparsed:
    the new message's ``id`` is in it."""
    flags = discord.MessageFlags(ephemeral=True) if ephemeral else MISSING
    with compat.lean_files(handle_message_parameters(
            content=MISSING if content is None else content, files=files, flags=flags, view=view,
            allowed_mentions=allowed_mentions, previous_allowed_mentions=interaction.client.allowed_mentions)) as params:
        return await _on_webhook(interaction, compat.webhook_adapter().execute_webhook(
            interaction.application_id, interaction.token, payload=params.payload, multipart=params.multipart,
            files=params.files, wait=True, with_components=view is not MISSING, **_sending(interaction)))


async def delete_followup(interaction: discord.Interaction, message_id: int) -> None:
    """``interaction.followup.delete_message(message_id)``."""
    await _on_webhook(interaction, compat.webhook_adapter().delete_webhook_message(
        interaction.application_id, interaction.token, message_id, **_sending(interaction)))
