"""/replace: the host hands a player's seat to a computer player for the rest of the match."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Spieltisch
from bot.i18n import t
from bot.play.changes import Change, Changes
from bot.play.clicks import answer
from bot.play.sessions import LEVELS, Refusal, SessionManager
from bot.storage.status import Status
from bot.transport.commands_i18n import cmd
from bot.transport.reply import Reply
from bot.transport.tree import ResolvedUser
from cogs.games import level_choices


class Seats(commands.Cog):
    def __init__(self, sessions: SessionManager, changes: Changes) -> None:
        self.sessions = sessions
        self.changes = changes

    @app_commands.command(name=cmd("replace.name"), description=cmd("replace.description"))
    @app_commands.rename(player=cmd("replace.player.name"), level=cmd("replace.level.name"))
    @app_commands.describe(player=cmd("replace.player.description"), level=cmd("replace.level.description"))
    @app_commands.choices(level=level_choices())
    @app_commands.guild_only()
    async def replace(self, interaction: discord.Interaction,
                      player: app_commands.Transform[discord.User, ResolvedUser],
                      level: app_commands.Choice[str] | None = None) -> None:
        reply = Reply(interaction)
        session = self.sessions.by_channel(interaction.channel_id)
        if session is None or session.status != Status.PLAYING:
            await reply.notice("table.no_game_here")
            return
        index = next((i for i, seat in enumerate(session.seats) if seat.user_id == player.id), None)
        try:
            if index is None:
                raise Refusal("core.no_such_seat")
            seat = await self.sessions.replace_with_computer(
                session, interaction.user.id, index, level.value if level else LEVELS[0])
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await answer(reply, interaction.response.send_message(
            t(session.lang, "table.replaced", name=player.display_name, level=t(session.lang, f"lobby.level_{seat.level}"))))
        await self.changes.tell(Change(session))


async def setup(bot: Spieltisch) -> None:
    await bot.add_cog(Seats(bot.sessions, bot.changes))
