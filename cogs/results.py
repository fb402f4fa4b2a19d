"""/leaderboard (by rating or wins) and /stats: read-only views of the results and ratings in storage,
all time or of one season (``season:``, chosen from an autocomplete; the current one by default)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games
from bot.app import Spieltisch
from bot.i18n import language, t
from bot.play.clock import Clock
from bot.storage.seasons import Season
from bot.storage.store import Storage
from bot.transport.commands_i18n import cmd
from bot.transport.tree import ResolvedUser, guild_of
from bot.ui import seasons as season_ui
from bot.ui.results import render_leaderboard, render_rating_board, render_stats
from cogs.games import game_choices

BY = ("rating", "wins")


class Results(commands.Cog):
    def __init__(self, storage: Storage, clock: Clock) -> None:
        self.storage = storage
        self.clock = clock

    async def _season(self, interaction: discord.Interaction, guild_id: int, value: str | None,
                      ) -> tuple[bool, Season | None, str | None]:
        """The season an option names (``None``: all time), and the line that says so under the title
        (none where the server never ran a season); ``False`` when no season has that name (the user
        was told)."""
        lang = language(str(interaction.locale))
        known = await self.storage.seasons(guild_id)
        current = await self.storage.current_season(guild_id, self.clock.now())
        if value is None:
            season = current
        elif value == season_ui.ALL_TIME:
            season = None
        else:
            season = season_ui.find(known, value)
            if season is None:
                await interaction.response.send_message(t(lang, "seasons.unknown", name=value[:100]), ephemeral=True)
                return False, None, None
        return True, season, season_ui.scope_line(season, lang) if known else None

    async def _season_choices(self, interaction: discord.Interaction, typed: str,
                              ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        known = await self.storage.seasons(interaction.guild_id)
        return [app_commands.Choice(name=name, value=value)
                for name, value in season_ui.choices(known, typed, language(str(interaction.locale)))]

    @app_commands.command(name=cmd("leaderboard.name"), description=cmd("leaderboard.description"))
    @app_commands.rename(game=cmd("leaderboard.game.name"), computers=cmd("leaderboard.computers.name"),
                         by=cmd("leaderboard.by.name"), season=cmd("leaderboard.season.name"))
    @app_commands.describe(game=cmd("leaderboard.game.description"),
                           computers=cmd("leaderboard.computers.description"), by=cmd("leaderboard.by.description"),
                           season=cmd("leaderboard.season.description"))
    @app_commands.choices(game=game_choices(),
                          by=[app_commands.Choice(name=cmd(f"leaderboard.by.{b}"), value=b) for b in BY])
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None,
        computers: bool = False, by: app_commands.Choice[str] | None = None, season: str | None = None,
    ) -> None:
        lang = language(str(interaction.locale))
        guild_id = guild_of(interaction)
        storage = self.storage
        found, chosen, scope = await self._season(interaction, guild_id, season)
        if not found:
            return
        within = chosen.id if chosen else None
        key = game.value if game else await storage.most_played_game(guild_id, season=within)
        if key is None and game is None and within is not None:     # nothing yet this season: say so on a board
            key = await storage.most_played_game(guild_id)
        if key is None or key not in games.REGISTRY:
            await interaction.response.send_message(t(lang, "results.no_results"), ephemeral=True)
            return
        name = games.REGISTRY[key].name
        if by is not None and by.value == "wins":
            board = await storage.leaderboard(guild_id, key, include_computer_matches=computers,
                                              user_id=interaction.user.id, season=within)
            text = render_leaderboard(board, name, lang, computers, scope)
        else:
            ratings = await storage.rating_board(guild_id, key, include_computers=computers,
                                                 user_id=interaction.user.id, season=within)
            text = render_rating_board(ratings, name, lang, computers, scope)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name=cmd("stats.name"), description=cmd("stats.description"))
    @app_commands.rename(user=cmd("stats.user.name"), season=cmd("stats.season.name"))
    @app_commands.describe(user=cmd("stats.user.description"), season=cmd("stats.season.description"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    user: app_commands.Transform[discord.User, ResolvedUser] | None = None,
                    season: str | None = None) -> None:
        lang = language(str(interaction.locale))
        who = user or interaction.user
        guild_id = guild_of(interaction)
        found, chosen, scope = await self._season(interaction, guild_id, season)
        if not found:
            return
        within = chosen.id if chosen else None
        rows = await self.storage.stats(guild_id, who.id, season=within)
        ratings = await self.storage.rating_trends(guild_id, who.id, season=within)
        text = render_stats(rows, who.display_name, lang, ratings, scope)
        await interaction.response.send_message(text, allowed_mentions=discord.AllowedMentions.none())

    @leaderboard.autocomplete("season")
    async def _leaderboard_seasons(self, interaction: discord.Interaction, typed: str,
                                   ) -> list[app_commands.Choice[str]]:
        return await self._season_choices(interaction, typed)

    @stats.autocomplete("season")
    async def _stats_seasons(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return await self._season_choices(interaction, typed)


async def setup(bot: Spieltisch) -> None:
    assert bot.storage is not None      # opened by ``setup_hook``, which loads the cogs
    await bot.add_cog(Results(bot.storage, bot.clock))
