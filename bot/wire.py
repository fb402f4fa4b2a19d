"""Requests on Discord's interaction routes over a lean HTTP/1.1 keep-alive client.

A move sends about six requests through interaction tokens (the click's answer, edits of the table
and of open hands, the turn ping and the delete of the old one). Through discord.py's webhook
adapter and aiohttp each cost about 0.25 ms of CPU; most of it is aiohttp's generality (URL objects,
trace hooks, payload classes, response objects). ``Wire`` sends the very same requests (method,
path, query, JSON or multipart body, headers; only it asks for no compression) on plain asyncio
streams, about 0.08 ms each (tests/host/test_wire.py compares the bytes), and behaves on failures as
``AsyncWebhookAdapter.request`` does: the same per-token bucket lock with its ``X-RateLimit-*`` wait,
429s waited out (only those through Discord's proxy, with ``Via``), 5xx tried five times (but not
once the caller says the token has expired: Discord sometimes answers an expired token with a 5xx,
and no retry can help then), and
``discord.HTTPException`` / ``Forbidden`` / ``NotFound`` / ``DiscordServerError`` raised with
``status``, ``code`` and ``text``. A 429 with ``global`` set holds every request of the wire until it
is over (the adapter holds only its own bucket). Lost connections raise aiohttp's own types
(``ClientOSError``, ``ServerDisconnectedError``, ``ServerTimeoutError``: ``aiohttp.ClientError``),
which callers already catch.

Connections are kept alive, at most ``LIMIT`` per host, and closed after ``IDLE`` seconds unused,
before a server's own keep-alive timeout usually ends them; a request without an answer for
``TOTAL_TIMEOUT`` seconds is aborted (aiohttp's default timeouts). When the server closed an idle one
anyway, it is noticed before the request (the end of stream is already read) and a fresh one is
used. If the close crosses the request on the way, nothing of the answer arrives: a GET, DELETE
or PATCH is then sent once more on a fresh connection (a repeat has the same effect: our edits
always carry the whole message), a POST is not (a callback or a follow-up might then be answered
or posted twice; aiohttp does not repeat those either) and raises ``ServerDisconnectedError``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import ssl
import time
import uuid
import weakref
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote, urlsplit

import aiohttp
import discord
from aiohttp.http import SERVER_SOFTWARE
from discord.utils import _from_json, _parse_ratelimit_header, _to_json

log = logging.getLogger("spieltisch.wire")

#: Open connections per host; a request beyond waits for one to come back.
LIMIT = 64
#: Seconds an idle connection is kept (aiohttp's keep-alive default; servers keep theirs longer).
IDLE = 15.0
#: Seconds a request may take in all (aiohttp's default ``ClientTimeout``): connect 30, all 300.
CONNECT_TIMEOUT = 30.0
TOTAL_TIMEOUT = 300.0
#: Seconds between rounds that close idle connections and abort overdue requests (one timer for
#: all: a timer per request would cost more than the request's own reading and writing).
TEND = 5.0
#: What aiohttp sends as User-Agent (discord.py's webhook adapter sets none of its own).
USER_AGENT = SERVER_SOFTWARE
#: Methods sent once more when a reused connection was closed under them (see the docstring).
REPEATABLE = frozenset({"GET", "DELETE", "PATCH"})

Observer = Callable[[str, str, int, str], None]
#: How the wire waits out a 429, a 5xx and a bucket's reset (tests see the waits here).
sleep = asyncio.sleep


class BadAnswer(aiohttp.ClientPayloadError):
    """The server's answer is not HTTP/1.1 as we read it."""


class Headers(dict):
    """An answer's headers by lower-case name; looked up in any case (as aiohttp's)."""

    def get(self, name: str, default: Any = None) -> Any:
        return super().get(name.lower(), default)

    def __getitem__(self, name: str) -> str:
        return super().__getitem__(name.lower())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name.lower())


class Answer:
    """One HTTP answer; what ``discord.HTTPException`` reads of a response (``status``, ``reason``)."""

    __slots__ = ("body", "headers", "reason", "status")

    def __init__(self, status: int, reason: str, headers: Headers, body: bytes) -> None:
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def data(self) -> Any:
        """discord.py's ``json_or_text``: JSON when the type says exactly so, else the text."""
        text = self.body.decode("utf-8")
        return _from_json(text) if self.headers.get("content-type") == "application/json" else text


class _Connection:
    __slots__ = ("overdue", "reader", "since", "writer")

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        #: When its request began, or (idle) when it was put back.
        self.since = 0.0
        self.overdue = False

    def stale(self, now: float) -> bool:
        """Closed by the server (its end of stream is read), broken, or idle too long."""
        return (self.reader.at_eof() or self.writer.is_closing() or self.reader.exception() is not None
                or now - self.since >= IDLE)

    def close(self) -> None:
        self.writer.close()


