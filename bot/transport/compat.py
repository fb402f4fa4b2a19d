"""Every private part of discord.py the bot relies on, in one place.

discord.py is pinned (``pyproject.toml``); tests/host/test_compat.py checks each name below against
it (signatures, attributes and behaviour), so a new discord.py that changes one fails there, not in
a game. Nothing else in ``bot/`` or ``cogs/`` reaches into discord.py's private names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import discord
import discord.http
from discord.enums import InteractionResponseType
from discord.shard import AutoShardedConnectionState
from discord.state import ConnectionState
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


def point_api_at(base: str) -> None:
    """Send discord.py's REST requests (the bot session's and the webhook adapter's) to ``base``
    instead of Discord: the tests' Discord double. Private: ``Route.BASE`` is a class attribute
    every ``Route`` builds its URL from; discord.py has no setting for it."""
    discord.http.Route.BASE = base.rstrip("/")


class LightInteraction(discord.Interaction):
    """discord.py's ``Interaction`` whose ``message`` is built by ``message_from`` straight from the
    payload, instead of discord.py's ``Message`` with an object per component. Private:
    ``Interaction._from_data``, which ``Interaction.__init__`` calls with the gateway payload."""

    __slots__ = ()

    #: Builds ``message`` from the payload's message dict (a subclass sets it).
    message_from: Callable[[Mapping[str, Any]], Any]

    def _from_data(self, data: Any) -> None:
        message = data.get("message")
        rest: Any = {key: value for key, value in data.items() if key != "message"}
        super()._from_data(rest)
        self.message = type(self).message_from(message) if message is not None else None  # type: ignore[assignment]


#: Which ``LightInteraction`` class to build a gateway interaction as, or None for discord.py's own.
LightFor = Callable[[Mapping[str, Any]], "type[LightInteraction] | None"]


class _LightParsing:
    """``parse_interaction_create`` of a connection state, building the interactions ``light_for``
    names lightly and dispatching them as discord.py dispatches any component interaction: to the
    view store (``_view_store.dispatch_view``), then as ``on_interaction``."""

    light_for: LightFor

    def parse_interaction_create(self, data: Any) -> None:
        light = self.light_for(data)
        if light is None:
            super().parse_interaction_create(data)      # type: ignore[misc]
            return
        interaction = light(data=data, state=self)      # type: ignore[arg-type]
        inner = data["data"]
        self._view_store.dispatch_view(inner["component_type"], inner["custom_id"], interaction)  # type: ignore[attr-defined]
        self.dispatch("interaction", interaction)       # type: ignore[attr-defined]


class _LightState(_LightParsing, ConnectionState):
    """The connection state of a one-connection client."""


class _ShardedLightState(_LightParsing, AutoShardedConnectionState):
    """The connection state of a sharded client."""


class LightClient:
    """Mixed into a ``discord.Client`` (before it): its connection state builds gateway interactions as
    ``light_for`` says. Private: ``Client._get_state``, the hook discord.py builds its connection state
    through, and the client's ``_handlers`` and ``_hooks`` it builds it from."""

    #: ``staticmethod`` of a ``LightFor`` (the client subclass sets it).
    light_for: LightFor
    #: The client's, which the state is built with.
    http: discord.http.HTTPClient

    def _get_state(self, **options: Any) -> Any:        # a ConnectionState, sharded or not
        kind = _ShardedLightState if isinstance(self, discord.AutoShardedClient) else _LightState
        state = kind(dispatch=self.dispatch, handlers=self._handlers, hooks=self._hooks,  # type: ignore[attr-defined]
                     http=self.http, **options)
        state.light_for = self.light_for
        return state
