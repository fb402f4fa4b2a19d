"""When the cyclic garbage collector may look at what: short pauses in a process holding a million objects.

A full pass of CPython's collector walks every container object of the process. At a thousand live
tables (their states, histories, renderings and caches) that is a pause of 0.1 s growing to 0.5 s,
every few seconds, and those pauses alone set the click latency's 99th percentile (about 0.35 s in
the capacity benchmark; docs/performance.md). ``gc.freeze`` moves every object alive at that moment
out of the collector's sight, so the passes that follow walk only what is newer: ``Heap`` freezes
every two seconds, and the start-up's rebuild freezes what it made (``SessionManager.restore``).

Frozen objects are still freed by reference counting the moment nothing refers to them; only a
reference cycle among them that later becomes garbage waits. Every click left one (discord.py's
interaction and its response refer to each other) while the table writer kept the interaction for
its token for minutes, so nearly every one was frozen before it died: 1.3 MB a second at a thousand
tables. The click path now breaks that cycle (``compat.settled``). For whatever cycles remain,
``Heap`` unfreezes everything and runs one full collection once the memory blocks the process
holds (``sys.getallocatedblocks``, under a millisecond) have doubled since the last one, and at least
once an hour, so memory stays within about twice what is alive. It used to count the frozen objects
(``gc.get_freeze_count``), which walks every one of them: about 0.1 s at a thousand tables, a pause at
every freeze, every two seconds, that set the click latency's 99th percentile.

What Python frees goes back to the C library's allocator, which keeps it: at a thousand tables about
260 of the bot's 600 MB resident were free memory inside the C heap, left from the start-up's redraw
of every table and hand (many short-lived pictures and requests) and never handed back, since the
allocator returns only the free space at the heap's top by itself. ``Heap`` also asks glibc to hand
back every free page (``malloc_trim``) every ``TRIM_EVERY`` seconds, in a thread: it takes 30-40 ms
the first time and holds the C heap's lock meanwhile, so only an allocation of the event loop's that
needs the C heap (larger than 512 bytes) can wait for it, not every step. Where the C library has no
``malloc_trim`` (not glibc) nothing is trimmed.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import sys
import time
from collections.abc import Callable

from bot.play.clock import Background, Clock, sleep_until

log = logging.getLogger("spieltisch.heap")

#: Seconds between two freezes: the newest objects a collection still walks (a freeze itself costs
#: next to nothing: it moves the collector's lists, not the objects).
FREEZE_EVERY = 2.0
#: Seconds between two full collections of everything, frozen or not, at the most.
SWEEP_EVERY = 3600.0
#: A full collection also runs once the process holds this many times the memory blocks it held right
#: after the last.
GROWTH = 2.0
#: Seconds between two returns of the C heap's free pages to the system.
TRIM_EVERY = 30.0


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none (musl, macOS, Windows)."""
    with contextlib.suppress(OSError, TypeError):
        return getattr(ctypes.CDLL(None), "malloc_trim", None)      # the process's own C library
    return None


_TRIM = _malloc_trim()


def trim() -> bool:
    """Hand every whole free page of the C heap back to the system; False where that cannot be done."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


class Heap(Background):
    """The collector's schedule on the bot's clock, from ``start`` until ``stop``."""

    task_name = "heap"

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        #: Full collections run so far (tests wait for one).
        self.sweeps = 0
        #: Returns of the C heap's free pages so far (tests wait for one).
        self.trims = 0

    async def _run(self) -> None:
        swept, kept = self.clock.now(), 0
        trimmed = swept
        while True:
            await sleep_until(self.clock, self.clock.now() + FREEZE_EVERY)
            if self.clock.now() - swept >= SWEEP_EVERY or (kept and sys.getallocatedblocks() > GROWTH * kept):
                began = time.perf_counter()
                gc.unfreeze()
                freed = gc.collect()
                swept = self.clock.now()
                self.sweeps += 1
                log.info("full collection: %d objects freed in %.0f ms", freed, (time.perf_counter() - began) * 1000)
                kept = 0
            gc.freeze()
            kept = kept or sys.getallocatedblocks()     # what is held right after a full collection
            if self.clock.now() - trimmed >= TRIM_EVERY:
                trimmed = self.clock.now()
                if await asyncio.to_thread(trim):
                    self.trims += 1
