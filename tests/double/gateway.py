"""The gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, and dispatching events.

Shards as gateway.md "Sharding" says: IDENTIFY may carry ``shard: [shard_id, shard_count]``; the
session then gets only the guilds with ``(guild_id >> 22) % shard_count == shard_id`` and their
events, while events without a guild (DMs) go to shard 0. A bad shard closes with 4010, a session
that would hold more than ``DiscordDouble.max_guilds_per_shard`` guilds with 4011.

Plain-text JSON frames: discord.py asks for zlib-stream but reads text frames as they come.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from .wire import dumps

if TYPE_CHECKING:
    from .server import DiscordDouble

HELLO, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION = 10, 1, 2, 3, 6, 7, 8, 9
HEARTBEAT_ACK, DISPATCH = 11, 0
HEARTBEAT_INTERVAL_MS = 41250
GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
#: gateway.md's intents: GUILDS (1 << 0) to GUILD_SCHEDULED_EVENTS (1 << 16), auto moderation, polls.
ALL_INTENTS = (1 << 17) - 1 | 1 << 20 | 1 << 21 | 1 << 24 | 1 << 25
INVALID_INTENTS, DISALLOWED_INTENTS = 4013, 4014
INVALID_SHARD, SHARDING_REQUIRED = 4010, 4011
#: Events that name their guild in ``id`` rather than ``guild_id``.
GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def shard_of(guild_id: int | str, shard_count: int) -> int:
    """gateway.md's sharding formula."""
    return (int(guild_id) >> 22) % shard_count


class NoBotConnected(AssertionError):
    pass


@dataclass(eq=False)
class Session:
    id: str
    identify: dict
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    sent: deque = field(default_factory=lambda: deque(maxlen=2000))   # (seq, frame) for RESUME
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    resumed: int = 0

    @property
    def shard(self) -> tuple[int, int]:
        """``(shard_id, shard_count)``; ``(0, 1)`` for a connection that did not ask for shards."""
        shard_id, shard_count = (self.identify.get("shard") or [0, 1])[:2]
        return shard_id, shard_count

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def carries(self, guild_id: int | str | None) -> bool:
        """Whether this session gets the events of ``guild_id`` (``None``: no guild, shard 0 only)."""
        shard_id, shard_count = self.shard
        return shard_id == 0 if guild_id is None else shard_of(guild_id, shard_count) == shard_id


