"""Calcory: flip while the odds favour it, stop where the marked set is hard to beat.

The odds come from the digits not in sight: the deck's digits less the face-up cards, the marked
set and the seat's own hand (easy remembers nothing else, but sees a failed turn's cards while they
lie face up, docs/rules-decisions.md D16). The strong search also remembers what the table saw
(``CalcoryState.seen``, own returns), so it compares flipping a remembered card with flipping an unknown one
and with stopping.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from games.base import Action
from games.calcory.rules import Calcory
from games.calcory.state import OVER, RETURN, SLOT_INDEX, SLOTS, TARGET, CalcoryState
from games.computer.brain import Brain, margin
from games.deck import DECK, digit

#: Copies of each digit in the deck (the 1 and the 7 twice per colour).
DIGITS: tuple[int, ...] = tuple(sum(1 for c in DECK if digit(c) == d) for d in range(10))
#: Stop once the next flip busts at least this often (the marked set then has a fair chance).
BUST_STOP = 0.5
#: A won game is worth this many cards on top of the final lead.
WIN = 6.0


def odds(unknown: list[int], total: int, zero_seen: bool) -> tuple[float, float]:
    """(hit, bust) chances of flipping one unknown card, ``unknown`` counting digits out of sight."""
    n = sum(unknown)
    if not n:
        return 0.0, 1.0
    need = TARGET - total
    hit = unknown[need] / n if 0 <= need <= 9 and not (need == 0 and zero_seen) else 0.0
    bust = sum(unknown[d] for d in range(10) if d > need) / n
    if zero_seen:
        bust += unknown[0] / n
    return hit, bust


def beats(total: int, count: int, marked: tuple[int, int] | None) -> bool:
    """Whether stopping on ``total`` with ``count`` cards would beat the marked set."""
    if marked is None:
        return True
    their_total, their_count = marked
    return total > their_total or (total == their_total and count > their_count)


def decide(digits: list[int], unknown: list[int], marked: tuple[int, int] | None, can_stop: bool,
           known: dict[int, int], down: list[int], rng: random.Random, urgent: bool = False) -> Action:
    """The flip-or-stop choice: ``digits`` flipped so far, ``known`` face-down slots whose digit the
    player remembers, ``down`` the other face-down slots it may flip. ``urgent``: the marked set
    would end the game in its owner's favour, so beating it at all is worth more than any risk."""
    total = sum(digits)
    zero_seen = 0 in digits
    need = TARGET - total
    for slot, d in sorted(known.items()):
        if d == need and not (d == 0 and zero_seen):
            return Action("flip", SLOTS[slot])
    _, bust = odds(unknown, total, zero_seen)
    if can_stop and beats(total, len(digits), marked) and (bust >= BUST_STOP or not down or urgent):
        return Action("stop")
    safe = [slot for slot, d in sorted(known.items())
            if d < need and not (d == 0 and zero_seen) and bust >= BUST_STOP]
    if safe:  # a remembered low card adds to the sum without risk
        return Action("flip", SLOTS[max(safe, key=lambda s: known[s])])
    if down:
        return Action("flip", SLOTS[rng.choice(down)])
    if known:
        return Action("flip", SLOTS[min(known)])
    return Action("stop")


def ends_badly(counts: list[int] | tuple[int, ...], marked: tuple[int, int] | None, owner: int, seat: int) -> bool:
    """Whether the marked set is a single card whose walkover would end the game with its owner
    not behind the seat."""
    return marked is not None and marked[1] == 1 and owner != seat and counts[owner] + 1 >= counts[seat]


def unseen(cards_in_sight: Iterable[str]) -> list[int]:
    left = list(DIGITS)
    for c in cards_in_sight:
        left[digit(c)] -= 1
    return left


def returning(choices: Iterable[str], empty: list[int], rng: random.Random) -> Action:
    """Put back the card whose digit pairs best later (a middle digit), in some empty slot."""
    card = min(choices, key=lambda c: (abs(digit(c) - 6), c))
    return Action("ret", f"{card}-{SLOTS[rng.choice(empty)]}")


