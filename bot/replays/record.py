"""The match record: one ended match as a versioned JSON document (docs/match-record.md).

A record holds what replays the match exactly (game, rules version, house rules, seed, every move)
and what it came to (each seat's score, place and rating change), with the names the seats had.
It is built from the stored rows only, never from a live table: a match still played is no record
(its seed would tell every hidden card). A seat whose person used /forget-me is "anonymous" in the
reader's language, and a record never carries a Discord id.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

import games
from bot.i18n import t
from bot.storage.status import Status
from bot.storage.store import Storage
from games.base import Action, Step, walk

#: Ended matches that have a record: both were dealt and played (a cancelled lobby was not).
RECORDED = frozenset({Status.FINISHED, Status.STOPPED})


class NoRecord(Exception):
    """Why a match has no record, as a catalogue key (``archive.*``) with its parameters."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Seat(_Part):
    """One seat: its name at the time (or "anonymous"), and the computer level that played it."""

    seat: int = Field(ge=0)
    name: str
    anonymous: bool = False
    computer: str | None = Field(None, description="the computer player's level; null for a person")
    team: int | None = None


class Move(_Part):
    """One move of the log, as the engine reads it back (``games.base.Action.parse``)."""

    seat: int = Field(ge=0)
    action: str = Field(min_length=1)
    at: datetime


class Standing(_Part):
    """One seat's result; ``rating`` and ``rating_change`` only for a rated (finished) match."""

    seat: int = Field(ge=0)
    score: int | None
    rank: int | None
    won: bool
    rating: float | None = None
    rating_change: float | None = None


class MatchRecord(_Part):
    """An ended match, format 1."""

    format: Literal[1] = 1
    match: int = Field(description="the match's number on the bot that played it")
    game: str
    rules_version: int = Field(ge=1)
    house_rules: dict[str, Any]
    status: Literal["finished", "stopped"]
    seed: str = Field(min_length=1)
    started: datetime
    ended: datetime
    seats: list[Seat] = Field(min_length=1)
    moves: list[Move]
    results: list[Standing]

    def actions(self) -> list[tuple[int, Action]]:
        return [(move.seat, Action.parse(move.action)) for move in self.moves]

    def to_json(self) -> bytes:
        """The record as a file: indented UTF-8 JSON, times in ISO 8601 UTC."""
        return self.model_dump_json(indent=2).encode()


def steps(record: MatchRecord) -> Iterator[Step[Any]]:
    """Every position of the match, the deal first (``games.base.walk``); ``NoRecord`` when this
    version of the bot cannot replay it (a game it no longer has, or another rules version)."""
    game = games.REGISTRY.get(record.game)
    if game is None:
        raise NoRecord("archive.unknown_game", game=record.game)
    if game.rules_version != record.rules_version:
        raise NoRecord("archive.other_rules", game=game.name)
    return walk(game, len(record.seats), game.parse_options(record.house_rules), record.seed, record.actions())


def _time(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


async def load(storage: Storage, match_id: int, lang: str) -> MatchRecord:
    """The record of the ended match ``match_id``, names of forgotten seats in ``lang``; ``NoRecord``
    for a match that is not there, still played, never dealt, or whose moves the prune deleted."""
    row = await storage.session(match_id)
    if row is not None and row.status == Status.PLAYING:
        raise NoRecord("archive.live", match=match_id)
    if row is None or row.status not in RECORDED or row.seed is None or row.started_at is None:
        raise NoRecord("archive.no_match", match=match_id)
    if row.moves_pruned_at is not None:
        raise NoRecord("archive.pruned", match=match_id, game=game_name(row.game))
    moves = await storage.timed_actions(match_id)
    results = await storage.results(match_id)
    ratings = await storage.rating_changes(match_id) if row.status == Status.FINISHED else {}
    seats = []
    for index, raw in enumerate(row.seats):
        name = str(raw.get("name") or "")
        computer = raw.get("level") if raw.get("kind") == "computer" else None
        seats.append(Seat(seat=index, name=name or t(lang, "archive.anonymous"), anonymous=not name,
                          computer=computer, team=raw.get("team")))
    standings = []
    for result in results:
        before, after = ratings.get(result.seat, (None, None))
        standings.append(Standing(
            seat=result.seat, score=result.score, rank=result.rank, won=result.won, rating=after,
            rating_change=None if after is None or before is None else after - before))
    return MatchRecord(
        match=row.id, game=row.game, rules_version=row.rules_version, house_rules=row.options,
        status=row.status, seed=row.seed, started=_time(row.started_at), ended=_time(row.ended_at or row.started_at),
        seats=seats, moves=[Move(seat=seat, action=key, at=_time(at)) for seat, key, at in moves],
        results=standings)


def game_name(key: str) -> str:
    """A game's name for the texts, its key when the bot no longer has it."""
    game = games.REGISTRY.get(key)
    return game.name if game is not None else key


def file_name(record: MatchRecord) -> str:
    """``spieltisch-<game>-<match>.json``: what a download of the record is called."""
    return f"spieltisch-{record.game}-{record.match}.json"
