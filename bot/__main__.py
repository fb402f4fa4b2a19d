"""``python -m bot``: the command line of the bot.

``run`` (the default) connects to Discord until Ctrl+C or SIGTERM; ``check-config`` reads the settings
and says whether they are usable; ``backup PATH`` copies an SQLite database with SQLite's online
backup API, safe while the bot runs; ``rebuild-ratings`` recomputes every rating (all time and each season's) from the result rows
(while the bot is stopped); ``copy-database --from URL --to URL`` copies everything into an empty
database (SQLite to PostgreSQL, say; while the bot is stopped); ``export-match ID [--out FILE]`` writes the
record of an ended match (docs/match-record.md) to stdout or a file. ``python -m bot config.toml`` (a bare path) still means
``python -m bot --config config.toml run``. Every mistake is one sentence on stderr, never a traceback:
exit code 2 for the settings and the command line, 1 for the database and a token Discord refuses.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import discord

try:
    import uvloop
except ImportError:         # Windows: uvloop is not installed there (pyproject.toml), the stock loop runs the bot
    uvloop = None  # type: ignore[assignment]

from bot.app import Spieltisch, point_at_double
from bot.i18n import t
from bot.ops import logs
from bot.ops.backup import BackupError, backup
from bot.ops.config import ConfigError, Settings, load_settings
from bot.ops.copy_database import CopyError
from bot.ops.copy_database import copy_database as _copy
from bot.ops.metrics import MetricsPortError
from bot.play.heap import Heap
from bot.replays.record import MatchRecord, NoRecord, load
from bot.storage.database import parse_url
from bot.storage.store import Storage, StorageFault, StorageOpenError

log = logging.getLogger("spieltisch")

COMMANDS = ("run", "check-config", "backup", "rebuild-ratings", "copy-database", "export-match")

#: The cyclic garbage collector's thresholds while the bot runs. Every click leaves its discord.py
#: interaction (with its member, user and response objects, and discord.py's parse of the clicked
#: message) as cyclic garbage, so the middle generation fills fast: collecting it after every
#: third young collection instead of every tenth keeps each such pause near 2 ms instead of 5-12 ms
#: (a click arriving meanwhile waits for it), and the oldest generation is still considered after
#: about as many young collections (3 x 30).
GC_THRESHOLDS = (700, 3, 30)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """The event loop the bot runs on: uvloop's where it is installed (Linux and macOS), else asyncio's.
    Every click crosses the loop about five times and waits each time for what else is ready, so the
    loop's own cost per callback, timer, socket read and write is paid many times a move: on uvloop the
    capacity row's bot answered its slowest clicks sooner (docs/performance.md)."""
    return asyncio.new_event_loop if uvloop is None else uvloop.new_event_loop


async def _run(settings: Settings) -> None:
    point_at_double(settings)
    gc.set_threshold(*GC_THRESHOLDS)
    storage = await Storage.open(settings.database_url)       # before Discord: a bad database stops us at once
    bot = Spieltisch(settings, storage=storage)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    assert settings.token is not None
    # The collector's schedule is the process's, like its thresholds above: a bot built inside
    # another program (the tests) must not freeze that program's heap.
    heap = Heap(bot.clock)
    heap.start()
    try:
        await serve(bot, settings.token.get_secret_value(), stop)
    finally:
        await heap.stop()


async def serve(bot: Spieltisch, token: str, stop: asyncio.Event) -> None:
    """Run ``bot`` until it ends by itself or ``stop`` is set (Ctrl+C, SIGTERM). A stop before the bot
    is ready (still trying to reach Discord, or setting up) cancels its start at once, then closes it."""
    runner = asyncio.create_task(bot.start(token))
    waiter = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner not in done:
            if not bot.is_ready():
                runner.cancel()
                await asyncio.wait({runner})
            await bot.close()
        waiter.cancel()
        await asyncio.wait({runner})
        if not runner.cancelled():
            runner.result()         # what start-up raised: a refused token, a database fault, ...
    finally:
        if not bot.is_closed():     # start-up failed: close the HTTP session it opened
            await bot.close()


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="python -m bot", description="Spieltisch: a Discord bot for German card games.",
        epilog="Every setting can also come from the environment as SPIELTISCH_<NAME> "
               "(see config.example.toml); DISCORD_TOKEN holds the bot token.")
    top.add_argument("--config", type=Path, metavar="PATH",
                     help="the settings file (default: $SPIELTISCH_CONFIG, else config.toml if there is one)")
    sub = top.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser("run", help="connect to Discord and host games (the default)")
    sub.add_parser("check-config", help="read the settings and report whether they are usable")
    copy = sub.add_parser("backup", help="copy the database to PATH, safely while the bot runs")
    copy.add_argument("path", type=Path, metavar="PATH", help="the new file (must not exist yet)")
    sub.add_parser("rebuild-ratings", help="recompute every rating, all time and per season, from the result rows "
                   "(stop the bot first)")
    move = sub.add_parser("copy-database", help="copy every game and result into an empty database (stop the bot first)")
    move.add_argument("--from", dest="source", required=True, metavar="URL",
                      help="the database to copy: sqlite:///PATH or postgresql://USER:PASSWORD@HOST/NAME")
    move.add_argument("--to", dest="target", required=True, metavar="URL", help="the empty database to fill")
    export = sub.add_parser("export-match", help="write the record of an ended match as JSON (docs/match-record.md)")
    export.add_argument("match", type=int, metavar="ID", help="the match's number (its session id)")
    export.add_argument("--out", type=Path, metavar="FILE", help="the file to write (default: standard output)")
    return top


