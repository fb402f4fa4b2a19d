"""The Discord double: a loopback aiohttp server speaking Discord's REST API and gateway.

The unmodified bot connects to it once `discord.http.Route.BASE` points at `double.api_base` and
`DiscordWebSocket.DEFAULT_GATEWAY` at `double.gateway_url`. Tests build a world (guilds, channels,
users), act as users (users.py) and assert on what users see (`messages`, `ephemerals`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web

from . import attachments as A
from . import payloads as P
from . import permissions as perm
from . import validate as V
from .faults import Fault, Faults
from .gateway import Gateway
from .permissions import Role
from .ratelimits import RateLimits
from .rest import ChannelRoutes, InteractionRoutes, MetaRoutes
from .users import UsersMixin
from .wire import BODY, FILES, RECORD, DiscordError, json_response, loads
from .world import Channel, Guild, InteractionRecord, Member, Message, User, World


@dataclass(eq=False)
class RequestRecord:
    method: str
    path: str                      # without the /api/v10 prefix
    query: dict
    body: Any
    at: float
    status: int = 0
    code: int | None = None        # Discord error code of an error answer
    error: dict | None = None      # the error answer
    unknown: bool = False          # no such route in the double
    files: list[str] = field(default_factory=list)
    bucket: tuple[str, str] | None = None      # its rate limit bucket (when the double models them)

    def __repr__(self) -> str:
        tail = f" -> {self.status} {self.code}" if self.code is not None else f" -> {self.status}"
        return f"<{self.method} {self.path}{tail}>"


class Clock(Protocol):
    def now(self) -> float: ...

    def advance(self, seconds: float) -> None: ...


#: Discord's 3 s for the first answer, less what the network takes on the way.
RESPONSE_DEADLINE = 2.5


class OffsetClock:
    """Wall-clock time that tests can move forward: `advance(960)` expires every token at once."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


