"""Logging: discord.py's ``setup_logging`` with our handler, an optional JSON format, and a filter
that keeps credentials out of every line.

The bot token and the interaction tokens (each one enough to answer as the bot for 15 minutes) are
replaced by ``[redacted]`` in every record the handler writes, including discord.py's own DEBUG lines
(request URLs of interaction routes, gateway events with their ``token`` field) and tracebacks.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from typing import TextIO

import discord

REDACTED = "[redacted]"

#: An interaction token in a route (``/interactions/<id>/<token>/…``, ``/webhooks/<app>/<token>…``) or
#: in a payload's ``token`` field, as a dict's repr or as JSON.
_TOKENS = (
    re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?'\"]+"),
    re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""),
)


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` without the given secrets and without any interaction token."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, REDACTED)
    for pattern in _TOKENS:
        text = pattern.sub(rf"\g<1>{REDACTED}", text)
    return text


class Redactor(logging.Filter):
    """Rewrites each record (message, arguments, traceback) without credentials."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)
        self._formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message, self.secrets)
        if clean != message:
            record.msg, record.args = clean, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self.secrets)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exception"] = record.exc_text
        return json.dumps(out, ensure_ascii=False)


def setup(level: str, fmt: str = "text", *, token: str | None = None, stream: TextIO | None = None) -> logging.Handler:
    """Send every log line (ours and discord.py's) to ``stream`` (stderr) through the redactor."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.addFilter(Redactor(*(token,) if token else ()))
    formatter = JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s")
    discord.utils.setup_logging(handler=handler, formatter=formatter, level=getattr(logging, level), root=True)
    if level == "DEBUG":
        logging.getLogger("spieltisch").warning(
            "log_level DEBUG writes every Discord request and gateway event to the log; tokens are redacted, "
            "but keep this log private all the same")
    return handler
