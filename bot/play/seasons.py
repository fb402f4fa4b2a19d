"""The seasons' clock: monthly seasons end at the month's end (UTC), and an ended season's top three
of each game are posted to the channel its server chose, in the server's language.

The database is the schedule (``bot/storage/seasons.py``): at start-up the keeper catches up on what
came due while the bot was down, then sleeps until the next month's end or owed post of its shards'
servers. Every process may try; the database lets one end a season and one take its post (for
``lease`` seconds: a process that stops between taking the post and sending it leaves it to be
taken again once the lease is over, so a restart in the middle posts it once).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import language
from bot.play.clock import Background, Clock
from bot.storage.seasons import Season
from bot.storage.shards import Shards
from bot.storage.store import Storage, StorageFault
from bot.ui.seasons import end_post

log = logging.getLogger("spieltisch.seasons")


class SeasonKeeper(Background):
    """Ends monthly seasons and posts every season's end, once, whichever process gets there first."""

    #: Seconds a process holds an owed post it took before another may take it.
    lease = 300.0
    #: Seconds before trying again after the database took no write.
    retry_after = 60.0

    task_name = "seasons"

    def __init__(self, storage: Storage, clock: Clock, client: Any, *, shards: Shards | None = None) -> None:
        self._storage = storage
        self._clock = clock
        #: The Discord client: the servers' languages and the channels to post in.
        self._client = client
        self._shards = shards
        self._wakeup: asyncio.Event = asyncio.Event()
        self._parked = asyncio.Event()
        self.posted = 0

    def wake(self) -> None:
        """A season changed (``/season``): look at the schedule again."""
        self._parked.clear()
        self._wakeup.set()

    async def idle(self) -> None:
        """Until the keeper did everything due and waits for the clock again (tests)."""
        await self._parked.wait()

    async def _run(self) -> None:
        while True:
            self._wakeup.clear()
            try:
                await self.tick()
                due = await self._storage.next_season_due(shards=self._shards)
            except StorageFault:        # logged by the storage; the next try may find it writable
                due = self._clock.now() + self.retry_after
            except Exception:           # a bug must not stop the seasons for good: logged, tried again
                log.exception("the seasons could not be kept up to date; trying again later")
                due = self._clock.now() + self.retry_after
            await self._sleep(due)

    async def _sleep(self, due: float | None) -> None:
        """Until ``due`` on the clock, or until woken."""
        loop = asyncio.get_running_loop()
        alarm = None
        if due is not None:
            def ring() -> None:
                self._parked.clear()
                loop.call_soon(self._wakeup.set)
            alarm = self._clock.call_at(due, ring)
        self._parked.set()
        try:
            await self._wakeup.wait()
        finally:
            if alarm is not None:
                alarm.cancel()

    async def tick(self) -> None:
        """End what is over, then post every owed season end this process takes."""
        now = self._clock.now()
        await self._storage.roll_seasons(now, shards=self._shards)
        for season in await self._storage.claim_season_posts(now, self.lease, shards=self._shards):
            await self._post(season)

    async def _post(self, season: Season) -> None:
        played = await self._storage.season_games(season.id)
        if played:
            # Caught up at start-up before the gateway connects: the channel to post in is known once
            # it is ready (it was found "gone" whenever the database answered quicker than the gateway).
            await self._client.wait_until_ready()
        channel = self._client.get_channel(season.channel_id) if season.channel_id is not None else None
        if played and channel is None:
            log.warning("season %s of server %s ended, but its channel %s is gone: nothing posted",
                        season.id, season.guild_id, season.channel_id)
        if played and channel is not None:
            guild = self._client.get_guild(season.guild_id)
            lang = language(str(guild.preferred_locale) if guild is not None else None)
            boards = [(game, await self._storage.rating_board(season.guild_id, game, season=season.id, limit=3))
                      for game in played]
            try:
                await channel.send(end_post(season, boards, lang), allowed_mentions=discord.AllowedMentions.none())
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning("season %s of server %s ended, but Discord refused its post in channel %s: %s",
                            season.id, season.guild_id, season.channel_id, exc)
            except (discord.HTTPException, OSError) as exc:     # taken again once the lease is over
                log.warning("the post of season %s could not be sent (%s); trying again later", season.id, exc)
                return
            else:
                self.posted += 1
        await self._storage.season_posted(season.id)
