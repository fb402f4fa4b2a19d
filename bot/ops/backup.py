"""``python -m bot backup PATH``: a consistent copy of the database while the bot keeps running.

SQLite's online backup API copies the pages of one read snapshot; in WAL mode the bot's writes go on
meanwhile (they land in the WAL, not in the pages being read). The copy is written next to its
target and renamed into place only once it passed ``PRAGMA integrity_check``, so PATH is either a
whole, valid database or absent.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path


class BackupError(Exception):
    """The copy was not made; the message is one sentence for whoever runs the bot."""


def backup(source: Path, target: Path) -> str:
    """Copy ``source`` to ``target`` (which must not exist); returns what the copy holds, in words."""
    if not source.is_file():
        raise BackupError(f"The database {source} does not exist, so there is nothing to back up.")
    if target.exists():
        raise BackupError(f"{target} already exists; name a new file for the backup.")
    if not target.parent.is_dir():
        raise BackupError(f"The folder {target.parent} for the backup does not exist.")
    partial = target.with_name(f".{target.name}.partial")
    try:
        src = sqlite3.connect(source, timeout=30)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE")     # one self-contained file, no -wal beside it
                (check,) = dst.execute("PRAGMA integrity_check").fetchone()
                if check != "ok":
                    raise BackupError(f"The copy of {source} failed SQLite's integrity check ({check}).")
                summary = _summary(dst)
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise BackupError(f"The database {source} could not be copied to {target}: {exc}.") from None
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return summary


def _summary(db: sqlite3.Connection) -> str:
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not {"sessions", "results"} <= tables:
        return "not a Spieltisch database"
    (sessions,) = db.execute("SELECT COUNT(*) FROM sessions").fetchone()
    (results,) = db.execute("SELECT COUNT(*) FROM results").fetchone()
    return f"{sessions} sessions, {results} result rows"
