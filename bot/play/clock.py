"""One injectable clock, and the stored timers that fire through it.

Everything in the host that needs the time asks a ``Clock``: ``SystemClock`` in production,
``ManualClock`` in tests, where time moves only when the test calls ``advance`` (no test sleeps).
``Timers`` keeps its schedule in the database, so a timer survives a restart; a timer that came
due while the bot was down fires once at start.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from bot.storage.shards import Shards
from bot.storage.store import Storage, StorageFault, TimerRow

log = logging.getLogger(__name__)

TimerHandler = Callable[[int, dict[str, Any]], Awaitable[None]]


class Alarm(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        """Run ``callback`` (in the event loop) once ``now() >= when``."""
        ...


async def sleep_until(clock: Clock, when: float) -> None:
    """Wait until ``clock`` reaches ``when``."""
    future = asyncio.get_running_loop().create_future()

    def ring() -> None:
        if not future.done():
            future.set_result(None)

    alarm = clock.call_at(when, ring)
    try:
        await future
    finally:
        alarm.cancel()


class SystemClock:
    """Wall-clock time; alarms ride on the event loop's own timer (no polling)."""

    #: Re-check long waits now and then, so a jump of the wall clock is noticed.
    max_wait = 300.0

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        return _SystemAlarm(asyncio.get_running_loop(), when, callback, self.max_wait)


class _SystemAlarm:
    """An alarm on the event loop's timer, set again every ``max_wait`` seconds until it is due.

    One class for every alarm, holding no reference cycle once it rang or was cancelled: the writer
    sets one at every hand it shows, and a class defined per call (with a closure that referred to
    its own timer) left a cycle of about 1 KB each, which the collector's freeze (``bot/play/heap.py``)
    kept until a full collection."""

    __slots__ = ("callback", "handle", "loop", "max_wait", "when")

    def __init__(self, loop: asyncio.AbstractEventLoop, when: float, callback: Callable[[], None],
                 max_wait: float) -> None:
        self.loop, self.when, self.callback, self.max_wait = loop, when, callback, max_wait
        self.handle: asyncio.TimerHandle | None = loop.call_later(max(0.0, min(when - time.time(), max_wait)),
                                                                  self._check)

    def _check(self) -> None:
        delay = self.when - time.time()
        if delay > 0:
            self.handle = self.loop.call_later(min(delay, self.max_wait), self._check)
            return
        self.handle = None          # the timer no longer refers back to this alarm
        self.callback()

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()    # drops its callback, this alarm's bound method
            self.handle = None


class _ManualAlarm:
    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True

    def ring(self) -> None:
        if not self.cancelled:
            self.callback()


class ManualClock:
    """Test time: stands still until ``advance``, which rings due alarms in time order."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = float(start)
        self._alarms: list[tuple[float, int, _ManualAlarm]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, callback: Callable[[], None]) -> Alarm:
        """As the system clock: an alarm already due rings on the loop's next turn, not at the next
        ``advance`` (a timer runner that read its next due time while the test advanced past it
        would otherwise wait for a second advance that never comes)."""
        alarm = _ManualAlarm(callback)
        if when <= self._now:
            try:
                asyncio.get_running_loop().call_soon(alarm.ring)
                return alarm
            except RuntimeError:  # no loop running: ring at the next advance
                pass
        heapq.heappush(self._alarms, (when, next(self._order), alarm))
        return alarm

    def advance(self, seconds: float) -> None:
        """Move time forward, ringing every alarm due on the way at its own moment, in order.

        Callbacks only schedule work on the loop; await ``Timers.idle()`` (or the awaited thing)
        to let it run.
        """
        if seconds < 0:
            raise ValueError("time only moves forward")
        target = self._now + seconds
        while self._alarms and self._alarms[0][0] <= target:
            when, _, alarm = heapq.heappop(self._alarms)
            if alarm.cancelled:
                continue
            self._now = max(self._now, when)
            alarm.callback()
        self._now = target

    @property
    def next_due(self) -> float | None:
        """When the earliest alarm still set is due (tests step through time alarm by alarm)."""
        while self._alarms and self._alarms[0][2].cancelled:
            heapq.heappop(self._alarms)
        return self._alarms[0][0] if self._alarms else None

    @property
    def pending(self) -> int:
        return sum(1 for _, _, alarm in self._alarms if not alarm.cancelled)


class Background:
    """A service's one background task (``_run``): started once, stopped by cancelling it."""

    #: The task's name (in asyncio's task listings and the tests' waits).
    task_name = "background"
    _task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.task_name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


