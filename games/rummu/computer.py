"""Rummü: lay down what you can, keep the cards that may still join, and go out first.

``useful`` rates a hand card by the partners it has in hand (the same digit in other colours, the
same colour a digit or two away; a yellow card stands in for its digit, so it is worth more). The
discard is the least useful card, the draw takes the discard pile's top only when that card joins
something at once. The strong player compares draws, melds and discards by playing the round out
to the seat's next turn (the expert: a round further) and judging every display and hand
(``standing``). It reads the others' turns as a player would: whoever has had a turn this hand and
still holds a meld or lay-off it could make would have made it, so a redeal that gives it one
counts little (``likelihood``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import cast

from games.base import Action
from games.base import action as _act
from games.computer.brain import Brain, margin
from games.deck import DECK, colour, digit
from games.rummu.combos import YELLOW, accepts, find_melds, value
from games.rummu.rules import Rummu
from games.rummu.scoring import CARD_IN_HAND, GOING_OUT, JOKER_IN_HAND
from games.rummu.state import DRAW, HAND_SIZES, RummuState

Combos = Sequence[tuple[str, tuple[str, ...]]]  # (kind, cards) of every combination on the table
#: A redeal's weight for each other seat that holds cards it would have laid on its last turn (in
#: ``bench.computer``, a tenth won fewer deals than a fiftieth; smaller weights won the same).
HELD_BACK = 0.02


def useful(card: str, hand: Sequence[str]) -> float:
    d, col = digit(card), colour(card)
    score = 1.5 if col == YELLOW else 0.0
    for other in hand:
        if other == card:
            continue
        od, oc = digit(other), colour(other)
        if od == d and (oc != col or YELLOW in (oc, col)):
            score += 1.0
        elif oc == col and abs(od - d) <= 2:
            score += 1.0 if abs(od - d) == 1 else 0.5
        elif YELLOW in (oc, col) and abs(od - d) == 1:
            score += 0.3
    return score


def joins(card: str, hand: Sequence[str], combos: Combos, opened: bool, yellow: bool) -> bool:
    """Whether ``card`` completes a combination with the hand, or (once opened) extends one."""
    if any(card in meld for meld in find_melds((*hand, card), yellow)):
        return True
    return opened and any(card in accepts(kind, cards, yellow)[0] for kind, cards in combos)


def pick_discard(hand: Sequence[str], combos: Combos, yellow: bool) -> str:
    """The least useful card; a card that extends a combination on the table is kept back, since
    the next player could pick it up."""
    takers = [accepts(k, cs, yellow)[0] for k, cs in combos]
    feeds = {c for c in hand if any(c in adds for adds in takers)}
    return min(hand, key=lambda c: (useful(c, hand) + (1.0 if c in feeds else 0.0), -digit(c), c))


def play(melds: Iterable[Action], layoffs: Iterable[Action], hand: Sequence[str], combos: Combos, opened: bool,
         yellow: bool, drawing: bool, discard_top: str | None) -> Action:
    """The next action of a turn: draw, then lay down all it can (the longest meld first, then
    lay-offs), then discard. ``layoffs`` is read only up to its first lay-off."""
    if drawing:
        if discard_top and joins(discard_top, hand, combos, opened, yellow):
            return _act("takediscard", "1")
        return _act("take")
    best = max(melds, key=lambda a: (len(a.arg.replace("/", "")), a.arg), default=None)
    if best is not None:
        return best
    add = next((a for a in layoffs if a.kind == "add"), None)
    if add is not None:
        return add
    return _act("discard", pick_discard(hand, combos, yellow))


def standing(state: RummuState, seat: int) -> float:
    """What a seat has in hand for the hand's end: its displays' value, less its hand's penalty,
    plus a little for cards that work together (they are melds to come)."""
    hand = state.hands[seat]
    jokers = sum(colour(c) == YELLOW for c in hand)
    points: float = JOKER_IN_HAND * jokers + CARD_IN_HAND * (len(hand) - jokers)
    points += sum(value(c.kind, c.cards) for c in state.combos if c.owner == seat)
    points += sum(min(useful(c, hand), 2.0) for c in hand) * 1.5
    return points - 2.0 * len(hand) + (GOING_OUT if not hand else 0)


def played(state: RummuState, seat: int, other: int) -> bool:
    """Whether ``other`` has surely had a turn this hand, from what ``seat`` sees at its own turn:
    a seat between the first player and ``seat`` has; one after ``seat`` has once ``seat`` is past
    its first turn, which the draw pile shows when more cards left it than the first round holds
    up to ``seat``'s own draw (a reshuffle means many rounds)."""
    first = (state.dealer + 1) % state.players
    if (other - first) % state.players < (seat - first) % state.players:
        return True
    fresh = len(DECK) - state.players * HAND_SIZES[state.players] - 1
    return state.generation > 0 or fresh - len(state.stock) >= (seat - first) % state.players + 2


