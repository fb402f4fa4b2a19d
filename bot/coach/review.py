"""A review of one seat's play in a finished match: its costliest decisions by the strong player's
judgement (``games.computer.coach.evaluate``), found in two passes so that it fits its CPU budget.

A decision is every move of the seat where it had a choice (more than one legal action). The
``screen`` pass plays every decision out in a few worlds of the seat's information set and keeps
the ones where another move led the played one; the ``refine`` pass spends many more worlds on
those candidates only. A decision counts when the best move's lead over the played one exceeds
``NOISE`` standard errors of that lead (the two were played out in the same worlds, so the error is
that of the paired difference).

Everything here is pure and takes only small picklable arguments (the game's key, the stored seed,
house rules and action log), so it runs in the computer players' worker processes. Each pass's
rng is derived from the match id, the seat and the move, never from the hidden deal, so two matches
that differ only in cards the seat never saw give the same review.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

import games
from games.base import Action, Game, walk
from games.computer.coach import evaluate

#: Standard errors of the lead a costly decision must exceed: three, since up to ``CANDIDATES`` leads
#: are tested in each review (at two, one review in six named a decision by chance alone).
NOISE = 3.0
#: The smallest loss a review names, in the game's points: a lead of a hundredth of a card can be
#: sure (every world agreed on it) and still not worth a player's attention ("0.0 points").
SMALLEST = 0.25
#: Decisions a review names at most.
SHOWN = 3
#: Worlds per decision in the screening pass (at least), and in the refining pass.
SCREEN_WORLDS = 6
REFINE_WORLDS = 96
#: Playouts (worlds times legal moves) a decision gets in the screening pass at least: a choice of
#: two moves is screened in 24 worlds, not 6, in which a Mü trick given away (a loss of 6.5 points,
#: give or take 15 in a single world: the rest of the hand decides) showed no loss at all.
SCREEN_PLAYOUTS = 48
#: Candidates the screening pass hands to the refining pass at most.
CANDIDATES = 8
#: CPU seconds a whole review may take (split over its decisions), and the part of them screening gets.
BUDGET = 25.0
SCREEN_SHARE = 0.4


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged move: its index in the action log, what was played, what the strong player
    prefers, and by how much (``loss``, in the brain's points) with that lead's standard error."""

    move: int
    played: str
    best: str
    loss: float
    error: float

    @property
    def costly(self) -> bool:
        """The best move led the played one by more than the noise, and by enough to matter."""
        return self.loss >= SMALLEST and self.loss > NOISE * self.error


@dataclass(frozen=True, slots=True)
class Review:
    """A seat's review: its costliest decisions first (``SHOWN`` at most, only costly ones), and how
    many decisions with a choice it judged."""

    seat: int
    decisions: tuple[Decision, ...]
    judged: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "judged": self.judged, "decisions": [asdict(d) for d in self.decisions]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Review:
        return cls(int(raw["seat"]), tuple(Decision(**d) for d in raw["decisions"]), int(raw["judged"]))


@dataclass(frozen=True, slots=True)
class Match:
    """What a review needs of a stored match (all of it picklable)."""

    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: str
    actions: tuple[tuple[int, str], ...]

    def walked(self) -> Iterator[tuple[int, Any]]:
        """``(index of the next move, live state before it)`` for every move of the log."""
        game = games.get(self.game)
        steps = walk(game, self.players, game.parse_options(self.options), self.seed,
                     [(seat, Action.parse(key)) for seat, key in self.actions])
        for index, step in enumerate(steps):
            if index < len(self.actions):
                yield index, step.state


def choices(match: Match, seat: int) -> list[int]:
    """The indices of ``seat``'s moves where it had more than one legal action."""
    game = games.get(match.game)
    return [index for index, state in match.walked()
            if match.actions[index][0] == seat and len(game.legal_actions(state, seat)) > 1]


def positions(match: Match, indices: list[int]) -> dict[int, Any]:
    """A copy of the state before each of the moves ``indices`` (the walk stops at the last one)."""
    game: Game[Any, Any, Any] = games.get(match.game)
    wanted = set(indices)
    out: dict[int, Any] = {}
    for index, state in match.walked():
        if len(out) == len(wanted):
            break
        if index in wanted:
            out[index] = game.clone(state)
    return out


def rng_for(match: Match, seat: int, index: int, stage: str) -> random.Random:
    """The dice of one pass over one decision: from the match, the seat and the move only."""
    return random.Random(f"coach:{match.id}:{seat}:{index}:{stage}")


