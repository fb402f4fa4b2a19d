"""Discord's rate limits (docs/topics/rate-limits.md), as a bucket model the double can switch on.

    double = DiscordDouble(rate_limits=RateLimits(per_route=2, window=0.05, global_per_second=20))

A bucket is keyed by the route (method and path with its ids blanked) and the route's top-level
resource: the channel, the guild, or the webhook with its token (an interaction callback counts
as its interaction's webhook). Each window the bucket allows ``per_route`` requests (``routes``
overrides it for chosen route templates); every answer carries the ``X-RateLimit-*`` headers, and
a request over the limit is answered 429 with ``retry_after``, ``global: false`` and scope
``user``. The global limit counts every request of the bot's token except interaction routes
(the callback and the interaction webhook are exempt, as Discord documents); over it, the answer
is a 429 with ``global: true``, ``X-RateLimit-Global`` and scope ``global``.

Discord does not publish all its numbers, so every figure is a setting; the double's default is
no model at all (ordinary tests and the benchmark are not slowed). Windows run on the double's
clock; discord.py sleeps real time on a 429, so tests keep the windows tiny. With ``tick`` set,
windows count requests instead: each request the model sees is one step of a clock of its own,
windows and ``global_window`` are numbers of steps, the waits it announces are ``tick`` real
seconds per step, and a window that answered 429 ends there. Then the same requests are limited on
a slow machine as on a fast one, and a test can count on its limits being hit.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field

from aiohttp import web

from .wire import json_response

_ID = re.compile(r"^\d{15,21}$")
_TOP = {"channels": "channel_id", "guilds": "guild_id", "webhooks": "webhook_id"}
#: Paths of interaction routes: the callback, and the interaction webhook (the bot's application id).
_INTERACTION = re.compile(r"^/interactions/\d+/[^/]+/callback$")


def route_of(path: str, app_id: str) -> tuple[str, str, bool]:
    """(route template, top-level resource, is an interaction route) of a path without ``/api/v10``."""
    parts = path.strip("/").split("/")
    template, major = [], ""
    for i, part in enumerate(parts):
        previous = parts[i - 1] if i else ""
        if previous in _TOP and i == 1:
            major = part
            template.append("{" + _TOP[previous] + "}")
        elif previous == "interactions" and i == 1:
            major = part
            template.append("{interaction_id}")
        elif i == 2 and parts[0] in ("webhooks", "interactions"):
            major += "/" + part          # the token is part of the webhook's resource
            template.append("{token}")
        elif _ID.match(part):
            template.append("{id}")
        else:
            template.append(part)
    interaction = bool(_INTERACTION.match(path)) or (parts[0] == "webhooks" and len(parts) > 2 and parts[1] == app_id)
    return "/" + "/".join(template), major, interaction


@dataclass
class _Window:
    limit: int
    reset_at: float = 0.0
    remaining: int = 0

    def take(self, now: float, window: float) -> bool:
        if now >= self.reset_at:
            self.reset_at, self.remaining = now + window, self.limit
        if self.remaining <= 0:
            return False
        self.remaining -= 1
        return True


@dataclass
class RateLimits:
    per_route: int = 5                   # requests per bucket per window (Discord: e.g. 5 per 5 s per channel)
    window: float = 5.0                  # seconds
    global_per_second: int = 50          # the bot token's global limit, interaction routes exempt
    global_window: float = 1.0
    routes: dict[str, int] = field(default_factory=dict)   # "PATCH /channels/{channel_id}/messages/{id}" -> limit
    #: A limit shared by every route of one top-level resource (a channel's posts, edits and deletes
    #: together), which no header announces: its 429 has scope ``shared``. None: no such limit.
    per_resource: int | None = None
    #: Real seconds per step when windows count requests (see the module's docstring); None: seconds.
    tick: float | None = None
    limited: list = field(default_factory=list)            # the requests answered 429, oldest first
    _buckets: dict[tuple[str, str], _Window] = field(default_factory=dict)
    _global: _Window | None = None
    _resources: dict[str, _Window] = field(default_factory=dict)
    _steps: int = 0

    def check(self, method: str, path: str, app_id: str, now: float, record) -> web.Response | None:
        """Count the request; a 429 if it is over a limit (then it is not handled)."""
        if self.tick is not None:
            now = self._steps = self._steps + 1
        template, major, interaction = route_of(path, app_id)
        route = f"{method} {template}"
        if not interaction:
            if self._global is None:
                self._global = _Window(self.global_per_second)
            if not self._global.take(now, self.global_window):
                return self._limited(record, self._global, now, route, major, glob=True)
        bucket = self._buckets.get((route, major))
        if bucket is None:
            bucket = self._buckets[(route, major)] = _Window(self.routes.get(route, self.per_route))
        record.bucket = (route, major)
        if not bucket.take(now, self.window):
            return self._limited(record, bucket, now, route, major, glob=False)
        if self.per_resource is not None and major and not interaction:
            shared = self._resources.get(major)
            if shared is None:
                shared = self._resources[major] = _Window(self.per_resource)
            if not shared.take(now, self.window):
                bucket.remaining += 1           # the route's own bucket did not spend this one
                return self._limited(record, shared, now, route, major, glob=False, scope="shared")
        return None

    def headers(self, record, now: float) -> dict[str, str]:
        """The bucket headers every answer carries (a 429 too)."""
        key = getattr(record, "bucket", None)
        bucket = self._buckets.get(key) if key else None
        if bucket is None:
            return {}
        steps = now if self.tick is None else self._steps
        after = self._seconds(max(bucket.reset_at - steps, 0.0))
        return {"X-RateLimit-Limit": str(bucket.limit), "X-RateLimit-Remaining": str(bucket.remaining),
                "X-RateLimit-Reset": f"{now + after:.3f}", "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": bucket_hash(key[0])}

    def _seconds(self, span: float) -> float:
        """A span of the model's clock in the real seconds a client waits."""
        return span if self.tick is None else span * self.tick

    def _limited(self, record, window: _Window, now: float, route: str, major: str, *, glob: bool,
                 scope: str = "user") -> web.Response:
        retry_after = round(max(self._seconds(window.reset_at - now), 0.001), 3)
        if self.tick is not None:
            window.reset_at = now + 1           # counted in requests: the window ends with its 429
        message = "The resource is being rate limited." if scope == "shared" else "You are being rate limited."
        body = {"message": message, "retry_after": retry_after, "global": glob}
        record.status, record.code, record.error = 429, None, body
        self.limited.append(record)
        response = json_response(body, 429)
        response.headers.update({"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)),
                                 "X-RateLimit-Scope": "global" if glob else scope})
        if glob:
            response.headers["X-RateLimit-Global"] = "true"
        return response


def bucket_hash(route: str) -> str:
    """A stable opaque bucket name per route, without the top-level resource (as Discord's)."""
    return hashlib.sha1(route.encode()).hexdigest()[:16]
