"""The replay service: ``/replay``, the Replay button of a finished match, and every stepper click.

A replay is rebuilt from what the database keeps of a finished match (its seed and action log) with
the rules of the code; a match the code can no longer replay truthfully (another rules version, or a
log that was pruned) is told in one sentence, never shown wrong. Each click reads the match's row
again, so the seats' names are as the database keeps them now (a name /forget-me removed is an
anonymous player), and walks the match only when it is not among those walked lately.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.i18n import t
from bot.replays.stepper import match_list, stepper
from bot.replays.steps import Player, Walked, Walks, position
from bot.storage.status import Status
from bot.storage.store import SessionRow, Storage, StorageFault
from bot.transport import ids
from bot.transport.clicked import clicked_message
from bot.transport.reply import Reply
from bot.ui.base import Rendered
from games.base import Game
from games.base import action as shared_action
from games.keys import number

log = logging.getLogger("spieltisch.replays")

#: Matches ``/replay`` lists (one select).
LISTED = 25
#: The step the End button asks for before the match is walked: the last, whichever step that is.
LAST = 1 << 62


class Unreplayable(Exception):
    """Why a match cannot be replayed: ``key`` is a message key, ``params`` fill it in."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Replays:
    """Replays of finished matches, over the storage that keeps them (``games`` by key)."""

    def __init__(self, storage: Storage, games: Mapping[str, Game]) -> None:
        self.storage = storage
        self.games = games
        self.walks = Walks()

    # -- /replay -------------------------------------------------------------------------------
    async def listing(self, reply: Reply, guild_id: int) -> None:
        """The caller's last finished matches in this server, privately."""
        try:
            matches = await self.storage.played_matches(guild_id, reply.interaction.user.id, LISTED)
        except StorageFault:
            await reply.notice("replay.not_read")
            return
        if not matches:
            await reply.notice("replay.none")
            return
        names = {key: game.name for key, game in self.games.items()}
        await reply.send_ephemeral(match_list(matches, names, t(reply.lang, "replay.anonymous"), reply.lang))

    # -- clicks --------------------------------------------------------------------------------
    async def open(self, reply: Reply, session_id: int) -> None:
        """The Replay button under a finished match: the stepper at its deal, to the clicker alone."""
        try:
            rendered = await self._render(reply, session_id, 0, False)
        except Unreplayable as why:
            await reply.notice(why.key, **why.params)
            return
        await reply.send_ephemeral(rendered)

    async def click(self, reply: Reply, custom_id: str, click: ids.ReplayId, values: list[str]) -> None:
        """A click in ``/replay``'s list or in a stepper: the stepper redrawn in place."""
        message = clicked_message(reply.interaction)
        if message is None or not message.carries(custom_id):
            await reply.notice("table.not_on_message")
            return
        if not message.flags.ephemeral:
            await reply.notice("table.private_only")
            return
        session_id: int | None
        step: int | None
        if click.session is None:
            session_id, step, hands = number(values[0]) if len(values) == 1 else None, 0, False
        else:
            session_id, hands = click.session, click.hands != (click.op == "hands")
            step = self._target(click, values)
        if session_id is None or step is None:
            await reply.notice("table.unknown_button")
            return
        try:
            rendered = await self._render(reply, session_id, step, hands)
        except Unreplayable as why:
            await reply.notice(why.key, **why.params)
            return
        await reply.update(rendered)

    @staticmethod
    def _target(click: ids.ReplayId, values: list[str]) -> int | None:
        """The step a stepper click asks for (``None``: no such button); ``LAST`` stands for the end."""
        step = click.step
        moves = {"first": 0, "back": step - 1, "next": step + 1, "last": LAST, "hands": step}
        if click.op in moves:
            return max(moves[click.op], 0)
        if click.op == "jump" and len(values) == 1:
            return number(values[0])
        return None

    # -- the match -----------------------------------------------------------------------------
    async def _render(self, reply: Reply, session_id: int, step: int, hands: bool) -> Rendered:
        row = await self._row(session_id, reply.interaction.guild_id)
        walked = await self._walked(row)
        step = walked.steps if step == LAST else step
        if step > walked.steps:
            raise Unreplayable("replay.no_such_step")
        lang = reply.lang
        anonymous = t(lang, "replay.anonymous")
        seats = tuple(Player(str(seat.get("name") or anonymous), seat.get("user_id"), seat.get("level"))
                      for seat in row.seats)
        at = position(walked, step, match_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, lang=lang,
                      seats=seats, pictures=row.pictures)
        return stepper(walked, at, hands, lang, row.ended_at)

    async def _row(self, session_id: int, guild_id: int | None) -> SessionRow:
        """The stored match, if it is a finished one of this server."""
        try:
            row = await self.storage.session(session_id)
        except StorageFault:
            raise Unreplayable("replay.not_read") from None
        if row is None or row.guild_id != guild_id:
            raise Unreplayable("replay.not_found")
        if row.status != Status.FINISHED:
            raise Unreplayable("replay.not_finished")
        game = self.games.get(row.game)
        if game is None or row.rules_version != game.rules_version:
            raise Unreplayable("replay.old_rules", game=game.name if game else row.game)
        return row

    async def _walked(self, row: SessionRow) -> Walked:
        """The match walked from its log (kept for the next clicks)."""
        walked = self.walks.get(row.id)
        if walked is not None:
            return walked
        game = self.games[row.game]
        try:
            actions = await self.storage.actions(row.id)
        except StorageFault:
            raise Unreplayable("replay.not_read") from None
        if not actions or row.seed is None:     # a finished match has at least one move: its log was pruned
            raise Unreplayable("replay.pruned", game=game.name)
        try:
            options = game.parse_options(row.options)
            walked = Walked(game, len(row.seats), options, row.seed,
                            [(seat, shared_action(*key.partition(":")[::2])) for seat, key in actions])
        except Exception:
            log.exception("match %s (%s) could not be replayed", row.id, row.game)
            raise Unreplayable("replay.old_rules", game=game.name) from None
        return self.walks.keep(row.id, walked)