class Timers(Background):
    """Stored one-shot timers keyed by ``(session_id, kind)``, each fired once by its kind's handler.

    The database is the schedule: the runner asks it for due timers, fires them in due order, and
    deletes each row after its handler returned (a crash in between fires it again after the
    restart, so handlers are idempotent: expiring a lobby that already started changes nothing).
    A handler that raises ``StorageFault`` (the database took no write) keeps its row and is fired
    again ``retry_after`` seconds later; the storage logs the fault, so retries stay quiet.
    Register every handler before ``start``.
    """

    retry_after = 5.0

    task_name = "timers"

    def __init__(self, storage: Storage, clock: Clock, *, shards: Shards | None = None) -> None:
        self._storage = storage
        self._clock = clock
        #: Fire only the timers of sessions in these shards' guilds (other processes fire the rest).
        self._shards = shards
        self._handlers: dict[str, TimerHandler] = {}
        self._alarm: asyncio.Future[None] | None = None
        self._armed_for: float | None = None
        self._parked = False
        self.fired = 0

    def register(self, kind: str, handler: TimerHandler) -> None:
        self._handlers[kind] = handler

    async def schedule(self, session_id: int, kind: str, due: float, payload: dict[str, Any] | None = None) -> None:
        """Set (or move) the timer ``kind`` of a session; wakes the runner if it is nearer."""
        await self._storage.set_timer(session_id, kind, due, payload or {})
        self.wake(due)

    def wake(self, due: float) -> None:
        """A timer due at ``due`` was stored by someone else: fire it in time."""
        if self._armed_for is None or due < self._armed_for:
            self._ring()

    async def cancel(self, session_id: int, kind: str) -> None:
        await self._storage.delete_timer(session_id, kind)

    async def stored(self) -> list[TimerRow]:
        """Every stored timer (what a restart finds still to come)."""
        return await self._storage.timers()


    async def idle(self) -> None:
        """Wait until the runner has fired everything due and waits for the clock again (tests)."""
        while not (self._parked and self._alarm is not None and not self._alarm.done()):
            if self._task is None or self._task.done():
                if self._task is not None and not self._task.cancelled() and self._task.exception():
                    raise RuntimeError("the timer runner died") from self._task.exception()
                return
            await asyncio.sleep(0)

    def _ring(self) -> None:
        if self._alarm is not None and not self._alarm.done():
            self._alarm.set_result(None)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self._alarm = loop.create_future()
            try:
                if await self._fire_due():
                    continue
                due = await self._storage.next_timer_due(shards=self._shards)
            except StorageFault:
                due = self._clock.now() + self.retry_after       # logged once by the storage
            except Exception:
                # The database hiccupped: try again a little later rather than stop firing for good.
                log.exception("the timer runner failed; retrying in %s s", self.retry_after)
                due = self._clock.now() + self.retry_after
            self._armed_for = due
            alarm = self._clock.call_at(due, self._ring) if due is not None else None
            self._parked = True
            try:
                await self._alarm
            finally:
                self._parked = False
                self._armed_for = None
                if alarm is not None:
                    alarm.cancel()

    async def _fire_due(self) -> int:
        rows = await self._storage.due_timers(self._clock.now(), shards=self._shards)
        for row in rows:
            handler = self._handlers.get(row.kind)
            if handler is None:
                log.warning("dropping timer %s of session %s: no handler for it", row.kind, row.session_id)
            else:
                try:
                    await handler(row.session_id, row.payload)
                except StorageFault:
                    raise       # nothing was saved: keep the row, fire it again later
                except Exception:
                    log.exception("timer %s of session %s failed", row.kind, row.session_id)
            self.fired += 1
            await self._storage.delete_timer_id(row.id)
        return len(rows)
