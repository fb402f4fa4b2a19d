"""Raw Discord API v10 payloads (gateway and REST) the double sends to the bot.

Shapes follow what discord.py 2.7.1 parses; fields it requires are marked where it is not obvious
(`attachment_size_limit` in interactions since 2.6, a full `user` in `interaction_metadata`, `flags`
on members, `thread_metadata` on threads).
"""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from typing import Any

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
SEND_TTS_MESSAGES = 1 << 12
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

#: What a plain member may do in an ordinary text channel.
MEMBER_PERMISSIONS = (
    CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
    | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CHANGE_NICKNAME | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
)
#: What the bot was invited with: the README's invite (the bot's own role carries them). Whatever
#: else it has in a channel comes from @everyone and the channel's overwrites.
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | SEND_MESSAGES_IN_THREADS | ATTACH_FILES

# Message flags.
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
IS_COMPONENTS_V2 = 1 << 15

# Message types (message.mdx): a message posted with the bot token is DEFAULT; the messages made
# through an interaction's token (its response and follow-ups) are of the interaction's kind.
DEFAULT = 0
REPLY = 19
CHAT_INPUT_COMMAND = 20
CONTEXT_MENU_COMMAND = 23

# Channel types.
GUILD_TEXT = 0
DM = 1
PUBLIC_THREAD = 11

# Interaction types.
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
APPLICATION_COMMAND_AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


