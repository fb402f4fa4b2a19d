"""Which guilds this process owns when the bot runs as several shards (Discord's formula)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard whose gateway connection carries a guild's events (gateway.md "Sharding")."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """Some of ``count`` shards, run by this process: it restores and times only their guilds' tables."""

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def sql(self, column: str) -> tuple[str, tuple[int, ...]]:
        """A SQL condition (and its parameters) true for rows whose guild ``column`` is ours."""
        marks = ", ".join("?" * len(self.ids))
        return f"(({column} >> 22) % ?) IN ({marks})", (self.count, *self.ids)


def running(count: int | None, ids: Sequence[int]) -> tuple[int, ...]:
    """The shards a process runs with the settings ``shard_count`` and ``shard_ids``: the named ones,
    all ``count`` if none are named, and none when unsharded (one connection, Discord's shard 0 of 1)."""
    if count is None:
        return ()
    return tuple(sorted(ids)) if ids else tuple(range(count))


def describe(count: int | None, ids: Sequence[int]) -> str:
    """Those shards in words for the log: ``shards 0,1 of 2``, ``shards 0-63 of 64``, or ``unsharded``."""
    shards = running(count, ids)
    if not shards:
        return "unsharded"
    runs: list[list[int]] = []
    for shard in shards:
        if runs and shard == runs[-1][-1] + 1:
            runs[-1].append(shard)
        else:
            runs.append([shard])
    words = ",".join(f"{r[0]}-{r[-1]}" if len(r) > 2 else ",".join(map(str, r)) for r in runs)
    return f"{'shard' if len(shards) == 1 else 'shards'} {words} of {count}"
