"""The slash-command tree: every command error gets a short answer in the user's language.

discord.py's default ``on_error`` only logs, so a forged option (a choice we never offered, a user
Discord did not resolve) left the user with "The application did not respond".
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.transport.reply import Reply

log = logging.getLogger("spieltisch.commands")

#: What the user is told for each kind of error that bad input (not a bug of ours) causes.
_EXPLAINED: tuple[tuple[type[app_commands.AppCommandError], str], ...] = (
    (app_commands.TransformerError, "table.bad_command_option"),
    (app_commands.CommandNotFound, "table.command_out_of_date"),
    (app_commands.CommandSignatureMismatch, "table.command_out_of_date"),
    (app_commands.NoPrivateMessage, "table.command_guild_only"),
)


def guild_of(interaction: discord.Interaction) -> int:
    """The server of a ``guild_only`` command (Discord sends those from servers only; one that came
    from elsewhere is answered as discord.py answers a guild-only command in a private message)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


class Tree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        key = next((key for kind, key in _EXPLAINED if isinstance(error, kind)), None)
        if key is None:
            log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
            key = "table.command_failed"
        else:
            log.info("refused a command: %s", error)
        try:
            await Reply(interaction).notice(key)
        except discord.HTTPException:
            log.info("could not answer a failed command", exc_info=True)


class ResolvedUser(app_commands.Transformer):
    """A user option Discord resolved. discord.py hands a bare ``discord.Object`` to the command when
    the interaction carries an id without its resolved user (only a modified client sends that), and
    ``.display_name`` then fails; here it becomes a ``TransformerError``, answered above."""

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.user

    async def transform(self, interaction: discord.Interaction, value: Any, /) -> discord.User | discord.Member:
        if not isinstance(value, discord.User | discord.Member):
            raise app_commands.TransformerError(value, self.type, self)
        return value
