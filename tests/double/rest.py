"""REST routes: login and gateway discovery, command sync, channel messages, interaction responses.

Each answer and error follows Discord's documented behaviour; the codes are those of
https://discord.com/developers/docs/topics/opcodes-and-status-codes#json.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from aiohttp import web

from . import attachments as A
from . import payloads as P
from . import permissions as perm
from . import validate as V
from .commands import DAY, command_problems
from .wire import BODY, FILES, DiscordError, json_response
from .world import Channel, Files, InteractionRecord, Message, is_empty, merged

if TYPE_CHECKING:
    from .server import DiscordDouble

API = V.API_PREFIX
#: An UPDATE_MESSAGE callback may repeat the ephemeral flag (it changes nothing); an edit of a webhook
#: message may set SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only (webhook.mdx, "Edit Webhook Message").
UPDATE_ALLOWED = V.EDIT_FLAGS | P.EPHEMERAL


def unknown_message() -> DiscordError:
    return DiscordError(404, 10008, "Unknown Message")


def archived_thread() -> DiscordError:
    """threads.md: nothing but deleting messages happens in an archived thread; a post unarchives it."""
    return DiscordError(400, 50083, "Thread is archived")


class Prepared(NamedTuple):
    flags: int
    files: Files | None       # the message's attachments and new files' bytes; None: unchanged


def prepare_message(double: DiscordDouble, body: dict, *, old: Message | None, allowed: int, channel: Channel,
                    prefix: V.Path = (), uploads: dict | None = None) -> Prepared:
    """Check a create (old=None) or edit body against the message it makes; return its new flags and files.

    Raises 50035 for broken limits (when validation is on) or a reference to a missing file, and
    50006 for an empty message.
    """
    if not isinstance(body, dict):
        raise DiscordError(400, 50035, "Invalid Form Body", {"_errors": [{"code": "DICT_TYPE_CONVERT",
                                                                           "message": "Only dictionaries may be used"}]})
    new = body.get("flags")
    problems: list[V.Problem] = []
    if old is None:
        flags = new or 0
    else:
        flags = old.flags & ~P.LOADING
        if isinstance(new, int):
            if old.is_v2 and not new & P.IS_COMPONENTS_V2:
                problems.append(V.Problem((*prefix, "flags"), "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                                          "The IS_COMPONENTS_V2 flag cannot be removed from a message."))
            flags = (flags & ~P.SUPPRESS_EMBEDS) | (new & V.EDIT_FLAGS)
    v2 = bool(flags & P.IS_COMPONENTS_V2)
    files = A.resolve(body, uploads or {}, old.held if old is not None else None, prefix=prefix,
                      new_id=double.snowflake, channel_id=channel.id)
    result = merged(old, body, files)
    missing = A.reference_problems(body, files[0] if files is not None else old.held, prefix)
    if double.validate:
        problems += V.flag_problems(new, allowed, prefix)
        problems += V.message_problems(body, v2=v2, prefix=prefix)
        if v2 and old is not None and "content" not in body and result.get("content"):
            problems.append(V.Problem((*prefix, "content"), "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                                      "The message keeps its content, which IS_COMPONENTS_V2 does not allow."))
        if problems:
            raise DiscordError(400, 50035, "Invalid Form Body", V.InvalidBody(problems).errors())
    if missing:       # Discord cannot show what is not there, validation or not
        raise DiscordError(400, 50035, "Invalid Form Body", V.InvalidBody(missing).errors())
    if is_empty({**result, "sticker_ids": body.get("sticker_ids")}):
        raise DiscordError(400, 50006, "Cannot send an empty message")
    return Prepared(flags, files)


def refuse_public_edit(double: DiscordDouble, channel: Channel, msg: Message) -> bool:
    """The refusals of an edit of a public message, whichever route it takes (the channel's, or an
    interaction token's): 50083 in an archived thread, 30046 after the allowed edits of a message
    older than an hour. Returns whether the edit counts towards that allowance."""
    if channel.is_thread and double.world.is_archived(channel):
        raise archived_thread()
    old = double.old_message_edits is not None and double.world.age(msg) >= 3600
    if old and msg.old_edits >= double.old_message_edits:
        raise DiscordError(400, 30046, "Maximum number of edits to messages older than 1 hour reached. "
                                       "Try again later")
    return old


class MetaRoutes:
    """Login, gateway discovery and application commands."""

    def __init__(self, double: DiscordDouble):
        self.d = double

    def register(self, r: web.UrlDispatcher) -> None:
        r.add_get(f"{API}/users/@me", self.me)
        r.add_get(f"{API}/oauth2/applications/@me", self.application)
        r.add_get(f"{API}/applications/@me", self.application)
        r.add_get(f"{API}/gateway", self.gateway)
        r.add_get(f"{API}/gateway/bot", self.gateway_bot)
        for path in ("/applications/{app_id}/commands", "/applications/{app_id}/guilds/{guild_id}/commands"):
            r.add_put(API + path, self.bulk_commands)
            r.add_get(API + path, self.get_commands)

    async def me(self, request: web.Request) -> web.Response:
        return json_response(self.d.bot.payload())

    async def application(self, request: web.Request) -> web.Response:
        return json_response(P.application(self.d.app_id, self.d.bot.name, self.d.owner.payload()))

    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.d.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_response({"url": self.d.gateway_url, "shards": self.d.recommended_shards(), "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    def _scope(self, request: web.Request) -> str | None:
        if request.match_info["app_id"] != self.d.app_id:
            raise DiscordError(403, 50001, "Missing Access")
        gid = request.match_info.get("guild_id")
        if gid is not None and gid not in self.d.world.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return gid

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(list(self.d.commands.get(self._scope(request), {}).values()))

    async def bulk_commands(self, request: web.Request) -> web.Response:
        """Bulk overwrite: the body replaces every command of the scope; names keep their ids."""
        scope = self._scope(request)
        body = request[BODY] or []
        if self.d.validate:
            problems = command_problems(body)
            names = [(c.get("type", 1), c.get("name")) for c in body]
            problems += [V.Problem((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
                         for i, n in enumerate(names) if n in names[:i]]
            if problems:
                raise DiscordError(400, 50035, "Invalid Form Body", V.InvalidBody(problems).errors())
        old = self.d.commands.get(scope, {})
        self._count_creates(scope, [c["name"] for c in body if c["name"] not in old])
        new: dict[str, dict] = {}
        for cmd in body:
            stored = {"type": 1, "default_member_permissions": None, "nsfw": False, "contexts": None,
                      "integration_types": [0], "name_localizations": None, "description_localizations": None,
                      "options": [], **cmd, "application_id": self.d.app_id, "version": self.d.snowflake()}
            stored["id"] = old[cmd["name"]]["id"] if cmd["name"] in old else self.d.snowflake()
            if stored["default_member_permissions"] is not None:    # discord.py sends an int, Discord answers a string
                stored["default_member_permissions"] = str(stored["default_member_permissions"])
            if scope is not None:
                stored["guild_id"] = scope
            new[cmd["name"]] = stored
        self.d.commands[scope] = new
        return json_response(list(new.values()))


    def _count_creates(self, scope: str | None, created: list[str]) -> None:
        """application-commands.md: 200 command creates a day per scope; a bulk overwrite counts the
        commands that did not exist. Over it: 429 with code 30034, which discord.py does not wait out."""
        now = self.d.clock()
        day = [t for t in self.d.command_creates.setdefault(scope, []) if now - t < DAY]
        if len(day) + len(created) > self.d.command_creates_per_day:
            raise DiscordError(429, 30034, "Max number of daily application command creates has been reached "
                                           f"({self.d.command_creates_per_day})")
        self.d.command_creates[scope] = day + [now] * len(created)


class ChannelRoutes:
    """Messages the bot posts, edits, reads and deletes with its bot token."""

    def __init__(self, double: DiscordDouble):
        self.d = double

    def register(self, r: web.UrlDispatcher) -> None:
        r.add_get(f"{API}/channels/{{cid}}", self.get_channel)
        r.add_post(f"{API}/channels/{{cid}}/messages", self.post)
        r.add_get(f"{API}/channels/{{cid}}/messages", self.history)
        r.add_get(f"{API}/channels/{{cid}}/messages/{{mid}}", self.get)
        r.add_patch(f"{API}/channels/{{cid}}/messages/{{mid}}", self.patch)
        r.add_delete(f"{API}/channels/{{cid}}/messages/{{mid}}", self.delete)

    def _channel(self, request: web.Request, *need: int) -> Channel:
        ch = self.d.world.channels.get(request.match_info["cid"])
        if ch is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        perms = self.d.world.app_permissions(ch)
        if not perms & P.VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        require(perms, *need)
        return ch

    def _message(self, request: web.Request, ch: Channel) -> Message:
        msg = self.d.world.messages.get(request.match_info["mid"])
        # ephemeral messages exist only for their interaction's token
        if msg is None or msg.deleted or msg.channel is not ch or msg.ephemeral_to is not None:
            raise unknown_message()
        return msg

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.d.world.channel_payload(self._channel(request)))

    async def post(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        body = request[BODY]
        require(self.d.world.app_permissions(ch), *post_needs(ch, body, request[FILES]))
        flags, files = prepare_message(self.d, body, old=None, allowed=V.CHANNEL_FLAGS, channel=ch,
                                       uploads=request[FILES])
        return json_response(self.d.world.store_message(ch, body, flags=flags, files=files).payload)

    async def history(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        if not self.d.world.app_permissions(ch) & P.READ_MESSAGE_HISTORY:
            return json_response([])          # message.md: "then no messages will be returned"
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        msgs = [m for m in self.d.world.channel_messages.get(ch.id, ()) if not m.deleted and m.ephemeral_to is None]
        if "before" in q:
            msgs = [m for m in msgs if int(m.id) < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if int(m.id) > int(q["after"])][:limit]
        return json_response([m.payload for m in reversed(msgs[-limit:])])

    async def get(self, request: web.Request) -> web.Response:
        ch = self._channel(request, P.READ_MESSAGE_HISTORY)
        return json_response(self._message(request, ch).payload)

    async def patch(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(request, ch)
        if msg.author_id != self.d.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if request[FILES]:
            require(self.d.world.app_permissions(ch), P.ATTACH_FILES)
        old = refuse_public_edit(self.d, ch, msg)
        body = request[BODY]
        flags, files = prepare_message(self.d, body, old=msg, allowed=V.EDIT_FLAGS, channel=ch, uploads=request[FILES])
        self.d.world.edit_message(msg, body, flags, files)
        msg.old_edits += old
        return json_response(msg.payload)

    async def delete(self, request: web.Request) -> web.Response:
        ch = self._channel(request)
        msg = self._message(request, ch)
        if msg.author_id != self.d.bot.id:       # message.md: another's message needs Manage Messages
            require(self.d.world.app_permissions(ch), P.MANAGE_MESSAGES)
        msg.deleted = True
        return web.Response(status=204)


def require(perms: int, *need: int) -> None:
    """50013 Missing Permissions unless ``perms`` has every bit of ``need`` (the channel is visible)."""
    for bit in need:
        if not perms & bit:
            raise DiscordError(403, 50013, "Missing Permissions")


def post_needs(ch: Channel, body: object, uploads: dict) -> list[int]:
    """What message.md's Create Message limitations and permissions.md ask of a post: the permission
    to send (in a thread, Send Messages in Threads), Attach Files for any file, Read Message History
    for a reply, Send TTS Messages for text to speech."""
    need = [perm.send_permission(ch.is_thread)]
    if uploads:
        need.append(P.ATTACH_FILES)
    if isinstance(body, dict):
        if body.get("message_reference"):
            need.append(P.READ_MESSAGE_HISTORY)
        if body.get("tts"):
            need.append(P.SEND_TTS_MESSAGES)
    return need


class InteractionRoutes:
    """The interaction callback and the interaction webhook (followups, @original).

    The channel's permissions gate none of them: Discord documents no such check for an
    interaction's answers (a user-installed app answers where it has no permissions at all); it
    gives the app ``app_permissions`` with the interaction to decide for itself."""

    def __init__(self, double: DiscordDouble):
        self.d = double

    def register(self, r: web.UrlDispatcher) -> None:
        r.add_post(f"{API}/interactions/{{iid}}/{{token}}/callback", self.callback)
        r.add_post(f"{API}/webhooks/{{app_id}}/{{token}}", self.followup)
        r.add_get(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{mid}}", self.get)
        r.add_patch(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{mid}}", self.patch)
        r.add_delete(f"{API}/webhooks/{{app_id}}/{{token}}/messages/{{mid}}", self.delete)

    # ------------------------------------------------------------------ the callback

    async def callback(self, request: web.Request) -> web.Response:
        d = self.d
        rec = d.world.interactions.get(request.match_info["token"])
        if rec is None or rec.id != request.match_info["iid"]:
            raise DiscordError(404, 10062, "Unknown interaction")
        if d.since(rec) > d.response_deadline:                 # Discord invalidates the token after 3 s
            raise DiscordError(404, 10062, "Unknown interaction")
        if rec.callback is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = request[BODY] or {}
        ctype, data = body.get("type"), body.get("data") or {}
        handler = {4: self._message_response, 5: self._deferred_message, 6: self._update, 7: self._update,
                   8: self._autocomplete, 9: self._modal}.get(ctype)
        if handler is None:
            raise self._invalid(("type",), f"Callback type {ctype} is not available to a gateway bot here.")
        resource = handler(rec, ctype, data, request[FILES])
        rec.callback, rec.callback_at = body, d.clock()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        msg = rec.original
        return json_response({
            "interaction": {"id": rec.id, "type": rec.type, "activity_instance_id": None,
                            "response_message_id": msg.id if msg is not None else None,
                            "response_message_loading": ctype == 5,
                            "response_message_ephemeral": bool(msg is not None and msg.ephemeral)},
            "resource": resource})

    def _invalid(self, path: V.Path, message: str) -> DiscordError:
        problem = V.Problem(path, "INTERACTION_RESPONSE_INVALID", message)
        return DiscordError(400, 50035, "Invalid Form Body", V.InvalidBody([problem]).errors())

    def _new_message(self, rec: InteractionRecord, data: dict, flags: int, files: Files | None = None) -> Message:
        to = rec.user.id if flags & P.EPHEMERAL else None
        return self.d.world.store_message(rec.channel, data, flags=flags, ephemeral_to=to, interaction=rec, files=files)

    def _message_response(self, rec: InteractionRecord, ctype: int, data: dict, uploads: dict) -> dict:
        flags, files = prepare_message(self.d, data, old=None, allowed=V.CALLBACK_FLAGS, channel=rec.channel,
                                       prefix=("data",), uploads=uploads)
        rec.original = self._new_message(rec, data, flags, files)
        return {"type": ctype, "message": rec.original.payload}

    def _deferred_message(self, rec: InteractionRecord, ctype: int, data: dict, uploads: dict) -> dict:
        flags = data.get("flags") or 0
        if self.d.validate and (flags & ~P.EPHEMERAL or set(data) - {"flags"}):
            # the message itself (a V2 view too) comes later, by editing @original
            raise self._invalid(("data", "flags"), "A deferred response may only carry the EPHEMERAL flag.")
        rec.original = self._new_message(rec, {}, (flags & P.EPHEMERAL) | P.LOADING)
        return {"type": ctype}

    def _update(self, rec: InteractionRecord, ctype: int, data: dict, uploads: dict) -> dict:
        if rec.source is None:
            raise self._invalid(("type",), "Only interactions on a message component can update that message.")
        msg = rec.source
        if msg.deleted:
            raise unknown_message()
        rec.original = msg
        if ctype == 6:
            return {"type": ctype}
        flags, files = prepare_message(self.d, data, old=msg, allowed=UPDATE_ALLOWED, channel=msg.channel,
                                       prefix=("data",), uploads=uploads)
        self.d.world.edit_message(msg, data, flags, files, webhook=True)
        return {"type": ctype, "message": msg.payload}

    def _autocomplete(self, rec: InteractionRecord, ctype: int, data: dict, uploads: dict) -> dict:
        if rec.type != 4:
            raise self._invalid(("type",), "Autocomplete results answer autocomplete interactions only.")
        choices = data.get("choices")
        if not isinstance(choices, list) or len(choices) > 25:
            raise self._invalid(("data", "choices"), "Autocomplete results are a list of at most 25 choices.")
        rec.choices = choices
        return {"type": ctype}

    def _modal(self, rec: InteractionRecord, ctype: int, data: dict, uploads: dict) -> dict:
        if rec.type == P.MODAL_SUBMIT:
            raise self._invalid(("type",), "A modal submission cannot be answered with another modal.")
        rec.modal = data
        return {"type": ctype}

    # ------------------------------------------------------------------ the interaction webhook

    def _record(self, request: web.Request) -> InteractionRecord:
        rec = self.d.world.interactions.get(request.match_info["token"])
        if rec is None or request.match_info["app_id"] != self.d.app_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.d.clock() - rec.created > self.d.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return rec

    def _target(self, request: web.Request, rec: InteractionRecord) -> Message:
        """The message a request on the interaction's webhook names: ``@original`` (the response, or
        the clicked message after an UPDATE or DEFERRED_UPDATE), or by id a message the token made
        (its response, its follow-ups). The clicked message was not made by the token: by its own id
        it is an unknown message of this webhook (10008)."""
        mid = request.match_info["mid"]
        if mid == "@original":
            msg = rec.original
        else:
            msg = self.d.world.messages.get(mid)
            if msg is not None and not (msg in rec.followups or (msg is rec.original and msg is not rec.source)):
                msg = None
        if msg is None or msg.deleted:
            raise unknown_message()
        return msg

    async def followup(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec.callback is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        body = request[BODY]
        original = rec.original
        if original is not None and original.loading and rec.callback_type == 5:
            # documented back-compat: the first followup after a deferred message edits the loading
            # message, and the defer's ephemeral flag wins over the followup's
            flags, files = prepare_message(self.d, body, old=original, allowed=V.CALLBACK_FLAGS, channel=rec.channel,
                                           uploads=request[FILES])
            self.d.world.edit_message(original, body, flags, files, webhook=True)
            rec.edits.append(body)
            msg = original
        else:
            flags, files = prepare_message(self.d, body, old=None, allowed=V.CALLBACK_FLAGS, channel=rec.channel,
                                           uploads=request[FILES])
            msg = self.d.world.store_message(rec.channel, body, flags=flags, ephemeral_to=(
                rec.user.id if flags & P.EPHEMERAL else None), interaction=rec, followup=True, files=files)
            rec.followups.append(msg)
        if request.query.get("wait") in ("0", "false", "False"):
            return web.Response(status=204)
        return json_response(msg.payload)

    async def get(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        return json_response(self._target(request, rec).payload)

    async def patch(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        msg = self._target(request, rec)
        old = refuse_public_edit(self.d, rec.channel, msg) if msg.ephemeral_to is None else False
        body = request[BODY]
        flags, files = prepare_message(self.d, body, old=msg, allowed=V.EDIT_FLAGS, channel=rec.channel,
                                       uploads=request[FILES])
        self.d.world.edit_message(msg, body, flags, files, webhook=True)
        msg.old_edits += old
        rec.edits.append(body)
        return json_response(msg.payload)

    async def delete(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        self._target(request, rec).deleted = True
        return web.Response(status=204)