class _Host:
    """The connections to one origin: idle ones (newest last) and a bound on all open ones."""

    def __init__(self, scheme: str, host: str, port: int) -> None:
        self.host, self.port, self.tls = host, port, scheme == "https"
        default = 443 if self.tls else 80
        self.header = host if port == default else f"{host}:{port}"
        self.idle: list[_Connection] = []
        self.slots = asyncio.Semaphore(LIMIT)


def _disposition(name: str, filename: str | None) -> str:
    quoted = f'form-data; name="{_escape(name)}"'
    return quoted if filename is None else f'{quoted}; filename="{_escape(filename)}"'


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def multipart_body(parts: Sequence[dict]) -> tuple[bytes, str]:
    """The body and Content-Type of discord.py's ``multipart`` (``payload_json`` and ``files[n]``),
    laid out as aiohttp's ``FormData(quote_fields=False)`` lays it out."""
    boundary = uuid.uuid4().hex
    out = []
    for part in parts:
        value = part["value"]
        if isinstance(value, str):
            kind, data = part.get("content_type") or "text/plain; charset=utf-8", value.encode()
        else:
            kind, data = part.get("content_type") or "application/octet-stream", value.read()
        head = (f"--{boundary}\r\nContent-Type: {kind}\r\n"
                f"Content-Disposition: {_disposition(part['name'], part.get('filename'))}\r\n\r\n")
        out += (head.encode(), data, b"\r\n")
    out.append(f"--{boundary}--\r\n".encode())
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


