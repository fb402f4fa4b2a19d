"""The collector's schedule (``bot.play.heap``): a freeze every two seconds, so a collection walks
only newer objects; a full collection of everything every hour, or sooner once the frozen objects
have doubled, so a reference cycle that died after it was frozen is freed all the same."""

from __future__ import annotations

import asyncio
import gc
import weakref

from bot.play.clock import ManualClock
from bot.play.heap import FREEZE_EVERY, GROWTH, SWEEP_EVERY, Heap


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


async def _tick(clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    for _ in range(5):
        await asyncio.sleep(0)


async def test_objects_are_frozen_each_minute_and_a_dead_frozen_cycle_is_freed_within_the_hour() -> None:
    clock = ManualClock()
    heap = Heap(clock)
    gc.unfreeze()
    heap.start()
    await asyncio.sleep(0)                   # the schedule takes its first alarm
    try:
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
    finally:
        await heap.stop()
        gc.unfreeze()


async def test_a_full_collection_comes_early_once_the_frozen_objects_have_doubled() -> None:
    """Each click's dead cycles pile up frozen (1.3 MB a second at a thousand tables): an hour's
    worth must not wait for the hour."""
    clock = ManualClock()
    heap = Heap(clock)
    gc.unfreeze()
    heap.start()
    await asyncio.sleep(0)
    try:
        await _tick(clock, FREEZE_EVERY)
        kept = gc.get_freeze_count()
        dead = [Node() for _ in range(int(kept * GROWTH) + 1000)]
        for node in dead:
            node.other = node                # each its own cycle
        gone = weakref.ref(dead[0])
        await _tick(clock, FREEZE_EVERY)     # frozen with the rest: more than as many again
        del dead, node
        assert heap.sweeps == 0 and gone() is not None
        await _tick(clock, FREEZE_EVERY)     # the next round sees the growth: long before the hour
        assert heap.sweeps == 1 and gone() is None
    finally:
        await heap.stop()
        gc.unfreeze()
