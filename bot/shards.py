"""Which guilds this process owns when the bot runs as several shards (Discord's formula)."""

from __future__ import annotations

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
