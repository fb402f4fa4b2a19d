"""What a presenter is: it turns a game's views into Discord messages (one per game, found through
``bot.registry``).

A presenter reads only ``game.view`` (never the raw state), so what a message shows can never
depend on a hidden card.
"""

from __future__ import annotations

from typing import Literal, Protocol

from bot.ui.base import Rendered
from bot.ui.shown import Shown
from games.base import Event

#: Whose words a move's line is in: "" the log's ("Ann passes"); a review's to the player who made
#: the move (``bot/coach/show.py``), "you" for the move they made ("You passed.") and "best" for the
#: strong player's in their place ("The strong player would have passed."). A presenter asked in a
#: review's voice gets only the move's own events, all of them the reader's.
Voice = Literal["", "you", "best"]


def voiced(key: str, voice: Voice) -> str:
    """The catalogue key of a move's line in ``voice``: ``<key>_you`` or ``<key>_best`` beside the log's."""
    return f"{key}_{voice}" if voice else key


class Presenter(Protocol):
    #: How many public messages the table spans (fixed per game).
    table_messages: int

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        """The public table, one ``Rendered`` per table message."""

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        """The ephemeral hand of ``seat``; ``ui`` is an in-hand step (e.g. a chosen card)."""

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """One public line about what just happened, or None. Never names a hidden card. ``voice``: the
        log's words, or a review's to the player whose move ``events`` are (``Voice``)."""

    # Optional methods:
    # - ``summary(session, events, lang) -> str | None``: a public message to post after this move (a
    #   hand's score breakdown); presenters without it never post one. The match's closing summary
    #   is separate.
    # - ``canonical(session, seat, key) -> str``: the one of several equivalent moves the hand offers
    #   (tests click that one instead).
    # - ``score_line(line, lang) -> ScoreLine``: a score step reworded for the closing summary.
    # - ``score_names(session, lang) -> list[str]``: whom ``ScoreLine.seat`` names (teams scored as one).
    # - ``playable(session, seat) -> tuple[str, ...]``: the seat's cards its hand lets it play now (games
    #   with pictures: the hand picture stands them up, and ``python -m bot.preview`` asks the same).
