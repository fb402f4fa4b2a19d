"""``python -m bot copy-database --from URL --to URL``: everything of one database into an empty other.

For moving from SQLite to PostgreSQL (or back). Both are opened (and so migrated to this version's
schema) as the bot opens them; the target must hold nothing yet. Every table is copied in one
transaction on the target, read in one transaction on the source (stop the bot first: on SQLite the
source's write lock is held meanwhile). The result totals are derived data that the target's
triggers would count again as the result rows arrive, so they are replaced by the source's own
afterwards. The ids stay as they were; PostgreSQL's id sequences are moved past them. The counts per
table are compared before the commit: a difference rolls everything back.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.results import COLUMNS as _RESULT_COLUMNS
from bot.storage.store import _SESSION_COLUMNS, Storage, StorageError

#: Every table and the columns it is copied by, parents before children.
TABLES: dict[str, str] = {
    "sessions": _SESSION_COLUMNS,
    "actions": "session_id, seq, seat, action, at",
    "results": _RESULT_COLUMNS,
    "timers": "id, session_id, kind, due, payload",
    "meta": "key, value",
    "ratings": "guild_id, game, player, user_id, level, name, mu, sigma, ordinal, games",
    "rating_log": "session_id, seat, guild_id, game, player, user_id, ended_at, before, after",
    "player_totals": "guild_id, game, user_id, games, wins, human_games, human_wins, last_ended",
    "game_totals": "guild_id, game, matches, last_ended",
    "seasons": "id, guild_id, name, monthly, channel_id, started_at, until, ended_at, post_due",
    "season_ratings": "season_id, game, player, user_id, level, name, mu, sigma, ordinal, games",
}
#: Derived from the result rows by triggers as they are inserted: replaced by the source's afterwards.
TOTALS = ("player_totals", "game_totals")
#: Rows written per statement batch.
BATCH = 1000


class CopyError(StorageError):
    """The copy was refused or failed; nothing was written. One sentence for whoever runs it."""


@dataclass(frozen=True, slots=True)
class Copied:
    """Rows per table, the same in source and target."""

    counts: dict[str, int]


async def _counts(storage: Storage) -> dict[str, int]:
    async with storage._sql.alone() as db:
        return {table: (await db.fetchone(f"SELECT COUNT(*) FROM {table}"))[0] for table in TABLES}


async def copy_database(source_url: str, target_url: str) -> Copied:
    """Copy every row of ``source_url`` into the empty ``target_url``; ``CopyError`` or
    ``StorageOpenError``/``StorageFault`` with nothing written otherwise."""
    source = await Storage.open(source_url)
    try:
        target = await Storage.open(target_url)
        try:
            if source.path == target.path:
                raise CopyError(f"--from and --to both name {source.path}; name two databases.")
            return await _copy(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Storage, target: Storage) -> Copied:
    present = {table: n for table, n in (await _counts(target)).items() if n}
    if present:
        held = ", ".join(f"{n} {table}" for table, n in present.items())
        raise CopyError(f"The target {target.path} is not empty ({held}); copy-database only fills an empty "
                        "database, so nothing was copied.")
    async with source._sql.transaction() as src, target._transaction() as dst:
        for table, columns in TABLES.items():
            if table in TOTALS:
                await dst.execute(f"DELETE FROM {table}")       # what the triggers counted meanwhile
            marks = ", ".join("?" * len(columns.split(",")))
            insert = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
            batch: list[tuple] = []
            async for row in src.iterate(f"SELECT {columns} FROM {table}"):
                batch.append(tuple(row))
                if len(batch) >= BATCH:
                    await dst.executemany(insert, batch)
                    batch = []
            await dst.executemany(insert, batch)
        for statement in target.dialect.after_copy:
            await dst.execute(statement)
        counts = {table: (await src.fetchone(f"SELECT COUNT(*) FROM {table}"))[0] for table in TABLES}
        copied = {table: (await dst.fetchone(f"SELECT COUNT(*) FROM {table}"))[0] for table in TABLES}
        if counts != copied:
            wrong = ", ".join(f"{table} {copied[table]} of {n}" for table, n in counts.items() if copied[table] != n)
            raise CopyError(f"The copy does not hold what {source.path} holds ({wrong}); nothing was copied.")
    return Copied(counts)
