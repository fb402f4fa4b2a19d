"""``bot.wire``: the lean HTTP/1.1 client of the interaction routes, against a raw HTTP server that
shows every byte and can misbehave (close idle connections, answer chunked, refuse, hold answers)."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import logging
import re
import shutil
import ssl
import subprocess
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import SimpleNamespace

import aiohttp
import discord
import discord.http
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter, interaction_message_response_params

from bot import wire as W
from bot.metrics import Metrics
from bot.wire import Wire

TOKEN = "aW50ZXJhY3Rpb246c2VjcmV0"


@dataclass
class Seen:
    connection: int
    head: bytes
    body: bytes

    @property
    def line(self) -> str:
        return self.head.split(b"\r\n", 1)[0].decode()


def answer(status: int = 200, body: object = None, *, reason: str = "OK", headers: dict | None = None,
           chunked: bool = False) -> bytes:
    data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    head = {"Content-Type": "application/json"} if body is not None else {}
    head.update(headers or {})
    if chunked:
        head["Transfer-Encoding"] = "chunked"
        half = len(data) // 2
        data = b"".join(f"{len(part):x};ext=1\r\n".encode() + part + b"\r\n"
                        for part in (data[:half], data[half:]) if part) + b"0\r\nX-Trailer: 1\r\n\r\n"
    else:
        head["Content-Length"] = str(len(data))
    lines = "".join(f"{k}: {v}\r\n" for k, v in head.items())
    return f"HTTP/1.1 {status} {reason}\r\n{lines}\r\n".encode() + data


Script = Callable[[Seen], Awaitable[bytes | None]]


class RawServer:
    """Reads HTTP/1.1 requests on kept-alive connections; ``script`` answers each (bytes), or
    closes the connection without an answer (None)."""

    def __init__(self, script: Script | None = None) -> None:
        self.script = script or self.ok
        self.requests: list[Seen] = []
        self.connections = 0
        self.open = 0
        self.writers: list[asyncio.StreamWriter] = []
        self.changed = asyncio.Event()

    @staticmethod
    async def ok(seen: Seen) -> bytes:
        return answer(200, {"id": "1"})

    async def start(self, tls: ssl.SSLContext | None = None) -> RawServer:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0, ssl=tls)
        port = self.server.sockets[0].getsockname()[1]
        self.base = f"https://localhost:{port}/api/v10" if tls else f"http://127.0.0.1:{port}/api/v10"
        return self

    async def stop(self) -> None:
        self.server.close()
        for writer in self.writers:
            writer.close()
        await self.server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        index, self.connections, self.open = self.connections, self.connections + 1, self.open + 1
        self.writers.append(writer)
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    break
                length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
                body = await reader.readexactly(int(length.group(1))) if length else b""
                seen = Seen(index, head, body)
                self.requests.append(seen)
                self._changed()
                out = await self.script(seen)
                if out is None:
                    break
                writer.write(out)
                await writer.drain()
        finally:
            self.open -= 1
            writer.close()
            self._changed()

    def _changed(self) -> None:
        self.changed.set()
        self.changed = asyncio.Event()

    async def until(self, predicate: Callable[[], bool]) -> None:
        while not predicate():
            await asyncio.wait_for(self.changed.wait(), 5)


@pytest.fixture
async def raw(monkeypatch):
    server = await RawServer().start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.base)
    yield server
    await server.stop()


@pytest.fixture
async def wire():
    w = Wire()
    yield w
    await w.close()


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The wire's waits (429s, 5xx, bucket resets), taken without waiting."""
    seen: list[float] = []

    async def sleep(seconds: float) -> None:
        seen.append(seconds)

    monkeypatch.setattr(W, "sleep", sleep)
    return seen


def _normalised(seen: Seen) -> tuple[str, dict, bytes]:
    """Request line, headers (the boundary and the compression asked for aside) and body."""
    lines = seen.head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:] if line)
    boundary = re.search(r"boundary=(\w+)", headers.get("Content-Type", ""))
    body = seen.body
    if boundary:
        body = body.replace(boundary.group(1).encode(), b"B")
        headers["Content-Type"] = headers["Content-Type"].replace(boundary.group(1), "B")
    headers.pop("Accept-Encoding")
    return lines[0], headers, body


def _png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\nnot really"), filename="hand-0123.png", description="alt")


# ------------------------------------------------------------------------------ the same requests

