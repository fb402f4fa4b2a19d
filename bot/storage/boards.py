"""A ranked list as the result commands show it: the top rows and the caller's own row."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class Ranked(Protocol):
    @property
    def user_id(self) -> int | None: ...


R = TypeVar("R", bound=Ranked)


@dataclass(frozen=True, slots=True)
class Leaderboard(Generic[R]):
    """The top rows, and the asking user's own row wherever it ranks (``None`` without a match)."""

    rows: tuple[R, ...]
    me: R | None = None

    @property
    def me_outside(self) -> bool:
        """The caller ranks below the shown rows: show their own line under the table."""
        return self.me is not None and all(row.user_id != self.me.user_id for row in self.rows)
