"""The "How did I play?" button of a finished match: a review for the player who pressed it, made in
the computer players' worker processes (``bot.play.computers``), shown with its progress in the
player's private answer, and stored once done (``Storage.save_review``), so a second press shows it
at once.

A review under way lives in memory only: after a restart the next press starts it again. Two
presses of one player while it runs share the one review; each answer shows it when it is done.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from bot.coach import review as reviews
from bot.coach.review import Match, Review
from bot.coach.show import progress, render, said
from bot.play.clock import Clock
from bot.play.computers import ComputerPool
from bot.play.sessions import Refusal, Session, SessionManager
from bot.replays.steps import Walked
from bot.storage.database import StorageFault
from bot.storage.store import Storage
from bot.transport import media, webhooks
from bot.transport.reply import Reply
from bot.ui.base import Rendered
from games.base import Action

log = logging.getLogger("spieltisch.coach")

#: The least change of the shown progress worth an edit of the answer (a review edits it about ten times).
STEP = 0.1


class Coach:
    """Reviews of finished matches, one per player, each made once."""

    def __init__(self, sessions: SessionManager, storage: Storage, clock: Clock,
                 computers: ComputerPool | None = None) -> None:
        self.sessions = sessions
        self.storage = storage
        self.clock = clock
        self.computers = computers
        #: Reviews under way by (match, seat), and the answers waiting for each.
        self._running: dict[tuple[int, int], asyncio.Task[Review]] = {}
        self._watching: dict[tuple[int, int], list[Reply]] = {}

    async def pressed(self, reply: Reply, match_id: int) -> None:
        """The button of match ``match_id`` was pressed: the presser's review, or why there is none."""
        interaction = reply.interaction
        try:
            match = await self.sessions.finished_match(match_id)
            row = await self.storage.session(match_id, with_actions=True) if match is not None else None
        except (Refusal, StorageFault):
            await reply.notice("coach.not_saved")
            return
        if match is None or row is None or row.seed is None:
            await reply.notice("table.session_gone")
            return
        if match.channel_id != interaction.channel_id:
            await reply.notice("table.other_channel")
            return
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            await reply.notice("coach.not_player")
            return
        if row.rules_version != match.game.rules_version:
            await reply.notice("coach.old_rules")
            return
        if row.moves_pruned_at is not None or not row.actions:
            # ``replay_days`` passed: nothing to judge, nor to draw a kept review's positions from.
            await reply.notice("coach.pruned")
            return
        record = Match(match.id, match.game.key, len(match.seats), row.options, row.seed, tuple(row.actions))
        try:
            stored = await self.storage.review(match.id, seat)
        except StorageFault:
            stored = None
        if stored is not None:
            await reply.send_ephemeral(await self._shown(match, record, Review.from_json(stored), reply.lang))
            return
        await reply.send_ephemeral(progress(reply.lang, 0.0))
        key = (match.id, seat)
        self._watching.setdefault(key, []).append(reply)
        task = self._running.get(key)
        if task is None:
            task = self._running[key] = asyncio.create_task(self._review(record, seat))
            task.add_done_callback(lambda _: self._running.pop(key, None))
        try:
            done = await asyncio.shield(task)
        except Exception:
            log.exception("the review of seat %s of match %s failed", seat, match.id)
            await self._edit(reply, said(reply.lang, "coach.failed"))
            return
        finally:
            waiting = self._watching.get(key, [])
            if reply in waiting:
                waiting.remove(reply)
            if not waiting:
                self._watching.pop(key, None)
        await self._edit(reply, await self._shown(match, record, done, reply.lang))

    def close(self) -> None:
        """The bot is stopping: the reviews under way end here (nothing of them was kept; the next
        press starts them again)."""
        for task in list(self._running.values()):
            task.cancel()

    async def _review(self, record: Match, seat: int) -> Review:
        """Make the review in the workers, tell its watchers how far it got, and keep it."""
        key = (record.id, seat)
        shown = [0.0]

        async def told(done: float) -> None:
            if done - shown[0] < STEP:
                return
            shown[0] = done
            for reply in list(self._watching.get(key, [])):
                await self._edit(reply, progress(reply.lang, done))

        made = await reviews.conduct(record, seat, self._run, told)
        try:
            await self.storage.save_review(record.id, seat, made.to_json(), self.clock.now())
        except StorageFault:
            log.warning("the review of seat %s of match %s could not be kept; it is shown all the same", seat, record.id)
        return made

    async def _run(self, work: Any, *args: Any) -> Any:
        """One job of a review: in a worker process, or (without a pool) in a thread."""
        if self.computers is not None:
            return await self.computers.run(work, *args)
        return await asyncio.to_thread(work, *args)

    async def _shown(self, match: Session, record: Match, made: Review, lang: str) -> Rendered:
        """The rendered review, its positions rebuilt and its pictures drawn in a thread."""
        return await asyncio.to_thread(_rendered, match, record, made, lang)

    async def _edit(self, reply: Reply, rendered: Rendered) -> None:
        """Edit the presser's answer (best effort: its token may have run out, or it was dismissed)."""
        try:
            await webhooks.edit_original(reply.interaction, **media.edit_kwargs(rendered, None))
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as exc:
            # The review goes on (and is kept): a failed edit of one answer must not end it for all.
            log.info("could not show a review in its answer: %s", str(exc) or type(exc).__name__)


def _rendered(match: Session, record: Match, made: Review, lang: str) -> Rendered:
    game = match.game
    walked = Walked(game, record.players, game.parse_options(record.options), record.seed,
                    [(seat, Action.parse(key)) for seat, key in record.actions])
    return render(match, made, walked, lang)
