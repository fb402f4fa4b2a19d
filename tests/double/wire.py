"""HTTP plumbing shared by the server and its routes."""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web

BODY = web.RequestKey("body", object)
RECORD = web.RequestKey("record", object)
FILES = web.RequestKey("files", dict)        # files[n] index -> attachments.Upload of a multipart request


class DiscordError(Exception):
    """An error answer in Discord's shape: {"message", "code", "errors"?}."""

    def __init__(self, status: int, code: int, message: str, errors: dict | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def json_response(obj: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py's json_or_text compares the header with ==, and aiohttp's
    # default "application/json; charset=utf-8" would make it treat the body as text.
    return web.Response(body=dumps(obj), status=status, headers={"Content-Type": "application/json"})


def dumps(obj: Any) -> bytes:
    """JSON as Discord sends it. orjson: the double answers every request with a whole message (a
    table's 40 components), and the standard library's encoder was a fifth of the harness's time
    under load."""
    return orjson.dumps(obj)


def loads(raw: bytes | str) -> Any:
    return orjson.loads(raw)
