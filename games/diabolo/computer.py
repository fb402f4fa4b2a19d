"""Diabolo: tip each row towards the angel where you hold the most of its colour, and towards the
devil where someone else does; keep the cards that make you the colour's top holder.

``Estimate`` guesses, per colour, the seat's own hand sum against the most another hand may hold
(the cards everyone saw, plus a fair share of the colour's unseen cards), so a move is judged by
how it changes the row balances and the seat's own holding.

The strong search redeals the others' hands by what each laid this round (``HELD``), since an easy
player's placements say which colours it leads and which it holds little of, and keeps the hands
with which an easy player would have made each of its placements this round (``choice_likelihood``,
``placements_likelihood``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache

from games.base import Action
from games.computer.brain import Brain, margin, weighted_subset, weighted_subsets
from games.diabolo.cards import COLOUR, COLOURS, DECK, ROW, VALUE
from games.diabolo.rules import Diabolo
from games.diabolo.state import DOUBLER, NO, USE, DiaboloState

#: The noise (points) on the judged seat's own playout moves: ties broken, little more.
OWN_NOISE = 0.05
#: Points of each colour in the deck (1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5).
COLOUR_TOTAL = sum(VALUE[c] for c in DECK if COLOUR[c] == COLOURS[0])


@dataclass(slots=True)
class Estimate:
    """Per colour: row balance (angel minus devil), the seat's hand sum, the others' likely best."""

    balance: list[int]
    mine: list[int]
    best_other: list[float]
    closed: list[bool]


def estimate(hand: list[str], devil: list[tuple[str, ...]], angel: list[tuple[str, ...]], closed: list[bool],
             known_others: list[list[str]], removed: list[str], unseen_in_hands: int, unseen: int) -> Estimate:
    """``known_others``: per other seat the hand cards everyone saw; ``unseen_in_hands`` of the
    ``unseen`` cards the seat cannot place sit in other hands (the rest in the draw pile)."""
    mine = [0] * 5
    for c in hand:
        mine[ROW[c]] += VALUE[c]
    gone = [0] * 5
    for cards in (*devil, *angel, removed, *known_others, hand):
        for c in cards:
            gone[ROW[c]] += VALUE[c]
    share = unseen_in_hands / unseen / max(1, len(known_others)) if unseen else 0.0
    best = []
    for r in range(5):
        known = [sum(VALUE[c] for c in cards if ROW[c] == r) for cards in known_others] or [0]
        free = COLOUR_TOTAL - gone[r]
        best.append(max(known) + free * share * 1.6)
    balance = [sum(VALUE[c] for c in angel[r]) - sum(VALUE[c] for c in devil[r]) for r in range(5)]
    return Estimate(balance, mine, best, closed)


def colour_worth(balance: int, mine: int, best_other: float) -> float:
    """What one colour's scoring is expected to be worth against the best other hand."""
    if mine <= 0 and best_other <= 0:
        return 0.0
    lead = 1.0 / (1.0 + math.exp(-(mine - best_other) / 1.5))
    tilt = math.tanh(balance / 2.0)
    return tilt * (lead * mine - (1.0 - lead) * best_other)


def move_worth(est: Estimate, action: Action) -> float:
    """The change a placement or discard makes to the seat's expected score."""
    card = action.arg
    r, v = ROW[card], VALUE[card]
    before = colour_worth(est.balance[r], est.mine[r], est.best_other[r])
    balance = est.balance[r] + (v if action.kind == "angel" else -v if action.kind == "devil" else 0)
    return colour_worth(balance, est.mine[r] - v, est.best_other[r]) - before


def doubler(est: Estimate, colour: int, angel_colours_left: int) -> bool:
    """Spend the doubler on this paying colour? When the seat likely holds the most, or when no
    other colour is left to spend it on and the seat has a fair chance."""
    mine, best = est.mine[colour], est.best_other[colour]
    if mine <= 0:
        return False
    if angel_colours_left == 0:
        return mine >= best - 1
    return mine >= best + 1.5 and mine >= 4


def _estimate_for(state: DiaboloState, seat: int) -> Estimate:
    """``estimate`` from what ``seat`` knows in ``state`` (as ``easy`` sees it through the view)."""
    known = [sorted(state.known[s]) for s in range(state.players) if s != seat]
    hidden = sum(len(h) for s, h in enumerate(state.hands) if s != seat) - sum(map(len, known))
    return estimate(state.hands[seat], state.devil, state.angel, state.closed, known, state.removed, hidden,
                    hidden + len(state.pile))


