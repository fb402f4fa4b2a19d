"""OpenSkill ratings: one per guild, game and player, from the final ranking of each finished match.

openskill's Plackett–Luce model rates a free-for-all of any size and teams of any size from one
ranking. A match's ranking is its result rows: seats ordered by rank, equal ranks as ties. A team is
the seats that share one score for the whole match (``Result.sides``: Safarü's and Rummü's
partners); Mü's Chef and partner change every hand and each player keeps their own score, so a Mü
match is a free-for-all. A computer player is rated per level (``c<level>``) so its strength shows;
two computer seats of one level in a match are two entrants with the same rating before the match,
and the level's rating takes both moves. A row with neither a user nor a level (a forgotten user)
plays with a fresh rating that is not kept. This module is pure arithmetic; bot/storage/ratings_store.py
stores the ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

#: The model every rating uses: openskill's defaults (μ 25, σ 25/3, a small τ so σ never freezes).
MODEL = PlackettLuce()
#: Below this many rated games a player is provisional: listed under the others.
PROVISIONAL = 5
#: /stats shows the change of the rating over this many of a player's latest games.
TREND = 10


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating shown to players: μ − 3σ."""
        return self.mu - 3 * self.sigma


def fresh(model: PlackettLuce = MODEL) -> Skill:
    return Skill(model.mu, model.sigma, 0)


class RatedSeat(Protocol):
    """What a rating needs of a result row (``bot.storage.results.ResultRow`` has it, read-only)."""

    @property
    def seat(self) -> int: ...
    @property
    def user_id(self) -> int | None: ...
    @property
    def level(self) -> str | None: ...
    @property
    def rank(self) -> int | None: ...
    @property
    def team(self) -> int | None: ...


def player_key(user_id: int | None, level: str | None) -> str | None:
    """``u<user id>`` for a person, ``c<level>`` for a computer level, ``None`` for neither."""
    if user_id is not None:
        return f"u{user_id}"
    if level:
        return f"c{level}"
    return None


@dataclass(frozen=True, slots=True)
class Rated:
    """The outcome of one match: new skills per player key, and per seat the ordinal before and after."""

    skills: dict[str, Skill]
    seats: dict[int, tuple[float, float]]


def rate_match(rows: Sequence[RatedSeat], current: Mapping[str, Skill], model: PlackettLuce = MODEL) -> Rated:
    """Rate one finished match; ``current`` holds the known skills (a missing key starts fresh).

    Rows without a rank (stopped matches) are not rated; a match with fewer than two sides changes
    nothing."""
    ranked = [row for row in rows if row.rank is not None]
    sides: dict[tuple[str, int], list[RatedSeat]] = {}
    for row in ranked:
        side = ("team", row.team) if row.team is not None else ("seat", row.seat)
        sides.setdefault(side, []).append(row)
    if len(sides) < 2:
        return Rated({}, {})
    start = fresh(model)
    keys = {row.seat: player_key(row.user_id, row.level) for row in ranked}
    prior = {seat: current.get(key, start) if key else start for seat, key in keys.items()}
    teams = [[model.rating(prior[row.seat].mu, prior[row.seat].sigma) for row in side]
             for side in sides.values()]
    ranks = [float(min(rank for row in side if (rank := row.rank) is not None)) for side in sides.values()]
    outcome = model.rate(teams, ranks=ranks)
    moved: dict[str, list[tuple[float, float]]] = {}
    for members, team in zip(sides.values(), outcome, strict=True):
        for row, rating in zip(members, team, strict=True):
            key = keys[row.seat]
            if key is not None:
                moved.setdefault(key, []).append((rating.mu, rating.sigma))
    skills: dict[str, Skill] = {}
    for key, moves in moved.items():
        before = current.get(key, start)
        mu = before.mu + sum(mu - before.mu for mu, _ in moves)
        sigma = before.sigma
        for _, new_sigma in moves:
            sigma *= new_sigma / before.sigma
        skills[key] = Skill(mu, sigma, before.games + len(moves))
    seats = {seat: (prior[seat].ordinal, skills[key].ordinal) for seat, key in keys.items() if key is not None}
    return Rated(skills, seats)
