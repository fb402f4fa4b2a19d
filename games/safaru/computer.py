"""Safarü: catch what is worth most, release what is worth least to the next player.

A card's worth to the side that catches it: its triangles, plus a share of the unicorn bonus
(red), minus a share of the fish penalty (blue) and the baby penalty (0). A catch takes the table
cards (and the played card too when it pairs); a release leaves the played card free for others.

The strong player compares, per card, its best catch by that worth and the few best catches
overall (catches that take the same cards are one), each played out to the end of the deal, where
``expected_points`` judges the piles: a majority counts with the chance that the animals still
uncaught leave it standing, so a majority that can no longer be lost counts in full.

It also reads the others' plays: a player who releases a card, or makes a small catch, while
holding a card that could have made a much better catch plays against its interest, so such a
card is dealt to it less often (``determinize``, for the next seat to play) or a redeal that gives
it one counts less in the search's averages (``likelihood``, the seats after), the more so the
more it would have gained.

In the game's last deal the deck is empty, so at two players the seat sees every card: the strong
player then plays the deal out exactly (``solve``) instead of sampling it.

In the search's playouts the others play as the easy player does (the model of them), and the
seat's own catches weigh each animal by what it moves that side's expected majority award by
(``standing_score``): a fixed share per animal made its later plays chase majorities already
decided and pass up close ones, so the search judged its plays by a future it would not play.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from games.base import Action
from games.computer.brain import Brain, margin, weighted_subset
from games.deck import DECK, colour, digit, sort_cards, triangles
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
#: At twelve, one play in thirty of easy-against-easy games had a better catch further down the
#: list (by three points on average, often a seventeen that takes several unicorns), so the
#: playouts modelled an opponent who passes it up; at forty, one in two hundred.
PLAYOUT_CATCHES = 40
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
#: Positions the last deal's exact play (``solve``) may visit before it leaves the move to the
#: search: a few hundred at most in practice (~30 ms), so the cap only guards a crowded table.
SOLVE_NODES = 4000


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
#: A card's triangles and baby penalty: what it is worth whoever holds the majorities.
PLAIN: dict[str, float] = {c: float(triangles(c) + (BABY_PENALTY if digit(c) == 0 else 0)) for c in DECK}


def score(catch: Catch) -> float:
    """What a play is worth at once: the cards caught, less the card left free."""
    caught = sum(WORTH[c] for c in catch.taken)
    if catch.pair:
        return caught + WORTH[catch.card]
    if not caught:
        return -RELEASE_WEIGHT * max(0.0, WORTH[catch.card]) + 0.1 * digit(catch.card) / 9
    return caught - RELEASE_WEIGHT * max(0.0, WORTH[catch.card])


def standing_score(catch: Catch, unicorns: tuple[int, ...], fish: tuple[int, ...], side: int) -> float:
    """``score`` for ``side`` with the majorities as they stand (animals per side): the animals it
    catches are worth what they move its expected award or penalty by (``more_animals``), nothing
    once a majority is decided, much more when it is close; a release as ``score`` has it."""
    cards = (*catch.taken, catch.card) if catch.pair else catch.taken
    if not cards:
        return score(catch)
    value = sum(PLAIN[c] for c in cards)
    value += more_animals(unicorns, side, UNICORN_BONUS, sum(colour(c) == UNICORN for c in cards))
    value += more_animals(fish, side, FISH_PENALTY, sum(colour(c) == FISH for c in cards))
    return value if catch.pair else value - RELEASE_WEIGHT * max(0.0, WORTH[catch.card])


@lru_cache(maxsize=4096)
def more_animals(counts: tuple[int, ...], side: int, award: int, more: int) -> float:
    """How much ``more`` animals of one colour move ``side``'s expected share of its majority
    ``award`` (``majority_shares``), the sides holding ``counts``."""
    if not more:
        return 0.0
    left = PER_COLOUR - sum(counts)
    after = tuple(n + more if s == side else n for s, n in enumerate(counts))
    return award * (majority_shares(after, left - more)[side] - majority_shares(counts, left)[side])


def by_standing(game: Safaru, state: SafaruState, seat: int) -> Callable[[Catch], float]:
    """``standing_score`` for the seat's side with the majorities as they stand in ``state``."""
    piles = [tally(p) for p in state.piles]
    unicorns, fish = tuple(t.unicorns for t in piles), tuple(t.fish for t in piles)
    side = game.side(state, seat)
    return lambda c: standing_score(c, unicorns, fish, side)


def best(options: list[Catch], rng: random.Random, noise: float,
         worth: Callable[[Catch], float] = score) -> Catch:
    scored = [(worth(c) + rng.random() * noise, i) for i, c in enumerate(options)]
    return options[max(scored)[1]]


