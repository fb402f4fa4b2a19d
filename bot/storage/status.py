"""Where a session stands: lobby -> playing -> one of the ended states.

A module of its own so that storage, which the session manager builds on, names the same values.
The values are what the ``sessions.status`` column stores.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    STOPPED = "stopped"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


#: A session still in memory and on the table.
LIVE = frozenset({Status.LOBBY, Status.PLAYING})
#: What ``end_session`` may record.
ENDED = frozenset(Status) - LIVE