class Wire:
    """The bot's client for interaction routes; ``close()`` it with the bot."""

    def __init__(self, observe: Observer | None = None) -> None:
        #: Told of every answer (method, URL path, status, reason): the request metrics.
        self.observe = observe
        self._hosts: dict[tuple[str, str, int], _Host] = {}
        self._bases: dict[str, tuple[_Host, str]] = {}
        self._locks: weakref.WeakValueDictionary[tuple, asyncio.Lock] = weakref.WeakValueDictionary()
        self._global_until = 0.0
        self._ssl: ssl.SSLContext | None = None
        self._tender: asyncio.TimerHandle | None = None
        self._busy: set[_Connection] = set()
        self.closed = False

    # -- Discord's side: what the webhook adapter does around each request -----------------------
    async def call(self, method: str, path: str, bucket: tuple, *, query: str = "", payload: Any = None,
                   multipart: Sequence[dict] | None = None, files: Sequence[discord.File] | None = None,
                   expired: Callable[[], bool] | None = None) -> Any:
        """``AsyncWebhookAdapter.request`` for ``path`` (after ``Route.BASE``, its ids already quoted).
        ``expired``: whether the token in ``path`` has run out, asked after a 5xx (then it is raised at once)."""
        host, prefix = self._base(discord.http.Route.BASE)
        target = f"{prefix}{path}?{query}" if query else prefix + path
        body, kind = (_to_json(payload).encode(), "application/json") if payload is not None else (b"", None)
        lock = self._locks.get(bucket)
        if lock is None:
            self._locks[bucket] = lock = asyncio.Lock()
        answer: Answer | None = None
        data: Any = None
        delay = None
        async with lock:
            try:
                for attempt in range(5):
                    for file in files or ():
                        file.reset(seek=attempt)
                    if multipart:
                        body, kind = multipart_body(multipart)
                    if self._global_until:
                        await self._global_wait()
                    answer = await self.request(host, method, target, body, kind)
                    data = answer.data()
                    status = answer.status
                    if answer.headers.get("x-ratelimit-remaining") == "0" and status != 429:
                        delay = _parse_ratelimit_header(answer)
                    if 300 > status >= 200:
                        return data
                    if status == 429:
                        if not answer.headers.get("via"):
                            raise discord.HTTPException(answer, data)
                        retry_after: float = data["retry_after"]
                        if data.get("global"):      # waited out at the top, with every other request
                            self._global_until = max(self._global_until, time.monotonic() + retry_after)
                        else:
                            await sleep(retry_after)
                        continue
                    if status >= 500:
                        if expired is not None and expired():
                            break
                        await sleep(1 + attempt * 2)
                        continue
                    if status == 403:
                        raise discord.Forbidden(answer, data)
                    if status == 404:
                        raise discord.NotFound(answer, data)
                    raise discord.HTTPException(answer, data)
            finally:
                if delay:
                    await sleep(delay)
        assert answer is not None
        if answer.status >= 500:
            raise discord.DiscordServerError(answer, data)
        raise discord.HTTPException(answer, data)

    async def _global_wait(self) -> None:
        remaining = self._global_until - time.monotonic()
        if remaining > 0:
            await sleep(remaining)
        else:
            self._global_until = 0.0

    def _base(self, base: str) -> tuple[_Host, str]:
        known = self._bases.get(base)
        if known is None:
            url = urlsplit(base)
            if url.scheme not in ("http", "https") or not url.hostname:
                raise ValueError(f"not an http(s) API base: {base!r}")
            port = url.port or (443 if url.scheme == "https" else 80)
            key = (url.scheme, url.hostname, port)
            host = self._hosts.get(key)
            if host is None:
                host = self._hosts[key] = _Host(*key)
            known = self._bases[base] = (host, url.path.rstrip("/"))
        return known

    # -- HTTP/1.1 ---------------------------------------------------------------------------------
    async def request(self, host: _Host, method: str, target: str, body: bytes, kind: str | None) -> Answer:
        """One exchange on a kept-alive connection (see the module's docstring for when it is repeated)."""
        if self.closed:
            raise aiohttp.ClientConnectionError("the bot's HTTP client is closed")
        head = [f"{method} {target} HTTP/1.1\r\nHost: {host.header}\r\n"]
        if kind is not None:
            head.append(f"Content-Type: {kind}\r\n")
        head.append(f"Accept: */*\r\nAccept-Encoding: identity\r\nUser-Agent: {USER_AGENT}\r\n")
        if body or method in ("POST", "PUT", "PATCH", "DELETE"):
            head.append(f"Content-Length: {len(body)}\r\n")
        message = "".join(head).encode("latin-1") + b"\r\n" + body
        async with host.slots:
            answer = await self._exchange(host, method, message)
        if self.observe is not None:
            self.observe(method, target.partition("?")[0], answer.status, answer.reason)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("%s %s has returned status code %s", method, target, answer.status)
        return answer

    async def _exchange(self, host: _Host, method: str, message: bytes) -> Answer:
        connection = self._idle(host)
        reused = connection is not None
        if connection is None:
            connection = await self._connect(host)
        keep = False
        try:
            try:
                answer, keep = await self._send(self._use(connection), method, message)
            except _Unanswered as lost:
                if connection.overdue or not (reused and method in REPEATABLE):
                    raise lost.error from None
                log.debug("a kept-alive connection to %s was closed under a %s: sending it again", host.header,
                          method)
                self._busy.discard(connection)
                connection.close()
                connection = await self._connect(host)
                try:
                    answer, keep = await self._send(self._use(connection), method, message)
                except _Unanswered as again:
                    raise again.error from None
            return answer
        except aiohttp.ClientError:
            if connection.overdue:
                raise aiohttp.ServerTimeoutError(
                    f"no answer from {host.header} within {TOTAL_TIMEOUT:g} s") from None
            raise
        finally:
            self._busy.discard(connection)
            if keep and not self.closed:
                connection.since = time.monotonic()
                host.idle.append(connection)
            else:
                connection.close()

    def _use(self, connection: _Connection) -> _Connection:
        connection.since = time.monotonic()
        self._busy.add(connection)
        if self._tender is None:
            self._tender = asyncio.get_running_loop().call_later(TEND, self._tend)
        return connection

    def _idle(self, host: _Host) -> _Connection | None:
        now = time.monotonic()
        while host.idle:
            connection = host.idle.pop()
            if not connection.stale(now):
                return connection
            connection.close()
        return None

    async def _connect(self, host: _Host) -> _Connection:
        context = None
        if host.tls:
            if self._ssl is None:
                self._ssl = ssl.create_default_context()
            context = self._ssl
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT):
                reader, writer = await asyncio.open_connection(
                    host.host, host.port, ssl=context, server_hostname=host.host if context else None,
                    limit=2 ** 20)
        except TimeoutError:
            raise aiohttp.ServerTimeoutError(f"cannot connect to {host.header} within {CONNECT_TIMEOUT:g} s") from None
        except OSError as exc:
            raise aiohttp.ClientOSError(exc.errno, f"Cannot connect to host {host.header} [{exc.strerror or exc}]") \
                from exc
        return _Connection(reader, writer)

    async def _send(self, connection: _Connection, method: str, message: bytes) -> tuple[Answer, bool]:
        """Write the request, read the answer: (answer, whether the connection may be kept).
        Raises ``_Unanswered`` when the connection broke before any byte of the answer came."""
        reader, writer = connection.reader, connection.writer
        started = False
        try:
            writer.write(message)
            await writer.drain()
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except asyncio.IncompleteReadError as exc:
                    if not exc.partial and not started:
                        raise _Unanswered(aiohttp.ServerDisconnectedError()) from None
                    raise aiohttp.ServerDisconnectedError() from None
                except asyncio.LimitOverrunError:
                    raise BadAnswer("the answer's headers are too long") from None
                started = True
                status, reason, headers, keep = _head(head)
                if status >= 200 or status == 101:
                    break
            if method == "HEAD" or status in (204, 304):
                body = b""
            elif dict.get(headers, "transfer-encoding", "").lower().endswith("chunked"):
                body = await _chunked(reader)
            elif (length := dict.get(headers, "content-length")) is not None:
                if not length.isdigit():
                    raise BadAnswer(f"Content-Length {length!r}")
                body = await reader.readexactly(int(length))
            else:
                body, keep = await reader.read(), False
        except asyncio.IncompleteReadError:
            raise aiohttp.ServerDisconnectedError() from None
        except OSError as exc:
            if isinstance(exc, aiohttp.ClientError):
                raise
            error = aiohttp.ClientOSError(exc.errno, exc.strerror or str(exc))
            if not started:
                raise _Unanswered(error) from exc
            raise error from exc
        return Answer(status, reason, headers, body), keep

    # -- idle connections, overdue requests and shutdown -----------------------------------------
    def _tend(self) -> None:
        """Close the connections idle for ``IDLE`` seconds, abort the requests older than
        ``TOTAL_TIMEOUT`` (they raise ``ServerTimeoutError``); come back while any connection is open."""
        self._tender = None
        now = time.monotonic()
        for host in self._hosts.values():
            keep = []
            for connection in host.idle:
                if connection.stale(now):
                    connection.close()
                else:
                    keep.append(connection)
            host.idle[:] = keep
        for connection in self._busy:
            if now - connection.since >= TOTAL_TIMEOUT:
                connection.overdue = True
                connection.writer.transport.abort()
        if self._busy or any(host.idle for host in self._hosts.values()):
            self._tender = asyncio.get_running_loop().call_later(TEND, self._tend)

    async def close(self) -> None:
        """Close every connection (those in use as their request ends); later requests are refused."""
        self.closed = True
        if self._tender is not None:
            self._tender.cancel()
            self._tender = None
        closing = []
        for host in self._hosts.values():
            for connection in host.idle:
                connection.close()
                closing.append(connection.writer)
            host.idle.clear()
        for connection in self._busy:
            connection.close()
            closing.append(connection.writer)
        for writer in closing:
            with contextlib.suppress(OSError):      # ssl.SSLError is one
                await writer.wait_closed()


