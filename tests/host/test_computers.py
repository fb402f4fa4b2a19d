"""The worker pool for strong computer moves: the same move as in the bot's own process, a dead
worker replaced and its move made, and no process left behind."""

from __future__ import annotations

import functools
import logging
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import games
import games.computer
from bot.play.computers import NICENESS, TRIES, ComputerPool, decide
from games.base import Action
from tests.host.dying import alive, always_die, die_once, ends

PLAYERS = {"calcory": 2, "mu": 4, "safaru": 2, "rummu": 3, "dacapo": 2, "kapado": 2, "skippo": 2, "diabolo": 3}


def position(key: str, moves: int):
    """A seeded position ``moves`` random moves in where the seat to act has a choice."""
    game = games.get(key)
    state = game.setup(PLAYERS[key], game.default_options(), f"pool:{key}")
    rng = random.Random(key)
    played = 0
    while True:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if played >= moves and len(legal) > 1:
            return game, state, seat
        game.apply(state, seat, rng.choice(legal))
        played += 1


def test_the_host_thinks_within_each_levels_cpu_limit(monkeypatch):
    """``decide`` passes the level's limit: with none left, the search plays its favourite
    (the brain's own move) at once, without a single playout."""
    import games.computer.strong as strong

    game, state, seat = position("kapado", 7)
    playouts = []
    real = strong.playout
    monkeypatch.setattr(strong, "playout", lambda *args: playouts.append(1) or real(*args))
    for level in ("strong", "expert"):
        monkeypatch.setitem(games.computer.LIMITS, level, 0.0)
        moved = decide(game, game.clone(state), seat, level, "limit")
        rng = random.Random("limit")        # the search's first steps, as ``decide`` seeds them
        root = game.resample(state, seat, rng)
        brain = games.BRAINS["kapado"].scaled(games.computer.SCALES[level])
        favourite = strong.contenders(game, root, seat, brain, game.legal_actions(root, seat), rng)[0]
        assert not playouts and moved == favourite.key


KILLED_BOT = """
import asyncio, os, signal
from bot.play.computers import ComputerPool

async def main():
    pool = ComputerPool(1)
    await pool.ready()
    print(*[p.pid for p in pool._pool._processes.values()], flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


@pytest.mark.parametrize("key", sorted(PLAYERS))
async def test_a_strong_move_in_a_worker_is_the_move_made_in_process(computer_pool, key):
    game, state, seat = position(key, 7)
    made = computer_pool.made
    moved = await computer_pool.choose(key, game.clone(state), seat, "strong", "pool")
    assert moved == decide(game, game.clone(state), seat, "strong", "pool")
    game.apply(game.clone(state), seat, Action.parse(moved))     # a legal move (else it raises)
    assert computer_pool.made == made + 1


async def test_a_worker_that_dies_is_replaced_and_the_move_is_made_by_the_new_one(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    marker = tmp_path / "died"
    pool = ComputerPool(1, think=functools.partial(die_once, str(marker)))
    pool.start()
    first = [p.pid for p in pool._pool._processes.values()]
    try:
        game, state, seat = position("kapado", 5)
        moved = await pool.choose("kapado", game.clone(state), seat, "strong", "dies")
        assert marker.exists()                      # the first worker did die on this move
        assert moved == decide(game, game.clone(state), seat, "strong", "dies")
        assert (pool.replaced, pool.made) == (1, 1)
        assert not any(alive(pid) for pid in first)
        assert [r.getMessage() for r in caplog.records if r.name == "spieltisch.computers"] == [
            "a computer worker process died; starting a new pool of 1"]
        # The new pool keeps working.
        assert await pool.choose("kapado", game.clone(state), seat, "strong", "again") == \
            decide(game, game.clone(state), seat, "strong", "again")
        workers = [p.pid for p in pool._pool._processes.values()]
    finally:
        await pool.close()
    assert workers and not any(alive(pid) for pid in workers)


async def test_when_every_worker_dies_the_easy_player_moves_in_process(caplog):
    caplog.set_level(logging.INFO)
    pool = ComputerPool(1, think=always_die)
    try:
        game, state, seat = position("safaru", 5)
        moved = await pool.choose("safaru", game.clone(state), seat, "strong", "doomed")
        assert moved == decide(game, game.clone(state), seat, "easy", "doomed")
        assert (pool.replaced, pool.made) == (TRIES, 0)
        said = [r.getMessage() for r in caplog.records if r.name == "spieltisch.computers"]
        assert said[:-1] == ["a computer worker process died; starting a new pool of 1"] * TRIES
        assert said[-1].startswith(f"the computer worker processes died {TRIES} times in a row; the easy player")
    finally:
        await pool.close()


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


async def test_the_workers_yield_the_cpu_to_the_bot_and_a_closed_pool_leaves_no_process_behind():
    pool = ComputerPool(2)
    await pool.ready()
    workers = [p.pid for p in pool._pool._processes.values()]
    assert len(workers) == 2 and all(alive(pid) for pid in workers)
    assert [niceness(pid) for pid in workers] == [min(19, os.nice(0) + NICENESS)] * 2
    await pool.close()
    assert not any(alive(pid) for pid in workers)
    game, state, seat = position("calcory", 3)      # a move asked for while the bot closes
    assert await pool.choose("calcory", game.clone(state), seat, "strong", "late") == \
        decide(game, game.clone(state), seat, "strong", "late")
    assert pool._pool is None


def test_the_workers_of_a_killed_bot_end_with_it():
    # The worker inherits the bot's stdout: ``run`` returns once every holder of it has exited.
    done = subprocess.run([sys.executable, "-c", KILLED_BOT], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == -signal.SIGKILL, done.stderr
    (worker,) = [int(pid) for pid in done.stdout.split()]
    assert ends(worker)