class CalcoryBrain(Brain[Calcory, CalcoryState]):
    least, per_arm, most = 60, 24, 160
    cap = 120

    def easy(self, game: Calcory, state: CalcoryState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        view = game.view(state, seat)
        if view.phase == RETURN:
            empty = [SLOT_INDEX[s.slot] for s in view.grid if s.status == "empty"]
            return returning(view.choices, empty, rng)
        sight = [s.card for s in view.grid if s.card] + list(view.hand)
        marked = (view.marked.total, view.marked.count) if view.marked else None
        down = [SLOT_INDEX[s.slot] for s in view.grid if s.status == "down"]
        # A failed turn still lies face up: easy sees those digits now, like everyone at the table.
        shown = {SLOT_INDEX[s.slot]: s.digit for s in view.grid if s.status == "shown" and s.digit is not None}
        can_stop = any(a.kind == "stop" for a in legal)
        owner = view.marked.owner if view.marked else -1
        urgent = ends_badly(view.hand_counts, marked, owner, seat)
        return decide(list(view.flipped), unseen(sight), marked, can_stop, shown, down, rng, urgent)

    def candidates(self, game: Calcory, state: CalcoryState, seat: int, legal: list[Action]) -> list[Action]:
        """Stopping, every remembered card, and one card never seen (they are all alike)."""
        if state.phase == RETURN:
            return [returning(state.choices, [i for i, c in enumerate(state.grid) if not c], random.Random(0))]
        known = _known(state, seat)
        out = [a for a in legal if a.kind == "stop"]
        fresh = None
        for a in legal:
            slot = SLOT_INDEX[a.arg] if a.kind == "flip" else -1
            if slot in known:
                out.append(a)
            elif slot >= 0 and fresh is None and slot not in state.groups:
                fresh = a
        return out + ([fresh] if fresh else [a for a in legal if a.kind == "flip"][:1])

    def policy(self, game: Calcory, state: CalcoryState, seat: int, rng: random.Random) -> Action:
        grid = state.grid
        if state.phase == RETURN:
            return returning(state.choices, [i for i, c in enumerate(grid) if not c], rng)
        known = _known(state, seat)
        flips, marks = state.flips, state.marks
        sight = [grid[i] for i in flips] + [grid[i] for i in marks] + state.hands[seat]
        sight += [grid[i] for i in known]
        down = [i for i, c in enumerate(grid) if c and i not in flips and i not in marks and i not in known]
        marked = (sum(digit(grid[i]) for i in marks), len(marks)) if marks else None
        can_stop = bool(flips) and (len(flips) >= (1 if state.hands[seat] else 2) or (not down and not known))
        known = {i: d for i, d in known.items() if i not in flips and i not in marks}
        urgent = ends_badly([len(h) for h in state.hands], marked, state.owner, seat)
        return decide([digit(grid[i]) for i in flips], unseen(sight), marked, can_stop, known, down, rng, urgent)

    def mark(self, game: Calcory, state: CalcoryState) -> int:
        return state.turns

    def done(self, game: Calcory, mark: int, state: CalcoryState) -> bool:
        """A full round of turns, so the others had their go at a marked set."""
        return state.turns >= mark + state.players

    def value(self, game: Calcory, mark: int, state: CalcoryState, seat: int) -> float:
        counts = [float(len(h)) for h in state.hands]
        if state.phase == OVER:
            lead = margin(counts, seat)
            return lead + (WIN if lead > 0 else -WIN if lead < 0 else 0.0)
        if state.phase == RETURN:
            counts[state.active] -= 1
        if state.marks:
            counts[state.owner] += 0.5 * (len(state.marks) - 1)
        return margin(counts, seat)


def _known(state: CalcoryState, seat: int) -> dict[int, int]:
    """Face-down slots whose digit ``seat`` remembers: seen turned down in place, or returned by it."""
    out = {i: digit(state.grid[i]) for i in state.seen if state.grid[i]}
    for slot, (returner, _) in state.groups.items():
        if returner == seat:
            out[slot] = digit(state.grid[slot])
    return out


BRAIN = CalcoryBrain()
