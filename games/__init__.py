"""The rules package: pure Python card games behind one contract (``games.base.Game``).

Nothing here imports discord, the host, asyncio or any I/O library. Every game is a package laid
out the same way (docs/adding-a-game.md): ``rules.py`` (the ``Game``), ``state.py`` (the state and
its views), ``cards.py`` where the game has a deck of its own, ``computer.py`` (its ``Brain``), and
an ``__init__`` that exports ``GAME`` and ``BRAIN``. ``PACKAGES`` below is the one list of games:
the host finds each game's table on Discord from it by key.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from games import calcory, dacapo, diabolo, kapado, mu, rummu, safaru, skippo
from games.base import Game
from games.computer.brain import Brain

#: Every game, in the order /start lists them.
PACKAGES: tuple[ModuleType, ...] = (calcory, mu, safaru, rummu, dacapo, kapado, skippo, diabolo)

#: Every rules engine by key, and its computer player.
REGISTRY: dict[str, Game[Any, Any, Any]] = {package.GAME.key: package.GAME for package in PACKAGES}
BRAINS: dict[str, Brain[Any, Any]] = {package.GAME.key: package.BRAIN for package in PACKAGES}


def register(game: Game[Any, Any, Any], brain: Brain[Any, Any] | None = None) -> Game[Any, Any, Any]:
    """Add a game that is not one of ``PACKAGES`` (the host tests' toy games)."""
    REGISTRY[game.key] = game
    if brain is not None:
        BRAINS[game.key] = brain
    return game


def get(key: str) -> Game[Any, Any, Any]:
    return REGISTRY[key]