def seen_estimate(state: DiaboloState, seat: int) -> Estimate:
    """``seat``'s estimate in a world it plays out, where the others' hands are dealt: their best
    holding of each colour as it is there."""
    est = _estimate_for(state, seat)
    best = [0.0] * 5
    for s, hand in enumerate(state.hands):
        if s != seat:
            sums = [0] * 5
            for c in hand:
                sums[ROW[c]] += VALUE[c]
            best = [max(b, x) for b, x in zip(best, sums, strict=True)]
    est.best_other = best
    return est


def paying_after(devil: list[tuple[str, ...]], angel: list[tuple[str, ...]], colour: int) -> int:
    """Colours scored after ``colour`` whose angel side is ahead (where a doubler could still pay)."""
    return sum(1 for r in range(colour + 1, 5)
               if sum(VALUE[c] for c in angel[r]) > sum(VALUE[c] for c in devil[r]))


def pick(est: Estimate, legal: list[Action], rng: random.Random, noise: float) -> Action:
    scored = [(move_worth(est, a) + rng.random() * noise, i) for i, a in enumerate(legal)]
    return legal[max(scored)[1]]


#: How often an easy player holds a card the table has not seen, by what it laid of the card's
#: colour this round (angel cards, devil cards, each counted up to two) and the card's value 1 to 5,
#: measured by bench/holding.py over 1,500 matches of easy players: easy lays the colours it leads
#: on the angel side and keeps their high cards, and sends to the devils the colours it holds little
#: of, so a devil card of a colour makes its 4s and 5s four to seven times rarer in that hand, an
#: angel card about four times likelier.
HELD: dict[tuple[int, int], tuple[float, ...]] = {
    (0, 0): (0.137, 0.121, 0.104, 0.087, 0.079),
    (0, 1): (0.148, 0.111, 0.058, 0.021, 0.012),
    (0, 2): (0.185, 0.120, 0.043, 0.015, 0.009),
    (1, 0): (0.166, 0.172, 0.226, 0.312, 0.368),
    (1, 1): (0.207, 0.151, 0.097, 0.029, 0.018),
    (1, 2): (0.230, 0.136, 0.053, 0.010, 0.015),
    (2, 0): (0.194, 0.208, 0.238, 0.309, 0.437),
    (2, 1): (0.233, 0.163, 0.060, 0.020, 0.027),
    (2, 2): (0.230, 0.136, 0.053, 0.010, 0.015),  # rare: as (1, 2)
}


@lru_cache(maxsize=256)
def holding_odds(laid: tuple[tuple[str, str], ...]) -> dict[str, float]:
    """Per card, the odds (``HELD`` as p / (1 - p)) that a seat which laid ``laid`` this round
    holds it: a hand's chance is the product of its cards' odds (read only: the dict is shared)."""
    angels, devils = [0] * 5, [0] * 5
    for side, card in laid:
        (angels if side == "angel" else devils)[ROW[card]] += 1
    out = {}
    for card in DECK:
        r = ROW[card]
        p = HELD[min(angels[r], 2), min(devils[r], 2)][VALUE[card] - 1]
        out[card] = p / (1.0 - p)
    return out


@dataclass(frozen=True, slots=True, eq=False)
class Placement:
    """A seat's placement and the table as it saw it then (the rows without that card and the ones
    laid after it), in the terms of ``estimate``: per colour the row balance, the points out of every
    hand, whether the row was closed and how many more it took per side; and the share of the unseen
    points an easy player gave each other hand. Compared by identity: ``placements`` makes each once
    per table, and ``choice_weights`` keeps what it read of each."""

    side: str
    card: str
    balance: tuple[int, ...]
    laid: tuple[int, ...]
    closed: tuple[bool, ...]
    room: tuple[tuple[bool, bool], ...]  # per colour: (devil side open, angel side open)
    share: float


