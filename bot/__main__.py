"""``python -m bot``: read the settings and run the bot until Ctrl+C or SIGTERM."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path

import discord

from bot.config import ConfigError, load_settings


async def _run(settings) -> None:
    from bot.app import Spieltisch, point_at_double

    point_at_double(settings)
    bot = Spieltisch(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(settings.token.get_secret_value()))
    waiter = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
    if runner not in done:
        await bot.close()
    waiter.cancel()
    await runner


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    config = Path(args[0]) if args else None
    try:
        settings = load_settings(config)
    except ConfigError as exc:
        print(f"spieltisch: {exc}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    try:
        asyncio.run(_run(settings))
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