def plain_move(game: Rummu, state: RummuState, seat: int) -> Action:
    """The easy player's turn on the whole state, its moves made lazily: the lay-offs only when
    there is no meld, and only up to the first."""
    combos = [(c.kind, c.cards) for c in state.combos]
    opened = game.opened(state, seat)
    drawing = state.phase == DRAW
    melds = [] if drawing else game.melds(state, seat)
    return play(melds, () if drawing else game.layoffs(state, seat), state.hands[seat], combos, opened,
                state.options.yellow_is_colour, drawing, state.discard[-1] if state.discard else None)


class RummuBrain(Brain[Rummu, RummuState]):
    least, per_arm, most = 120, 24, 240
    cap = 60
    #: Rounds of turns a playout plays before the hands are judged: the strong player's one, the
    #: expert's two (``scaled``).
    rounds = 1

    def easy(self, game: Rummu, state: RummuState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        view = game.view(state, seat)
        combos = [(c.kind, c.cards) for c in view.combos]
        opened = any(c.owner == seat for c in view.combos)
        yellow = state.options.yellow_is_colour
        melds = [a for a in legal if a.kind == "meld"]
        assert view.hand is not None        # a seat's own view always holds its hand
        return play(melds, legal, view.hand, combos, opened, yellow, view.phase == DRAW, view.discard_top)

    def policy(self, game: Rummu, state: RummuState, seat: int, rng: random.Random) -> Action:
        return plain_move(game, state, seat)

    def candidates(self, game: Rummu, state: RummuState, seat: int, legal: list[Action]) -> list[Action]:
        """Drawing: the pile, or the discards' top one or two; playing: every meld, lay-off and
        swap, and the discards of the four least useful cards."""
        if state.phase == DRAW:
            return [a for a in legal if a.kind == "take" or a.arg in ("1", "2")]
        combos = [(c.kind, c.cards) for c in state.combos]
        hand = state.hands[seat]
        yellow = state.options.yellow_is_colour
        ranked = sorted(hand, key=lambda c: (useful(c, hand), -digit(c), c))[:4]
        keep = {pick_discard(hand, combos, yellow), *ranked}
        return [a for a in legal if a.kind != "discard" or a.arg in keep]

    def likelihood(self, game: Rummu, state: RummuState, seat: int) -> float:
        """Every seat lays down what it can on its turn (the easy player always does, and so do most
        players), so a redeal in which a seat that has had a turn since the deal holds a meld it
        could lay (``game.melds``: for an unopened seat, a batch reaching its minimum) or, once
        opened, a card it could lay off is unlikely (a combination laid or grown after that turn
        may take a card it kept rightly: hence a small weight, not none)."""
        weight = 1.0
        for other in range(state.players):
            if other != seat and played(state, seat, other) and (
                    game.melds(state, other) or any(a.kind == "add" for a in game.layoffs(state, other))):
                weight *= HELD_BACK
        return weight

    def mark(self, game: Rummu, state: RummuState) -> tuple[int, int, tuple[int, ...]]:
        return state.hand_no, state.turn, tuple(state.totals)

    def done(self, game: Rummu, mark: tuple[int, int, tuple[int, ...]], state: RummuState) -> bool:
        """Back at the seat's next draw (a round of turns), or the hand is over."""
        return state.hand_no != mark[0] or (state.turn == mark[1] and state.phase == DRAW)

    def scaled(self, factor: int) -> Brain[Rummu, RummuState]:
        """The expert plays each playout a second round on before judging the hands: six times the
        playouts of one round won no more than the strong player, a second round won more
        (docs/performance.md)."""
        out = super().scaled(factor)
        if factor > 1:
            cast(RummuBrain, out).rounds = 2
        return out

    def play_on(self, game: Rummu, mark: tuple[int, int, tuple[int, ...]], state: RummuState) -> None:
        """The playout's own ``state``, played plainly from the seat's draw (``done``) to its next
        one, or to the hand's end."""
        for step in range(self.cap):
            if state.over or state.hand_no != mark[0] or (step and self.done(game, mark, state)):
                return
            actor = min(game.to_act(state))
            game.apply(state, actor, plain_move(game, state, actor))

    def value(self, game: Rummu, mark: tuple[int, int, tuple[int, ...]], state: RummuState, seat: int) -> float:
        """The hand's points if it is over, else every seat's ``standing``: the seat's side against
        the best other. A brain of more ``rounds`` plays the playout on first."""
        for _ in range(self.rounds - 1):
            self.play_on(game, mark, state)
        if state.hand_no != mark[0] or state.over:
            per_seat = state.history[-1].totals
            before = [mark[2][game.side(state, s)] for s in range(state.players)]
            points = [float(t - b) for t, b in zip(per_seat, before, strict=True)]
        else:
            points = [standing(state, s) for s in range(state.players)]
            if game.teams(state):
                points = [sum(points[p] for p in range(state.players) if game.side(state, p) == game.side(state, s))
                          for s in range(state.players)]
        me = game.side(state, seat)
        sides = [points[s] for s in range(state.sides)] if game.teams(state) else points
        return margin(sides, me)


BRAIN = RummuBrain()
