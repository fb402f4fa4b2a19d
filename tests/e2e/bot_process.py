"""The bot as a real process: ``python -m bot <config.toml>`` against the Discord double.

The test sees only what a Discord user sees (the double's messages) plus the bot's SQLite file,
which it may read to plan moves (the seed and the action log rebuild the position exactly).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import games
from games.base import Action, replay

ROOT = Path(__file__).resolve().parents[2]
def clean_env(**extra: str) -> dict[str, str]:
    """The test's environment without any setting it may have inherited (``SPIELTISCH_…``, the token)."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("SPIELTISCH_")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def write_config(path: Path, double, database: Path | str, token: str = "process-token", *,
                 settings: str = "", seed: str = "bot-process") -> Path:
    """A config for the double: ``database`` is an SQLite file or a ``database_url``; ``settings`` are
    more top-level lines. The process deals from ``seed`` (``[testing] seed``), so a run that fails
    deals the same cards when it is run again."""
    where = (f'database_url = "{database}"' if isinstance(database, str) and "://" in database
             else f'database = "{Path(database).as_posix()}"')
    path.write_text(
        f'token = "{token}"\n'
        f"{where}\n"
        'log_level = "WARNING"\n'
        f"{settings}"
        "[testing]\n"
        f'api_base_url = "{double.api_base}"\n'
        f'gateway_url = "{double.gateway_url}"\n'
        f'seed = "{seed}"\n',
        encoding="utf-8",
    )
    return path


def run_entry_point(args: list[str], *, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """``python -m bot`` to completion (for start-up errors, which end it at once)."""
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)


class BotProcess:
    """One running ``python -m bot``; its output goes to a file so a full pipe can never block it."""

    def __init__(self, args: list[str], *, cwd: Path, env: dict[str, str], log: Path) -> None:
        self.log = log
        self._out = log.open("ab")
        self.proc = subprocess.Popen([sys.executable, "-m", "bot", *args], cwd=cwd, env=env,
                                     stdout=self._out, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> int:
        """SIGKILL: no shutdown code runs, exactly like a crash."""
        if self.proc.poll() is None:
            self.proc.kill()
        code = self.proc.wait(timeout=30)
        self._out.close()
        return code

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


# ------------------------------------------------------------------------------ the database


@dataclass
class Stored:
    """A session as the bot stored it, and the position its log rebuilds."""

    id: int
    status: str
    seats: list[dict]
    messages: dict
    log: list[tuple[int, str]]
    state: object
    seed: str | None = None

    def user_of(self, seat: int) -> str:
        return str(self.seats[seat]["user_id"])

    def seat_of(self, user_id: str) -> int:
        return next(i for i, s in enumerate(self.seats) if str(s["user_id"]) == str(user_id))


def stored_session(database: Path, session_id: int) -> Stored:
    db = sqlite3.connect(database)
    try:
        row = db.execute("SELECT game, status, options, seats, seed, messages FROM sessions WHERE id = ?",
                         (session_id,)).fetchone()
        log = [(seat, key) for seat, key in db.execute(
            "SELECT seat, action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,))]
    finally:
        db.close()
    game_key, status, options, seats, seed, messages = row
    return _planned(session_id, game_key, status, json.loads(options), json.loads(seats), seed,
                    json.loads(messages), log)


async def read_session(storage, session_id: int) -> Stored:
    """``stored_session`` through the bot's own storage: an SQLite file or a PostgreSQL database."""
    row = await storage.session(session_id, with_actions=True)
    return _planned(session_id, row.game, row.status, row.options, row.seats, row.seed, row.messages,
                    [(seat, key) for seat, key in row.actions])


def _planned(session_id, game_key, status, options, seats, seed, messages, log) -> Stored:
    state = None
    if seed is not None:
        game = games.REGISTRY[game_key]
        state = replay(game, len(seats), game.parse_options(options), seed,
                       [(seat, Action.parse(key)) for seat, key in log]).state
    return Stored(session_id, status, seats, messages, log, state, seed)
