"""Kapado: keep stack tops that invite double fits, and take from the leader.

Every drawn card ends up owned, face up or face down, so a card is never lost; what wins is
drawing more often. Extra draws come from double fits (colour and number), so a player wants open
stack tops that many of the remaining cards fit doubly: ``cover`` measures that. A card that fits
nowhere is better spent on trying a locked stack (it is useless while locked) than on locking an
open one.
"""

from __future__ import annotations

import random

from games.base import Action
from games.computer.brain import Brain, margin
from games.kapado.cards import DECK, DOUBLE, KIND, NUMBER, fit
from games.kapado.rules import Kapado
from games.kapado.state import EXTRA, OPEN, KapadoState, card_counts, parse_stack
from games.kapado.state import WISH as WISH_PHASE

_NUMBERS = [c for c in DECK.ids if KIND[c] == NUMBER]
#: Per number card, the number cards that fit it doubly (no bans), as a bit set.
DOUBLES: dict[str, int] = {
    c: sum(1 << i for i, o in enumerate(_NUMBERS) if o != c and fit(o, c, frozenset()) == DOUBLE) for c in _NUMBERS
}
_COUNT = len(_NUMBERS)


def cover(tops: list[str | None]) -> float:
    """The share of number cards that would fit one of ``tops`` doubly."""
    bits = 0
    for top in tops:
        if top is not None:
            bits |= DOUBLES[top]
    return bits.bit_count() / _COUNT


def place(card: str, tops: list[str | None], banned: frozenset[int], legal: list[Action], seat: int,
          players: int, per: int, turns: float, rng: random.Random, noise: float) -> Action:
    """The placing move for ``card``. ``tops`` are the seat's open tops by stack (None: locked, dead
    or empty), ``turns`` how many more turns the seat may expect in this game."""
    best, best_score = legal[0], float("-inf")
    odds = DOUBLES[card].bit_count() / _COUNT
    for action in legal:
        _, i = parse_stack(action.arg, players, per)  # type: ignore[misc]
        after = tops[:]
        if action.kind == "up":
            top = tops[i]
            after[i] = card
            double = top is not None and fit(card, top, banned) == DOUBLE
            score = (1.0 if double else 0.0) + turns * cover(after)
        elif action.kind == "unlock":
            after[i] = card
            score = odds * (1.0 + turns * cover(after)) + (1.0 - odds) * turns * cover(tops)
        else:
            after[i] = None
            score = turns * cover(after)
        score += rng.random() * noise
        if score > best_score:
            best, best_score = action, score
    return best


def take(legal: list[Action], owner_of: dict[str, int], counts: list[int]) -> Action:
    """A wish card: take from the player with the most cards (keep it when nothing is takeable)."""
    takes = [a for a in legal if a.kind == "take"]
    if not takes:
        return legal[-1]
    return max(takes, key=lambda a: (counts[owner_of[a.arg]], DOUBLES[a.arg].bit_count(), a.arg))


def _tops(state: KapadoState, seat: int) -> list[str | None]:
    per = state.per_seat
    out: list[str | None] = []
    for k in range(seat * per, seat * per + per):
        stack = state.stacks[k]
        out.append(stack[-1] if stack and state.locks[k] == OPEN else None)
    return out


class KapadoBrain(Brain[Kapado, KapadoState]):
    least, per_arm, most = 400, 200, 1500
    cap = 120
    #: Rounds of turns a playout looks ahead before it judges the stacks as they stand.
    rounds = 2

    def easy(self, game: Kapado, state: KapadoState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        view = game.view(state, seat)
        if view.phase == EXTRA:
            return Action("draw")
        per = len(view.stacks[0])
        if view.phase == WISH_PHASE:
            owners = {s.top: p for p, row in enumerate(view.stacks) for s in row if s.top}
            return take(legal, owners, list(view.counts))
        tops = [s.top if s.lock == "open" else None for s in view.stacks[seat]]
        turns = view.deck / view.players
        return place(view.drawn, tops, frozenset(view.banned), legal, seat, view.players, per, turns, rng, 0.01)

    def candidates(self, game: Kapado, state: KapadoState, seat: int, legal: list[Action]) -> list[Action]:
        """Every drawn card ends up owned, so the extra draw is always drawn (one card more, and one
        fewer for the others to draw), and a wish card takes whenever it can: the taken card changes
        owner, two cards' difference more than keeping the wish card alone. Only which card to take
        and where to lay a card are searched."""
        if state.phase == EXTRA:
            return [Action("draw")]
        if state.phase == WISH_PHASE:
            takes = [a for a in legal if a.kind == "take"]
            return takes or legal
        return legal

    def policy(self, game: Kapado, state: KapadoState, seat: int, rng: random.Random) -> Action:
        legal = game.legal_actions(state, seat)
        if state.phase == EXTRA:
            return legal[0]
        per = state.per_seat
        if state.phase == WISH_PHASE:
            owners = {s[-1]: k // per for k, s in enumerate(state.stacks) if s and state.locks[k] == OPEN}
            return take(legal, owners, card_counts(state))
        turns = len(state.pile) / state.players
        return place(state.drawn, _tops(state, seat), state.banned, legal, seat, state.players, per, turns, rng,
                     0.05)

    def mark(self, game: Kapado, state: KapadoState) -> tuple[int, int, tuple[int, ...]]:
        return state.game_no, len(state.pile), tuple(state.totals)

    def done(self, game: Kapado, mark: tuple[int, int, tuple[int, ...]], state: KapadoState) -> bool:
        """``rounds`` rounds of turns: as many draws per round as players."""
        return state.game_no != mark[0] or len(state.pile) <= mark[1] - self.rounds * state.players

    def value(self, game: Kapado, mark: tuple[int, int, tuple[int, ...]], state: KapadoState, seat: int) -> float:
        points = [float(t - m) for t, m in zip(state.totals, mark[2], strict=True)]
        if state.game_no == mark[0] and not game.is_over(state):
            turns = len(state.pile) / state.players
            counts = card_counts(state)
            points = [p + c + turns * cover(_tops(state, s)) for s, (p, c) in enumerate(zip(points, counts,
                                                                                           strict=True))]
        return margin(points, seat)


BRAIN = KapadoBrain()
