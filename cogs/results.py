"""/leaderboard and /stats: read-only views of the result rows in storage."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.commands_i18n import cmd
from bot.i18n import language, t
from bot.tree import ResolvedUser
from bot.ui.results import render_leaderboard, render_stats
from cogs.games import game_choices


class Results(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("leaderboard.name"), description=cmd("leaderboard.description"))
    @app_commands.rename(game=cmd("leaderboard.game.name"), computers=cmd("leaderboard.computers.name"))
    @app_commands.describe(game=cmd("leaderboard.game.description"),
                           computers=cmd("leaderboard.computers.description"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None,
        computers: bool = False,
    ) -> None:
        lang = language(str(interaction.locale))
        storage = self.bot.storage
        key = game.value if game else await storage.most_played_game(interaction.guild_id)
        if key is None or key not in games.REGISTRY:
            await interaction.response.send_message(t(lang, "results.no_results"), ephemeral=True)
            return
        board = await storage.leaderboard(interaction.guild_id, key, include_computer_matches=computers,
                                          user_id=interaction.user.id)
        text = render_leaderboard(board, games.REGISTRY[key].name, lang, computers)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=cmd("stats.name"), description=cmd("stats.description"))
    @app_commands.rename(user=cmd("stats.user.name"))
    @app_commands.describe(user=cmd("stats.user.description"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    user: app_commands.Transform[discord.User, ResolvedUser] | None = None) -> None:
        lang = language(str(interaction.locale))
        who = user or interaction.user
        rows = await self.bot.storage.stats(interaction.guild_id, who.id)
        text = render_stats(rows, who.display_name, lang)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot) -> None:
    await bot.add_cog(Results(bot))
