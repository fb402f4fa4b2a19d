"""The channel permissions the bot needs to run a table, checked before a lobby opens."""

from __future__ import annotations

import discord

#: Permission attribute names; the text of each is ``permissions.<name>`` in the catalogues.
NEEDED = ("view_channel", "send_messages")
NEEDED_IN_THREADS = ("view_channel", "send_messages_in_threads")


def missing_permissions(perms: discord.Permissions, *, is_thread: bool) -> list[str]:
    needed = NEEDED_IN_THREADS if is_thread else NEEDED
    return [name for name in needed if not getattr(perms, name)]
