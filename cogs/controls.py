"""Every button and select the bot sends arrives here, through one ``DynamicItem`` template.

``from_custom_id`` never raises (a malformed id still builds an item), so the user always gets an
answer instead of Discord's "This interaction failed"; ``bot.clicks`` decides what the click means.
"""

from __future__ import annotations

import re

import discord
from discord.ext import commands

from bot import ids
from bot.clicks import Clicks


class Control(discord.ui.DynamicItem[discord.ui.Item], template=ids.TEMPLATE):
    def __init__(self, item: discord.ui.Item) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> Control:
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(getattr(self.item, "values", []) or [])
        await interaction.client.clicks.handle(interaction, self.custom_id, values)


class Controls(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.clicks = Clicks(self.bot)
        self.bot.add_dynamic_items(Control)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(Control)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Controls(bot))