class Snowflakes:
    """Real-time snowflakes (time << 22 | increment), strictly increasing, from an injectable clock.

    discord.py derives `Interaction.expires_at` from the id, so ids must carry the current time.
    """

    def __init__(self, clock: Callable[[], float]):
        self._clock = clock
        self._last = 0

    def __call__(self) -> str:
        value = (int(self._clock() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(value, self._last + 1)
        return str(self._last)

    def on_shard(self, shard_id: int, shard_count: int) -> str:
        """The next snowflake whose guild would land on ``shard_id`` of ``shard_count`` (at most
        ``shard_count - 1`` ms ahead), so a test can place a guild on a shard."""
        at = int(self()) >> 22
        self._last = (at + (shard_id - at) % shard_count) << 22
        return str(self._last)


def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


def user(uid: str, name: str, *, bot: bool = False) -> dict:
    return {"id": uid, "username": name, "discriminator": "0", "global_name": None if bot else name.title(),
            "avatar": None, "bot": bot, "public_flags": 0, "flags": 0, "banner": None, "accent_color": None}


def role(rid: str, name: str, permissions: int, position: int) -> dict:
    return {"id": rid, "name": name, "permissions": str(permissions), "position": position, "color": 0,
            "hoist": False, "managed": False, "mentionable": False, "flags": 0, "icon": None,
            "unicode_emoji": None}


def member(user_payload: dict, roles: list[str], *, joined_at: str, permissions: int | None = None) -> dict:
    m = {"user": user_payload, "roles": roles, "joined_at": joined_at, "deaf": False, "mute": False,
         "flags": 0, "pending": False, "nick": None, "avatar": None, "premium_since": None,
         "communication_disabled_until": None}
    if permissions is not None:          # only in interactions: the member's permissions in the channel
        m["permissions"] = str(permissions)
    return m


def overwrite(target_id: str, allow: int, deny: int, *, kind: int = 1) -> dict:
    """A channel's permission overwrite: ``kind`` 0 for a role (@everyone's id is the guild's), 1 for a member."""
    return {"id": target_id, "type": kind, "allow": str(allow), "deny": str(deny)}


def text_channel(cid: str, guild_id: str, name: str, position: int, overwrites: list[dict]) -> dict:
    return {"id": cid, "type": GUILD_TEXT, "guild_id": guild_id, "name": name, "position": position,
            "permission_overwrites": overwrites, "nsfw": False, "parent_id": None, "topic": None,
            "last_message_id": None, "rate_limit_per_user": 0, "flags": 0}


def thread(cid: str, guild_id: str, parent_id: str, owner_id: str, name: str, *, created: str,
           message_count: int = 0) -> dict:
    return {"id": cid, "type": PUBLIC_THREAD, "guild_id": guild_id, "parent_id": parent_id,
            "owner_id": owner_id, "name": name, "last_message_id": None, "rate_limit_per_user": 0,
            "message_count": message_count, "member_count": 1, "total_message_sent": message_count,
            "flags": 0, "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                            "archive_timestamp": created, "locked": False,
                                            "create_timestamp": created}}


def guild(gid: str, name: str, *, owner_id: str, locale: str, roles: list[dict], channels: list[dict],
          threads: list[dict], members: list[dict], joined_at: str) -> dict:
    return {"id": gid, "name": name, "icon": None, "owner_id": owner_id, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "roles": roles, "emojis": [], "stickers": [], "features": [], "mfa_level": 0,
            "system_channel_id": None, "system_channel_flags": 0, "rules_channel_id": None,
            "vanity_url_code": None, "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": locale, "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "unavailable": False, "large": False,
            "member_count": len(members), "members": members, "channels": channels, "threads": threads,
            "voice_states": [], "presences": [], "stage_instances": [], "guild_scheduled_events": [],
            "soundboard_sounds": [], "joined_at": joined_at}


#: What a user and the bot may do in their direct messages (no guild, so no roles).
DM_PERMISSIONS = (VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES | READ_MESSAGE_HISTORY | ADD_REACTIONS
                  | USE_EXTERNAL_EMOJIS | USE_APPLICATION_COMMANDS)


def dm_channel(cid: str, recipient: dict) -> dict:
    return {"id": cid, "type": DM, "last_message_id": None, "flags": 0, "recipients": [recipient]}


def message(mid: str, channel_id: str, author: dict, *, guild_id: str | None, timestamp: str,
            flags: int = 0, mtype: int = 0) -> dict:
    """An empty message; the body fields (content, embeds, components...) are merged in by the caller."""
    m = {"id": mid, "channel_id": channel_id, "author": author, "content": "", "timestamp": timestamp,
         "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
         "mention_roles": [], "attachments": [], "embeds": [], "components": [], "pinned": False,
         "type": mtype, "flags": flags}
    if guild_id is not None:
        m["guild_id"] = guild_id
    return m


def interaction_metadata(interaction: dict, invoker: dict, *, interacted_message_id: str | None,
                         original_response_message_id: str | None = None) -> dict:
    """Who acted and on what; ``original_response_message_id`` only on follow-ups (message.mdx)."""
    meta = {"id": interaction["id"], "type": interaction["type"], "user": invoker,
            "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {})}
    if original_response_message_id is not None:
        meta["original_response_message_id"] = original_response_message_id
    if interacted_message_id is not None:
        meta["interacted_message_id"] = interacted_message_id
    if interaction["type"] == APPLICATION_COMMAND:
        meta["name"] = interaction["data"]["name"]
        meta["command_type"] = interaction["data"].get("type", 1)
    return meta


def interaction(*, iid: str, token: str, itype: int, app_id: str, data: dict, guild_id: str | None,
                channel: dict, member_payload: dict, locale: str, guild_locale: str | None,
                app_permissions: int, message_payload: dict | None = None) -> dict:
    """In a guild the user comes as ``member``; in a DM with the bot as ``user``, without any guild
    field, in context BOT_DM (1), and GUILD_INSTALL's owner is "0" (receiving-and-responding.md)."""
    p = {"id": iid, "application_id": app_id, "type": itype, "data": data, "token": token, "version": 1,
         "channel": channel, "channel_id": channel["id"], "locale": locale,
         "app_permissions": str(app_permissions), "entitlements": [],
         "attachment_size_limit": ATTACHMENT_SIZE_LIMIT}
    if guild_id is None:
        p.update(user=member_payload["user"], authorizing_integration_owners={"0": "0"}, context=1)
    else:
        p.update(guild_id=guild_id, guild={"id": guild_id, "locale": guild_locale, "features": []},
                 member=member_payload, guild_locale=guild_locale,
                 authorizing_integration_owners={"0": guild_id}, context=0)
    if message_payload is not None:
        p["message"] = message_payload
    return p


def application(app_id: str, name: str, owner: dict) -> dict:
    return {"id": app_id, "name": name, "icon": None, "description": "", "summary": "", "type": None,
            "bot_public": True, "bot_require_code_grant": False, "owner": owner, "verify_key": "0" * 64,
            "flags": 0, "team": None, "interactions_endpoint_url": None, "tags": []}


def copied(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, tuples, scalars): what ``copy.deepcopy`` gives
    for it, several times faster (no memo; a payload has no cycles and no shared parts to keep)."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else copied(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else copied(v) for v in value]
    if kind is tuple:
        return tuple(copied(v) for v in value)
    if kind in _SCALARS:
        return value
    return copy.deepcopy(value)


_SCALARS = frozenset({str, int, float, bool, type(None)})