class _Unanswered(Exception):
    """The connection broke before any byte of the answer came (``error``: what to raise)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _head(raw: bytes) -> tuple[int, str, Headers, bool]:
    """Status, reason, headers and whether the connection stays open, from a status line and headers."""
    lines = raw.decode("latin-1").split("\r\n")
    version, _, rest = lines[0].partition(" ")
    code, _, reason = rest.partition(" ")
    if not version.startswith("HTTP/1.") or not code.isdigit():
        raise BadAnswer(f"not an HTTP/1.x status line: {lines[0][:80]!r}")
    headers = Headers()
    for line in lines[1:-2]:
        name, colon, value = line.partition(":")
        if not colon:
            raise BadAnswer(f"not a header line: {line[:80]!r}")
        headers[name.strip().lower()] = value.strip()
    connection = dict.get(headers, "connection", "").lower()
    keep = connection != "close" if version == "HTTP/1.1" else connection == "keep-alive"
    return int(code), reason, headers, keep


async def _chunked(reader: asyncio.StreamReader) -> bytes:
    """A chunked body (RFC 9112, 7.1), trailers read and dropped."""
    chunks = []
    while True:
        line = await reader.readuntil(b"\r\n")
        size = line.split(b";", 1)[0].strip()
        try:
            length = int(size, 16)
        except ValueError:
            raise BadAnswer(f"chunk size {size[:20]!r}") from None
        if length == 0:
            while await reader.readuntil(b"\r\n") != b"\r\n":
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(length))
        if await reader.readexactly(2) != b"\r\n":
            raise BadAnswer("a chunk does not end with CRLF")


#: What ``quote(value, safe="")`` leaves as it is.
_UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]*")


def quoted(value: str) -> str:
    """A token in a route, quoted as discord.py's ``Route`` quotes it (tokens need no quoting)."""
    return value if _UNRESERVED.fullmatch(value) else quote(value, safe="")
