"""Two tables where strong computer players think without a pause, while people click elsewhere.

Each thinking table is a two-seat game (Skippo, Da Capo: their strong moves are the slowest) that
its host opens with one strong computer player and then hands their own seat to another through
``/replace``; the bot runs with no computer delay, so at each of these tables a strong player is
always thinking. The clicks measured meanwhile are the other tables' (``bench.live``).
"""

from __future__ import annotations

import sqlite3

from bench.load import BenchError, LoadDouble
from tests.double import components as C
from tests.double.world import Channel, Guild, User

EPHEMERAL = 64

GAMES = ("skippo", "dacapo")


async def open_tables(load: LoadDouble, guild: Guild) -> list[tuple[Channel, User]]:
    """The thinking tables, playing by themselves: (channel, host) each."""
    d = load.double
    tables = []
    for key in GAMES:
        channel = d.add_text_channel(guild, f"thinking-{key}")
        host = d.add_user(f"host-{key}")
        d.add_member(guild, host)
        lobby = (await load.slash(host, channel, "start", game=key, computers=1, level="strong")).original
        start = next((c["custom_id"] for c in C.walk(lobby.payload) if c.get("custom_id", "").endswith(":start")),
                     None)
        if start is None:
            raise BenchError(f"the {key} lobby has no Start button")
        await load.click(host, lobby, start)
        await load.until(channel, lambda ch=channel: len(load.posted.get(ch.id, ())) >= 2, what="the table")
        replaced = await load.slash(host, channel, "replace", player=host, level="strong")
        if (replaced.callback.get("data") or {}).get("flags", 0) & EPHEMERAL:    # a refusal
            raise BenchError(f"/replace at the {key} table was refused: {replaced.callback}")
        tables.append((channel, host))
    return tables


async def stop_tables(load: LoadDouble, tables: list[tuple[Channel, User]]) -> None:
    for channel, host in tables:
        await load.slash(host, channel, "stop")


def strong_moves(database, start: float, end: float) -> int:
    """Moves the thinking tables stored between ``start`` and ``end``."""
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        marks = ",".join("?" * len(GAMES))
        return db.execute(
            f"SELECT COUNT(*) FROM actions JOIN sessions ON sessions.id = actions.session_id "
            f"WHERE sessions.game IN ({marks}) AND actions.at >= ? AND actions.at < ?",
            (*GAMES, start, end)).fetchone()[0]
    finally:
        db.close()

