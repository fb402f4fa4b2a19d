"""What changed at a table, told once to whoever follows the tables.

Every path that changes a session (a click, a computer player's move, the turn clock, ``/stop`` and
votes, ``/replace``, a deleted channel, a lobby that expired) makes the change through the
``SessionManager`` and then tells it here once, as a ``Change``. The followers react in the order
they follow (``bot/app.py`` wires them): the autoplay plans the timers the new position needs, then
the table writer redraws. Neither calls the other to say what happened: the autoplay's own moves
reach the writer through here too, so the two services know nothing of each other's internals.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import discord

from bot.play.sessions import Session
from games.base import Event


@dataclass(frozen=True, slots=True)
class Change:
    """One change of one session, as its followers need to know it."""

    session: Session
    #: The events of the move that was made (none when no move was: a seat changed, a vote, a stop).
    events: list[Event] = field(default_factory=list)
    #: The seat that moved, when a move was made.
    seat: int | None = None
    #: The move was a person's own click: their count of missed turns starts again.
    person: bool = False
    #: The click that made the move or started the game: the writer reads from it what the bot may
    #: do in the channel, and (for a move) posts through its token while it lasts.
    interaction: discord.Interaction | None = None
    #: The game has just started: its table is posted.
    started: bool = False
    #: The click's answer already shows the lobby as it is now (otherwise the writer redraws it).
    shown: bool = False
    #: The table's channel or server is gone: nothing more is drawn there, and its timers end.
    gone: bool = False
    #: The autoplay made this change on one of its timers and plans the next timers itself.
    planned: bool = False

    @property
    def ended(self) -> bool:
        """The change ended the match (or closed the lobby)."""
        return not self.session.is_live

    @property
    def moved(self) -> bool:
        return self.seat is not None


Follower = Callable[[Change], Awaitable[None]]


class Changes:
    """Where every change of a session is told; each follower hears it in the order it followed."""

    def __init__(self) -> None:
        self._followers: list[Follower] = []

    def follow(self, follower: Follower) -> None:
        self._followers.append(follower)

    async def tell(self, change: Change) -> None:
        for follower in self._followers:
            await follower(change)
