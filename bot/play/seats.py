"""Seats at a table: a human, a computer player, or a human whose moves a computer makes meanwhile.

A seat's index in the session's seat list is the game's seat number. Seats are stored as JSON.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any


class SeatKind(StrEnum):
    HUMAN = "human"
    COMPUTER = "computer"
    AWAY = "away"


@dataclass(frozen=True, slots=True)
class Seat:
    """``user_id`` is ``None`` for a computer player; ``level`` names its strength. ``missed`` counts
    a human's turns in a row that ran out of time (three make the seat ``AWAY``). ``replaced`` is the
    user id of the person whose seat a computer player took over (``/replace``): the seat carries
    their name ("🤖 Bob"), so ``/forget-me`` must find it by their id."""

    user_id: int | None
    name: str
    kind: SeatKind = SeatKind.HUMAN
    level: str | None = None
    team: int | None = None
    missed: int = 0
    replaced: int | None = None

    @property
    def is_human(self) -> bool:
        return self.kind is SeatKind.HUMAN

    @property
    def played_by_computer(self) -> bool:
        return self.kind is not SeatKind.HUMAN

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["kind"] = str(self.kind)
        return out

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Seat:
        return cls(
            user_id=raw.get("user_id"), name=str(raw.get("name", "")), kind=SeatKind(raw.get("kind", "human")),
            level=raw.get("level"), team=raw.get("team"), missed=int(raw.get("missed", 0)),
            replaced=raw.get("replaced"),
        )


def human(user_id: int, name: str) -> Seat:
    return Seat(user_id, name)


def computer(name: str, level: str) -> Seat:
    return Seat(None, name, SeatKind.COMPUTER, level)
