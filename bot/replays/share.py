"""The buttons under an ended match that take it away from the table: Export (the match record,
privately, as a JSON file) and Share as GIF (the public table through the match, posted to the
channel by one of its players).

Both read the stored match only (``bot.replays.record.load``), so they work the same on the closing
message, under a replay, and after a restart. The click path (``bot.play.clicks``) routes the
``st:t:<match>:export`` and ``st:t:<match>:gif`` ids here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from bot.i18n import t
from bot.replays import gif
from bot.replays.record import MatchRecord, NoRecord, file_name, game_name, load
from bot.storage.store import Storage, StorageFault
from bot.transport import ids
from bot.transport.media import Document
from bot.transport.reply import Reply
from bot.ui.base import button

log = logging.getLogger("spieltisch.share")

T = TypeVar("T")


class Workers(Protocol):
    """Where pure CPU work runs off the event loop (``bot.play.computers.ComputerPool``)."""

    async def run(self, work: Callable[..., T], *args: Any) -> T: ...

#: The table ops of the two buttons.
EXPORT, GIF = "export", "gif"
OPS = frozenset({EXPORT, GIF})


def archive_buttons(session_id: int, lang: str, game_key: str | None = None) -> list[dict]:
    """Export and Share as GIF for the ended match ``session_id``. A game without a table picture
    (Calcory; ``game_key`` names it) has no GIF, so no button for one."""
    out = [button(t(lang, "archive.export"), ids.table(session_id, EXPORT))]
    if game_key is None or gif.has_gif(game_key):
        out.append(button(t(lang, "archive.gif"), ids.table(session_id, GIF)))
    return out


class Share:
    """The two buttons' clicks, over the stored matches."""

    def __init__(self, storage: Storage, workers: Workers | None = None) -> None:
        self.storage = storage
        #: Where a GIF is drawn: a worker process, so its seconds of drawing never hold the GIL that
        #: every table's clicks need (a thread without workers, ``computer_processes`` 0).
        self.workers = workers
        #: Matches whose GIF is being drawn: a second click waits for the first GIF, not a second one.
        self._drawing: set[int] = set()

    async def _record(self, reply: Reply, match_id: int) -> MatchRecord | None:
        """The match's record in the clicker's language, or None once the clicker was told why not."""
        try:
            return await load(self.storage, match_id, reply.lang)
        except NoRecord as missing:
            await reply.notice(missing.key, **missing.params)
        except StorageFault:
            await reply.notice("archive.not_saved")
        return None

    async def export(self, reply: Reply, match_id: int) -> None:
        """The match record as a JSON file, only to the clicker."""
        record = await self._record(reply, match_id)
        if record is None:
            return
        text = t(reply.lang, "archive.exported", match=record.match, game=_name(record))
        await reply.send_file(text, Document(record.to_json(), file_name(record)))

    async def gif(self, reply: Reply, match_id: int, players: set[int], lang: str) -> None:
        """The match as an animated GIF, posted to the channel in the table's language ``lang``; only
        for one of its ``players`` (the others are told privately, and nothing is posted)."""
        if reply.interaction.user.id not in players:
            await reply.notice("archive.gif_not_player")
            return
        if match_id in self._drawing:
            await reply.notice("archive.gif_busy")
            return
        self._drawing.add(match_id)
        try:
            record = await self._record(reply, match_id)
            if record is None:
                return
            if not gif.has_gif(record.game):
                await reply.notice("archive.gif_no_picture", game=_name(record))
                return
            await reply.notice("archive.gif_drawing", match=record.match)
            animation = await (self.workers.run(gif.animate, record) if self.workers is not None
                               else asyncio.to_thread(gif.animate, record))
            if animation is None:
                await reply.notice("archive.gif_too_big")
                return
            document = Document(animation.data, f"spieltisch-{record.game}-{record.match}.gif",
                                t(lang, "archive.gif_alt", game=_name(record), match=record.match,
                                  frames=animation.frames))
            text = t(lang, "archive.gif_shared", name=reply.interaction.user.display_name, match=record.match,
                     game=_name(record))
            await reply.send_file(text, document, ephemeral=False)
        except NoRecord as missing:         # a game or rules version this bot no longer replays
            await reply.notice(missing.key, **missing.params)
        finally:
            self._drawing.discard(match_id)


def _name(record: MatchRecord) -> str:
    return game_name(record.game)
