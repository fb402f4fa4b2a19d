"""The floor under every move: how many single-row commits SQLite makes on this disk.

Same settings as ``bot.storage.store`` (WAL, synchronous=NORMAL), same shape of row as an action, one
INSERT committed by itself, in the directory that holds the bot's database. Measured once with the
standard library (SQLite alone) and once through aiosqlite (the thread hop the bot pays per write).
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import aiosqlite

_TABLE = "CREATE TABLE actions (session_id INTEGER, seq INTEGER, seat INTEGER, action TEXT, at REAL, " \
         "PRIMARY KEY (session_id, seq))"
_INSERT = "INSERT INTO actions (session_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)"
_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def raw_commit_rate(directory: Path, seconds: float) -> float:
    """Commits per second of ``INSERT`` in autocommit mode, for ``seconds``."""
    path = directory / "raw-sqlite.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for pragma in _PRAGMAS:
            db.execute(pragma)
        db.execute(_TABLE)
        n, start = 0, time.perf_counter()
        end = start + seconds
        while True:
            for _ in range(100):
                db.execute(_INSERT, (1, n, n % 3, "flip:A1", time.time()))
                n += 1
            now = time.perf_counter()
            if now >= end:
                return n / (now - start)
    finally:
        db.close()
        _remove(path)


async def aiosqlite_commit_rate(directory: Path, seconds: float) -> float:
    """The same through aiosqlite, one awaited statement at a time (as ``Storage.append_action``)."""
    path = directory / "raw-aiosqlite.sqlite3"
    db = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        for pragma in _PRAGMAS:
            await db.execute(pragma)
        await db.execute(_TABLE)
        n, start = 0, time.perf_counter()
        end = start + seconds
        while True:
            for _ in range(50):
                await db.execute(_INSERT, (1, n, n % 3, "flip:A1", time.time()))
                n += 1
            now = time.perf_counter()
            if now >= end:
                return n / (now - start)
    finally:
        await db.close()
        _remove(path)


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