def placements(state: DiaboloState, seat: int) -> tuple[Placement, ...]:
    """Each of ``seat``'s placements this round, in order, as the table saw it; none when someone
    discarded this round (a blocked seat's turn lays nothing, so the order of the placements is no
    longer the turn order). One table gives the same placements (``_placements`` keeps them), so
    what ``choice_weights`` read of them serves every redeal of one move."""
    if not state.laid[seat] or state.removed:
        return ()
    n = state.players
    newest = state.current if state.phase == DOUBLER else (state.current - 1) % n  # the latest mover
    drawn = state.phase != DOUBLER  # the seat on turn has drawn since
    hidden = sum(len(h) for s, h in enumerate(state.hands) if s != seat) - drawn
    cards = len(state.pile) + sum(map(len, state.hands)) + sum(map(len, state.laid))
    return _placements(tuple(map(tuple, state.laid)), seat, newest, hidden, cards - len(state.hands[seat]) - 1,
                       state.options.max_per_side, state.options.max_per_row)


@lru_cache(maxsize=64)
def _placements(laid: tuple[tuple[tuple[str, str], ...], ...], seat: int, newest: int, hidden: int, unseen: int,
                per_side: int, per_row: int) -> tuple[Placement, ...]:
    """``placements`` from the cards each seat laid this round, the latest mover, the cards hidden in
    the other hands and those the seat could not see before any card was laid."""
    n = len(laid)
    placed = sum(map(len, laid))
    turns = {card: placed - 1 - (newest - s) % n - (len(laid[s]) - 1 - i) * n
             for s in range(n) for i, (_, card) in enumerate(laid[s])}
    out = []
    for side, card in laid[seat]:
        devil: list[list[str]] = [[] for _ in range(5)]
        angel: list[list[str]] = [[] for _ in range(5)]
        for s in range(n):
            for other_side, c in laid[s]:
                if turns[c] < turns[card]:
                    (angel if other_side == "angel" else devil)[ROW[c]].append(c)
        left = unseen - sum(map(len, devil)) - sum(map(len, angel))
        out.append(Placement(
            side, card,
            tuple(sum(VALUE[c] for c in a) - sum(VALUE[c] for c in d) for d, a in zip(devil, angel, strict=True)),
            tuple(sum(VALUE[c] for c in d) + sum(VALUE[c] for c in a) for d, a in zip(devil, angel, strict=True)),
            tuple(len(d) + len(a) >= per_row for d, a in zip(devil, angel, strict=True)),
            tuple((len(d) < per_side, len(a) < per_side) for d, a in zip(devil, angel, strict=True)),
            hidden / left / (n - 1) if left else 0.0,
        ))
    return tuple(out)


@lru_cache(maxsize=8192)
def choice_weights(move: Placement, colour: int, mine: int, temperature: float) -> tuple[float, ...]:
    """e to the easy player's worth (``move_worth``, in ``temperature`` points) of laying a ``colour``
    card of each value 1 to 5 on the devil side (the first five) or the angel side (the last five) of
    the table ``move`` saw, holding ``mine`` points of the colour; 0 where that side was full or the
    row closed. ``placements`` makes each ``move`` once per table, so every redeal of a move reads
    these once."""
    if move.closed[colour]:
        return (0.0,) * 10
    best = (COLOUR_TOTAL - move.laid[colour] - mine) * move.share * 1.6
    before = colour_worth(move.balance[colour], mine, best)
    out: list[float] = []
    for sign, open_ in ((-1, move.room[colour][0]), (1, move.room[colour][1])):
        out.extend(math.exp((colour_worth(move.balance[colour] + sign * v, mine - v, best) - before) / temperature)
                   if open_ else 0.0 for v in range(1, 6))
    return tuple(out)


def choice_likelihood(move: Placement, hand: list[str], temperature: float) -> float:
    """How likely an easy player holding ``hand`` (its hand after the move) made ``move``: a softmax at
    ``temperature`` points of the easy player's worth (``move_worth``) over the placements it had."""
    held = [*hand, move.card]
    mine = [0] * 5
    for c in held:
        mine[ROW[c]] += VALUE[c]
    r = ROW[move.card]
    chosen = choice_weights(move, r, mine[r], temperature)[(move.side == "angel") * 5 + VALUE[move.card] - 1]
    if not chosen:  # a table the seat cannot have seen: the move tells nothing
        return 1.0
    weight = 0.0
    for c in held:
        weights = choice_weights(move, ROW[c], mine[ROW[c]], temperature)
        weight += weights[VALUE[c] - 1] + weights[VALUE[c] + 4]
    return chosen / weight


