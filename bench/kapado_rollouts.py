"""``python -m bench.kapado_rollouts [--deals N] [--start K] [--every E] [--playouts R]``: what Kapado's strong player leaves on the table, choice by choice.

Is there an honest seat (deciding from its own view only) that wins clearly more often against easy
than the strong player? A policy-improvement step answers for measurement (never the product):
at a choice of the strong seat (where to lay a card, which top to take) every legal move is played
out to the end of the game many times, each time on a redeal of what the seat cannot see
(``Kapado.resample``: the pile's order and the face-down cards), the seat then laying by the
product's playout rule (``KapadoBrain.policy``) and the other seat as the easy player does. All
moves of a choice are played out on the same redeals with the same random sources, so they differ
by the move alone. The step would play the move with the best outcome (a win 1, a tie ½, plus
``LEAD`` per card of lead).

Played as a player, a few dozen playouts a move choose by noise (a move's playouts differ by ten
cards of lead, the moves by a fraction of one). So this script studies choices instead: it plays
the product's strong player against easy on ``bench.kapado``'s deals and, at every ``--every``-th
choice of the strong seat, plays each move out twice ``--playouts`` times (two independent sets of
redeals). The first set picks the step's move, the second values it against the product's move,
so the gain counted is not the luck of the pick; the mean gain per choice times the choices a game
is what the step would add to a game (to first order: one move changed, the rest played as before).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass

from bench.kapado import play
from games.base import Action
from games.kapado import BRAIN, GAME
from games.kapado.state import EXTRA, KapadoState

#: A card of lead beside a win in a playout's outcome when the step picks its move: the lead is much
#: the smoother of the two over a few hundred playouts, the win is what counts.
LEAD = 0.05

#: A playout's outcome for the seat: its credit (1, ½, 0) and its lead in cards.
Outcome = tuple[float, int]


def outcome(state: KapadoState, seat: int, rng: random.Random) -> Outcome:
    """Play ``state`` out (``seat`` by the playout rule, every other seat as easy)."""
    while not GAME.is_over(state):
        actor = state.current
        legal = GAME.legal_actions(state, actor)
        if len(legal) == 1 or state.phase == EXTRA:
            action = legal[0]
        elif actor == seat:
            action = BRAIN.policy(GAME, state, actor, rng)
        else:
            action = BRAIN.easy(GAME, state, actor, legal, rng)
        GAME.apply(state, actor, action)
    lead = state.totals[seat] - max(t for s, t in enumerate(state.totals) if s != seat)
    return (1.0 if lead > 0 else 0.5 if lead == 0 else 0.0), lead


def playouts(state: KapadoState, seat: int, legal: list[Action], count: int, rng: random.Random) -> list[list[Outcome]]:
    """Per legal move, its outcomes over ``count`` redeals, the same redeals and random sources for every move."""
    out: list[list[Outcome]] = [[] for _ in legal]
    for _ in range(count):
        redeal = GAME.resample(state, seat, rng)
        seed = rng.random()
        for outcomes, action in zip(out, legal, strict=True):
            played = GAME.clone(redeal)
            GAME.apply(played, seat, action)
            outcomes.append(outcome(played, seat, random.Random(seed)))
    return out


def worth(outcomes: list[Outcome]) -> float:
    """What the step maximizes: the mean credit plus ``LEAD`` per card of mean lead."""
    return sum(c + LEAD * lead for c, lead in outcomes) / len(outcomes)


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice studied: the product's move (an index of the legal moves) and each move's outcomes
    over the two sets of redeals, ``pick`` (to choose by) and ``judge`` (to value the choice by)."""

    phase: str
    pile: int
    moves: tuple[str, ...]
    product: int
    pick: list[list[Outcome]]
    judge: list[list[Outcome]]

    def step(self) -> int:
        """The step's move: the best by the first set of redeals."""
        return max(range(len(self.moves)), key=lambda j: worth(self.pick[j]))

    def gain(self) -> tuple[float, float]:
        """The step's move against the product's on the second set: the mean difference of the credit
        and of the lead (nothing where the step keeps the product's move)."""
        j = self.step()
        mine, base = self.judge[j], self.judge[self.product]
        n = len(base)
        return (sum(a[0] - b[0] for a, b in zip(mine, base, strict=True)) / n,
                sum(a[1] - b[1] for a, b in zip(mine, base, strict=True)) / n)


def summary(choices: list[Choice], per_game: float) -> str:
    """The step's gain per choice, with its standard error, and scaled to a game of ``per_game`` choices."""
    if len(choices) < 2:
        return f"{len(choices)} choices"
    gains = [c.gain() for c in choices]
    credit = [g[0] for g in gains]
    lead = [g[1] for g in gains]
    error = [statistics.stdev(x) / math.sqrt(len(x)) for x in (credit, lead)]
    changed = sum(1 for c in choices if c.step() != c.product)
    return (f"{len(choices)} choices, {changed} changed; gain a choice {statistics.fmean(credit):+.4f} ± {error[0]:.4f} "
            f"wins, {statistics.fmean(lead):+.3f} ± {error[1]:.3f} cards; a game ({per_game:.1f} choices) "
            f"{per_game * statistics.fmean(credit):+.1%} ± {per_game * error[0]:.1%} wins, "
            f"{per_game * statistics.fmean(lead):+.2f} ± {per_game * error[1]:.2f} cards")


def study(number: int, every: int, count: int, choices: list[Choice]) -> int:
    """Play ``bench.kapado``'s deal ``number`` with the product's strong seat, adding every ``every``-th
    of its choices to ``choices``; the number of its choices (moves with more than one legal move)."""
    made = 0

    def favourite(state: KapadoState, seat: int, legal: list[Action], rng: random.Random) -> Action:
        nonlocal made
        action = BRAIN.default(GAME, state, seat, legal, rng)
        if state.phase != EXTRA:
            made += 1
            if made % every == 0:
                studied = random.Random(f"kapado-tuning:{number}:choice:{made}")
                choices.append(Choice(state.phase, len(state.pile), tuple(map(str, legal)), legal.index(action),
                                      playouts(state, seat, legal, count, studied),
                                      playouts(state, seat, legal, count, studied)))
        return action

    play(BRAIN.judgement, number, favourite)
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.kapado_rollouts", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument("--every", type=int, default=2, help="study every E-th choice of the strong seat")
    parser.add_argument("--playouts", type=int, default=300, help="playouts per move and set of redeals")
    parser.add_argument("--out", help="a file to append each choice studied to, a JSON line each")
    args = parser.parse_args(argv)
    choices: list[Choice] = []
    made = 0
    start = time.process_time()
    for k, n in enumerate(range(args.start, args.start + args.deals), 1):
        before = len(choices)
        made += study(n, args.every, args.playouts, choices)
        if args.out:
            with open(args.out, "a") as out:
                for choice in choices[before:]:
                    print(json.dumps({"deal": n, "phase": choice.phase, "pile": choice.pile, "moves": choice.moves,
                                      "product": choice.product, "step": choice.step(), "gain": choice.gain(),
                                      "pick": choice.pick, "judge": choice.judge}), file=out)
        print(f"{k} deals, {time.process_time() - start:.0f} s CPU: {summary(choices, made / k)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