def _arguments(args: list[str]) -> argparse.Namespace:
    if args and not args[0].startswith("-") and args[0] not in COMMANDS:
        args = ["--config", *args]          # the old form: python -m bot config.toml
    namespace = parser().parse_args(args)
    namespace.command = namespace.command or "run"
    return namespace


def _fail(text: str, code: int) -> int:
    print(f"spieltisch: {text}", file=sys.stderr)
    return code


async def _rebuild(database_url: str) -> tuple[int, int]:
    storage = await Storage.open(database_url)
    try:
        return await storage.rebuild_ratings()
    finally:
        await storage.close()


def rebuild_ratings(settings: Settings) -> int:
    """Recompute every rating from the result rows in one transaction (it holds the write lock, so run
    it while the bot is stopped); prints what it did."""
    try:
        matches, ratings = asyncio.run(_rebuild(settings.database_url))
    except StorageOpenError as exc:
        print(f"spieltisch: {exc}", file=sys.stderr)
        return 1
    except StorageFault as exc:
        print(f"spieltisch: The database {settings.database_shown} took no write ({exc}); no rating changed.",
              file=sys.stderr)
        return 1
    print(f"Rebuilt {ratings} ratings from {matches} rated matches in {settings.database_shown}.")
    return 0


async def _record(database_url: str, match_id: int) -> MatchRecord:
    storage = await Storage.open(database_url)
    try:
        return await load(storage, match_id, "en")
    finally:
        await storage.close()


def export_match(settings: Settings, match_id: int, out: Path | None) -> int:
    """The record of an ended match, in English (a forgotten seat is "anonymous"), to ``out`` or
    stdout; a match without one (never played, still live, moves pruned) is one line and exit 1."""
    try:
        record = asyncio.run(_record(settings.database_url, match_id))
    except StorageOpenError as exc:
        return _fail(str(exc), 1)
    except StorageFault as exc:
        return _fail(f"The database {settings.database_shown} could not be read ({exc}).", 1)
    except NoRecord as missing:
        return _fail(t("en", missing.key, **missing.params), 1)
    data = record.to_json()
    if out is None:
        sys.stdout.buffer.write(data + b"\n")
        sys.stdout.flush()
        return 0
    try:
        out.write_bytes(data + b"\n")
    except OSError as exc:
        return _fail(f"Cannot write {out}: {exc.strerror or exc}.", 1)
    print(f"spieltisch: Wrote the record of match {match_id} ({record.game}, {len(record.moves)} moves) to {out}.")
    return 0


def copy_database(source: str, target: str) -> int:
    """Copy everything from ``source`` into the empty ``target`` and print the rows per table."""
    for url in (source, target):
        try:
            parse_url(url)
        except ValueError as exc:
            return _fail(f"The database URL cannot be used: {exc}.", 2)
    try:
        copied = asyncio.run(_copy(source, target))
    except (StorageOpenError, CopyError) as exc:
        return _fail(str(exc), 1)
    except StorageFault as exc:
        return _fail(f"The copy failed ({exc}); nothing was copied.", 1)
    rows = ", ".join(f"{n} {table}" for table, n in copied.counts.items())
    print(f"spieltisch: Copied {parse_url(source).shown} to {parse_url(target).shown}; each holds {rows}.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _arguments(sys.argv[1:] if argv is None else argv)
    if args.command == "copy-database":         # both databases are named: no settings needed
        return copy_database(args.source, args.target)
    try:
        settings = load_settings(args.config,
                                 need_token=args.command not in ("backup", "rebuild-ratings", "export-match"))
    except ConfigError as exc:
        return _fail(str(exc), 2)
    if args.command == "check-config":
        metrics = "off" if settings.metrics_port is None else f"on {settings.metrics_host}:{settings.metrics_port}"
        print(f"spieltisch: The settings are OK: database {settings.database_shown}, commands registered "
              f"{settings.command_scope}, log level {settings.log_level} ({settings.log_format}), "
              f"metrics {metrics}.")
        return 0
    if args.command == "backup":
        if settings.database is None:
            return _fail(f"backup copies SQLite files; {settings.database_shown} is PostgreSQL, whose own tool "
                         "pg_dump makes a consistent copy while the bot runs (pg_dump --format=custom).", 2)
        try:
            copied = backup(settings.database, args.path)
        except BackupError as exc:
            return _fail(str(exc), 1)
        print(f"spieltisch: Copied {settings.database} to {args.path} ({copied}).")
        return 0
    if args.command == "rebuild-ratings":
        return rebuild_ratings(settings)
    if args.command == "export-match":
        return export_match(settings, args.match, args.out)
    return _run_bot(settings)


def _run_bot(settings: Settings) -> int:
    assert settings.token is not None
    logs.setup(settings.log_level, settings.log_format, token=settings.token.get_secret_value())
    try:
        with asyncio.Runner(loop_factory=loop_factory()) as runner:
            runner.run(_run(settings))
    except StorageOpenError as exc:
        return _fail(str(exc), 1)
    except StorageFault as exc:         # while restoring the live games at start-up
        return _fail(f"The database {settings.database_shown} took no write at start-up ({exc}).", 1)
    except discord.LoginFailure:
        return _fail("Discord refused the bot token; check DISCORD_TOKEN or `token` in config.toml.", 1)
    except MetricsPortError as exc:
        return _fail(str(exc), 2)
    except discord.PrivilegedIntentsRequired:
        return _fail("Discord asked for a privileged intent; this bot needs none.", 2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
