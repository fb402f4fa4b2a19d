"""Strong and expert computer moves in worker processes, so no table's thinking slows another
table's clicks.

A strong move searches for up to a second of CPU, an expert one for up to three
(``games.computer.LIMITS``); in a thread it would hold the GIL that every click needs. Here it runs in a ``ProcessPoolExecutor`` of ``computer_processes`` workers, started
with 'spawn' (forking a process that already runs asyncio and threads is unsafe) and warmed at
start-up, so the first move does not pay for importing the games.

A worker gets only small, picklable things: the game key, a copy of the state, the seat, the level
and the rng's seed (a string), and answers with the action key, so a move is the same in a worker
as in-process (unless it reached its CPU limit: then it is the best the search found by then). A worker that dies breaks the whole pool (``BrokenProcessPool``): the pool is
replaced and the move tried again; after ``TRIES`` broken pools the easy player moves in-process
instead, so a table never freezes.

The workers import this module to find ``think`` (and, as 'spawn' does, the bot's main module).
``run`` hands them other pure work the same way (the coach's reviews).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from games import get
from games.base import Game
from games.computer import LIMITS, choose

log = logging.getLogger("spieltisch.computers")

T = TypeVar("T")

#: Pools a move may break before the easy player makes it in-process.
TRIES = 3
#: How much lower than the bot's the workers' CPU priority is.
NICENESS = 10
#: Seconds a new worker waits at most for the others of its pool to start.
WARM_TIMEOUT = 60.0


def decide(game: Game, state: Any, seat: int, level: str, seed: str) -> str:
    """The computer's move for ``seat`` at ``level``, within the level's CPU limit: a pure function
    of its arguments for every move that ends before its limit."""
    return choose(game, state, seat, level, random.Random(seed), limit=LIMITS.get(level)).key


def think(key: str, state: Any, seat: int, level: str, seed: str) -> str:
    """``decide`` for the registered game ``key`` (what a worker is sent)."""
    return decide(get(key), state, seat, level, seed)


def _warm(niceness: int, started: multiprocessing.synchronize.Barrier) -> None:
    """Each worker (which imported the games and their brains with this module) yields the CPU to the
    bot's process (a click waiting for a core matters more than a move a moment later), and ends
    itself when the bot's process is gone (killed, it cannot stop its pool; the worker would wait
    forever). Then it waits for its fellow workers, so once one of them runs a job, all are warm."""
    os.nice(niceness)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_outlive_not, args=(parent,), name="parent-watch", daemon=True).start()
    with contextlib.suppress(threading.BrokenBarrierError):    # a fellow that never came: go on
        started.wait(WARM_TIMEOUT)


def _outlive_not(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()       # returns when the parent's end of the pipe closes: it has exited
    os._exit(0)


def _ready() -> bool:
    return True


class ComputerPool:
    """The worker processes that make strong and expert moves; ``choose`` never fails for a dead
    worker."""

    def __init__(self, processes: int, *, think: Callable[[str, Any, int, str, str], str] = think,
                 niceness: int = NICENESS) -> None:
        if processes < 1:
            raise ValueError("a computer pool needs at least one process")
        self.processes = processes
        self._think = think
        self._niceness = niceness
        self._context = multiprocessing.get_context("spawn")
        self._pool: ProcessPoolExecutor | None = None
        self._warming: list[Future] = []
        self._closed = False
        #: Moves the workers made, and pools replaced after a worker died (for the tests and the log).
        self.made = 0
        self.replaced = 0

    def _new_pool(self) -> ProcessPoolExecutor:
        started = self._context.Barrier(self.processes)
        return ProcessPoolExecutor(self.processes, mp_context=self._context, initializer=_warm,
                                   initargs=(self._niceness, started))

    def start(self) -> None:
        """Start every worker and let it import the games now, not at the first move; returns at
        once (``ready`` waits for them), so the bot's start-up does not wait for the imports."""
        self._running()

    def _running(self) -> ProcessPoolExecutor:
        """The pool, started now if it is not. One job per worker: none is idle yet, so each of
        them starts another worker."""
        if self._pool is None:
            self._pool = self._new_pool()
            self._warming = [self._pool.submit(_ready) for _ in range(self.processes)]
        return self._pool

    async def ready(self) -> None:
        """Until the workers started by ``start`` have warmed up."""
        self.start()
        await asyncio.gather(*(asyncio.wrap_future(f) for f in self._warming))

    async def choose(self, key: str, state: Any, seat: int, level: str, seed: str) -> str:
        """``think(key, state, seat, level, seed)`` in a worker. ``state`` must not change while the
        move is made (pass a copy). Exceptions of the brain itself come back as they are."""
        if self._closed:       # the bot is closing: no new workers, the move is made here
            return await asyncio.to_thread(think, key, state, seat, level, seed)
        loop = asyncio.get_running_loop()
        for _ in range(TRIES):
            pool = self._running()
            try:
                move = await loop.run_in_executor(pool, self._think, key, state, seat, level, seed)
            except BrokenProcessPool:
                self._replace(pool)
                continue
            self.made += 1
            return move
        log.warning("the computer worker processes died %d times in a row; the easy player makes this %s "
                    "move in the bot's own process", TRIES, key)
        return await asyncio.to_thread(think, key, state, seat, "easy", seed)

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """Any other pure CPU work (a coach's review, ``bot.coach``) in a worker: ``work`` a function
        of a module the workers can import, its arguments picklable. A broken pool is replaced and
        the work tried again; after ``TRIES`` broken pools (or once the bot is closing) it runs in a
        thread instead."""
        if not self._closed:
            loop = asyncio.get_running_loop()
            for _ in range(TRIES):
                pool = self._running()
                try:
                    return await loop.run_in_executor(pool, work, *args)
                except BrokenProcessPool:
                    self._replace(pool)
        return await asyncio.to_thread(work, *args)

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Swap a broken pool for a new one (once, however many moves found it broken)."""
        if self._pool is not broken:
            return
        log.warning("a computer worker process died; starting a new pool of %d", self.processes)
        broken.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.start()
        self.replaced += 1

    async def close(self) -> None:
        """``shutdown`` without blocking the event loop meanwhile."""
        await asyncio.to_thread(self.shutdown)

    def shutdown(self) -> None:
        """Stop the workers and wait until they have exited (moves not yet begun are dropped)."""
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
