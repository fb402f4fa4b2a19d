"""Presenters turn a game's views into Discord messages: one presenter per game key.

A presenter reads only ``game.view`` (never the raw state), so what a message shows can never
depend on a hidden card.
"""

from __future__ import annotations

from typing import Protocol

from bot.ui.base import Rendered
from games.base import Event


class Presenter(Protocol):
    #: How many public messages the table spans (fixed per game).
    table_messages: int

    def table(self, session, lang: str, last: str | None) -> list[Rendered]:
        """The public table, one ``Rendered`` per table message."""

    def hand(self, session, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        """The ephemeral hand of ``seat``; ``ui`` is an in-hand step (e.g. a chosen card)."""

    def describe(self, session, events: list[Event], lang: str) -> str | None:
        """One public line about what just happened, or None. Never names a hidden card."""


_PRESENTERS: dict[str, Presenter] = {}


def _presenters() -> dict[str, Presenter]:
    if not _PRESENTERS:
        from bot.ui import calcory

        _PRESENTERS.update({"calcory": calcory.PRESENTER})
    return _PRESENTERS


def presenter(game_key: str) -> Presenter:
    return _presenters()[game_key]


def playable() -> list[str]:
    """Games with a table on Discord, in registry order: only these are offered by /start."""
    import games

    return [key for key in games.REGISTRY if key in _presenters()]
