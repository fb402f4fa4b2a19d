"""The rules package: pure Python card games behind one contract (``games.base.Game``).

Nothing here imports discord, the host, asyncio or any I/O library.
"""

from __future__ import annotations

from games.base import Game

#: Every playable game by key, in the order the /start choices list them.
REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    REGISTRY[game.key] = game
    return game


def get(key: str) -> Game:
    return REGISTRY[key]


def _load() -> None:
    from games import calcory

    for module in (calcory,):
        register(module.GAME)


_load()
