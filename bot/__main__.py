"""``python -m bot [config]``: read the settings and run the bot until Ctrl+C or SIGTERM.

``python -m bot rebuild-ratings [config]`` recomputes every rating from the result rows instead.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path

import discord

from bot.config import ConfigError, load_settings
from bot.storage import Storage, StorageFault, StorageOpenError

log = logging.getLogger("spieltisch")


async def _run(settings) -> None:
    from bot.app import Spieltisch, point_at_double

    point_at_double(settings)
    storage = await Storage.open(str(settings.database))       # before Discord: a bad file stops us at once
    bot = Spieltisch(settings, storage=storage)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(settings.token.get_secret_value()))
    waiter = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if runner not in done:
            await bot.close()
        waiter.cancel()
        await runner
    finally:
        if not bot.is_closed():     # start-up failed: close the HTTP session it opened
            await bot.close()


def configure_logging(level: str) -> None:
    """Log to stderr; DEBUG includes discord.py's request logs, which carry interaction tokens."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if level == "DEBUG":
        log.warning("log_level DEBUG writes Discord interaction tokens to the log; they are credentials "
                    "for 15 minutes each, so keep this log private")


async def _rebuild(database: Path) -> tuple[int, int]:
    storage = await Storage.open(str(database))
    try:
        return await storage.rebuild_ratings()
    finally:
        await storage.close()


def rebuild_ratings(settings) -> int:
    """Recompute every rating from the result rows in one transaction (it holds the write lock, so run
    it while the bot is stopped); prints what it did. A subcommand parser can call this as it is."""
    try:
        matches, ratings = asyncio.run(_rebuild(settings.database))
    except StorageOpenError as exc:
        print(f"spieltisch: {exc}", file=sys.stderr)
        return 1
    except StorageFault as exc:
        print(f"spieltisch: The database {settings.database} took no write ({exc}); no rating changed.",
              file=sys.stderr)
        return 1
    print(f"Rebuilt {ratings} ratings from {matches} rated matches in {settings.database}.")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args and args[0] == "rebuild-ratings" else None
    if command is not None:
        args = args[1:]
    config = Path(args[0]) if args else None
    try:
        settings = load_settings(config)
    except ConfigError as exc:
        print(f"spieltisch: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    if command == "rebuild-ratings":
        return rebuild_ratings(settings)
    try:
        asyncio.run(_run(settings))
    except StorageOpenError as exc:
        print(f"spieltisch: {exc}", file=sys.stderr)
        return 1
    except StorageFault as exc:         # while restoring the live games at start-up
        print(f"spieltisch: The database {settings.database} took no write at start-up ({exc}).", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("spieltisch: Discord refused the bot token; check DISCORD_TOKEN or `token` in config.toml.",
              file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("spieltisch: Discord asked for a privileged intent; this bot needs none.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
