"""Safarü: catch what is worth most, release what is worth least to the next player.

A card's worth to the side that catches it: its triangles, plus a share of the unicorn bonus
(red), minus a share of the fish penalty (blue) and the baby penalty (0). A catch takes the table
cards (and the played card too when it pairs); a release leaves the played card free for others.

The strong player compares, per card, its best catch by that worth and the few best catches
overall (catches that take the same cards are one), each played out to the end of the deal, where
``expected_points`` judges the piles: a majority counts with the chance that the animals still
uncaught leave it standing, so a majority that can no longer be lost counts in full.

It also reads the others' plays: a player who releases a card, or makes a small catch, while
holding a card that could have made a much better catch plays against its interest, so a redeal
that gives it such a card counts less in the search's averages (``likelihood``), the more so the
more it would have gained.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from games.base import Action
from games.computer.brain import Brain, margin
from games.deck import DECK, colour, digit, triangles
from games.safaru.catches import (
    ANIMAL_COLOURS,
    BABY_PENALTY,
    FISH_PENALTY,
    UNICORN_BONUS,
    Catch,
    Tally,
    parse_catch,
    plays,
    tally,
)
from games.safaru.rules import Safaru
from games.safaru.state import Play, SafaruState

UNICORN, FISH = ANIMAL_COLOURS["unicorn"], ANIMAL_COLOURS["fish"]
#: A unicorn's and a fish's share of the majority award or penalty, in points per card.
UNICORN_SHARE, FISH_SHARE = 3.0, -1.5
#: How much a released card's worth counts against the play (the next player may catch it).
RELEASE_WEIGHT = 0.6
#: Random noise added to a play's ``score``: it only breaks ties. The playouts play as the easy
#: player does: with a point of noise they threw away catches no greedy player would, so the search
#: misjudged both its own next plays and the replies of an opponent who catches what is worth most.
TIE_NOISE = 0.05
#: Catches a playout looks at per card: a crowded table has thousands, and a playout step that
#: listed a hundred of each card cost a strong move seconds (the root still sees every listed move).
PLAYOUT_CATCHES = 12
#: Free cards up to which a strong move gets its whole budget of playouts.
CROWD = 10
#: Catches the strong search compares besides each card's best one: ranking by worth first and
#: searching the rest won as often in the benchmark as searching every listed catch, and a
#: crowded table's hundreds of catches no longer share one budget.
SEARCHED = 6
#: Cards of each colour in the deck: the animals a majority is counted from.
PER_COLOUR = 12
#: How a play weighs a redeal that gives the player a card with a better play at that table:
#: the weight falls by a factor e for every ``PLAY_SLACK`` points the card's best play beats the
#: one made (by ``score``), and never below ``PLAY_FLOOR`` (players misjudge, and humans score
#: plays otherwise).
PLAY_SLACK = 1.0
PLAY_FLOOR = 0.05


def worth(card: str) -> float:
    value = float(triangles(card))
    if colour(card) == UNICORN:
        value += UNICORN_SHARE
    elif colour(card) == FISH:
        value += FISH_SHARE
    if digit(card) == 0:
        value += BABY_PENALTY
    return value


WORTH: dict[str, float] = {c: worth(c) for c in DECK}


def score(catch: Catch) -> float:
    """What a play is worth at once: the cards caught, less the card left free."""
    caught = sum(WORTH[c] for c in catch.taken)
    if catch.pair:
        return caught + WORTH[catch.card]
    if not caught:
        return -RELEASE_WEIGHT * max(0.0, WORTH[catch.card]) + 0.1 * digit(catch.card) / 9
    return caught - RELEASE_WEIGHT * max(0.0, WORTH[catch.card])


def best(options: list[Catch], rng: random.Random, noise: float) -> Catch:
    scored = [(score(c) + rng.random() * noise, i) for i, c in enumerate(options)]
    return options[max(scored)[1]]


class SafaruBrain(Brain[Safaru, SafaruState]):
    least, per_arm, most = 150, 60, 1000
    cap = 200
    steps = 20_000  # ~0.7 s: a move with many catches and long rounds ahead stops there

    def easy(self, game: Safaru, state: SafaruState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        options = [parse_catch(a.arg) for a in legal]
        return Action("play", best(options, rng, TIE_NOISE).arg)

    def policy(self, game: Safaru, state: SafaruState, seat: int, rng: random.Random) -> Action:
        return Action("play", best(plays(state.hands[seat], state.table, PLAYOUT_CATCHES), rng, TIE_NOISE).arg)

    def same(self, game: Safaru, state: SafaruState, seat: int, action: Action) -> Any:
        """Catches that take the same cards (the same way of pairing or not) leave the same position."""
        catch = parse_catch(action.arg)
        return catch.card, frozenset(catch.taken), catch.pair is not None

    def candidates(self, game: Safaru, state: SafaruState, seat: int, legal: list[Action]) -> list[Action]:
        """Each card's best play by worth, and the ``SEARCHED`` best plays overall."""
        arms = super().candidates(game, state, seat, legal)
        ranked = sorted(arms, key=lambda a: -score(parse_catch(a.arg)))
        keep = set(ranked[:SEARCHED])
        cards: set[str] = set()
        for a in ranked:
            card = parse_catch(a.arg).card
            if card not in cards:
                cards.add(card)
                keep.add(a)
        return [a for a in arms if a in keep]

    def budget(self, game: Safaru, state: SafaruState, arms: int) -> int:
        """Fewer playouts on a crowded table, where every playout step weighs more catches."""
        crowd = max(CROWD, len(state.table))
        return min(self.most * CROWD // crowd, max(self.least, self.per_arm * arms))

    def likelihood(self, game: Safaru, state: SafaruState, seat: int) -> float:
        """How well the others' hands in this redeal fit their plays: for every card another seat
        holds, and each of its plays in this deal (when the card was in its hand too), how much
        better the card would have played than the play made."""
        weight = 1.0
        for other, played in enumerate(state.played):
            if other == seat:
                continue
            for play in played:
                for card in state.hands[other]:
                    weight *= play_fit(card, play)
        return weight

    def mark(self, game: Safaru, state: SafaruState) -> tuple[int, int]:
        return state.game_no, state.deal_no

    def done(self, game: Safaru, mark: tuple[int, int], state: SafaruState) -> bool:
        return (state.game_no, state.deal_no) != mark

    def value(self, game: Safaru, mark: tuple[int, int], state: SafaruState, seat: int) -> float:
        if state.game_no == mark[0] and not state.over:
            points = expected_points([tally(p) for p in state.piles])
        else:
            points = [0.0] * state.sides
            for line in state.history[-1].lines:
                points[line.seat] += line.points
        return margin(points, game.side(state, seat))


@lru_cache(maxsize=1 << 14)
def play_fit(card: str, play: Play) -> float:
    """How plausible ``play`` is from a hand holding ``card`` too: 1 when ``card`` had no better
    play at that table, less the more its best play would have gained."""
    gain = max(score(c) for c in plays((card,), play.table)) - score(play.catch)
    return max(PLAY_FLOOR, math.exp(-gain / PLAY_SLACK)) if gain > 0 else 1.0


def expected_points(piles: list[Tally]) -> list[float]:
    """Each side's score if the game ended with the animals not yet caught shared out at random:
    its triangles and babies, and each majority's award times the chance that it holds it."""
    out: list[float] = [t.triangles + BABY_PENALTY * t.babies for t in piles]
    for attr, award in (("unicorns", UNICORN_BONUS), ("fish", FISH_PENALTY)):
        counts = tuple(getattr(t, attr) for t in piles)
        shares = majority_shares(counts, PER_COLOUR - sum(counts))
        for side, share in enumerate(shares):
            out[side] += award * share
    return out


@lru_cache(maxsize=4096)
def majority_shares(counts: tuple[int, ...], left: int) -> tuple[float, ...]:
    """Each side's expected share of a majority award (split evenly on a tie, none when nobody has
    any, docs/rules-decisions.md D22) when each of the ``left`` cards still out goes to every side
    alike: with a lead bigger than what is left, the award is certain."""
    sides = len(counts)
    spread = {counts: 1.0}
    for _ in range(left):
        after: dict[tuple[int, ...], float] = {}
        for held, chance in spread.items():
            for side in range(sides):
                more = (*held[:side], held[side] + 1, *held[side + 1:])
                after[more] = after.get(more, 0.0) + chance / sides
        spread = after
    shares = [0.0] * sides
    for held, chance in spread.items():
        most = max(held)
        if most:
            holders = [side for side in range(sides) if held[side] == most]
            for side in holders:
                shares[side] += chance / len(holders)
    return tuple(shares)


BRAIN = SafaruBrain()
