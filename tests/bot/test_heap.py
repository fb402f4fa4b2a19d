"""The collector's schedule (``bot.play.heap``): a freeze every two seconds, so a collection walks
only newer objects; a full collection of everything every hour, or sooner once the memory blocks
held have doubled, so a reference cycle that died after it was frozen is freed all the same."""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import weakref
from collections.abc import AsyncIterator

import pytest

from bot.play.clock import ManualClock
from bot.play.heap import FREEZE_EVERY, GROWTH, SWEEP_EVERY, TRIM_EVERY, Heap

#: The manual clock and the schedule it drives.
Running = tuple[ManualClock, Heap]


class Node:
    def __init__(self, weight: int = 0) -> None:
        self.other: Node | None = None
        self.load = [float(n) for n in range(weight)]     # a memory block each


async def _tick(clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    for _ in range(5):
        await asyncio.sleep(0)


@pytest.fixture
async def running() -> AsyncIterator[Running]:
    """The schedule on a manual clock, started with nothing frozen, and everything unfrozen after."""
    clock = ManualClock()
    heap = Heap(clock)
    gc.unfreeze()
    heap.start()
    await asyncio.sleep(0)                   # the schedule takes its first alarm
    try:
        yield clock, heap
    finally:
        await heap.stop()
        gc.unfreeze()


async def test_objects_are_frozen_each_minute_and_a_dead_frozen_cycle_is_freed_within_the_hour(running: Running) -> None:
    clock, heap = running
    a, b = Node(), Node()
    a.other, b.other = b, a              # a cycle: reference counting alone never frees it
    gone = weakref.ref(a)
    await _tick(clock, FREEZE_EVERY - 1)
    assert gc.get_freeze_count() == 0, "frozen before its minute"
    await _tick(clock, 1)
    assert gc.get_freeze_count() > 0
    del a, b
    gc.collect()
    assert gone() is not None, "a frozen cycle is out of the collector's sight until the sweep"
    await _tick(clock, SWEEP_EVERY - FREEZE_EVERY)
    assert heap.sweeps == 1 and gone() is None
    assert gc.get_freeze_count() > 0, "the sweep freezes what is left again"


async def test_a_full_collection_comes_early_once_the_memory_held_has_doubled(running: Running) -> None:
    """Each click's dead cycles pile up frozen (1.3 MB a second at a thousand tables): an hour's
    worth must not wait for the hour."""
    clock, heap = running
    await _tick(clock, FREEZE_EVERY)
    weight = 1000
    batch = int(sys.getallocatedblocks() * (GROWTH - 1) * 0.6) // weight

    def cycles() -> list[Node]:
        nodes = [Node(weight) for _ in range(batch)]
        for node in nodes:
            node.other = node            # each its own cycle
        return nodes

    dead = cycles()
    gone = weakref.ref(dead[0])
    await _tick(clock, FREEZE_EVERY)     # frozen while alive, then dead: the collector no longer sees them
    del dead
    gc.collect()
    assert heap.sweeps == 0 and gone() is not None
    alive = cycles()
    await _tick(clock, FREEZE_EVERY)     # with as much again: long before the hour
    assert heap.sweeps == 1 and gone() is None and alive


async def test_the_schedule_never_walks_the_frozen_objects(running: Running, monkeypatch) -> None:
    """Counting the frozen objects walks every one of them (0.1 s at a thousand tables): done at each
    freeze, it was a pause every two seconds that clicks queued behind."""
    walks = []
    count = gc.get_freeze_count
    monkeypatch.setattr(gc, "get_freeze_count", lambda: walks.append(1) or count())
    clock, heap = running
    kept = []
    for _ in range(30):                 # a minute of a busy bot: a few objects more each time
        kept.append([Node() for _ in range(100)])
        await _tick(clock, FREEZE_EVERY)
    assert count() > 0 and heap.sweeps == 0
    assert walks == [], "the frozen objects were counted"


def _resident() -> int:
    """The process's resident memory in bytes, as the system counts it."""
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim, read in /proc")
async def test_free_memory_inside_the_c_heap_goes_back_to_the_system(running: Running) -> None:
    """The C library keeps what Python frees: at a thousand tables 260 of the bot's 600 MB resident
    were free memory left from the start-up's redraw. Every ``TRIM_EVERY`` seconds it goes back."""
    clock, heap = running
    # 64 MB in blocks above pymalloc's 512 bytes and below the allocator's own mmap threshold,
    # every sixteenth kept: what is freed lies between blocks in use, so free() cannot shrink the heap.
    blocks = [b"\x01" * 65_536 for _ in range(1024)]
    kept = blocks[15::16]
    del blocks
    await _tick(clock, TRIM_EVERY - FREEZE_EVERY)
    assert heap.trims == 0, "trimmed before its time"
    before = _resident()
    await _tick(clock, FREEZE_EVERY)
    async with asyncio.timeout(30):             # a guard against a hang only: the trim runs in a thread
        while heap.trims == 0:
            await asyncio.sleep(0)
    assert before - _resident() >= 32 * 2**20, "the freed blocks are still resident"
    assert len(kept) == 64
