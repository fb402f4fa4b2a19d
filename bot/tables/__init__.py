"""Each game's table on Discord, one package per game (``bot/tables/<key>/``): its presenter (the
table and hand messages), its pictures, and in its ``__init__`` the ``TABLE`` that joins them.
``bot.registry`` finds a game's package by the game's key."""

from __future__ import annotations

from dataclasses import dataclass

from bot.pictures import Pictures
from bot.ui.presenters import Presenter


@dataclass(frozen=True, slots=True)
class GameTable:
    """What a game shows on Discord: messages by its presenter, pictures (None: text only)."""

    presenter: Presenter
    pictures: Pictures | None = None
