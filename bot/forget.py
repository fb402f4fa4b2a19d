"""/forget-me: a person asks the bot to remove their name and id from everything it keeps.

The command answers privately with what will happen and a confirmation button (``ids.user``); the
click lands on the click path (``bot.clicks``), which hands it here. Someone seated at a live table
is asked to finish or leave it first: their name is in that game's seats, and its result rows are
still to be written.
"""

from __future__ import annotations

import logging

from bot import ids
from bot.clicks import Reply
from bot.i18n import t
from bot.storage import StorageFault
from bot.ui.base import Rendered, StaticView, Style, button, row

log = logging.getLogger("spieltisch.privacy")

OP = "forget"


def confirmation(lang: str, user_id: int) -> Rendered:
    return Rendered(StaticView([row(button(t(lang, "privacy.button"), ids.user(user_id, OP), style=Style.danger))]),
                    t(lang, "privacy.confirm"))


async def refused_at_table(bot, reply: Reply, user_id: int) -> bool:
    """Tell a person seated at a live table to finish or leave it first; ``True`` if they are."""
    session = next((s for s in bot.sessions.live() if s.seat_of(user_id) is not None), None)
    if session is None:
        return False
    await reply.notice("privacy.at_table", game=session.game.name, channel=f"<#{session.channel_id}>")
    return True


async def ask(bot, reply: Reply) -> None:
    """The command: explain and offer the button, privately."""
    user_id = reply.interaction.user.id
    if not await refused_at_table(bot, reply, user_id):
        await reply.send_ephemeral(confirmation(reply.lang, user_id))


async def confirmed(bot, reply: Reply, custom_id: str, user_id: int, op: str) -> None:
    """The button: only its owner, only on the private message that carries it."""
    message = reply.interaction.message
    if op != OP:
        await reply.notice("table.unknown_button")
    elif message is None or not message.carries(custom_id):
        await reply.notice("table.not_on_message")
    elif not message.flags.ephemeral:
        await reply.notice("table.private_only")
    elif reply.interaction.user.id != user_id:
        await reply.notice("privacy.not_yours")
    elif not await refused_at_table(bot, reply, user_id):
        try:
            forgotten = await bot.storage.forget_user(user_id)
        except StorageFault:
            await reply.notice("privacy.not_saved")
            return
        log.info("forgot a user: %d result rows and %d ended sessions made anonymous",
                 forgotten.results, forgotten.sessions)
        done = "privacy.done" if forgotten.results or forgotten.sessions else "privacy.nothing"
        await reply.update(Rendered(StaticView([]), t(reply.lang, done)))
