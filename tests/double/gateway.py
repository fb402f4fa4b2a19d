"""The gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, and dispatching events.

Plain-text JSON frames: discord.py asks for zlib-stream but reads text frames as they come.
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

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


class Gateway:
    def __init__(self, double: DiscordDouble):
        self.double = double
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.identifies: list[dict] = []
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.ws is not None and not self.current.ws.closed

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
                    self.current = None
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

    @staticmethod
    def _may_request_members(session: Session, d: dict) -> bool:
        everyone = not d.get("user_ids") and not d.get("query")
        return not everyone or bool(session.identify.get("intents", 0) & GUILD_MEMBERS)

    async def _identify(self, ws: web.WebSocketResponse, d: dict) -> Session:
        self.identifies.append(d)
        session = Session(id=self.double.snowflake(), identify=d, ws=ws)
        self.sessions[session.id] = session
        shard_id, shard_count = (d.get("shard") or [0, 1])[:2]
        guilds = [g for g in self.double.world.guilds.values() if (int(g.id) >> 22) % shard_count == shard_id]
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
            frame = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": data})
            session.sent.append((session.seq, frame))
            if session.ws is not None and not session.ws.closed:
                await session.ws.send_str(frame)

    async def dispatch(self, event: str, data: dict) -> None:
        """Send an event to the bot connected now."""
        if not self.connected:
            raise NoBotConnected(f"no bot is connected to the gateway, so {event} cannot reach one "
                                 "(a user would see 'This interaction failed')")
        await self._dispatch(self.current, event, data)

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
