"""Every button and select the bot sends arrives here.

All our custom_ids start with ``st:`` (``bot/transport/ids.py``); ``bot.play.clicks`` decides what a click means
and always answers. We listen to the raw interaction instead of registering a ``DynamicItem``:
discord.py would rebuild the clicked message's whole view (``View.from_message``) for every click
just to find the item, which the benchmark showed to be one of the largest costs of a move.
Rendered views are never registered either, so nothing else answers these clicks.
"""

from __future__ import annotations

import time
from typing import Any

import discord
from discord.ext import commands

from bot.app import Spieltisch
from bot.ops.metrics import Metrics
from bot.play.clicks import Clicks
from bot.transport import ids


class Controls(commands.Cog):
    def __init__(self, clicks: Clicks, metrics: Metrics) -> None:
        self.clicks = clicks
        self.metrics = metrics

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}      # a component's: its custom_id and, for a select, values
        custom_id = str(data.get("custom_id", ""))
        if not custom_id.startswith(f"{ids.PREFIX}:"):
            return
        values = [str(value) for value in data.get("values", [])]
        began = time.perf_counter()
        await self.clicks.handle(interaction, custom_id, values)
        self.metrics.clicks.observe(time.perf_counter() - began)


async def setup(bot: Spieltisch) -> None:
    await bot.add_cog(Controls(bot.clicks, bot.metrics))