async def test_each_request_is_the_one_discord_pys_adapter_sends_but_for_compression(raw, wire):
    adapter = AsyncWebhookAdapter()
    path = f"/webhooks/7/{TOKEN}"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0),
                                     cookie_jar=aiohttp.DummyCookieJar()) as session:
        params = interaction_message_response_params(type=7, content="hé", view=discord.utils.MISSING)
        await adapter.create_interaction_response(9, TOKEN, session=session, params=params)
        await wire.call("POST", f"/interactions/9/{TOKEN}/callback", (9, TOKEN), query="with_response=1",
                        payload=params.payload)
        with handle_message_parameters(content="x", files=[_png()]) as p:
            await adapter.execute_webhook(7, TOKEN, session=session, payload=p.payload, multipart=p.multipart,
                                          files=p.files, wait=True)
        with handle_message_parameters(content="x", files=[_png()]) as p:
            await wire.call("POST", path, (7, TOKEN), query="wait=1&with_components=0", multipart=p.multipart,
                            files=p.files)
        await adapter.delete_webhook_message(7, TOKEN, 5, session=session)
        await wire.call("DELETE", f"{path}/messages/5", (7, TOKEN))
        await adapter.get_original_interaction_response(7, TOKEN, session=session)
        await wire.call("GET", f"{path}/messages/@original", (7, TOKEN))
    theirs, ours = raw.requests[0::2], raw.requests[1::2]
    assert len(ours) == 4
    for mine, reference in zip(ours, theirs, strict=True):
        assert _normalised(mine) == _normalised(reference)
    assert [r.line.split()[0] for r in ours] == ["POST", "POST", "DELETE", "GET"]
    assert b'name="payload_json"' in ours[1].body and b'filename="hand-0123.png"' in ours[1].body
    assert all(b"\r\nAccept-Encoding: identity\r\n" in r.head for r in ours)


# ------------------------------------------------------------------------------ keep-alive

async def test_requests_share_one_kept_alive_connection(raw, wire):
    for n in range(3):
        assert await wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/@original", (7, TOKEN),
                               payload={"content": str(n)}) == {"id": "1"}
    assert [r.connection for r in raw.requests] == [0, 0, 0] and raw.connections == 1


async def test_a_chunked_answer_is_read_whole_and_the_connection_kept(raw, wire):
    message = {"id": "5", "content": "x" * 5000, "attachments": []}

    async def chunked(seen: Seen) -> bytes:
        return answer(200, message, chunked=True)

    raw.script = chunked
    assert await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={"content": "a"}) == message
    assert await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={"content": "b"}) == message
    assert raw.connections == 1


async def test_a_connection_the_server_closed_while_idle_is_replaced_before_the_request(raw, wire):
    async def once(seen: Seen) -> bytes:
        raw.writers[seen.connection].write(answer(200, {"id": "1"}))
        return None         # answered, then closed: the server's keep-alive ran out

    raw.script = once
    await wire.call("POST", f"/interactions/9/{TOKEN}/callback", (9, TOKEN), payload={"type": 6})
    await raw.until(lambda: raw.open == 0)
    await asyncio.sleep(0)      # the client's side reads the end of the stream
    await wire.call("POST", f"/interactions/8/{TOKEN}/callback", (8, TOKEN), payload={"type": 6})
    assert [r.connection for r in raw.requests] == [0, 1]


async def test_a_close_crossing_a_request_repeats_a_patch_but_never_a_post(raw, wire):
    async def close_the_second(seen: Seen) -> bytes | None:
        if len([r for r in raw.requests if r.connection == seen.connection]) == 2:
            return None     # read the request, then closed without an answer
        return answer(200, {"id": "1"})

    raw.script = close_the_second
    edit = f"/webhooks/7/{TOKEN}/messages/@original"
    await wire.call("PATCH", edit, (7, TOKEN), payload={"content": "a"})
    assert await wire.call("PATCH", edit, (7, TOKEN), payload={"content": "b"}) == {"id": "1"}
    assert [(r.connection, r.body) for r in raw.requests] == [
        (0, b'{"content":"a"}'), (0, b'{"content":"b"}'), (1, b'{"content":"b"}')]

    with pytest.raises(aiohttp.ServerDisconnectedError):
        await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={"content": "c"})
    assert [r.connection for r in raw.requests][3:] == [1]      # sent once, not again


async def test_connections_are_bounded_per_host(raw, wire, monkeypatch):
    monkeypatch.setattr(W, "LIMIT", 2)
    release = asyncio.Event()

    async def held(seen: Seen) -> bytes:
        await release.wait()
        return answer(200, {"id": "1"})

    raw.script = held
    calls = [asyncio.create_task(wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/{n}", (n, TOKEN),
                                           payload={})) for n in range(4)]
    await raw.until(lambda: len(raw.requests) == 2)
    for _ in range(5):
        await asyncio.sleep(0)
    assert len(raw.requests) == 2 and raw.connections == 2
    release.set()
    await asyncio.gather(*calls)
    assert len(raw.requests) == 4 and raw.connections == 2


