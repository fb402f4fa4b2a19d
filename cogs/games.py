"""/start, /stop, /table and /rules."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.clicks import Reply, can_manage
from bot.commands_i18n import cmd
from bot.i18n import language, t
from bot.permissions import missing_permissions
from bot.sessions import Refusal
from bot.ui import lobby as lobby_ui
from bot.ui.presenters import playable


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cmd(f"game.{key}"), value=key) for key in playable()
    ]


class Games(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name=cmd("start.name"), description=cmd("start.description"))
    @app_commands.rename(game=cmd("start.game.name"))
    @app_commands.describe(game=cmd("start.game.description"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        reply = Reply(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            await reply.notice("table.channel_kind")
            return
        missing = missing_permissions(interaction.app_permissions, is_thread=isinstance(channel, discord.Thread))
        if missing:
            names = ", ".join(t(reply.lang, f"permissions.{name}") for name in missing)
            await reply.notice("table.missing_permissions", names=names)
            return
        try:
            session = await self.bot.sessions.open_lobby(
                interaction.guild_id, channel.id, game.value, interaction.user.id,
                interaction.user.display_name, language(str(interaction.locale)),
                lobby_ttl=self.bot.settings.lobby_timeout_minutes * 60,
            )
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        rendered = lobby_ui.render(session, self.bot.lobby_expiry(session))
        response = await interaction.response.send_message(rendered.content, view=rendered.view)
        await self.bot.sessions.set_messages(session, lobby=response.message_id)

    @app_commands.command(name=cmd("stop.name"), description=cmd("stop.description"))
    @app_commands.guild_only()
    async def stop(self, interaction: discord.Interaction) -> None:
        reply = Reply(interaction)
        session = self.bot.sessions.by_channel(interaction.channel_id)
        if session is None:
            await reply.notice("table.no_game_here")
            return
        was_lobby = session.status == "lobby"
        try:
            if was_lobby:
                await self.bot.sessions.cancel(session, interaction.user.id, can_manage=can_manage(interaction))
            else:
                await self.bot.sessions.stop(session, interaction.user.id, can_manage=can_manage(interaction))
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await interaction.response.send_message(
            t(session.lang, "table.stopped_by", name=interaction.user.display_name, game=session.game.name))
        if was_lobby:
            await self.bot.tables.redraw_lobby(session)
        else:
            self.bot.tables.changed(session)

    @app_commands.command(name=cmd("table.name"), description=cmd("table.description"))
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        reply = Reply(interaction)
        session = self.bot.sessions.by_channel(interaction.channel_id)
        if session is None or session.status != "playing":
            await reply.notice("table.no_game_here")
            return
        await reply.notice("table.reposting")
        self.bot.tables.repost(session)

    @app_commands.command(name=cmd("rules.name"), description=cmd("rules.description"))
    @app_commands.rename(game=cmd("rules.game.name"))
    @app_commands.describe(game=cmd("rules.game.description"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        lang = language(str(interaction.locale))
        text = t(lang, f"{game.value}.ui.rules")
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(Games(bot))
