"""Fault injection: answer chosen requests the way Discord does on a bad day.

    fault = double.fault("POST", "/interactions/*/callback", status=404, code=10062)
    fault = double.fault("PATCH", "/channels/*/messages/*", status=429, retry_after=0.2, times=2)
    fault = double.fault("POST", "/channels/*/messages", status=503, nth=3)   # the third post only
    fault = double.fault("POST", "/channels/*/messages", hold=event)          # until event.set()
    fault = double.fault("POST", "/interactions/*/callback", drop=True)       # done, then the line drops

A fault matches requests by method and a glob over the path without ``/api/v10`` (``*`` also
spans slashes), and optionally by ``when(record)``; from the ``nth`` match on it affects the next
``times`` matching requests. Each affected request is held first (``delay`` seconds, or until
``hold`` is set), then ``then(record)`` runs (a test may kill the bot there), then it is answered
with the error instead of being handled, or, with ``after=True``, handled first and its answer
replaced by the error (Discord did the work, the bot never learnt it). With ``drop=True`` the request
is handled and then its connection closed without an answer (the bot sees a lost connection). A 429 carries
``retry_after`` and the ``Via`` header that discord.py needs to believe it and wait it out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from aiohttp import web

from .wire import json_response

MESSAGES = {401: "401: Unauthorized", 429: "You are being rate limited.", 500: "500: Internal Server Error",
            502: "502: Bad Gateway", 503: "503: Service Unavailable", 404: "Unknown interaction"}


@dataclass(eq=False)
class Fault:
    method: str
    path: str
    status: int | None = None
    code: int = 0
    retry_after: float = 1.0
    nth: int = 1
    times: int = 1
    delay: float = 0.0
    hold: asyncio.Event | None = None
    when: Callable[[Any], bool] | None = None
    then: Callable[[Any], Any] | None = None
    after: bool = False
    drop: bool = False
    seen: int = 0                                   # matching requests so far
    hits: list = field(default_factory=list)        # the requests it affected

    def matches(self, record) -> bool:
        return ((self.method == "*" or self.method == record.method) and fnmatchcase(record.path, self.path)
                and (self.when is None or self.when(record)))

    @property
    def spent(self) -> bool:
        return self.seen >= self.nth + self.times - 1

    def take(self, record) -> bool:
        """Count a matching request; whether this fault affects it."""
        self.seen += 1
        if self.nth <= self.seen < self.nth + self.times:
            self.hits.append(record)
            return True
        return False

    async def wait(self) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.hold is not None:
            await self.hold.wait()

    def answer(self, record) -> web.Response:
        """The error answer, noted on the request record as the double's own errors are."""
        body: dict[str, Any] = {"message": MESSAGES.get(self.status, f"{self.status}"), "code": self.code}
        headers = {}
        if self.status == 429:
            body.update(retry_after=self.retry_after, **{"global": False})
            headers = {"Via": "1.1 google", "Retry-After": str(max(1, round(self.retry_after))),
                       "X-RateLimit-Scope": "user"}
        record.status, record.code, record.error = self.status, self.code, body
        response = json_response(body, self.status)
        response.headers.update(headers)
        return response


class Faults:
    """The double's armed faults, checked in the order they were added (the first match wins)."""

    def __init__(self) -> None:
        self.armed: list[Fault] = []

    def add(self, fault: Fault) -> Fault:
        if fault.status is None and fault.then is None and not fault.delay and fault.hold is None and not fault.drop:
            raise ValueError("a fault needs a status, a delay, a hold, a drop or a `then`")
        if fault.drop and (fault.status is not None or not fault.after):
            raise ValueError("a dropped request is handled first and then left unanswered: no status")
        self.armed.append(fault)
        return fault

    def clear(self) -> None:
        self.armed.clear()

    def pick(self, record) -> Fault | None:
        for fault in self.armed:
            if not fault.spent and fault.matches(record) and fault.take(record):
                return fault
        return None
