"""What the double knows: guilds, channels, threads, users, members, permissions, messages, interactions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any

from . import attachments as A
from . import components as C
from . import payloads as P
from . import permissions as perm

#: A message's attachments after a request, and the bytes of the files that request uploaded (by id).
Files = tuple[list[dict], dict[str, bytes]]


@dataclass(eq=False)
class User:
    id: str
    name: str
    locale: str = "en-US"
    bot: bool = False

    def payload(self) -> dict:
        return P.user(self.id, self.name, bot=self.bot)

    def __repr__(self) -> str:
        return f"<User {self.name} {self.locale}>"


@dataclass(eq=False)
class Guild:
    id: str
    name: str
    locale: str
    owner_id: str
    everyone_permissions: int
    joined_at: str
    channels: list[Channel] = field(default_factory=list)
    members: dict[str, Member] = field(default_factory=dict)
    roles: dict[str, perm.Role] = field(default_factory=dict)     # beyond @everyone and members' own

    def __repr__(self) -> str:
        return f"<Guild {self.name}>"


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    permissions: int            # guild-wide, on top of @everyone (carried by a role of its own)
    role_id: str
    joined_at: str
    roles: list[str] = field(default_factory=list)     # ids of the guild's other roles it has

    @property
    def role_ids(self) -> list[str]:
        return [self.role_id, *self.roles]


@dataclass(eq=False)
class Channel:
    id: str
    guild: Guild | None
    name: str
    type: int = P.GUILD_TEXT
    parent: Channel | None = None
    position: int = 0
    owner_id: str | None = None
    created: str = ""
    # permission overwrites by role or user id (a thread has none: it takes its parent's)
    overwrites: dict[str, perm.Overwrite] = field(default_factory=dict)
    # threads: archived after `auto_archive_duration` minutes without a message (threads.md)
    archived: bool = False
    auto_archive_duration: int = 1440
    active_at: float = 0.0
    archived_at: float = 0.0

    @property
    def is_thread(self) -> bool:
        return self.type == P.PUBLIC_THREAD

    @property
    def is_dm(self) -> bool:
        """A direct message channel between the bot and one user (``owner_id``); it has no guild."""
        return self.type == P.DM

    def __repr__(self) -> str:
        return f"<Channel #{self.name}>"


@dataclass(eq=False)
class Message:
    """One message as users see it now; `payload` is its current wire form."""

    payload: dict
    channel: Channel
    ephemeral_to: str | None = None          # user id: only this user sees it
    interaction: InteractionRecord | None = None
    deleted: bool = False
    aged: float = 0.0                        # seconds a test made the message older than its snowflake says
    old_edits: int = 0                       # edits since it was older than an hour (Discord's 30046)
    history: list[dict] = field(default_factory=list)   # earlier versions, oldest first
    blobs: dict[str, bytes] = field(default_factory=dict, repr=False)   # attachment id -> bytes uploaded
    #: Every file of the message: those its components or embeds show as well as those its
    #: ``attachments`` field lists (only the unreferenced ones, as on Discord).
    held: list[dict] = field(default_factory=list)

    id = property(lambda self: self.payload["id"])
    author_id = property(lambda self: self.payload["author"]["id"])
    content = property(lambda self: self.payload.get("content") or "")
    embeds = property(lambda self: self.payload.get("embeds") or [])
    components = property(lambda self: self.payload.get("components") or [])
    flags = property(lambda self: self.payload.get("flags") or 0)
    is_v2 = property(lambda self: bool(self.flags & P.IS_COMPONENTS_V2))
    ephemeral = property(lambda self: bool(self.flags & P.EPHEMERAL))
    loading = property(lambda self: bool(self.flags & P.LOADING))
    text = property(lambda self: C.visible_text(self.payload))
    texts = property(lambda self: C.visible_texts(self.payload))
    custom_ids = property(lambda self: C.custom_ids(self.payload))
    option_values = property(lambda self: C.option_values(self.payload))
    labels = property(lambda self: C.labels(self.payload))
    #: The ``attachments`` field as Discord sends it: the files no component or embed shows.
    attachments = property(lambda self: self.payload.get("attachments") or [])
    mentions = property(lambda self: [u["id"] for u in self.payload.get("mentions") or ()])

    @property
    def shown(self) -> list[dict]:
        """The attachment of every file a user sees on the message: those its components show
        (found by the ``attachment_id`` of their unfurled media items), then the listed ones."""
        ids: set[str] = set()
        A.shown_ids(self.components, ids)
        return [a for a in self.held if a["id"] in ids] + list(self.attachments)

    def file(self, filename: str) -> bytes:
        """The bytes of the file with this name that the message shows (as a user would download them)."""
        for a in self.shown:
            if a["filename"] == filename:
                return self.blobs[a["id"]]
        raise AssertionError(f"message {self.id} shows no file {filename!r}; it shows "
                             f"{[a['filename'] for a in self.shown]}")

    @property
    def files(self) -> dict[str, bytes]:
        """The bytes of every file the message shows, by file name."""
        return {a["filename"]: self.blobs[a["id"]] for a in self.shown}

    def has_component(self, custom_id: str | None = None, *, label: str | None = None) -> bool:
        return C.find_component(self.payload, custom_id, label=label) is not None

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict:
        found = C.find_component(self.payload, custom_id, label=label)
        if found is None:
            raise AssertionError(f"message {self.id} has no component {custom_id or label!r}; it has "
                                 f"{C.describe(self.payload)}")
        return found

    @property
    def rendered(self) -> dict:
        """The parts the bot rendered (for comparing renderings): no ids, times or authors."""
        return {"content": self.content, "embeds": self.embeds, "components": self.components,
                "flags": self.flags & ~P.LOADING,
                "attachments": [a.get("filename") for a in self.shown]}

    def __repr__(self) -> str:
        who = f" ephemeral to {self.ephemeral_to}" if self.ephemeral_to else ""
        return f"<Message {self.id} in #{self.channel.name}{who}: {self.text[:60]!r}>"


@dataclass(eq=False)
class InteractionRecord:
    """One user action and everything the bot did with its token."""

    payload: dict
    user: User
    channel: Channel
    created: float                             # double clock
    source: Message | None = None              # the message whose component was used
    callback: dict | None = None               # the accepted callback body
    callback_at: float | None = None
    original: Message | None = None            # the message the response created or edited
    followups: list[Message] = field(default_factory=list)
    edits: list[dict] = field(default_factory=list)
    rejected: list[Any] = field(default_factory=list)   # RequestRecords answered with an error
    modal: dict | None = None
    choices: list[dict] | None = None           # what an autocomplete was answered with
    paced: float = 0.0                         # the double's real-time clock (``pace``) when created

    id = property(lambda self: self.payload["id"])
    token = property(lambda self: self.payload["token"])
    type = property(lambda self: self.payload["type"])
    acknowledged = property(lambda self: self.callback is not None)
    message = property(lambda self: self.original)

    @property
    def message_type(self) -> int:
        """The type of the messages its token creates (message.mdx): CHAT_INPUT_COMMAND (20) and
        CONTEXT_MENU_COMMAND (23) for commands, REPLY (19) for components and modals."""
        if self.type != P.APPLICATION_COMMAND:
            return P.REPLY
        return P.CHAT_INPUT_COMMAND if self.payload["data"].get("type", 1) == 1 else P.CONTEXT_MENU_COMMAND

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else self.callback["type"]

    @property
    def ephemeral(self) -> bool:
        if self.original is not None:
            return self.original.ephemeral
        return bool(((self.callback or {}).get("data") or {}).get("flags", 0) & P.EPHEMERAL)

    @property
    def response_time(self) -> float | None:
        return None if self.callback_at is None else self.callback_at - self.created

    def __repr__(self) -> str:
        return f"<Interaction {self.id} type={self.type} by {self.user.name} callback={self.callback_type}>"


class World:
    def __init__(self, snowflake, clock, bot_user: User, bot_permissions: int):
        self.snowflake = snowflake
        self.clock = clock
        self.bot = bot_user
        self.bot_permissions = bot_permissions
        self.users: dict[str, User] = {bot_user.id: bot_user}
        self.guilds: dict[str, Guild] = {}
        self.channels: dict[str, Channel] = {}
        self.messages: dict[str, Message] = {}
        self.channel_messages: dict[str, list[Message]] = {}
        self.interactions: dict[str, InteractionRecord] = {}      # by token

    # ------------------------------------------------------------------ building the world

    def add_user(self, name: str, *, locale: str = "en-US") -> User:
        u = User(self.snowflake(), name, locale)
        self.users[u.id] = u
        return u

    def add_guild(self, name: str, *, locale: str = "en-US", owner: User | None = None,
                  everyone_permissions: int = P.MEMBER_PERMISSIONS, shard: tuple[int, int] | None = None) -> Guild:
        now = P.iso(self.clock())
        owner_id = owner.id if owner is not None else self.snowflake()     # not the bot: owners may do all
        gid = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        g = Guild(gid, name, locale, owner_id, everyone_permissions, now)
        self.guilds[g.id] = g
        self._add_member(g, self.bot, self.bot_permissions)
        if owner is not None:
            self._add_member(g, owner, P.ALL_PERMISSIONS)
        return g

    def _add_member(self, guild: Guild, user: User, permissions: int) -> Member:
        m = Member(user, guild, permissions, self.snowflake(), P.iso(self.clock()))
        guild.members[user.id] = m
        return m

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0) -> Member:
        if user.id in guild.members:
            raise ValueError(f"{user} is already a member of {guild}")
        return self._add_member(guild, user, permissions)

    def add_role(self, guild: Guild, name: str, permissions: int) -> perm.Role:
        role = perm.Role(self.snowflake(), name, permissions, len(guild.members) + len(guild.roles) + 1)
        guild.roles[role.id] = role
        return role

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        ch = Channel(self.snowflake(), guild, name, position=len(guild.channels))
        guild.channels.append(ch)
        self.channels[ch.id] = ch
        return ch

    def add_thread(self, parent: Channel, name: str, *, owner: User | None = None,
                   auto_archive_duration: int = 1440) -> Channel:
        if auto_archive_duration not in (60, 1440, 4320, 10080):
            raise ValueError("auto_archive_duration is 60, 1440, 4320 or 10080 minutes (channel.md)")
        now = self.clock()
        ch = Channel(self.snowflake(), parent.guild, name, type=P.PUBLIC_THREAD, parent=parent,
                     owner_id=(owner or self.bot).id, created=P.iso(now),
                     auto_archive_duration=auto_archive_duration, active_at=now, archived_at=now)
        parent.guild.channels.append(ch)
        self.channels[ch.id] = ch
        return ch

    def open_dm(self, user: User) -> Channel:
        """The user's direct messages with the bot (one per user)."""
        for ch in self.channels.values():
            if ch.is_dm and ch.owner_id == user.id:
                return ch
        ch = Channel(self.snowflake(), None, user.name, type=P.DM, owner_id=user.id)
        self.channels[ch.id] = ch
        return ch

    def is_archived(self, ch: Channel) -> bool:
        """Whether a thread is archived now: by hand, or after its inactivity period (threads.md)."""
        if ch.is_thread and not ch.archived and self.clock() - ch.active_at >= ch.auto_archive_duration * 60:
            ch.archived, ch.archived_at = True, ch.active_at + ch.auto_archive_duration * 60
        return ch.archived

    def set_archived(self, ch: Channel, archived: bool) -> None:
        now = self.clock()
        ch.archived, ch.archived_at = archived, now
        if not archived:
            ch.active_at = now          # unarchiving counts as activity (threads.md)

    def remove_channel(self, ch: Channel) -> list[Channel]:
        """Delete a channel (with its threads); the channels that went, the channel first."""
        gone = [ch] + [c for c in ch.guild.channels if c.parent is ch]
        for c in gone:
            self.channels.pop(c.id, None)
            if c in c.guild.channels:
                c.guild.channels.remove(c)
        return gone

    def remove_bot(self, guild: Guild) -> None:
        """The bot was kicked or left: the guild and its channels are out of its reach."""
        guild.members.pop(self.bot.id, None)
        self.guilds.pop(guild.id, None)
        for c in guild.channels:
            c.overwrites.pop(self.bot.id, None)

    # ------------------------------------------------------------------ message age

    def age(self, msg: Message) -> float:
        """Seconds since the message was sent: its snowflake's time, plus what a test added."""
        created = ((int(msg.id) >> 22) + P.DISCORD_EPOCH_MS) / 1000
        return self.clock() - created + msg.aged

    # ------------------------------------------------------------------ permissions

    def guild_permissions(self, guild: Guild, user: User) -> int:
        member = guild.members.get(user.id)
        if member is None:
            return 0
        return perm.base_permissions(guild.everyone_permissions,
                                     [member.permissions, *(guild.roles[r].permissions for r in member.roles)],
                                     owner=guild.owner_id == user.id)

    def permissions(self, channel: Channel, user: User) -> int:
        """The user's permissions in the channel, as Discord computes them (``permissions.py``); a
        thread has its parent's overwrites."""
        if channel.is_dm:
            return P.DM_PERMISSIONS if user.id in (channel.owner_id, self.bot.id) else 0
        return perm.implicit(self.overwritten(channel, user), thread=channel.is_thread)

    def overwritten(self, channel: Channel, user: User, *, own: bool = True) -> int:
        """The guild permissions after the channel's overwrites (``own=False``: all but the member's
        own), before the implicit rules."""
        member = channel.guild.members.get(user.id)
        if member is None:
            return 0
        home = channel.parent if channel.is_thread else channel
        return perm.overwritten(self.guild_permissions(channel.guild, user), home.overwrites, channel.guild.id,
                                member.role_ids, user.id if own else None)

    def app_permissions(self, channel: Channel) -> int:
        return self.permissions(channel, self.bot)

    # ------------------------------------------------------------------ payloads of the world

    def user_payload(self, user: User) -> dict:
        return user.payload()

    def member_payload(self, guild: Guild, user: User, channel: Channel | None = None) -> dict:
        m = guild.members[user.id]
        perms = None if channel is None else self.permissions(channel, user)
        return P.member(user.payload(), m.role_ids, joined_at=m.joined_at, permissions=perms)

    def channel_payload(self, ch: Channel) -> dict:
        if ch.is_dm:
            return P.dm_channel(ch.id, self.users[ch.owner_id].payload())
        if ch.is_thread:
            count = len([m for m in self.channel_messages.get(ch.id, ()) if not m.deleted])
            payload = P.thread(ch.id, ch.guild.id, ch.parent.id, ch.owner_id or self.bot.id, ch.name,
                               created=ch.created, message_count=count)
            payload["thread_metadata"].update(archived=self.is_archived(ch), archive_timestamp=P.iso(ch.archived_at),
                                              auto_archive_duration=ch.auto_archive_duration)
            return payload
        # @everyone's first, as Discord lists them
        overwrites = sorted(ch.overwrites.values(), key=lambda o: o.id != ch.guild.id)
        return P.text_channel(ch.id, ch.guild.id, ch.name, ch.position, [o.payload() for o in overwrites])

    def interaction_channel(self, ch: Channel, user: User) -> dict:
        return {**self.channel_payload(ch), "permissions": str(self.permissions(ch, user))}

    def guild_payload(self, g: Guild, *, all_members: bool = True) -> dict:
        """GUILD_CREATE's guild. Without the GUILD_PRESENCES intent Discord sends only the bot's own
        member (no one is in voice here); only active threads are synced up-front (threads.md)."""
        roles = [P.role(g.id, "@everyone", g.everyone_permissions, 0)]
        roles += [P.role(m.role_id, f"member-{m.user.name}", m.permissions, i + 1)
                  for i, m in enumerate(g.members.values())]
        roles += [r.payload() for r in g.roles.values()]
        members = [self.member_payload(g, m.user) for m in g.members.values()
                   if all_members or m.user is self.bot]
        channels = [self.channel_payload(c) for c in g.channels if not c.is_thread]
        threads = [self.channel_payload(c) for c in g.channels if c.is_thread and not self.is_archived(c)]
        payload = P.guild(g.id, g.name, owner_id=g.owner_id, locale=g.locale, roles=roles, channels=channels,
                          threads=threads, members=members, joined_at=g.joined_at)
        payload["member_count"] = len(g.members)
        return payload

    # ------------------------------------------------------------------ messages

    def store_message(self, channel: Channel, body: dict, *, flags: int = 0,
                      ephemeral_to: str | None = None, interaction: InteractionRecord | None = None,
                      followup: bool = False, files: Files | None = None, author: User | None = None) -> Message:
        """A new message: posted with the bot token, by a user in their client (``author``), or
        through an interaction's token (its original response, or a ``followup``), which makes it a
        message of the interaction's type with the ``interaction_metadata`` naming the user who acted."""
        mtype = interaction.message_type if interaction is not None else P.DEFAULT
        payload = P.message(self.snowflake(), channel.id, (author or self.bot).payload(),
                            guild_id=channel.guild.id if channel.guild is not None else None,
                            timestamp=P.iso(self.clock()), flags=flags, mtype=mtype)
        if interaction is not None:
            source = interaction.source.id if interaction.source else None
            original = interaction.original.id if followup and interaction.original is not None else None
            payload["interaction_metadata"] = P.interaction_metadata(
                interaction.payload, interaction.user.payload(), interacted_message_id=source,
                original_response_message_id=original)
            payload["application_id"] = interaction.payload["application_id"]
            payload["webhook_id"] = interaction.payload["application_id"]
        msg = Message(payload, channel, ephemeral_to=ephemeral_to, interaction=interaction)
        if channel.is_thread and ephemeral_to is None:
            channel.active_at = self.clock()      # a message is activity, and unarchives the thread
            if channel.archived:
                self.set_archived(channel, False)
        apply_body(msg, body, files)
        self.mention(msg, body, webhook=interaction is not None)
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg)
        return msg

    def edit_message(self, msg: Message, body: dict, flags: int, files: Files | None = None, *,
                     webhook: bool = False) -> None:
        """An edit with the bot token, or (``webhook``) through an interaction's token."""
        msg.history.append(P.copied(msg.payload))
        apply_body(msg, body, files)
        msg.payload["flags"] = flags
        msg.payload["edited_timestamp"] = P.iso(self.clock())
        if "content" in body or (msg.is_v2 and "components" in body):
            self.mention(msg, body, webhook=webhook)

    # ------------------------------------------------------------------ mentions

    def mention(self, msg: Message, body: dict, *, webhook: bool) -> None:
        """``mentions``, ``mention_roles`` and ``mention_everyone`` parsed from the message's text
        (its content, or the text displays of a Components V2 message) as ``allowed_mentions``
        allows; without it, Discord's default: every kind in a channel message, users only in
        interactions and webhooks (message.mdx, "Allowed Mentions Object"). A mention must also be
        of someone the bot can mention: an existing user; a role or @everyone only with MENTION_EVERYONE."""
        text = "\n".join(C.text_displays(msg.payload)) if msg.is_v2 else msg.content
        allowed = body.get("allowed_mentions")
        if not isinstance(allowed, dict):
            allowed = {"parse": ["users"] if webhook else ["users", "roles", "everyone"]}
        parse = allowed.get("parse") or ()
        may = {kind: set(map(str, allowed.get(kind) or ())) for kind in ("users", "roles")}
        guild = msg.channel.guild
        everyone_allowed = bool(self.app_permissions(msg.channel) & P.MENTION_EVERYONE)
        users, roles, everyone = [], [], False
        for user_id, role_id, crowd in _MENTION.findall(text):
            if user_id and ("users" in parse or user_id in may["users"]) and user_id in self.users:
                if user_id not in (u["id"] for u in users):
                    users.append(self.users[user_id].payload())
            elif role_id and ("roles" in parse or role_id in may["roles"]) and everyone_allowed \
                    and guild is not None and role_id in {m.role_id for m in guild.members.values()}:
                if role_id not in roles:
                    roles.append(role_id)
            elif crowd and "everyone" in parse and everyone_allowed:
                everyone = True
        msg.payload.update(mentions=users, mention_roles=roles, mention_everyone=everyone)

    def notified(self, msg: Message) -> set[User]:
        """Who the message notifies: the users it mentions (as allowed), the members of the roles it
        mentions, and with @everyone or @here every member; each only if they can see the channel.
        Nobody for an ephemeral message or one sent with SUPPRESS_NOTIFICATIONS."""
        if msg.deleted or msg.ephemeral_to is not None or msg.flags & P.SUPPRESS_NOTIFICATIONS:
            return set()
        guild = msg.channel.guild
        members = list(guild.members.values()) if guild is not None else []
        found = {self.users[u] for u in msg.mentions}
        found |= {m.user for m in members
                  if msg.payload.get("mention_everyone") or m.role_id in msg.payload.get("mention_roles", ())}
        return {u for u in found if u is not self.bot and self.permissions(msg.channel, u) & P.VIEW_CHANNEL}


