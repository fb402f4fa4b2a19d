"""One record per game: its rules engine, computer player, presenter and pictures.

The games are ``games.PACKAGES`` (the one list); each game's table on Discord is the package
``bot/tables/<key>/`` of its key, and its texts are ``bot/locales/<lang>/<key>.toml`` (rules and
moves) and ``<key>.ui.toml`` (its messages). Everything else finds a game here, by key.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

import games
from bot.pictures import Pictures
from bot.tables import GameTable
from bot.ui.presenters import Presenter
from games.base import Event, Game
from games.computer.brain import Brain


@dataclass(frozen=True, slots=True)
class Entry:
    game: Game[Any, Any, Any]
    brain: Brain[Any, Any] | None
    presenter: Presenter
    pictures: Pictures | None


def _entry(package: Any) -> Entry:
    table: GameTable = import_module(f"bot.tables.{package.GAME.key}").TABLE
    return Entry(package.GAME, package.BRAIN, table.presenter, table.pictures)


#: Every game with a table on Discord, in the order /start offers them.
ENTRIES: dict[str, Entry] = {package.GAME.key: _entry(package) for package in games.PACKAGES}


def playable() -> list[str]:
    """Games with a table on Discord, in registry order: only these are offered by /start."""
    return list(ENTRIES)


def presenter(game_key: str) -> Presenter:
    return ENTRIES[game_key].presenter


def find_presenter(game_key: str) -> Presenter | None:
    """The game's presenter, or None for a game without a table on Discord (host tests' toy games)."""
    entry = ENTRIES.get(game_key)
    return None if entry is None else entry.presenter


def pictures(game_key: str) -> Pictures | None:
    """The game's pictures, or None for a game drawn as text only (Calcory) or unknown here."""
    entry = ENTRIES.get(game_key)
    return None if entry is None else entry.pictures


def with_pictures() -> list[str]:
    """Games whose tables have pictures, in registry order."""
    return [key for key, entry in ENTRIES.items() if entry.pictures is not None]


def hand_summary(game_key: str, session: Any, events: list[Event], lang: str) -> str | None:
    """The game's score breakdown to post after this move, if its presenter writes one."""
    summary = getattr(presenter(game_key), "summary", None)
    return summary(session, events, lang) if summary is not None else None
