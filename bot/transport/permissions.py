"""The channel permissions the bot's requests need, checked before a lobby opens; the invite asks for them.

Every table message is posted with its picture as a file (Attach Files); the bot sends no embeds,
replies to nothing, reads no messages and deletes only its own, so it needs nothing more.
"""

from __future__ import annotations

import discord

#: Permission attribute names; the text of each is ``permissions.<name>`` in the catalogues.
NEEDED = ("view_channel", "send_messages", "attach_files")
NEEDED_IN_THREADS = ("view_channel", "send_messages_in_threads", "attach_files")
#: What the table can do without: its pictures (the lobby's setting) need this one alone.
PICTURES = "attach_files"
#: The invite's permissions (README: "Creating the Discord application").
INVITE = discord.Permissions(**dict.fromkeys({*NEEDED, *NEEDED_IN_THREADS}, True))


def needed(*, is_thread: bool) -> tuple[str, ...]:
    return NEEDED_IN_THREADS if is_thread else NEEDED


def missing_permissions(perms: discord.Permissions, *, is_thread: bool) -> list[str]:
    return [name for name in needed(is_thread=is_thread) if not getattr(perms, name)]
