"""/replay: the caller's last finished matches in this server, to step through privately
(``bot/replays``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Spieltisch
from bot.replays.replays import Replays
from bot.transport.commands_i18n import cmd
from bot.transport.reply import Reply
from bot.transport.tree import guild_of


class ReplayCommand(commands.Cog):
    def __init__(self, replays: Replays) -> None:
        self.replays = replays

    @app_commands.command(name=cmd("replay.name"), description=cmd("replay.description"))
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction) -> None:
        await self.replays.listing(Reply(interaction), guild_of(interaction))


async def setup(bot: Spieltisch) -> None:
    await bot.add_cog(ReplayCommand(bot.replays))
