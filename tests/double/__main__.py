"""Run the double on its own: `python -m tests.double --port 8765`, then start the bot against it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib

from . import payloads as P
from .server import DiscordDouble


async def serve(host: str, port: int) -> None:
    double = DiscordDouble()
    guild = double.add_guild("Testserver", locale="de")
    table = double.add_text_channel(guild, "spiele")
    users = [double.add_user("ann", locale="de"), double.add_user("bob")]
    for user in users:
        double.add_member(guild, user, permissions=P.MANAGE_GUILD if user.name == "ann" else 0)
    await double.start(host, port)
    print(f"api_base={double.api_base}")
    print(f"gateway_url={double.gateway_url}")
    print(f"guild={guild.id} channel={table.id} " + " ".join(f"{u.name}={u.id}" for u in users), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await double.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    args = parser.parse_args()
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.host, args.port))


if __name__ == "__main__":
    main()