class Gateway:
    def __init__(self, double: DiscordDouble):
        self.double = double
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.identifies: list[dict] = []
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def connected(self) -> bool:
        """Some bot connection is open (any shard)."""
        return any(session.live for session in self.sessions.values())

    def shards(self) -> list[tuple[int, int]]:
        """The ``(shard_id, shard_count)`` of every open connection, in the order they identified."""
        return [session.shard for session in self.sessions.values() if session.live]

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: Session | None = None
        try:
            await ws.send_str(json.dumps({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS},
                                          "s": None, "t": None}))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, d = frame.get("op"), frame.get("d")
                if op == HEARTBEAT:
                    await self._send(session, ws, {"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
                elif op == IDENTIFY:
                    if (refused := self._refused_intents(d)) is not None:
                        await ws.close(code=refused, message=b"Disallowed intent(s)." if refused == DISALLOWED_INTENTS
                                       else b"Invalid intent(s).")
                        break
                    if (refused := self._refused_shard(d)) is not None:
                        await ws.close(code=refused, message=b"Invalid shard." if refused == INVALID_SHARD
                                       else b"Sharding required.")
                        break
                    session = await self._identify(ws, d)
                elif op == RESUME:
                    session = await self._resume(ws, d)
                elif op == REQUEST_MEMBERS and session is not None:
                    if not self._may_request_members(session, d):
                        # gateway-events.md: the whole member list needs GUILD_MEMBERS
                        await ws.close(code=INVALID_INTENTS, message=b"Requesting members needs GUILD_MEMBERS.")
                        break
                    await self._members(session, d)
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
                if self.current is session:
                    self.current = next((s for s in reversed(self.sessions.values()) if s.live), None)
            self.double.notify()
        return ws

    async def _send(self, session: Session | None, ws: web.WebSocketResponse, frame: dict) -> None:
        if session is None:
            await ws.send_str(json.dumps(frame))
            return
        async with session.lock:
            await ws.send_str(json.dumps(frame))

    def _refused_intents(self, d: dict) -> int | None:
        """gateway.md: unknown bits close with 4013, privileged ones not enabled in the portal with 4014."""
        intents = d.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents & ~ALL_INTENTS:
            return INVALID_INTENTS
        if intents & PRIVILEGED & ~self.double.privileged_intents:
            return DISALLOWED_INTENTS
        return None

    def _refused_shard(self, d: dict) -> int | None:
        """4010 for a shard that is not ``[shard_id, shard_count]`` with ``0 <= shard_id < shard_count``;
        4011 when the connection would carry more guilds than one shard may."""
        shard = d.get("shard")
        if shard is None:
            shard_id, shard_count = 0, 1
        elif (not isinstance(shard, list) or len(shard) != 2 or not all(type(n) is int for n in shard)
              or not 0 <= shard[0] < shard[1]):
            return INVALID_SHARD
        else:
            shard_id, shard_count = shard
        carried = sum(1 for g in self.double.world.guilds.values() if shard_of(g.id, shard_count) == shard_id)
        return SHARDING_REQUIRED if carried > self.double.max_guilds_per_shard else None

    @staticmethod
    def _may_request_members(session: Session, d: dict) -> bool:
        everyone = not d.get("user_ids") and not d.get("query")
        return not everyone or bool(session.identify.get("intents", 0) & GUILD_MEMBERS)

    async def _identify(self, ws: web.WebSocketResponse, d: dict) -> Session:
        self.identifies.append(d)
        session = Session(id=self.double.snowflake(), identify=d, ws=ws)
        self.sessions[session.id] = session
        shard_id, shard_count = session.shard
        guilds = [g for g in self.double.world.guilds.values() if session.carries(g.id)]
        w = self.double.world
        await self._dispatch(session, "READY", {
            "v": 10, "user": w.bot.payload(), "session_id": session.id, "session_type": "normal",
            "resume_gateway_url": self.double.gateway_url, "shard": [shard_id, shard_count],
            "guilds": [{"id": g.id, "unavailable": True} for g in guilds], "private_channels": [],
            "relationships": [], "presences": [], "geo_ordered_rtc_regions": [], "auth": {},
            "application": {"id": self.double.app_id, "flags": 0}})
        presences = bool(d.get("intents", 0) & GUILD_PRESENCES)
        for g in guilds:
            await self._dispatch(session, "GUILD_CREATE", w.guild_payload(g, all_members=presences))
        self.current = session
        self.double.notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, d: dict) -> Session | None:
        session = self.sessions.get(d.get("session_id"))
        if session is None:
            await ws.send_str(json.dumps({"op": INVALID_SESSION, "d": False, "s": None, "t": None}))
            return None
        session.ws = ws
        session.resumed += 1
        async with session.lock:
            for seq, frame in list(session.sent):
                if seq > (d.get("seq") or 0):
                    await ws.send_str(frame)
        await self._dispatch(session, "RESUMED", {})
        self.current = session
        self.double.notify()
        return session

    async def _members(self, session: Session, d: dict) -> None:
        ids = d.get("guild_id")
        for gid in ids if isinstance(ids, list) else [ids]:
            g = self.double.world.guilds.get(str(gid))
            if g is not None:
                members = [self.double.world.member_payload(g, m.user) for m in g.members.values()]
                await self._dispatch(session, "GUILD_MEMBERS_CHUNK", {
                    "guild_id": g.id, "members": members, "chunk_index": 0, "chunk_count": 1,
                    "not_found": [], "nonce": d.get("nonce")})

    async def _dispatch(self, session: Session, event: str, data: dict) -> None:
        async with session.lock:
            session.seq += 1
            frame = dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data}).decode()
            session.sent.append((session.seq, frame))
            if session.ws is not None and not session.ws.closed:
                await session.ws.send_str(frame)

    async def dispatch(self, event: str, data: dict) -> None:
        """Send an event to every open connection of its guild's shard (shard 0 for guild-less events)."""
        guild_id = data.get("id") if event in GUILD_EVENTS else data.get("guild_id")
        sessions = [s for s in self.sessions.values() if s.live and s.carries(guild_id)]
        if not sessions:
            where = "" if guild_id is None or not self.connected else f" for the shard of guild {guild_id}"
            raise NoBotConnected(f"no bot is connected to the gateway{where}, so {event} cannot reach one "
                                 "(a user would see 'This interaction failed')")
        for session in sessions:
            await self._dispatch(session, event, data)

    async def request_reconnect(self) -> None:
        """Op 7 RECONNECT: discord.py closes the socket and RESUMEs on resume_gateway_url."""
        if self.connected:
            await self._send(self.current, self.current.ws, {"op": RECONNECT, "d": None, "s": None, "t": None})

    async def drop(self, code: int = 4000) -> None:
        """Close the current connection without RECONNECT (a dropped network; 4000 lets the bot resume)."""
        if self.connected:
            await self.current.ws.close(code=code, message=b"connection dropped by the double")

    async def close(self) -> None:
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"double stopping")