_MENTION = re.compile(r"<@!?(\d+)>|<@&(\d+)>|@(everyone|here)")


_BODY_FIELDS = ("content", "embeds", "components", "poll", "sticker_ids", "tts")


def merged(old: Message | None, body: dict, files: Files | None = None) -> dict:
    """What a message would look like after an edit with this body (Discord's PATCH semantics);
    its ``attachments`` are all its files, shown by components or not."""
    payload = old.payload if old is not None else {}
    out = {k: payload.get(k) for k in ("content", "embeds", "components", "poll")}
    out["attachments"] = old.held if old is not None else []
    for k in ("content", "embeds", "components", "poll"):
        if k in body:
            out[k] = body[k]
    if files is not None:
        out["attachments"] = files[0]
    return out


def is_empty(fields: dict) -> bool:
    return not (fields.get("content") or fields.get("embeds") or fields.get("components")
                or fields.get("attachments") or fields.get("poll") or fields.get("sticker_ids"))


def apply_body(msg: Message, body: dict, files: Files | None, *, copy: bool = True) -> None:
    """``body``'s fields onto the message; ``copy=False`` for a body nothing else will read (the
    benchmark's edits: its components become the message's own, numbered and unfurled in place)."""
    payload = msg.payload
    if files is not None:
        attachments, blobs = files
        if msg.ephemeral_to is not None:
            attachments = [{**a, "ephemeral": True} for a in attachments]
        msg.held = attachments
        msg.blobs.update(blobs)
    for key in _BODY_FIELDS:
        if key not in body:
            continue
        value = body[key]
        if key == "components":
            value = number_components((P.copied(value) if copy else value) if value else [])
            A.show(value, msg.held)
        elif key == "content":
            value = value or ""
        elif key == "embeds":
            value = P.copied(value or [])
        elif key == "sticker_ids":
            continue
        payload[key] = value
    if files is not None or "components" in body or "embeds" in body:
        payload["attachments"] = A.listed(msg.held, payload)


def number_components(rows: list) -> list:
    """Discord gives every component without an `id` the next free number, depth first."""
    every = C.walk({"components": rows})
    used = {i for i in set(map(dict.get, every, repeat("id"))) if isinstance(i, int)}
    if not used:        # the usual body (the bot sets no ids): 1, 2, 3, ... in walking order
        for n, comp in enumerate(every, 1):
            comp["id"] = n
        return rows
    n = 0
    for comp in every:
        if not isinstance(comp.get("id"), int):
            n += 1
            while n in used:
                n += 1
            comp["id"] = n
    return rows
