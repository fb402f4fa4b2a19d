"""Presenters turn a game's views into Discord messages: one presenter per game key.

A presenter reads only ``game.view`` (never the raw state), so what a message shows can never
depend on a hidden card.
"""

from __future__ import annotations

import importlib
import importlib.util
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

    def summary(self, session, events: list[Event], lang: str) -> str | None:
        """A public message to post after this move (a hand's score breakdown), or None.

        Optional: presenters without it never post one. The match's closing summary is separate.
        """

    # Further optional methods:
    # - ``canonical(session, seat, key) -> str``: the one of several equivalent moves the hand offers
    #   (tests click that one instead).
    # - ``score_line(line, lang) -> ScoreLine``: a score step reworded for the closing summary.
    # - ``score_names(session, lang) -> list[str]``: whom ``ScoreLine.seat`` names (teams scored as one).
    # - ``playable(session, seat) -> tuple[str, ...]``: the seat's cards its hand lets it play now (games
    #   with pictures: the hand picture stands them up, and ``python -m bot.preview`` asks the same).


_PRESENTERS: dict[str, Presenter] = {}


def _presenters() -> dict[str, Presenter]:
    """Every game whose module ``bot/ui/<key>.py`` exists and defines ``PRESENTER``."""
    if not _PRESENTERS:
        import games

        for key in games.REGISTRY:
            if importlib.util.find_spec(f"bot.ui.{key}") is not None:
                _PRESENTERS[key] = importlib.import_module(f"bot.ui.{key}").PRESENTER
    return _PRESENTERS


def hand_summary(game_key: str, session, events: list[Event], lang: str) -> str | None:
    summary = getattr(presenter(game_key), "summary", None)
    return summary(session, events, lang) if summary is not None else None


def presenter(game_key: str) -> Presenter:
    return _presenters()[game_key]


def find_presenter(game_key: str) -> Presenter | None:
    """The game's presenter, or None for a game without a table on Discord (host tests' toy games)."""
    return _presenters().get(game_key)


def playable() -> list[str]:
    """Games with a table on Discord, in registry order: only these are offered by /start."""
    import games

    return [key for key in games.REGISTRY if key in _presenters()]