async def test_idle_connections_are_closed_after_a_while_and_all_on_close(raw, monkeypatch):
    wire = Wire()
    await wire.call("DELETE", f"/webhooks/7/{TOKEN}/messages/1", (7, TOKEN))
    monkeypatch.setattr(W, "IDLE", 0.0)
    wire._tend()
    await raw.until(lambda: raw.open == 0)
    monkeypatch.setattr(W, "IDLE", 15.0)
    await wire.call("DELETE", f"/webhooks/7/{TOKEN}/messages/2", (7, TOKEN))
    assert raw.open == 1 and raw.connections == 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        await wire.close()
        await raw.until(lambda: raw.open == 0)
        gc.collect()
    assert not [w for w in caught if "nclosed" in str(w.message)]
    with pytest.raises(aiohttp.ClientConnectionError):
        await wire.call("DELETE", f"/webhooks/7/{TOKEN}/messages/3", (7, TOKEN))


async def test_a_request_without_an_answer_for_too_long_is_aborted_as_a_timeout(raw, wire, monkeypatch):
    release = asyncio.Event()

    async def silent(seen: Seen) -> bytes:
        await release.wait()
        return answer(200, {"id": "1"})

    raw.script = silent
    call = asyncio.create_task(wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/1", (7, TOKEN), payload={}))
    await raw.until(lambda: len(raw.requests) == 1)
    wire._tend()
    assert not call.done()                  # not overdue yet
    monkeypatch.setattr(W, "TOTAL_TIMEOUT", 0.0)
    wire._tend()
    with pytest.raises(aiohttp.ServerTimeoutError):
        await call
    release.set()
    assert len(raw.requests) == 1           # an aborted PATCH is not sent again


async def test_https_keeps_its_connection_alive_and_replaces_one_the_server_closed(tmp_path, monkeypatch):
    if shutil.which("openssl") is None:
        pytest.skip("openssl makes the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    served = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    served.load_cert_chain(cert, key)
    raw = await RawServer().start(served)
    monkeypatch.setattr(discord.http.Route, "BASE", raw.base)
    wire = Wire()
    wire._ssl = ssl.create_default_context(cafile=str(cert))     # the default context, trusting this certificate
    try:
        for n in range(2):
            await wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/@original", (7, TOKEN), payload={"n": n})
        raw.writers[0].close()                                    # the server ends the idle connection
        await raw.until(lambda: raw.open == 0)
        for _ in range(5):
            await asyncio.sleep(0)
        await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={"n": 2})
    finally:
        await wire.close()
        await raw.stop()
    assert [(r.connection, r.body) for r in raw.requests] == [(0, b'{"n":0}'), (0, b'{"n":1}'), (1, b'{"n":2}')]
    assert all(b"\r\nHost: localhost:" in r.head for r in raw.requests)


# ------------------------------------------------------------------------------ Discord's answers

async def test_a_429_through_discords_proxy_is_waited_out_and_sent_again(raw, wire, waits):
    answers = iter([answer(429, {"message": "You are being rate limited.", "retry_after": 0.25, "global": False},
                           reason="Too Many Requests", headers={"Via": "1.1 google"}),
                    answer(200, {"id": "2"})])

    async def limited(seen: Seen) -> bytes:
        return next(answers)

    raw.script = limited
    assert await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={"content": "a"}) == {"id": "2"}
    assert waits == [0.25] and len(raw.requests) == 2


async def test_a_global_429_holds_every_request_until_it_is_over(raw, wire, waits):
    answers = iter([answer(429, {"message": "You are being rate limited.", "retry_after": 60, "global": True},
                           reason="Too Many Requests", headers={"Via": "1.1 google", "X-RateLimit-Global": "true"}),
                    answer(200, {"id": "2"}), answer(200, {"id": "3"})])

    async def limited(seen: Seen) -> bytes:
        return next(answers)

    raw.script = limited
    await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={})
    await wire.call("POST", "/webhooks/7/another-token", (7, "another-token"), payload={})
    assert len(waits) == 2 and all(59 < wait <= 60 for wait in waits)   # the other token waited for it too


async def test_a_429_without_via_is_raised_at_once(raw, wire, waits):
    async def banned(seen: Seen) -> bytes:
        return answer(429, {"message": "You are being rate limited.", "retry_after": 60, "global": True},
                      reason="Too Many Requests")

    raw.script = banned
    with pytest.raises(discord.HTTPException) as caught:
        await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={})
    assert caught.value.status == 429 and waits == [] and len(raw.requests) == 1