class Unsolved(Exception):
    """The endgame took more positions than ``SOLVE_NODES``: the search decides instead."""


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

    def playout_move(self, game: Safaru, state: SafaruState, actor: int, seat: int, rng: random.Random) -> Action:
        """The judged seat catches by ``standing_score`` (what its search would weigh); the others
        play ``policy``, the easy player's choice."""
        if actor != seat:
            return self.policy(game, state, actor, rng)
        options = plays(state.hands[seat], state.table, PLAYOUT_CATCHES)
        return Action("play", best(options, rng, TIE_NOISE, by_standing(game, state, seat)).arg)

    def same(self, game: Safaru, state: SafaruState, seat: int, action: Action) -> Any:
        """Catches that take the same cards (the same way of pairing or not) leave the same position."""
        catch = parse_catch(action.arg)
        return catch.card, frozenset(catch.taken), catch.pair is not None

    def candidates(self, game: Safaru, state: SafaruState, seat: int, legal: list[Action]) -> list[Action]:
        """Each card's best play by worth and by the majorities as they stand (``standing_score``:
        with a majority close, a catch that takes its unicorns may be worth more than the card's
        catch with the most triangles), and the ``SEARCHED`` best plays overall by worth."""
        arms = super().candidates(game, state, seat, legal)
        catch = {a: parse_catch(a.arg) for a in arms}
        keep = set(sorted(arms, key=lambda a: -score(catch[a]))[:SEARCHED])
        for worth in (score, by_standing(game, state, seat)):
            firsts: dict[str, Action] = {}
            for a in sorted(arms, key=lambda a: -worth(catch[a])):
                firsts.setdefault(catch[a].card, a)
            keep.update(firsts.values())
        return [a for a in arms if a in keep]

    def solve(self, game: Safaru, state: SafaruState, seat: int, legal: list[Action]) -> Action | None:
        """The game's last deal with at most one other hand left (the deck is empty, so the seat
        knows that hand: every other card lies face up or was caught face up), played to the end
        with every line of the seat's side's plays (``ranked``) against the others' replies as the
        playouts make them (the catch worth most by ``score``); None when that takes more than
        ``SOLVE_NODES`` positions."""
        if state.deck or sum(1 for s, h in enumerate(state.hands) if h and s != seat) > 1:
            return None
        mark, side = self.mark(game, state), game.side(state, seat)
        nodes = 0

        def after(node: SafaruState, actor: int, action: Action) -> float:
            nonlocal nodes
            nodes += 1
            if nodes > SOLVE_NODES:
                raise Unsolved
            node = game.clone(node)
            game.apply(node, actor, action)
            if game.is_over(node) or self.done(game, mark, node):
                return self.value(game, mark, node, seat)
            actor = node.turn
            if game.side(node, actor) != side:
                reply = max(plays(node.hands[actor], node.table, PLAYOUT_CATCHES), key=score)
                return after(node, actor, Action("play", reply.arg))
            return max(after(node, actor, a) for a in self.ranked(game, node, actor, game.legal_actions(node, actor)))

        try:
            values = [(after(state, seat, action), action) for action in self.ranked(game, state, seat, legal)]
        except Unsolved:
            return None
        return max(values, key=lambda v: v[0])[1]

    def ranked(self, game: Safaru, state: SafaruState, seat: int, legal: list[Action]) -> list[Action]:
        """The candidates, the best by ``score`` first (the first of equal values is played)."""
        return sorted(self.candidates(game, state, seat, legal), key=lambda a: -score(parse_catch(a.arg)))

    def budget(self, game: Safaru, state: SafaruState, arms: int) -> int:
        """Fewer playouts on a crowded table, where every playout step weighs more catches."""
        crowd = max(CROWD, len(state.table))
        return min(self.most * CROWD // crowd, max(self.least, self.per_arm * arms))

    def determinize(self, game: Safaru, state: SafaruState, seat: int, rng: random.Random) -> SafaruState:
        """A redeal whose hand for the seat ``read_seat`` names is drawn by how well each card fits
        its plays (``fit``; a hand's chance is the product of its cards' fits), the other hands and
        the deck at random: redeals weighed by that seat's plays would mostly count for little."""
        out = game.resample(state, seat, rng)
        read = read_seat(state, seat)
        if read is None:
            return out
        others = [s for s in range(state.players) if s != seat]
        pool = sorted([c for s in others for c in out.hands[s]] + out.deck)  # the same whatever was dealt
        hand = weighted_subset(pool, [fit(c, state.played[read]) for c in pool], len(out.hands[read]), rng)
        rest = [c for c in pool if c not in hand]
        rng.shuffle(rest)
        for s in others:
            if s != read:
                size = len(out.hands[s])
                out.hands[s], rest = tuple(sort_cards(rest[:size])), rest[size:]
        out.hands[read] = tuple(sort_cards(hand))
        out.deck = rest
        return out

    def likelihood(self, game: Safaru, state: SafaruState, seat: int) -> float:
        """How well the hands ``determinize`` dealt at random fit their seats' plays: for every card
        such a seat holds, and each of its plays in this deal (when the card was in its hand too),
        how much better the card would have played than the play made."""
        read = read_seat(state, seat)
        weight = 1.0
        for other, played in enumerate(state.played):
            if other not in (seat, read):
                for card in state.hands[other]:
                    weight *= fit(card, played)
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
def play_fit(card: str, play: Play, slack: float = PLAY_SLACK, floor: float = PLAY_FLOOR) -> float:
    """How plausible ``play`` is from a hand holding ``card`` too: 1 when ``card`` had no better
    play at that table, less (by a factor e every ``slack`` points, never below ``floor``) the more
    its best play would have gained."""
    gain = max(score(c) for c in plays((card,), play.table)) - score(play.catch)
    return max(floor, math.exp(-gain / slack)) if gain > 0 else 1.0


def fit(card: str, played: Sequence[Play], slack: float = PLAY_SLACK, floor: float = PLAY_FLOOR) -> float:
    """How plausible a seat's plays of this deal are from a hand holding ``card`` too."""
    return math.prod(play_fit(card, play, slack, floor) for play in played)


def read_seat(state: SafaruState, seat: int) -> int | None:
    """The seat whose hand ``seat``'s redeals draw by its plays: the next to play after ``seat``
    that has played this deal and still holds cards (the one whose next plays matter first)."""
    for step in range(1, state.players):
        other = (seat + step) % state.players
        if state.played[other] and state.hands[other]:
            return other
    return None


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
