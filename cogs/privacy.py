"""/forget-me: remove one's name and id from the results the bot keeps (``bot/play/forget.py``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.play import forget
from bot.transport.commands_i18n import cmd
from bot.transport.reply import Reply


class Privacy(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("forget.name"), description=cmd("forget.description"))
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await forget.ask(self.bot, Reply(interaction))


async def setup(bot) -> None:
    await bot.add_cog(Privacy(bot))