async def test_an_exhausted_bucket_holds_its_next_request_until_the_reset(raw, wire, waits):
    async def last(seen: Seen) -> bytes:
        return answer(200, {"id": "1"}, headers={"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.5"})

    raw.script = last
    await wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/@original", (7, TOKEN), payload={})
    assert waits == [0.5]


async def test_a_5xx_is_tried_again_with_its_files_sent_whole(raw, wire, waits):
    answers = iter([answer(502, b"bad gateway", reason="Bad Gateway", headers={"Content-Type": "text/plain"}),
                    answer(200, {"id": "3"})])

    async def flaky(seen: Seen) -> bytes:
        return next(answers)

    raw.script = flaky
    with handle_message_parameters(content="x", files=[_png()]) as p:
        got = await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), multipart=p.multipart, files=p.files)
    assert got == {"id": "3"} and waits == [1]
    assert all(b"not really" in r.body for r in raw.requests) and len(raw.requests) == 2


async def test_five_5xx_raise_discord_server_error(raw, wire, waits):
    async def down(seen: Seen) -> bytes:
        return answer(503, {"message": "503: Service Unavailable", "code": 0}, reason="Service Unavailable")

    raw.script = down
    with pytest.raises(discord.DiscordServerError) as caught:
        await wire.call("DELETE", f"/webhooks/7/{TOKEN}/messages/1", (7, TOKEN))
    assert caught.value.status == 503 and waits == [1, 3, 5, 7, 9] and len(raw.requests) == 5


async def test_a_5xx_on_a_token_past_its_lifetime_is_raised_at_once(raw, wire, waits):
    """Discord sometimes answers a request on an expired token with a 5xx: no retry can help."""
    async def down(seen: Seen) -> bytes:
        return answer(503, {"message": "503: Service Unavailable", "code": 0}, reason="Service Unavailable")

    raw.script = down
    asked = []
    with pytest.raises(discord.DiscordServerError):
        await wire.call("PATCH", f"/webhooks/7/{TOKEN}/messages/1", (7, TOKEN), payload={},
                        expired=lambda: asked.append(1) or True)
    assert len(raw.requests) == 1 and waits == [] and asked == [1]


@pytest.mark.parametrize(("status", "kind"), [(404, discord.NotFound), (403, discord.Forbidden),
                                              (400, discord.HTTPException)])
async def test_refusals_raise_discord_pys_exceptions(raw, wire, status, kind):
    error = {"message": "Unknown interaction", "code": 10062,
             "errors": {"content": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Too long"}]}}}

    async def refuse(seen: Seen) -> bytes:
        return answer(status, error, reason="Refused")

    raw.script = refuse
    with pytest.raises(kind) as caught:
        await wire.call("POST", f"/interactions/9/{TOKEN}/callback", (9, TOKEN), payload={"type": 6})
    exc = caught.value
    assert type(exc) is kind and (exc.status, exc.code) == (status, 10062)
    assert exc.text == "Unknown interaction\nIn content: Too long"
    assert str(exc) == f"{status} Refused (error code: 10062): {exc.text}"


async def test_a_refused_connection_is_an_aiohttp_client_error_and_an_os_error(monkeypatch, wire):
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    server.close()
    await server.wait_closed()
    monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
    with pytest.raises(aiohttp.ClientOSError) as caught:
        await wire.call("POST", f"/webhooks/7/{TOKEN}", (7, TOKEN), payload={})
    assert isinstance(caught.value, OSError) and isinstance(caught.value, aiohttp.ClientError)


async def test_answers_are_counted_and_logged_without_the_token(raw, caplog):
    metrics = Metrics(SimpleNamespace())
    wire = Wire(observe=metrics.answered)
    raw.script = lambda seen: _refused_once(seen, raw)
    caplog.set_level(logging.INFO)
    try:
        with pytest.raises(discord.NotFound):
            await wire.call("POST", f"/interactions/9/{TOKEN}/callback", (9, TOKEN), payload={"type": 6})
        await wire.call("POST", f"/interactions/9/{TOKEN}/callback", (9, TOKEN), payload={"type": 6})
    finally:
        await wire.close()
    assert metrics.requests.labels("interaction")._value.get() == 2
    assert metrics.refused.labels("interaction")._value.get() == 1
    logged = [r.getMessage() for r in caplog.records if r.name == "spieltisch.discord"]
    assert logged == ["Discord refused POST /api/v10/interactions/9/[redacted]/callback: 404 Not Found"]
    caplog.clear()


async def _refused_once(seen: Seen, raw: RawServer) -> bytes:
    if len(raw.requests) == 1:
        return answer(404, {"message": "Unknown interaction", "code": 10062}, reason="Not Found")
    return answer(204, None, reason="No Content")
