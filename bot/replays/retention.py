"""How long the moves of an ended match are kept: ``replay_days`` after it ended (0: for ever).

The action log is what a replay, an export and a GIF are made from, and the largest part of the
database. Once a day (and at start-up, ``bot.app``) the prune deletes the logs of the finished and
stopped matches that ended longer ago and marks those sessions, so an export says the moves are no
longer kept; the session row, its results and the ratings stay.
"""

from __future__ import annotations

import logging

from bot.storage.store import Storage, StorageFault

log = logging.getLogger("spieltisch.retention")

#: Seconds in a day: the prune runs this often, and ``replay_days`` counts them.
DAY = 24 * 60 * 60.0
#: Matches pruned per transaction.
BATCH = 100


class Retention:
    """The prune of old action logs, over the storage, keeping ``days`` days (0: for ever)."""

    def __init__(self, storage: Storage, days: int) -> None:
        self.storage = storage
        self.days = days
        #: The time of the last prune that ran (whatever it found): the next is due a day later.
        self.last: float | None = None

    async def prune(self, now: float) -> int:
        """Delete the action logs of the matches that ended more than ``days`` days before ``now``, a
        batch of matches per transaction (the first prune of an old database may find many, and the
        tables' moves must not wait for all of them): the number of matches pruned. A database
        refusing the write is logged by the storage and tried again at the next prune."""
        pruned = moves = 0
        try:
            while self.days:
                sessions, actions = await self.storage.prune_actions(now - self.days * DAY, now=now, batch=BATCH)
                pruned, moves = pruned + sessions, moves + actions
                if sessions < BATCH:
                    break
        except StorageFault:
            pass
        finally:
            self.last = now
        if pruned:
            log.info("pruned the moves of %d matches that ended over %d days ago (%d moves)", pruned, self.days, moves)
        return pruned
