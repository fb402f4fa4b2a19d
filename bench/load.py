"""The Discord double with what a load test needs and a scenario test does not.

The double's own ``click(..., expect_ack=True)`` re-checks every pending interaction after every
request, and every edit keeps a deep copy of the old message: right for tests, but at hundreds of
clicks a second the double would measure itself. Here, in this process only:

- the interaction callback route resolves one future per interaction and notes when the callback
  request *arrived* (the middleware's timestamp, before the double does any work on it);
- message edits keep no history and take the request's components as they are (no copy), an
  interaction carries a shallow copy of the clicked message, and every store or edit wakes whoever
  watches that channel;
- interaction records are dropped a while after their answer, so memory stays flat, except each
  user's newest and each message's newest click: the bot edits an open hand through its player's
  newest token and a table message through the newest click on it for up to 15 minutes, as Discord
  lets it, and a dropped record would answer those edits 404 (the bot then stops following the hand).
- from ``start`` to ``stop`` the process collects garbage less often (``GC_THRESHOLDS``).

Nothing here reads the bot's memory: players see what a client would see, the double's messages.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import deque
from typing import Any

from tests.double import DiscordDouble
from tests.double import payloads as P
from tests.double.wire import RECORD
from tests.double.world import Files, InteractionRecord, Message, apply_body

#: Longer than Discord's 3 s: past that the bot has failed the click anyway, and we say so.
ACK_TIMEOUT = 10.0
#: Interaction records are kept this long after they were created (the bot may still use a token).
KEEP_INTERACTIONS = 30.0
#: The harness's collector thresholds while a load double runs. Nearly all it allocates is freed by
#: reference counting at once (request bodies, answers), but each young collection also walks
#: what lives for seconds (interaction records, the request log, every table's message), and at
#: Python's default (700, 10, 10) collecting took about a tenth of the harness's CPU under load.
GC_THRESHOLDS = (50_000, 20, 10)


class BenchError(RuntimeError):
    """The run cannot go on (the bot did not answer, or answered wrongly)."""


class TooLate(BenchError):
    """The bot answered a click after Discord's three seconds (the double said 10062), or not within
    ``ACK_TIMEOUT``: the person saw "This interaction failed". A run that may overload the bot counts
    these; ``waited`` is the click's latency, or how long it was waited for."""

    def __init__(self, message: str, record: InteractionRecord, waited: float) -> None:
        super().__init__(message)
        self.record, self.waited = record, waited


#: Discord's answer to a click's callback once the token's three seconds are over.
UNKNOWN_INTERACTION = 10062


def route(path: str) -> str:
    """A request path with its ids and tokens starred: ``/channels/*/messages/*``."""
    return "/".join("*" if part.isdigit() or len(part) > 24 else part for part in path.split("/"))


class _Requests(deque):
    """The double's request log, bounded, counting requests per route and noting the first of each."""

    def __init__(self, maxlen: int) -> None:
        super().__init__(maxlen=maxlen)
        self.counts: dict[str, int] = {}
        self.firsts: dict[str, float] = {}
        self.last_at = 0.0

    def append(self, record) -> None:
        super().append(record)
        key = f"{record.method} {route(record.path)}"
        self.counts[key] = self.counts.get(key, 0) + 1
        self.firsts.setdefault(key, record.at)
        self.last_at = record.at

    def mark(self) -> None:
        """Forget the first arrivals, so the next ones can be timed."""
        self.firsts.clear()