def judge(match: Match, seat: int, indices: list[int], stage: str, *, worlds: int, limit: float | None,
          moves: dict[int, list[str]] | None = None, playouts: int = 0,
          clock: Callable[[], float] = time.thread_time) -> list[Decision]:
    """Each decision of ``indices`` judged in ``worlds`` worlds, or in as many more as ``playouts``
    spread over its legal moves asks for (fewer once ``limit`` CPU seconds a decision are up): among
    the brain's candidates, or the ``moves`` named for it."""
    game = games.get(match.game)
    out = []
    for index, state in positions(match, indices).items():
        played = Action.parse(match.actions[index][1])
        named = None if moves is None else [Action.parse(key) for key in moves.get(index, [])]
        many = max(worlds, math.ceil(playouts / len(game.legal_actions(state, seat))))
        values = evaluate(game, state, seat, rng_for(match, seat, index, stage), played=played, worlds=many,
                          limit=limit, clock=clock, moves=named)
        best = max(values, key=lambda v: (v.gap, v.action == played))
        out.append(Decision(index, played.key, best.action.key, best.gap,
                            best.gap_error if best.action != played else math.inf))
    return out


def screen(match: Match, seat: int, indices: list[int], limit: float | None = None) -> list[Decision]:
    """The quick pass: each decision among the brain's candidates in ``SCREEN_WORLDS`` worlds, or
    ``SCREEN_PLAYOUTS`` over its legal moves where that is more."""
    return judge(match, seat, indices, "screen", worlds=SCREEN_WORLDS, limit=limit, playouts=SCREEN_PLAYOUTS)


def candidates(screened: list[Decision]) -> list[Decision]:
    """The decisions worth a closer look: where another move led the played one, ``CANDIDATES`` at
    most, ranked by the lead less one standard error. By the bare lead, the noisiest decisions of a
    hand's start (a Mü lead of 44 give or take 22) crowded out a lead of 3 give or take 0.6 that every
    world agreed on; less three errors, a lead of 31 give or take 21 in seven worlds was never refined,
    where 96 worlds made it 39 give or take 5."""
    led = sorted((d for d in screened if d.loss > 0 and d.best != d.played), key=lambda d: (d.error - d.loss, d.move))
    return led[:CANDIDATES]


def refine(match: Match, seat: int, screened: list[Decision], limit: float | None = None) -> list[Decision]:
    """The close look: the screening's best move against the played one in ``REFINE_WORLDS`` fresh
    worlds."""
    return judge(match, seat, [d.move for d in screened], "refine", worlds=REFINE_WORLDS, limit=limit,
                 moves={d.move: [d.best] for d in screened})


def verdict(seat: int, refined: list[Decision], judged: int) -> Review:
    """The costly decisions, costliest first, ``SHOWN`` at most."""
    costly = sorted((d for d in refined if d.costly), key=lambda d: (-d.loss, d.move))
    return Review(seat, tuple(costly[:SHOWN]), judged)


def limits(decisions: int, share: float, budget: float = BUDGET) -> float | None:
    """CPU seconds each of ``decisions`` may take of ``share`` of the budget (None: no decision)."""
    return budget * share / decisions if decisions else None


#: Jobs the screening pass is split into (each walks the match to its decisions again, so not one
#: per decision): the progress moves on after each.
JOBS = 10
#: How the parts of a review count towards its progress: finding the decisions, screening, refining.
SHARES = (0.05, 0.55, 0.4)

Run = Callable[..., Awaitable[Any]]
Told = Callable[[float], Awaitable[None]]


async def conduct(match: Match, seat: int, run: Run, told: Told, budget: float = BUDGET) -> Review:
    """The review of ``seat`` in ``match``: each part a job given to ``run(work, *args)`` (a worker
    process of the host's, or a plain call), ``told`` the share done (0 to 1) after each job."""
    judged: list[int] = await run(choices, match, seat)
    await told(SHARES[0])
    screened: list[Decision] = []
    each = limits(len(judged), SCREEN_SHARE, budget)
    chunk = max(1, math.ceil(len(judged) / JOBS))
    for start in range(0, len(judged), chunk):
        screened += await run(screen, match, seat, judged[start:start + chunk], each)
        await told(SHARES[0] + SHARES[1] * min(1.0, (start + chunk) / len(judged)))
    picked = candidates(screened)
    refined: list[Decision] = []
    each = limits(len(picked), 1 - SCREEN_SHARE, budget)
    for start in range(0, len(picked), 2):
        refined += await run(refine, match, seat, picked[start:start + 2], each)
        await told(SHARES[0] + SHARES[1] + SHARES[2] * min(1.0, (start + 2) / len(picked)))
    return verdict(seat, refined, len(judged))


def review(match: Match, seat: int, budget: float = BUDGET) -> Review:
    """``conduct`` in this thread, all at once (tests, the benchmark)."""
    async def call(work: Callable[..., Any], *args: Any) -> Any:
        return work(*args)

    async def quiet(done: float) -> None:
        return None

    return asyncio.run(conduct(match, seat, call, quiet, budget))
