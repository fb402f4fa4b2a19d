"""One seat's result row, as ``bot.storage.store`` writes and reads it and the rating rebuild reads it.

A module of its own so ``bot.storage.ratings_store`` (imported by the storage) can use it too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True, kw_only=True)
class ResultRow:
    """One seat's line of a finished (or stopped) match; ``user_id`` is ``None`` for a computer, whose
    ``level`` says how strong it played, and for a person who asked to be forgotten (``name`` is then
    empty); ``team`` is the seat's side when partners share a score; ``season`` the server's season
    current when the match ended (``None`` without one; the storage sets it). Built by keywords only: thirteen
    positional values in a row are too easy to swap unnoticed."""

    session_id: int
    guild_id: int
    game: str
    seat: int
    user_id: int | None
    name: str
    score: int | None
    rank: int | None
    won: bool
    shared: bool
    with_computers: bool
    stopped: bool
    ended_at: float
    team: int | None = None
    level: str | None = None
    season: int | None = None

    def values(self) -> tuple[Any, ...]:
        """The row's values in ``COLUMNS`` order, flags as 0/1 as both databases store them."""
        return (self.session_id, self.guild_id, self.game, self.seat, self.user_id, self.name, self.score,
                self.rank, int(self.won), int(self.shared), int(self.with_computers), int(self.stopped),
                self.ended_at, self.team, self.level, self.season)


#: The columns of ``results`` in ``ResultRow``'s order.
COLUMNS = (
    "session_id, guild_id, game, seat, user_id, name, score, rank, won, shared, with_computers, "
    "stopped, ended_at, team, level, season"
)


def result_row(r: Sequence[Any]) -> ResultRow:
    """A ``ResultRow`` from the values of a ``SELECT {COLUMNS}``."""
    return ResultRow(session_id=r[0], guild_id=r[1], game=r[2], seat=r[3], user_id=r[4], name=r[5],
                     score=r[6], rank=r[7], won=bool(r[8]), shared=bool(r[9]),
                     with_computers=bool(r[10]), stopped=bool(r[11]), ended_at=r[12], team=r[13],
                     level=r[14], season=r[15])