class LoadDouble:
    """Owns a ``DiscordDouble`` (request validation off) and instruments it for load."""

    def __init__(self) -> None:
        self.double = DiscordDouble(validate=False)
        self.double.copy_clicked = False
        self.requests = self.double.requests = _Requests(4096)
        self.arrivals: dict[str, float] = {}        # interaction token -> callback request arrival
        self._acks: dict[str, asyncio.Future] = {}
        self._watch: dict[str, asyncio.Event] = {}  # channel id -> woken on a store or edit there
        self.posted: dict[str, deque[Message]] = {}  # channel id -> newest public messages
        self._kept: deque[tuple[float, str]] = deque()
        #: The newest token per user and per clicked message, and how many of those each token is.
        self._newest: dict[tuple[str, str], str] = {}
        self._holds: dict[str, int] = {}
        self._overdue: set[str] = set()     # past the horizon, kept while still the newest somewhere
        self._gc_thresholds = gc.get_threshold()
        self._instrument()

    # -- hooks -------------------------------------------------------------------------------
    def _instrument(self) -> None:
        d = self.double
        routes = d._interactions
        original_callback = routes.callback

        async def callback(request):
            try:
                return await original_callback(request)
            finally:
                token = request.match_info.get("token", "")
                record = request.get(RECORD)
                self.arrivals[token] = record.at if record is not None else d.clock()
                future = self._acks.pop(token, None)
                if future is not None and not future.done():
                    future.set_result(None)

        routes.callback = callback      # read by start() when it registers the route
        world = d.world
        original_store = world.store_message

        def store_message(channel, body, **kwargs) -> Message:
            message = original_store(channel, body, **kwargs)
            if message.ephemeral_to is None:
                self.posted.setdefault(channel.id, deque(maxlen=16)).append(message)
            self._touched(channel.id)
            return message

        def edit_message(message: Message, body: dict, flags: int, files: Files | None = None, *,
                         webhook: bool = False) -> None:
            apply_body(message, body, files, copy=False)
            message.payload["flags"] = flags
            message.payload["edited_timestamp"] = P.iso(d.clock())
            self._touched(message.channel.id)

        world.store_message = store_message
        world.edit_message = edit_message

    def _touched(self, channel_id: str) -> None:
        event = self._watch.pop(channel_id, None)
        if event is not None:
            event.set()

    # -- lifecycle ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Serve, and collect garbage less often until ``stop`` (see ``GC_THRESHOLDS``)."""
        self._gc_thresholds = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        await self.double.start("127.0.0.1", 0)

    async def stop(self) -> None:
        try:
            await self.double.stop()
        finally:
            gc.set_threshold(*self._gc_thresholds)

    # -- waiting -----------------------------------------------------------------------------
    async def until(self, channel, predicate, timeout: float = ACK_TIMEOUT, what: str = "") -> Any:
        """Re-check ``predicate`` whenever a message in ``channel`` is posted or edited."""
        try:
            async with asyncio.timeout(timeout):        # one timer for the whole wait, not one per wake
                while not (value := predicate()):
                    event = self._watch.get(channel.id)
                    if event is None:
                        event = self._watch[channel.id] = asyncio.Event()
                    await event.wait()
        except TimeoutError:
            raise BenchError(
                f"timed out after {timeout:g} s waiting for {what or predicate} in {channel}") from None
        return value

    # -- users -------------------------------------------------------------------------------
    async def slash(self, user, channel, name: str, **options) -> InteractionRecord:
        return await self._answered(await self.double.slash(user, channel, name, expect_ack=False, **options))

    async def click(self, user, message: Message, custom_id: str) -> InteractionRecord:
        return await self._answered(await self.double.click(user, message, custom_id, expect_ack=False))

    async def select(self, user, message: Message, custom_id: str, values: list[str]) -> InteractionRecord:
        record = await self.double.select(user, message, custom_id, values, expect_ack=False)
        return await self._answered(record)

    def latency(self, record: InteractionRecord) -> float:
        """Seconds from the INTERACTION_CREATE dispatch to the callback request's arrival."""
        return self.arrivals.pop(record.token) - record.created

    async def _answered(self, record: InteractionRecord) -> InteractionRecord:
        if record.callback is None and record.token not in self.arrivals:
            future = asyncio.get_running_loop().create_future()
            self._acks[record.token] = future
            try:
                await asyncio.wait_for(future, ACK_TIMEOUT)
            except TimeoutError:
                self._acks.pop(record.token, None)
                raise TooLate(f"the bot did not answer {record} within {ACK_TIMEOUT:g} s", record,
                              ACK_TIMEOUT) from None
        if record.callback is None:
            errors = "; ".join(f"{r.status} {r.error}" for r in record.rejected) or "no callback"
            message = f"the double refused the bot's answer to {record}: {errors}"
            if any(r.code == UNKNOWN_INTERACTION for r in record.rejected):
                raise TooLate(message, record, self.latency(record))
            raise BenchError(message)
        self._forget_old(record)
        return record

    def _forget_old(self, record: InteractionRecord) -> None:
        """Drop the records older than ``KEEP_INTERACTIONS``, unless one is still the newest of its
        user or of the message clicked (the bot may still use its token); such a record goes once a
        newer click replaces it there."""
        token = record.token
        self._kept.append((record.created, token))
        keys = [("user", record.user.id)] + ([("message", record.source.id)] if record.source is not None else [])
        for key in keys:
            older = self._newest.get(key)
            self._newest[key] = token
            self._holds[token] = self._holds.get(token, 0) + 1
            if older is not None:
                self._release(older)
        horizon = time.time() - KEEP_INTERACTIONS
        while self._kept and self._kept[0][0] < horizon:
            _, old = self._kept.popleft()
            if old in self._holds:
                self._overdue.add(old)
            else:
                self._drop(old)

    def _release(self, token: str) -> None:
        """One place fewer where ``token`` is the newest: dropped if that was the last and it is old."""
        left = self._holds[token] - 1
        if left:
            self._holds[token] = left
            return
        del self._holds[token]
        if token in self._overdue:
            self._overdue.discard(token)
            self._drop(token)

    def _drop(self, token: str) -> None:
        self.double.world.interactions.pop(token, None)
        self.arrivals.pop(token, None)