class DiscordDouble(UsersMixin):
    def __init__(self, *, validate: bool = True, response_deadline: float = RESPONSE_DEADLINE,
                 token_lifetime: float = 15 * 60, clock: Clock | None = None,
                 bot_name: str = "Spieltisch", bot_permissions: int = P.BOT_PERMISSIONS,
                 requests_maxlen: int | None = None, rate_limits: RateLimits | None = None,
                 old_message_edits: int | None = None, privileged_intents: int = 0,
                 command_creates_per_day: int = 200):
        """``response_deadline``: Discord allows 3 s for the first answer; the double checks at
        2.5 s, since real Discord adds the network's time. ``rate_limits``: the bucket model
        (ratelimits.py), off by default. ``old_message_edits``: after that many edits of a
        message older than an hour, further edits are refused with 30046 (Discord publishes no
        number; off by default). ``privileged_intents``: those enabled in the developer portal
        (others close the gateway with 4014). ``clock``: the double's time (token lifetimes, message
        ages, thread archiving, snowflakes), anything with ``now()`` and ``advance(seconds)``: give it
        the bot's ``ManualClock`` and one advance expires tokens on both sides alike. By default the
        wall clock, which ``advance`` moves forward."""
        self.validate = validate
        #: An interaction carries a deep copy of the clicked message. The benchmark's double turns
        #: this off (a shallow copy): there edits replace a message's components, never change them.
        self.copy_clicked = True
        self.rate_limits = rate_limits
        self.old_message_edits = old_message_edits
        self.privileged_intents = privileged_intents
        self.command_creates_per_day = command_creates_per_day
        #: Sharding (gateway.md): a connection may carry at most 2500 guilds (else 4011), and
        #: ``GET /gateway/bot`` recommends a shard per so many guilds (Discord publishes no number).
        self.max_guilds_per_shard = 2500
        self.guilds_per_recommended_shard = 1000
        self.command_creates: dict[str | None, list[float]] = {}   # scope -> when commands were created (30034)
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.time: Clock = clock if clock is not None else OffsetClock()
        self.clock = self.time.now
        #: Real time, moved forward by ``advance`` too: what rate-limit windows and the 3 s for the
        #: first answer run on, since a bot's requests take real time even where ``time`` stands still.
        self.pace = OffsetClock()
        self.snowflake = P.Snowflakes(self.clock)
        self.app_id = self.snowflake()           # a modern app: the bot user's id is the application id
        self.owner = User(self.snowflake(), "app-owner")
        self.world = World(self.snowflake, self.clock, User(self.app_id, bot_name, bot=True), bot_permissions)
        self.gateway = Gateway(self)
        self.requests: deque[RequestRecord] | list[RequestRecord] = (
            deque(maxlen=requests_maxlen) if requests_maxlen else [])
        self.internal_errors: list[str] = []     # bugs in the double itself; a test fixture should fail on them
        self.faults = Faults()
        self.commands: dict[str | None, dict[str, dict]] = {}   # guild id (None: global) -> name -> command
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.host, self.port = "127.0.0.1", 0
        self._meta, self._channels, self._interactions = MetaRoutes(self), ChannelRoutes(self), InteractionRoutes(self)

    # ------------------------------------------------------------------ building the world

    def add_user(self, name: str, *, locale: str = "en-US") -> User:
        return self.world.add_user(name, locale=locale)

    def add_guild(self, name: str = "Testserver", *, locale: str = "en-US", owner: User | None = None,
                  everyone_permissions: int = P.MEMBER_PERMISSIONS, shard: tuple[int, int] | None = None) -> Guild:
        """``shard``: ``(shard_id, shard_count)`` the guild's id lands on (gateway.md's formula)."""
        return self.world.add_guild(name, locale=locale, owner=owner, everyone_permissions=everyone_permissions,
                                    shard=shard)

    def recommended_shards(self) -> int:
        """``GET /gateway/bot``'s ``shards``: one per ``guilds_per_recommended_shard`` guilds, at least one."""
        return max(1, -(-len(self.world.guilds) // self.guilds_per_recommended_shard))

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0) -> Member:
        """`permissions`: guild-wide ones beyond @everyone's (e.g. payloads.MANAGE_GUILD)."""
        return self.world.add_member(guild, user, permissions=int(getattr(permissions, "value", permissions)))

    def add_text_channel(self, guild: Guild, name: str = "spiele") -> Channel:
        return self.world.add_text_channel(guild, name)

    def add_thread(self, parent: Channel, name: str, *, owner: User | None = None,
                   auto_archive_duration: int = 1440) -> Channel:
        """A public thread; it archives after ``auto_archive_duration`` minutes without a message."""
        return self.world.add_thread(parent, name, owner=owner, auto_archive_duration=auto_archive_duration)

    def open_dm(self, user: User) -> Channel:
        """The user's direct messages with the bot: slash commands there carry ``user``, not ``member``."""
        return self.world.open_dm(user)

    def archive(self, thread: Channel) -> None:
        """A moderator (or Discord, after inactivity) archived the thread: edits answer 50083 until
        a message unarchives it."""
        self.world.set_archived(thread, True)
        self.notify()

    def age(self, seconds: float, channel: Channel | None = None) -> None:
        """Make every message (of ``channel``) ``seconds`` older, without moving the clock (tokens live on)."""
        for msg in self.world.messages.values():
            if channel is None or msg.channel is channel:
                msg.aged += seconds

    async def delete_channel(self, channel: Channel) -> None:
        """A moderator deleted the channel (its threads go with it) or the thread: CHANNEL_DELETE
        or THREAD_DELETE reaches the bot, and requests to it answer 10003 Unknown Channel."""
        home = self.world.channel_payload(channel)
        self.world.remove_channel(channel)
        if self.gateway.connected:
            if channel.is_thread:
                await self.gateway.dispatch("THREAD_DELETE", {
                    "id": channel.id, "guild_id": channel.guild.id, "parent_id": channel.parent.id,
                    "type": channel.type})
            else:
                await self.gateway.dispatch("CHANNEL_DELETE", home)
        self.notify()

    async def remove_bot(self, guild: Guild) -> None:
        """The bot was kicked from the server: GUILD_DELETE without ``unavailable`` (an outage
        carries ``unavailable: true``), and its channels answer 50001 Missing Access."""
        self.world.remove_bot(guild)
        if self.gateway.connected:
            await self.gateway.dispatch("GUILD_DELETE", {"id": guild.id})
        self.notify()

    def post_as(self, user: User, channel: Channel, content: str) -> Message:
        """A message ``user`` wrote in the channel in their own client (the double dispatches no
        MESSAGE_CREATE, for this message as for any)."""
        if not self.world.permissions(channel, user) & perm.send_permission(channel.is_thread):
            raise AssertionError(f"{user.name} may not send messages in #{channel.name}")
        return self.world.store_message(channel, {"content": content}, author=user)

    async def set_permissions(self, channel: Channel, user: User, permissions: int) -> None:
        """The permissions `user` (or the bot: `double.bot`) has in `channel` from now on, before
        Discord's implicit rules (no View Channel: nothing; no Send Messages: no files either): a
        member overwrite of the channel, or of a thread's parent (threads have none of their own)."""
        home = channel.parent if channel.is_thread else channel
        wanted = int(getattr(permissions, "value", permissions))
        without = self.world.overwritten(home, user, own=False)
        await self.set_overwrite(home, user, allow=wanted & ~without, deny=without & ~wanted)

    async def set_app_permissions(self, channel: Channel, permissions: int) -> None:
        await self.set_permissions(channel, self.bot, permissions)

    async def set_overwrite(self, channel: Channel, target: User | Role | Guild, *, allow: int = 0,
                            deny: int = 0) -> None:
        """The channel's permission overwrite for a member, a role, or @everyone (the guild); with
        neither ``allow`` nor ``deny`` it goes. The bot gets CHANNEL_UPDATE."""
        if channel.is_thread:
            raise ValueError("a thread has no overwrites of its own: set them on its parent channel")
        kind = perm.MEMBER if isinstance(target, User) else perm.ROLE
        allow, deny = (int(getattr(p, "value", p)) for p in (allow, deny))
        if allow or deny:
            channel.overwrites[target.id] = perm.Overwrite(target.id, kind, allow, deny)
        else:
            channel.overwrites.pop(target.id, None)
        if self.gateway.connected:
            await self.gateway.dispatch("CHANNEL_UPDATE", self.world.channel_payload(channel))

    async def add_role(self, guild: Guild, name: str, permissions: int, *, members: Iterable[User] = ()) -> Role:
        """A role with guild-wide ``permissions``, given to ``members`` (users, not the bot)."""
        role = self.world.add_role(guild, name, int(getattr(permissions, "value", permissions)))
        for user in members:
            guild.members[user.id].roles.append(role.id)
        if self.gateway.connected:
            await self.gateway.dispatch("GUILD_ROLE_CREATE", {"guild_id": guild.id, "role": role.payload()})
        return role

    async def set_role_permissions(self, guild: Guild, role: Guild | Role | User, permissions: int) -> None:
        """A role's guild-wide permissions: @everyone's (the guild), another role's, or those of a
        member's own role (the bot's: its invite's). The bot gets GUILD_ROLE_UPDATE."""
        value = int(getattr(permissions, "value", permissions))
        if isinstance(role, Guild):
            guild.everyone_permissions = value
            payload = P.role(guild.id, "@everyone", value, 0)
        elif isinstance(role, User):
            member = guild.members[role.id]
            member.permissions = value
            payload = P.role(member.role_id, f"member-{role.name}", value, list(guild.members).index(role.id) + 1)
        else:
            role.permissions = value
            payload = role.payload()
        if self.gateway.connected:
            await self.gateway.dispatch("GUILD_ROLE_UPDATE", {"guild_id": guild.id, "role": payload})

    @property
    def bot(self) -> User:
        return self.world.bot

    # ------------------------------------------------------------------ lifecycle

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """For `discord.http.Route.BASE`."""
        return f"{self.url}{V.API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """For `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` (as a yarl.URL)."""
        return f"ws://{self.host}:{self.port}/ws"

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> DiscordDouble:
        app = web.Application(middlewares=[self._middleware], client_max_size=32 * 1024 * 1024)
        app.router.add_get("/ws", self.gateway.handle)
        self._meta.register(app.router)
        self._interactions.register(app.router)
        self._channels.register(app.router)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.host, self.port = host, self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordDouble:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ bad days

    def fault(self, method: str, path: str, *, status: int | None = None, code: int = 0,
              retry_after: float = 1.0, nth: int = 1, times: int = 1, delay: float = 0.0,
              hold: asyncio.Event | None = None, when: Callable[[RequestRecord], bool] | None = None,
              then: Callable[[RequestRecord], Any] | None = None, after: bool = False,
              drop: bool = False) -> Fault:
        """Answer chosen requests with an error, late, after a hook, or not at all (see faults.py)."""
        return self.faults.add(Fault(method, path, status, code, retry_after, nth, times, delay, hold,
                                     when, then, after or drop, drop))

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the bot's gateway connection as a network fault would; discord.py resumes."""
        await self.gateway.drop(code)

    # ------------------------------------------------------------------ time and waiting

    def advance(self, seconds: float) -> None:
        """Move the double's clock forward (tokens expire, deadlines pass) without sleeping."""
        self.time.advance(seconds)
        self.pace.advance(seconds)
        self.notify()

    def since(self, rec: InteractionRecord) -> float:
        """Seconds since the interaction: on the double's clock or in real time, whichever passed more
        (the bot answers in real time, also where a test's clock stands still)."""
        return max(self.clock() - rec.created, self.pace.now() - rec.paced)

    def token_expired(self, record: RequestRecord) -> bool:
        """Whether ``record`` is a request on an interaction's webhook past its token's lifetime: a
        fault's ``when`` for Discord answering those with a 5xx rather than 401 50027 (it sometimes does)."""
        parts = record.path.split("/")
        rec = self.world.interactions.get(parts[3]) if len(parts) > 3 and parts[1] == "webhooks" else None
        return rec is not None and self.clock() - rec.created > self.token_lifetime

    def notify(self) -> None:
        """Wake every waiter: called after each request, gateway change and clock move."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def next_change(self, timeout: float) -> None:
        """Until the double sees anything (a request, a gateway change, a clock move), at most ``timeout``."""
        await self._wait_change(timeout)

    async def _wait_change(self, timeout: float) -> None:
        event = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(timeout, 0))

    async def wait_until(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str | None = None) -> Any:
        """Re-check `predicate` whenever the double sees a request; return its first truthy value.
        The timeout only guards against a test hanging."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not (value := predicate()):
            remaining = end - loop.time()
            if remaining <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}; "
                                     f"last requests: {list(self.requests)[-5:]}")
            await self._wait_change(remaining)
        return value

    async def wait_for_bot(self, timeout: float = 10.0) -> None:
        """Until a bot has identified (READY and GUILD_CREATEs sent)."""
        await self.wait_until(lambda: self.gateway.connected, timeout, "a bot to connect to the gateway")

    # ------------------------------------------------------------------ what users see

    def message(self, message_id: str | int) -> Message:
        return self.world.messages[str(message_id)]

    def notified(self, message: Message | str | int) -> set[User]:
        """Who the message notifies: the users it mentions and was allowed to (``World.notified``)."""
        return self.world.notified(message if isinstance(message, Message) else self.message(message))

    def messages(self, channel: Channel) -> list[Message]:
        """Public messages in the channel, oldest first, as they look now; deleted ones are gone."""
        return [m for m in self.world.channel_messages.get(channel.id, ()) if not m.deleted and m.ephemeral_to is None]

    def ephemerals(self, user: User, channel: Channel | None = None) -> list[Message]:
        return [m for m in self.world.messages.values() if m.ephemeral_to == user.id and not m.deleted
                and (channel is None or m.channel is channel)]

    def interaction(self, token_or_id: str) -> InteractionRecord:
        rec = self.world.interactions.get(token_or_id)
        return rec or next(r for r in self.world.interactions.values() if r.id == token_or_id)

    def command(self, name: str, guild: Guild | None = None) -> dict:
        return self.commands.get(guild.id if guild else None, {})[name]

    @property
    def unknown_routes(self) -> list[RequestRecord]:
        return [r for r in self.requests if r.unknown]

    @property
    def errors(self) -> list[RequestRecord]:
        """Requests the double answered with an error."""
        return [r for r in self.requests if r.status >= 400]

    # ------------------------------------------------------------------ HTTP plumbing

    async def _read_body(self, request: web.Request, record: RequestRecord) -> Any:
        if not request.body_exists:
            return None
        if request.content_type == "application/json":
            raw = await request.read()
            return loads(raw) if raw else None
        if request.content_type.startswith("multipart/"):
            body, size = None, 0
            async for part in await request.multipart():
                if part.name == "payload_json":
                    raw = await part.read()
                    body, size = loads(raw), len(raw)
                else:
                    data = await part.read()
                    up = A.upload(part.name, part.filename, bytes(data), request[FILES])
                    request[FILES][up.index] = up
                    record.files.append(f"{part.filename} ({len(data)} bytes)")
            A.check_request_size(request[FILES], size)
            return body
        return (await request.read()).decode(errors="replace")

    @web.middleware
    async def _middleware(self, request: web.Request, handler) -> web.StreamResponse:
        if request.path == "/ws":
            return await handler(request)
        record = RequestRecord(request.method, request.path.removeprefix(V.API_PREFIX), dict(request.query),
                               None, self.clock())
        self.requests.append(record)
        request[RECORD] = record
        request[FILES] = {}
        response = await self._answer(request, handler, record)
        if self.rate_limits is not None:
            response.headers.update(self.rate_limits.headers(record, self.pace.now()))
        return response

    async def _answer(self, request: web.Request, handler, record: RequestRecord) -> web.StreamResponse:
        try:
            body = request[BODY] = record.body = await self._read_body(request, record)
            fault = self.faults.pick(record)
            if fault is not None:
                self.notify()                   # a test may wait for the fault to take hold
                await fault.wait()
                if not fault.after and (answer := self._fault(request, fault, record)) is not None:
                    return answer
            if self.rate_limits is not None and (limited := self.rate_limits.check(
                    request.method, record.path, self.app_id, self.pace.now(), record)) is not None:
                return limited
            if self.validate and body is not None:
                problems = V.spec_problems(request.method, record.path, body)
                if problems:
                    raise V.InvalidBody(problems)
            response = await handler(request)
            record.status = response.status
            if fault is not None and fault.after:
                return self._fault(request, fault, record) or response
            return response
        except V.InvalidBody as e:
            return self._error(request, record, DiscordError(400, 50035, "Invalid Form Body", e.errors()))
        except DiscordError as e:
            return self._error(request, record, e)
        except web.HTTPException:
            raise
        except Exception as e:     # a bug in the double: answer 400 (5xx makes discord.py retry for seconds)
            self.internal_errors.append(f"{request.method} {record.path}: {traceback.format_exc()}")
            return self._error(request, record, DiscordError(400, 0, f"double internal error: {e!r}"))
        finally:
            self.notify()

    def _fault(self, request: web.Request, fault: Fault, record: RequestRecord) -> web.Response | None:
        """Run the fault's hook; its error answer, if it has one."""
        if fault.then is not None:
            fault.then(record)
        if fault.drop:
            request.transport.abort()       # handled, and the connection lost before the answer
            return None
        if fault.status is None:
            return None
        rec = self.world.interactions.get(request.match_info.get("token", ""))
        if rec is not None:
            rec.rejected.append(record)
        return fault.answer(record)

    def _error(self, request: web.Request, record: RequestRecord, e: DiscordError) -> web.Response:
        body = {"message": e.message, "code": e.code}
        if e.errors:
            body["errors"] = e.errors
        record.status, record.code, record.error = e.status, e.code, body
        rec = self.world.interactions.get(request.match_info.get("token", ""))
        if rec is not None:
            rec.rejected.append(record)
        return json_response(body, e.status)

    async def _unknown(self, request: web.Request) -> web.Response:
        request[RECORD].unknown = True
        raise DiscordError(404, 0, f"404: Not Found (the double has no route {request.method} {request.path})")
