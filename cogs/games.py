"""/start, /stop (or a vote to end), /table and /rules."""

from __future__ import annotations

import asyncio
import contextlib

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import Spieltisch
from bot.i18n import language, t
from bot.play.changes import Change, Changes
from bot.play.clicks import answer, can_manage
from bot.play.sessions import LEVELS, NotSaved, Refusal, SessionManager, computers_offered
from bot.play.writer import TableWriter
from bot.registry import playable
from bot.storage.status import Status
from bot.transport.commands_i18n import cmd
from bot.transport.permissions import PICTURES, missing_permissions
from bot.transport.reply import Reply
from bot.transport.tree import guild_of
from bot.ui import lobby as lobby_ui


def game_choices() -> list[app_commands.Choice[str]]:
    return [
        app_commands.Choice(name=cmd(f"game.{key}"), value=key) for key in playable()
    ]


def level_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=cmd(f"level.{level}"), value=level) for level in LEVELS]


class Games(commands.Cog):
    def __init__(self, client: discord.Client, sessions: SessionManager, changes: Changes, tables: TableWriter,
                 *, lobby_timeout: float) -> None:
        #: Asked whether a table's thread still exists when its parent channel is deleted.
        self.client = client
        self.sessions = sessions
        self.changes = changes
        #: Posts a table again (``/table``), and ends the tables of a channel that is gone.
        self.tables = tables
        #: Seconds an unstarted lobby stays open.
        self.lobby_timeout = lobby_timeout
        #: Threads whose THREAD_DELETE is being handled (a deleted channel need not look them up).
        self._reported: set[int] = set()

    @app_commands.command(name=cmd("start.name"), description=cmd("start.description"))
    @app_commands.rename(game=cmd("start.game.name"), computers=cmd("start.computers.name"),
                         level=cmd("start.level.name"))
    @app_commands.describe(game=cmd("start.game.description"), computers=cmd("start.computers.description"),
                           level=cmd("start.level.description"))
    @app_commands.choices(game=game_choices(), level=level_choices())
    @app_commands.guild_only()
    async def start(self, interaction: discord.Interaction, game: app_commands.Choice[str],
                    computers: app_commands.Range[int, 0, 6] = 0,
                    level: app_commands.Choice[str] | None = None) -> None:
        reply = Reply(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            await reply.notice("table.channel_kind")
            return
        # the interaction says what the bot may do here; without Attach Files alone the table goes
        # without pictures, without any other no table can be drawn
        missing = missing_permissions(interaction.app_permissions, is_thread=isinstance(channel, discord.Thread))
        blocking = [name for name in missing if name != PICTURES]
        if blocking:
            names = ", ".join(t(reply.lang, f"permissions.{name}") for name in blocking)
            await reply.notice("table.missing_permissions", names=names)
            return
        if computers and not computers_offered(game.value):
            await reply.notice("core.no_computers", game=self.sessions.games[game.value].name)
            return
        try:
            session = await self.sessions.open_lobby(
                guild_of(interaction), channel.id, game.value, interaction.user.id,
                interaction.user.display_name, language(str(interaction.locale)),
                lobby_ttl=self.lobby_timeout,
            )
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        strength = level.value if level else LEVELS[0]
        unsaved = None
        try:
            if missing:
                await self.sessions.set_pictures(session, interaction.user.id, "off")
            for _ in range(min(computers, session.game.max_players - 1)):
                await self.sessions.add_computer(
                    session, interaction.user.id, lobby_ui.computer_name(session), strength)
        except NotSaved as refusal:
            unsaved = refusal       # the lobby is open; the host can seat the rest from it
        rendered = lobby_ui.render(session, self.lobby_timeout)
        assert isinstance(rendered.view, discord.ui.View)       # the lobby is text with buttons, not a layout
        response = await interaction.response.send_message(rendered.content, view=rendered.view)
        with contextlib.suppress(NotSaved):     # unremembered, the lobby still answers its clicks
            await self.sessions.set_messages(session, lobby=response.message_id)
        if missing:
            await reply.notice("table.pictures_not_permitted", name=t(reply.lang, f"permissions.{PICTURES}"))
        if unsaved is not None:
            await reply.notice(unsaved.key)

    @app_commands.command(name=cmd("stop.name"), description=cmd("stop.description"))
    @app_commands.guild_only()
    async def stop(self, interaction: discord.Interaction) -> None:
        reply = Reply(interaction)
        session = self.sessions.by_channel(interaction.channel_id)
        if session is None:
            await reply.notice("table.no_game_here")
            return
        was_lobby = session.status == Status.LOBBY
        user_id = interaction.user.id
        in_charge = user_id == session.host_id or can_manage(interaction)
        try:
            if was_lobby:
                await self.sessions.cancel(session, user_id, can_manage=can_manage(interaction))
            elif in_charge:
                await self.sessions.stop(session, user_id, can_manage=True)
            else:
                votes, needed = await self.sessions.vote_to_end(session, user_id)
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        name = interaction.user.display_name
        if was_lobby or in_charge:
            text = t(session.lang, "table.stopped_by", name=name, game=session.game.name)
        elif session.is_live:
            text = t(session.lang, "table.vote", name=name, votes=votes, needed=needed)
        else:
            text = t(session.lang, "table.voted_out", game=session.game.name)
        await answer(reply, interaction.response.send_message(text))
        await self.changes.tell(Change(session))

    @app_commands.command(name=cmd("table.name"), description=cmd("table.description"))
    @app_commands.guild_only()
    async def table(self, interaction: discord.Interaction) -> None:
        reply = Reply(interaction)
        session = self.sessions.by_channel(interaction.channel_id)
        if session is None or session.status != Status.PLAYING:
            await reply.notice("table.no_game_here")
            return
        try:
            self.tables.claim_repost(session, interaction.user.id)
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await reply.notice("table.reposting")
        self.tables.repost(session)

    @app_commands.command(name=cmd("rules.name"), description=cmd("rules.description"))
    @app_commands.rename(game=cmd("rules.game.name"))
    @app_commands.describe(game=cmd("rules.game.description"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        lang = language(str(interaction.locale))
        text = t(lang, f"{game.value}.ui.rules")
        await interaction.response.send_message(text, ephemeral=True)


    # -- where tables can no longer be: Discord's GUILD_DELETE, CHANNEL_DELETE and THREAD_DELETE --
    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot was removed from a server (an outage is ``on_guild_unavailable``, not this)."""
        await self._gone(guild_id=guild.id, reason="removed")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await asyncio.sleep(0)      # the THREAD_DELETEs discord.py queued behind this event note theirs first
        await self._gone(channel_id=channel.id, reason="deleted")
        # Its threads went with it; discord.py reports only those it knew (archived ones are not
        # synced), so a table in a thread nobody reported is looked up once.
        for session in self.sessions.live():
            if (session.guild_id == channel.guild.id and session.channel_id not in self._reported
                    and channel.guild.get_channel_or_thread(session.channel_id) is None):
                try:
                    await self.client.fetch_channel(session.channel_id)
                except discord.NotFound:
                    await self._gone(channel_id=session.channel_id, reason="deleted")
                except discord.HTTPException:
                    pass                    # it may well exist; a later refusal says more

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self._reported.add(payload.thread_id)
        try:
            await self._gone(channel_id=payload.thread_id, reason="deleted")
        finally:
            self._reported.discard(payload.thread_id)

    async def _gone(self, *, reason: str, guild_id: int | None = None, channel_id: int | None = None) -> None:
        await self.tables.end_gone(guild_id=guild_id, channel_id=channel_id, reason=reason)


async def setup(bot: Spieltisch) -> None:
    await bot.add_cog(Games(bot, bot.sessions, bot.changes, bot.tables,
                            lobby_timeout=bot.settings.lobby_timeout_minutes * 60.0))
