"""The table's move log: the last few public moves, newest last, in the table's language.

A player who looked away (or waited for computer players) reads what happened right on the table.
The lines come from the presenters' ``describe`` of each logged move (and of the opening, such as a
deal), so they use public events only, and after a restart the replayed history reads the same.
A line is described once: the log remembers how far into the history it got and describes only the
moves since, so a redraw of a long game does not describe every move again. A session keeps the
events of its newest moves only (``EVENTS_KEPT``): the log reads those first and asks
for older ones (a replay) only when they do not give it ``LENGTH`` lines.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ui.presenters import Presenter
from bot.ui.shown import Shown
from games.base import Event

#: How many moves the table shows.
LENGTH = 5
#: The longest line the log keeps (five of them stay far below Discord's 4000 characters per message).
LINE_CHARS = 200
#: Moves per session whose events stay in memory: more than the table's move log shows, so
#: drawing it seldom needs a replay (``Session.events_from``).
EVENTS_KEPT = 32

Describe = Callable[[list[Event]], str | None]


def log_line(text: str) -> str:
    """One short line: a description of several sentences on one line, cut at ``LINE_CHARS``."""
    line = " · ".join(part.strip() for part in text.splitlines() if part.strip())
    return line if len(line) <= LINE_CHARS else line[:LINE_CHARS - 1].rstrip() + "…"


class MoveLog:
    """The newest lines of one session's log in one language, extended as its history grows."""

    def __init__(self) -> None:
        self._lang: str | None = None
        self._moves = -1            # how many logged moves the lines cover (-1: none, not even the opening)
        self._lines: list[str] = []

    def lines(self, session: Shown, lang: str, describe: Describe) -> list[str]:
        history = session.history
        if lang != self._lang or len(history) < self._moves:
            self._lang, self._moves, self._lines = lang, -1, []
        if self._moves < 0:
            self._lines = _newest(session, describe)
            self._moves = len(history)
            return list(self._lines)
        for events in session.events_from(self._moves):
            if (line := describe(events)) is not None:
                self._lines.append(log_line(line))
        self._lines = self._lines[-LENGTH:]
        self._moves = len(history)
        return list(self._lines)


def _newest(session: Shown, describe: Describe) -> list[str]:
    """The newest ``LENGTH`` lines, walking back from the latest move (the opening comes first):
    over the moves whose events are kept, and over the whole log only if those are not enough."""
    start = max(len(session.history) - EVENTS_KEPT, 0)
    while True:
        found: list[str] = []
        moves = session.events_from(start)[::-1]
        for events in [*moves, *([session.opening] if start == 0 else [])]:
            if (line := describe(events)) is not None:
                found.append(log_line(line))
                if len(found) == LENGTH:
                    return found[::-1]
        if start == 0:
            return found[::-1]
        start = 0


def move_log(session: Shown, lang: str, show: Presenter) -> list[str]:
    """The log of ``session`` described afresh (no memory of an earlier rendering) by its game's presenter."""
    return MoveLog().lines(session, lang, lambda events: show.describe(session, events, lang))
