"""The rules package: pure Python card games behind one contract (``games.base.Game``).

Nothing here imports discord, the host, asyncio or any I/O library.
"""

from __future__ import annotations

from typing import Any

from games.base import Game

#: Every rules engine by key, in the order the /start choices list them (those with a table).
REGISTRY: dict[str, Game[Any, Any]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    REGISTRY[game.key] = game
    return game


def get(key: str) -> Game[Any, Any]:
    return REGISTRY[key]


def _load() -> None:
    from games import calcory, dacapo, diabolo, kapado, mu, rummu, safaru, skippo

    for module in (calcory, mu, safaru, rummu, dacapo, kapado, skippo, diabolo):
        register(module.GAME)


_load()
