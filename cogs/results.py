"""/leaderboard (by rating or wins) and /stats: read-only views of the results and ratings in storage."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.app import Spieltisch
from bot.i18n import language, t
from bot.storage.store import Storage
from bot.transport.commands_i18n import cmd
from bot.transport.tree import ResolvedUser, guild_of
from bot.ui.results import render_leaderboard, render_rating_board, render_stats
from cogs.games import game_choices

BY = ("rating", "wins")


class Results(commands.Cog):
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @app_commands.command(name=cmd("leaderboard.name"), description=cmd("leaderboard.description"))
    @app_commands.rename(game=cmd("leaderboard.game.name"), computers=cmd("leaderboard.computers.name"),
                         by=cmd("leaderboard.by.name"))
    @app_commands.describe(game=cmd("leaderboard.game.description"),
                           computers=cmd("leaderboard.computers.description"), by=cmd("leaderboard.by.description"))
    @app_commands.choices(game=game_choices(),
                          by=[app_commands.Choice(name=cmd(f"leaderboard.by.{b}"), value=b) for b in BY])
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None,
        computers: bool = False, by: app_commands.Choice[str] | None = None,
    ) -> None:
        lang = language(str(interaction.locale))
        guild_id = guild_of(interaction)
        storage = self.storage
        key = game.value if game else await storage.most_played_game(guild_id)
        if key is None or key not in games.REGISTRY:
            await interaction.response.send_message(t(lang, "results.no_results"), ephemeral=True)
            return
        name = games.REGISTRY[key].name
        if by is not None and by.value == "wins":
            board = await storage.leaderboard(guild_id, key, include_computer_matches=computers,
                                              user_id=interaction.user.id)
            text = render_leaderboard(board, name, lang, computers)
        else:
            ratings = await storage.rating_board(guild_id, key, include_computers=computers,
                                                 user_id=interaction.user.id)
            text = render_rating_board(ratings, name, lang, computers)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=cmd("stats.name"), description=cmd("stats.description"))
    @app_commands.rename(user=cmd("stats.user.name"))
    @app_commands.describe(user=cmd("stats.user.description"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    user: app_commands.Transform[discord.User, ResolvedUser] | None = None) -> None:
        lang = language(str(interaction.locale))
        who = user or interaction.user
        guild_id = guild_of(interaction)
        rows = await self.storage.stats(guild_id, who.id)
        ratings = await self.storage.rating_trends(guild_id, who.id)
        text = render_stats(rows, who.display_name, lang, ratings)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: Spieltisch) -> None:
    assert bot.storage is not None      # opened by ``setup_hook``, which loads the cogs
    await bot.add_cog(Results(bot.storage))
