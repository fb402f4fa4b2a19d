"""/season: a server's seasons (off, monthly, or a new one now), set by members with Manage Server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Spieltisch
from bot.play.clicks import can_manage
from bot.play.clock import Clock
from bot.play.seasons import SeasonKeeper
from bot.storage.seasons import MODES, NAME_LENGTH, SeasonRefused
from bot.storage.store import Storage, StorageFault
from bot.transport.commands_i18n import cmd
from bot.transport.reply import Reply
from bot.transport.tree import guild_of
from bot.ui import seasons as ui


class Seasons(commands.Cog):
    def __init__(self, storage: Storage, keeper: SeasonKeeper, clock: Clock) -> None:
        self.storage = storage
        self.keeper = keeper
        self.clock = clock

    @app_commands.command(name=cmd("season.name"), description=cmd("season.description"))
    @app_commands.rename(mode=cmd("season.mode.name"), name=cmd("season.title.name"),
                         channel=cmd("season.channel.name"))
    @app_commands.describe(mode=cmd("season.mode.description"), name=cmd("season.title.description"),
                           channel=cmd("season.channel.description"))
    @app_commands.choices(mode=[app_commands.Choice(name=cmd(f"season.mode.{m}"), value=m) for m in MODES])
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def season(
        self, interaction: discord.Interaction, mode: app_commands.Choice[str] | None = None,
        name: app_commands.Range[str, 1, NAME_LENGTH] | None = None,
        channel: discord.TextChannel | None = None,
    ) -> None:
        reply = Reply(interaction)
        guild_id = guild_of(interaction)
        # Discord hides the command from others, but a server may hand it to anyone: ask the member.
        if not can_manage(interaction):
            await reply.notice("seasons.refused_manage")
            return
        now = self.clock.now()
        if mode is None and channel is None:        # how they are set, to the asker alone
            text = ui.status(await self.storage.current_season(guild_id, now), reply.lang)
            await interaction.response.send_message(text, ephemeral=True)
        else:
            title = " ".join(name.split()) if name else None
            try:
                done = await self.storage.change_season(guild_id, mode.value if mode else None, name=title,
                                                        channel_id=channel.id if channel else None, now=now)
            except SeasonRefused as refused:
                await reply.notice(refused.key, name=title or "")
                return
            except StorageFault:
                await reply.notice("seasons.not_saved")
                return
            self.keeper.wake()      # a month's end to wait for, a post owed
            # a change concerns everyone who plays here: said in the channel
            await interaction.response.send_message(ui.changed(done.ended, done.current, reply.lang),
                                                    allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: Spieltisch) -> None:
    assert bot.storage is not None      # opened by ``setup_hook``, which loads the cogs
    await bot.add_cog(Seasons(bot.storage, bot.seasons, bot.clock))
