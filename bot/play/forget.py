"""/forget-me: a person asks the bot to remove their name and id from everything it keeps.

The command answers privately with what will happen and a confirmation button (``ids.user``); the
click lands on the click path (``bot.play.clicks``), which hands it here. Someone at a live table, of this
process or another shard's, is asked to finish or leave it first (or, if a computer player took
their seat over, to wait until it ends): their name is in that game's seats, and its result rows are
still to be written. The storage checks that again inside the transaction that forgets.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.i18n import t
from bot.storage.store import Seated, StillSeated, Storage, StorageFault
from bot.transport import ids
from bot.transport.clicked import clicked_message
from bot.transport.reply import Reply
from bot.ui.base import Rendered, StaticView, Style, button, row
from games.base import Game

log = logging.getLogger("spieltisch.privacy")

OP = "forget"


def confirmation(lang: str, user_id: int) -> Rendered:
    return Rendered(StaticView([row(button(t(lang, "privacy.button"), ids.user(user_id, OP), style=Style.danger))]),
                    t(lang, "privacy.confirm"))


class Forget:
    """The command and its button, over the storage that forgets (``games`` name the tables that
    hold someone back)."""

    def __init__(self, storage: Storage, games: Mapping[str, Game]) -> None:
        self.storage = storage
        self.games = games

    async def refused_at_table(self, reply: Reply, seated: Seated | None) -> bool:
        """Tell a person held by a live table to finish or leave it first; ``True`` if one holds them."""
        if seated is None:
            return False
        game = self.games.get(seated.game)
        key = "privacy.replaced_at_table" if seated.replaced else "privacy.at_table"
        await reply.notice(key, game=game.name if game else seated.game, channel=f"<#{seated.channel_id}>")
        return True

    async def ask(self, reply: Reply) -> None:
        """The command: explain and offer the button, privately."""
        user_id = reply.interaction.user.id
        try:
            seated = await self.storage.seated(user_id)
        except StorageFault:
            await reply.notice("privacy.not_saved")
            return
        if not await self.refused_at_table(reply, seated):
            await reply.send_ephemeral(confirmation(reply.lang, user_id))

    async def confirmed(self, reply: Reply, custom_id: str, user_id: int, op: str) -> None:
        """The button: only its owner, only on the private message that carries it."""
        message = clicked_message(reply.interaction)
        if op != OP:
            await reply.notice("table.unknown_button")
        elif message is None or not message.carries(custom_id):
            await reply.notice("table.not_on_message")
        elif not message.flags.ephemeral:
            await reply.notice("table.private_only")
        elif reply.interaction.user.id != user_id:
            await reply.notice("privacy.not_yours")
        else:
            try:
                forgotten = await self.storage.forget_user(user_id)
            except StillSeated as refused:
                await self.refused_at_table(reply, refused.seated)
                return
            except StorageFault:
                await reply.notice("privacy.not_saved")
                return
            log.info("forgot a user: %d result rows and %d ended sessions made anonymous",
                     forgotten.results, forgotten.sessions)
            done = "privacy.done" if forgotten.results or forgotten.sessions else "privacy.nothing"
            await reply.update(Rendered(StaticView([]), t(reply.lang, done)))
