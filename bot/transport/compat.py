"""Every private part of discord.py the bot relies on, in one place.

discord.py is pinned (``pyproject.toml``); tests/host/test_compat.py checks each name below against
it (signatures, attributes and behaviour), so a new discord.py that changes one fails there, not in
a game. Nothing else in ``bot/`` or ``cogs/`` reaches into discord.py's private names.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable, Mapping
from typing import Any

import aiohttp.payload
import discord
import discord.http
import discord.interactions
from discord.enums import InteractionResponseType
from discord.http import MultipartParameters
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


class Unset:
    """A discord.py view (mixed in before ``discord.ui.View`` or ``LayoutView``) whose own state is set
    up when discord.py first reads it. ``BaseView.__init__`` draws a random id from the system
    (``os.urandom``: a system call that lets other threads take the GIL), makes a future and walks
    its items, for each rendering: the bot renders every open hand after each move and sends only
    those that changed, through calls that read nothing of the view but what the bot's views
    override (``to_components``, ``has_components_v2``, ``is_dispatchable``). An attribute of
    discord.py's own that is missing runs the view's ``__init__`` then (``timeout=None``). Private:
    that discord.py keeps a view's state in instance attributes its ``__init__`` sets."""

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or vars(self).get("_unset_done"):
            raise AttributeError(name)
        self._unset_done = True
        super().__init__(timeout=None)  # type: ignore[call-arg]
        return getattr(self, name)


def lean_files(params: MultipartParameters) -> MultipartParameters:
    """``params`` with each uploaded file's part holding its bytes as one aiohttp ``BytesPayload``
    instead of the file object. discord.py hands each part to ``aiohttp.FormData.add_field`` at every
    try; a file object there is looked up through aiohttp's whole registry of payload types (ours is
    a ``BytesIO`` subclass, which its fast lookup misses) and read in chunks, while a payload is taken
    as it is and written at once. The same bytes go out, and a retry sends them again from the start,
    as discord.py's ``File.reset`` would. Private: the parts of ``MultipartParameters.multipart``, one
    dict of ``add_field``'s arguments each, a file's ``value`` its ``fp``. A file over ``LEAN_UP_TO``
    (a GIF) stays a file: aiohttp warns of a large body held in memory."""
    if not params.multipart:
        return params
    parts = [{**part, "value": aiohttp.payload.BytesPayload(data, content_type=part.get("content_type"))}
             if isinstance(part["value"], io.BytesIO) and len(data := part["value"].getvalue()) <= LEAN_UP_TO
             else part for part in params.multipart]
    return params._replace(multipart=parts)


#: The largest file ``lean_files`` passes as bytes (aiohttp's own bound for a body held in memory).
LEAN_UP_TO = 1024 * 1024


#: How many rate-limit buckets discord.py's HTTP client holds before it looks for unused ones to drop.
SWEEP_FROM = 256


class _Sweep:
    """discord.py's HTTP client keeps a rate-limit bucket per route and channel, and once it holds
    ``SWEEP_FROM`` it walks every one for those unused for five minutes each time it adds one. A
    thousand tables' channels hold about 3,000, and each channel's first request of a kind (a ping
    deleted through the channel, say) walked them all: 0.4 ms a walk on a quiet machine, 1.5 ms on a
    loaded one, up to 20 walks a second in the capacity row's window (1-3 % of a core), growing with
    the square of the tables. This walks them once the buckets have doubled since the last walk, so
    each bucket added costs a walk of about two; the same buckets go, and at most twice as many are
    held as are in use."""

    __slots__ = ("buckets", "next")

    def __init__(self, buckets: dict[str, discord.http.Ratelimit]) -> None:
        self.buckets = buckets
        self.next = SWEEP_FROM

    def __call__(self) -> None:
        if len(self.buckets) < self.next:
            return
        for key in [key for key, bucket in self.buckets.items() if bucket.is_inactive()]:
            del self.buckets[key]
        self.next = max(SWEEP_FROM, 2 * len(self.buckets))


def sweep_seldom(http: discord.http.HTTPClient) -> None:
    """Let ``http`` drop its unused rate-limit buckets only once they have doubled (``_Sweep``). Private:
    ``HTTPClient._buckets`` and ``_try_clear_expired_ratelimits``, which ``get_ratelimit`` calls after
    adding a bucket."""
    http._try_clear_expired_ratelimits = _Sweep(http._buckets)  # type: ignore[method-assign]


class _Clicked:
    """``discord.interactions.Message`` once a client reads its clicked messages itself: each client's
    own reader by its connection state, discord.py's ``Message`` for every other client in the process
    (the test double's sample bot keeps discord.py's parse, which its ``DynamicItem`` needs)."""

    def __init__(self) -> None:
        self.readers: weakref.WeakKeyDictionary[Any, Callable[[Mapping[str, Any]], Any]] = weakref.WeakKeyDictionary()

    def __call__(self, *, state: Any, channel: Any, data: Mapping[str, Any]) -> Any:
        read = self.readers.get(state)
        if read is None:
            return discord.Message(state=state, channel=channel, data=data)  # type: ignore[arg-type]
        return read(data)


_CLICKED = _Clicked()


def read_clicked(client: discord.Client, read: Callable[[Mapping[str, Any]], Any]) -> None:
    """Have discord.py build the message an interaction of ``client`` came from by ``read(payload)``
    (``bot.transport.clicked.ClickedMessage``) instead of as a ``Message``, whose object per component
    the bot never reads. Private: ``Client._connection`` (the state every interaction is built with)
    and ``discord.interactions.Message``, the name ``Interaction._from_data`` builds that message by;
    nothing else in that module builds one."""
    _CLICKED.readers[client._connection] = read
    discord.interactions.Message = _CLICKED  # type: ignore[misc,assignment]


def point_api_at(base: str) -> None:
    """Send discord.py's REST requests (the bot session's and the webhook adapter's) to ``base``
    instead of Discord: the tests' Discord double. Private: ``Route.BASE`` is a class attribute
    every ``Route`` builds its URL from; discord.py has no setting for it."""
    discord.http.Route.BASE = base.rstrip("/")
