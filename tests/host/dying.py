"""Worker functions that kill their worker process or fail in it, for the tests of a computer
pool's recovery, and a look at whether a process still runs.

They live in a module of their own (not a test file) because a worker imports them by name."""

from __future__ import annotations

import os
import select
from pathlib import Path
from typing import Any

from bot.play.computers import think


def die_once(marker: str, key: str, state: Any, seat: int, level: str, seed: str) -> str:
    """The first call (no ``marker`` file yet) ends its process at once; later ones think."""
    path = Path(marker)
    if not path.exists():
        path.write_text("a worker died here\n", encoding="utf-8")
        os._exit(3)
    return think(key, state, seat, level, seed)


def always_die(key: str, state: Any, seat: int, level: str, seed: str) -> str:
    os._exit(3)


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting to be reaped has ended)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status


def ends(pid: int, within: float = 30.0) -> bool:
    """Whether ``pid`` has ended or ends within ``within`` seconds: woken by the process's end (a
    pidfd), so a process on its way out on a busy machine is not taken for one that lives on."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], within)[0]) or not alive(pid)
    finally:
        os.close(fd)


def brain_fault(key: str, state: Any, seat: int, level: str, seed: str) -> str:
    """A bug in a brain, raised inside the worker (which lives on)."""
    raise RuntimeError("a bug in a brain, in a worker")
