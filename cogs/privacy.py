"""/forget-me: remove one's name and id from the results the bot keeps (``bot/play/forget.py``)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Spieltisch
from bot.play.forget import Forget
from bot.transport.commands_i18n import cmd
from bot.transport.reply import Reply


class Privacy(commands.Cog):
    def __init__(self, forget: Forget) -> None:
        self.forget = forget

    @app_commands.command(name=cmd("forget.name"), description=cmd("forget.description"))
    async def forget_me(self, interaction: discord.Interaction) -> None:
        await self.forget.ask(Reply(interaction))


async def setup(bot: Spieltisch) -> None:
    await bot.add_cog(Privacy(bot.forget))