def placements_likelihood(seen: tuple[Placement, ...], laid: list[tuple[str, str]], hand: list[str],
                          temperature: float) -> float:
    """How likely an easy player holding ``hand`` now made each of its placements ``seen`` this round
    (``choice_likelihood`` of each). ``hand`` is in the order the seat drew its cards, the latest
    first: each turn drew one card, so before its last k placements the seat held its hand less the
    first k cards, plus those k placements' cards."""
    likely = 1.0
    last = len(seen) - 1
    for j, move in enumerate(seen):
        later = last - j
        likely *= choice_likelihood(move, hand[later:] + [c for _, c in laid[j + 1:]], temperature)
    return likely


class DiaboloBrain(Brain[Diabolo, DiaboloState]):
    least, per_arm, most = 300, 60, 1000
    cap = 200
    #: Rounds of turns a playout looks ahead before it judges the rows as they stand.
    horizon = 2
    #: Moves the search compares (the heuristic's favourites). The heuristic judges a card by its own
    #: colour only, so a move whose worth lies elsewhere (closing a row ends the round while the
    #: seat's colour pays) may rank fifth; five cost no more playouts than four (``least``).
    keep = 5
    #: Hands drawn for each other seat by ``HELD``, one kept by how likely its latest placement was.
    proposals = 8
    #: Points of move worth that make an easy player's choice e times likelier.
    temperature = 0.25
    #: In the match's last round only finishing first counts: a playout's lead is worth its tanh at this
    #: scale (points), so a seat far ahead gives up points for safety and one far behind plays for the
    #: swing that could still carry it past the leader, where a lead counted in full would not.
    final_lead = 10.0

    def easy(self, game: Diabolo, state: DiaboloState, seat: int, legal: list[Action],
             rng: random.Random) -> Action:
        view = game.view(state, seat)
        devil = [row.devil for row in view.rows]
        angel = [row.angel for row in view.rows]
        known = [list(view.shown[s]) for s in range(view.players) if s != seat]
        hidden_in_hands = sum(n for s, n in enumerate(view.hand_counts) if s != seat) - sum(map(len, known))
        est = estimate(list(view.hand), devil, angel, [row.closed for row in view.rows], known,
                       list(view.removed), hidden_in_hands, hidden_in_hands + view.deck)
        if view.deciding is not None:  # the view names the colour exactly while doublers are chosen
            colour = COLOURS.index(view.deciding)
            use = doubler(est, colour, paying_after(devil, angel, colour))
            return Action("doubler", view.deciding if use else NO)
        return pick(est, legal, rng, 0.01)

    def candidates(self, game: Diabolo, state: DiaboloState, seat: int, legal: list[Action]) -> list[Action]:
        """The doubler choice both ways; otherwise the ``keep`` moves the heuristic likes best, one per
        card kind (``same``)."""
        if state.phase == DOUBLER:
            return legal
        distinct = super().candidates(game, state, seat, legal)
        if len(distinct) <= self.keep:
            return distinct
        est = _estimate_for(state, seat)
        ranked = sorted(range(len(distinct)), key=lambda i: -move_worth(est, distinct[i]))
        return [distinct[i] for i in sorted(ranked[: self.keep])]

    def same(self, game: Diabolo, state: DiaboloState, seat: int, action: Action) -> object:
        """Two copies of a colour's value laid on the same side (or discarded) leave the same table."""
        if action.kind == "doubler":
            return action
        return action.kind, action.arg[:2]

    def determinize(self, game: Diabolo, state: DiaboloState, seat: int, rng: random.Random) -> DiaboloState:
        """A redeal whose other hands are drawn by what each seat laid this round (``holding_odds``),
        seat after seat from the cards the seat cannot see, the rest to the draw pile; the others'
        doubler choices not yet revealed are what their hands would choose. Uniform redeals ignore
        that a seat laying a colour on the devil side hardly ever keeps its high cards. Where the table
        shows how a seat saw the rows at its placements (``placements``), ``proposals`` hands are drawn
        by those odds and one kept with the chance an easy player holding it made every one of them
        (``placements_likelihood``, its cards in a random order of drawing): the odds only count a
        colour's cards, the choices also tell which cards it could have laid instead, and which
        colours it was building on which side all round, not only at its latest turn."""
        out = game.resample(state, seat, rng)
        others = [(seat + k) % state.players for k in range(1, state.players)]
        pool = sorted(out.pile + [c for s in others for c in out.hands[s] if c not in out.known[s]])
        for s in others:
            hidden = len(out.hands[s]) - sum(1 for c in out.hands[s] if c in out.known[s])
            odds = holding_odds(tuple(state.laid[s]))
            seen = placements(state, s) if self.proposals > 1 else ()
            if not seen:
                hand = weighted_subset(pool, [odds[c] for c in pool], hidden, rng)
            else:
                drawn = weighted_subsets(pool, [odds[c] for c in pool], hidden, self.proposals, rng)
                shown = [c for c in out.hands[s] if c in out.known[s]]
                likely = []
                for h in drawn:
                    held = shown + h
                    rng.shuffle(held)  # the order it drew them in, the latest first
                    likely.append(placements_likelihood(seen, state.laid[s], held, self.temperature))
                hand = rng.choices(drawn, likely)[0]
            taken = set(hand)
            pool = [c for c in pool if c not in taken]
            out.hands[s] = [c for c in out.hands[s] if c in out.known[s]] + hand
        rng.shuffle(pool)
        out.pile = pool
        if out.phase == DOUBLER:
            for s in others:
                if out.choices[s] is not None:
                    use = doubler(_estimate_for(out, s), out.colour, paying_after(out.devil, out.angel, out.colour))
                    out.choices[s] = USE if use else NO
        return out

    def policy(self, game: Diabolo, state: DiaboloState, seat: int, rng: random.Random) -> Action:
        est = _estimate_for(state, seat)
        if state.phase == DOUBLER:
            colour = state.colour
            use = doubler(est, colour, paying_after(state.devil, state.angel, colour))
            return Action("doubler", COLOURS[colour] if use else NO)
        return pick(est, game.legal_actions(state, seat), rng, 0.2)

    def playout_move(self, game: Diabolo, state: DiaboloState, actor: int, seat: int, rng: random.Random) -> Action:
        """The judged seat plays by the hands of the world it plays out (``seen_estimate``) and hardly
        by chance: its own later moves are searched, not the easy player's guesses; the others play
        ``policy``, the easy player's choice."""
        if actor != seat:
            return self.policy(game, state, actor, rng)
        est = seen_estimate(state, seat)
        if state.phase == DOUBLER:
            use = doubler(est, state.colour, paying_after(state.devil, state.angel, state.colour))
            return Action("doubler", COLOURS[state.colour] if use else NO)
        return pick(est, game.legal_actions(state, seat), rng, OWN_NOISE)

    def mark(self, game: Diabolo, state: DiaboloState) -> tuple[int, int]:
        return state.round_no, _placed(state)

    def done(self, game: Diabolo, mark: tuple[int, int], state: DiaboloState) -> bool:
        return state.round_no != mark[0] or (state.phase != DOUBLER
                                             and _placed(state) >= mark[1] + self.horizon * state.players)

    def value(self, game: Diabolo, mark: tuple[int, int], state: DiaboloState, seat: int) -> float:
        """The seat's match points against the best other seat's, the earlier rounds' included: the match
        is won against the leader, so a round's points taken from a seat far behind count for less. In
        the last round a lead counts as far as it decides who finishes first (``final_lead``)."""
        points = [float(t) for t in state.totals]
        if state.round_no == mark[0] and not game.is_over(state) and state.phase != DOUBLER:
            points = [p + q for p, q in zip(points, leaning_scores(state), strict=True)]
        lead = margin(points, seat)
        if mark[0] == state.options.round_count(state.players) - 1:
            return self.final_lead * math.tanh(lead / self.final_lead)
        return lead


def _placed(state: DiaboloState) -> int:
    return sum(map(len, state.devil)) + sum(map(len, state.angel)) + len(state.removed)


def leaning_scores(state: DiaboloState) -> list[float]:
    """What each seat may expect from the rows as they stand: a colour pays or costs its top
    holders, the more surely the further its balance leans (later cards may still tip it)."""
    out = [0.0] * state.players
    for r in range(5):
        balance = sum(VALUE[c] for c in state.angel[r]) - sum(VALUE[c] for c in state.devil[r])
        if not balance:
            continue
        tilt = (1.0 if balance > 0 else -1.0) if state.closed[r] else math.tanh(balance / 2.0)
        sums = [sum(VALUE[c] for c in hand if ROW[c] == r) for hand in state.hands]
        best = max(sums)
        if best:
            for s, n in enumerate(sums):
                if n == best:
                    out[s] += tilt * best
    return out


BRAIN = DiaboloBrain()
