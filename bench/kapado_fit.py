"""``python -m bench.kapado_fit [--deals N] [--start K] [--test M] [--lam L ...] | --play N``: Kapado's stacks valued by a fit.

The strong Kapado player weighs its tops by hand-tuned measures that sit on a plateau
(docs/performance.md). This script fits a value instead: it plays the strong player against easy
on seeded deals of its own (``kapado-fit:N``, never ``bench.kapado``'s or ``bench.computer``'s; the
end search off), records at each of the strong seat's placements the features of the stacks it
leaves (``Features``, read from the seat's view) and the cards the seat went on to own (to the end
of the game, and over ``--ahead`` turns), and fits the cards owned to the features by least
squares, interpolated between bands of the pile's size; with ``--lam`` also on TD(λ) targets (the
cards owned by the seat's next placement plus the fitted value there). Deals from ``--start`` are
fitted, the next ``--test`` deals judge the fit (its R² on deals it was not fitted on).

``--play N`` plays ``bench.kapado``'s deals with the strong seat laying by ``FITTED`` (the value
in the one-draw look-ahead, in place of the rule's measures) and by the rule, paired.
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench.kapado import Favourite, compare, play
from games.base import Action
from games.kapado import BRAIN, GAME
from games.kapado.cards import COLOUR
from games.kapado.computer import (
    BIT,
    EVERY,
    Judgement,
    KapadoBrain,
    Stacks,
    Table,
    _table_of_view,
    doubles,
    fitting,
)
from games.kapado.state import DEAD, EXTRA, LOCKED, OPEN, PLACE, KapadoState, card_counts

#: Cards of the pile per band: the value is fitted band by band (the tops' worth is drawn on the pile).
BAND = 8
#: The features' names, in the order ``Features.after`` gives them.
NAMES = ("now", "double", "fits", "each", "open", "locked", "colours")


def _besides(bits: list[int]) -> list[int]:
    """Per index, the OR of every other index's bits."""
    before, after = [0], [0]
    for b in bits[:-1]:
        before.append(before[-1] | b)
    for b in bits[:0:-1]:
        after.append(after[-1] | b)
    return [x | y for x, y in zip(before, after[::-1], strict=True)]


class Features:
    """A seat's stacks (``tops``: the open tops by stack, None when not open; ``locks``: OPEN, LOCKED
    or DEAD) against the ``unseen`` number cards, so that the stacks a placement leaves are described
    in a few bit operations (the strong player's cached ``doubles`` and ``fitting``); ``regimes`` are
    the bans the tops are weighed under, with their chances (``Table.regimes``)."""

    def __init__(self, tops: list[str | None], locks: list[int], banned: frozenset[int], unseen: int,
                 regimes: list[tuple[float, frozenset[int]]]) -> None:
        self.banned, self.unseen = banned, unseen
        #: Each card's bit sets as a top (``news``), counted once.
        self.cards: dict[str, tuple[tuple[int, ...], int, int]] = {}
        self.n = unseen.bit_count() or 1
        self.regimes = [(chance, bans, _besides([self._dbl(t, bans) for t in tops])) for chance, bans in regimes]
        fits = [self._fit(t) for t in tops]
        self.fits = _besides(fits)
        self.own = [self._dbl(t, banned).bit_count() for t in tops]
        self.each = sum(self.own)
        self.colours: dict[str, int] = {}
        for top in tops:
            if top is not None:
                self.colours[COLOUR[top]] = self.colours.get(COLOUR[top], 0) + 1
        self.tops, self.locks = tops, locks
        self.open = sum(1 for lock in locks if lock == OPEN)
        self.locked = sum(1 for lock in locks if lock == LOCKED)

    def _dbl(self, top: str | None, bans: frozenset[int]) -> int:
        return doubles(top, bans) & self.unseen if top is not None else 0

    def _fit(self, top: str | None) -> int:
        return fitting(top, self.banned) & self.unseen if top is not None else 0

    def news(self, card: str) -> tuple[tuple[int, ...], int, int]:
        """``card`` as a top: the unseen cards it takes doubly under each regime, those it takes at
        all, and how many it takes doubly under the bans in force."""
        known = self.cards.get(card)
        if known is None:
            known = self.cards[card] = (tuple(self._dbl(card, bans) for _, bans, _ in self.regimes),
                                        self._fit(card), self._dbl(card, self.banned).bit_count())
        return known

    def after(self, card: str | None, i: int, lock: int, now: float) -> tuple[float, ...]:
        """The features of the stacks once stack ``i`` has ``card`` as its open top (None: no open top)
        and the lock ``lock``, ``now`` the extra draws the placement earned."""
        n = self.n
        double = 0.0
        if card is None:
            for chance, _, others in self.regimes:
                double += chance * others[i].bit_count()
            fits, each = self.fits[i].bit_count(), self.each - self.own[i]
        else:
            bits, fit, own = self.news(card)
            for (chance, _, others), takes in zip(self.regimes, bits, strict=True):
                double += chance * (others[i] | takes).bit_count()
            fits, each = (self.fits[i] | fit).bit_count(), self.each - self.own[i] + own
        was = self.locks[i]
        opened = self.open - (was == OPEN) + (lock == OPEN)
        locked = self.locked - (was == LOCKED) + (lock == LOCKED)
        colours = len(self.colours)
        old, new = self.tops[i], card
        if old is not None and self.colours[COLOUR[old]] == 1 and (new is None or COLOUR[new] != COLOUR[old]):
            colours -= 1
        if new is not None and COLOUR[new] not in self.colours:
            colours += 1
        return (now, double / n, fits / n, each / n, float(opened), float(locked), float(colours))


#: Per band of the pile (``BAND`` cards), the cards the seat goes on to own as an intercept plus a
#: coefficient per feature (``NAMES``): the TD(0.5) fit of ``--deals 3000 --test 1000 --lam 0.5``
#: (deals 0-2999 of this script's seeds), which ``--play`` lays by.
FITTED: tuple[tuple[float, ...], ...] = (
    (0.158, 1.096, 0.553, 0.886, 0.013, -0.128, -0.044, 0.123),
    (4.631, 1.199, 4.233, -0.969, -0.997, 0.033, -0.113, -0.004),
    (6.910, 1.418, 4.456, -1.017, -0.397, 0.176, -0.198, 0.046),
    (6.906, 1.371, 4.663, 2.095, -0.279, 0.251, 0.126, 0.086),
    (11.066, 1.435, 4.256, 1.255, 0.432, 0.255, 0.507, 0.171),
    (16.650, 1.400, 4.658, -3.678, 0.472, 0.825, 0.614, 0.270),
    (18.196, 1.345, 4.522, -1.001, 0.820, 0.778, -0.042, 0.266),
    (17.845, 1.311, 4.781, 1.644, 0.494, 1.088, -0.184, 0.402),
    (22.517, 1.270, 5.000, -2.111, 0.316, 1.953, 1.405, 0.150),
    (18.682, 1.306, 4.546, 4.562, 0.339, 2.465, 0.623, -0.067),
    (26.287, 1.337, 3.669, -1.496, 1.080, 2.821, 0.436, 0.190),
    (23.240, 1.453, 3.944, 0.764, 1.109, 3.807, 1.462, 0.198),
    (16.384, 1.387, 3.652, 4.506, 1.693, 5.333, 2.238, 0.144),
)


def bands(deck: int, count: int) -> tuple[tuple[int, float], tuple[int, float]]:
    """The two bands (of ``count``) around a pile of ``deck`` cards with their shares: the value is
    interpolated between the bands' middles, so ``design`` fits it as ``weights`` reads it."""
    at = deck / BAND - 0.5
    low = max(0, min(int(at), count - 1))
    high = min(low + 1, count - 1)
    share = min(1.0, max(0.0, at - low))
    return (low, 1.0 - share), (high, share)


def weights(values: tuple[tuple[float, ...], ...], deck: int) -> tuple[float, ...]:
    """The value's intercept and coefficients over a pile of ``deck`` cards."""
    (low, a), (high, b) = bands(deck, len(values))
    return tuple(a * x + b * y for x, y in zip(values[low], values[high], strict=True))


def value(w: tuple[float, ...], x: tuple[float, ...]) -> float:
    """The value of stacks with the features ``x`` under the weights ``w`` (``weights``)."""
    return w[0] + sum(c * f for c, f in zip(w[1:], x, strict=True))


def laid(table: Table, values: tuple[tuple[float, ...], ...], stacks: Stacks, card: str, kind: str,
         i: int) -> float:
    """``Table.laid`` with the fitted value in place of the rule's measures: the extra draw now, then
    over the unseen cards the mean of the best placement each allows, weighed by the value of the
    stacks it leaves (the pile a turn of each seat shorter)."""
    return sum(odds * (now + table.judgement.ahead * next_draw(table, values, *after))
               for odds, now, after in table.outcomes(stacks, card, kind, i))


def next_draw(table: Table, values: tuple[tuple[float, ...], ...], tops: list[str | None], locks: list[int],
              keys: list[int]) -> float:
    """``Table.next_draw`` weighed by the fitted value."""
    if not table.deck or not table.numbers:
        return 0.0
    after = Features(tops, locks, table.banned, table.unseen, table.regimes).after
    w = weights(values, max(0, table.deck - table.players))
    per, banned = len(tops), table.banned
    doubled = [doubles(top, banned) if top is not None else 0 for top in tops]
    takes = [(fitting(top, banned) if top is not None else EVERY) if locks[i] == OPEN else 0
             for i, top in enumerate(tops)]
    opened = [i for i in range(per) if locks[i] == OPEN]
    shut = [i for i in range(per) if locks[i] == LOCKED]
    alive = [i for i in range(per) if locks[i] != DEAD] or list(range(per))
    total = 0.0
    for card in table.numbers:
        bit = BIT[card]
        ups = [value(w, after(card, i, OPEN, 1.0 if doubled[i] & bit else 0.0)) for i in opened if takes[i] & bit]
        scores = ups[:]
        for i in shut:
            odds = (doubles(card, banned) & keys[i]).bit_count() / (keys[i].bit_count() or 1)
            scores.append(odds * value(w, after(card, i, OPEN, 1.0)) + (1.0 - odds) * value(w, after(None, i, DEAD, 0.0)))
        if not ups:
            scores += [value(w, after(None, i, DEAD if locks[i] == DEAD else LOCKED, 0.0)) for i in alive]
        total += max(scores)
    return total / len(table.numbers)


def fitted_favourite(values: tuple[tuple[float, ...], ...], judgement: Judgement) -> Favourite:
    """The strong player with its placements weighed by ``values`` (its takes and extra draws as ever)."""
    brain = KapadoBrain()
    brain.judgement = judgement

    def favourite(state: KapadoState, seat: int, legal: list[Action], rng: random.Random) -> Action:
        if state.phase != PLACE:
            return brain.default(GAME, state, seat, legal, rng)
        view = GAME.view(state, seat)
        table = _table_of_view(view, judgement)
        stacks = (table.tops[seat], table.locks[seat], table.keys[seat])
        return max(legal, key=lambda a: laid(table, values, stacks, view.held, a.kind, table.index(a)))
    return favourite


#: A row: the pile's size, the features, the cards owned to the end and over the turns ahead.
Row = tuple[int, tuple[float, ...], int, int]


def record(number: int, judgement: Judgement, ahead: int) -> list[Row]:
    """Deal ``number``, the strong seat against easy: one row per strong placement."""
    seed = f"kapado-fit:{number}"
    brain = KapadoBrain()
    brain.judgement = judgement
    state = GAME.setup(2, GAME.default_options(), seed)
    me = number % 2
    per = state.per_seat
    rngs = [random.Random(f"{seed}:{s}") for s in range(2)]
    ends: list[int] = []
    placed: list[tuple[int, int, tuple[float, ...], int]] = []
    while not GAME.is_over(state):
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        if seat != me:
            action = legal[0] if len(legal) == 1 else BRAIN.easy(GAME, state, seat, legal, rngs[seat])
            GAME.apply(state, seat, action)
            continue
        action = legal[0] if len(legal) == 1 else brain.default(GAME, state, seat, legal, rngs[seat])
        features = None
        if state.phase == PLACE:
            view = GAME.view(state, me)
            table = _table_of_view(view, judgement)
            features = (view.deck, Features(table.tops[me], table.locks[me], table.banned, table.unseen,
                                            table.regimes), view.held, table.index(action))
        GAME.apply(state, seat, action)
        if features is not None:
            deck, stacks, card, i = features
            lock = state.locks[me * per + i]
            now = 1.0 if state.phase == EXTRA else 0.0
            x = stacks.after(card if lock == OPEN else None, i, lock, now)
            placed.append((len(ends), deck, x, card_counts(state)[me]))
        if GAME.is_over(state) or state.current != me:
            ends.append(card_counts(state)[me])
    final = state.totals[me]
    return [(deck, x, final - owned, (ends[t + ahead] if t + ahead < len(ends) else final) - owned)
            for t, deck, x, owned in placed]


def design(rows: list[Row], count: int) -> np.ndarray:
    """Each row's intercept and features, split between the two bands of the pile around its size
    (``bands``, of ``count``)."""
    width = 1 + len(NAMES)
    out = np.zeros((len(rows), count * width))
    for r, (deck, x, *_) in enumerate(rows):
        for band, weight in bands(deck, count):
            out[r, band * width:(band + 1) * width] += weight * np.array((1.0, *x))
    return out


def returns(rows: list[Row], values: np.ndarray, lam: float) -> np.ndarray:
    """TD(λ) targets: per row, the cards owned by the next placement of the game plus, weighed by
    1 - λ, the value there and, by λ, that row's own target (the last row of a game: what it owned on)."""
    out = np.zeros(len(rows))
    for r in range(len(rows) - 1, -1, -1):
        last = r + 1 == len(rows) or rows[r + 1][0] > rows[r][0]
        if last:
            out[r] = rows[r][2]
        else:
            gained = rows[r][2] - rows[r + 1][2]
            out[r] = gained + (1.0 - lam) * values[r + 1] + lam * out[r + 1]
    return out


def fit(train: list[Row], test: list[Row], target: int, lam: float | None = None) -> list[list[float]]:
    """Least squares of the target (2: the cards owned to the end, 3: over the turns ahead; with ``lam``
    the TD(λ) targets of the cards owned to the end, swept until they settle) on the interpolated
    bands; prints the fit's R² against the target on the test deals, per band and in all."""
    count = max(r[0] for r in train) // BAND + 1
    x = design(train, count)
    y = np.array([r[target] for r in train], dtype=float)
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    if lam is not None:
        for _ in range(8):
            beta, *_ = np.linalg.lstsq(x, returns(train, x @ beta, lam), rcond=None)
    xt = design(test, count)
    yt = np.array([r[target] for r in test], dtype=float)
    guess = xt @ beta
    bands = np.array([r[0] // BAND for r in test])
    width = 1 + len(NAMES)
    coefficients = [[float(b) for b in beta[k * width:(k + 1) * width]] for k in range(count)]
    for k, cs in enumerate(coefficients):
        held = bands == k
        r2 = 1.0 - float(np.sum((yt[held] - guess[held]) ** 2)) / float(np.sum((yt[held] - yt[held].mean()) ** 2))
        print(f"  pile {k * BAND:3d}+: {int(held.sum()):6d} test rows, R² {r2:+.3f}  "
              + " ".join(f"{n}={b:+.2f}" for n, b in zip(("1", *NAMES), cs, strict=True)), flush=True)
    r2 = 1.0 - float(np.sum((yt - guess) ** 2)) / float(np.sum((yt - yt.mean()) ** 2))
    print(f"  all: R² {r2:+.4f}")
    return coefficients


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.kapado_fit", description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals fitted on")
    parser.add_argument("--start", type=int, default=0, help="the first deal's number")
    parser.add_argument("--test", type=int, default=500, help="deals after them the fit is judged on")
    parser.add_argument("--ahead", type=int, default=3, help="turns after this one the short target counts")
    parser.add_argument("--lam", type=float, nargs="*", default=[], help="TD(λ) fits besides")
    parser.add_argument("--out", type=Path, help="a JSON file the coefficients are written to, by target")
    parser.add_argument("--play", type=int, default=0,
                        help="instead: this many of bench.kapado's deals from --start, the strong seat laying by "
                             "FITTED against the rule (the end search off in both)")
    parser.add_argument("--rows", type=Path, help="a file the recorded rows are kept in and read from")
    args = parser.parse_args(argv)
    start = time.process_time()
    if args.play:
        judgement = replace(BRAIN.judgement, ending=0.0)
        numbers = range(args.start, args.start + args.play)
        base = [play(judgement, n) for n in numbers]
        print(f"the rule, deals {args.start}-{numbers[-1]}: {compare(base, base)}", flush=True)
        favourite = fitted_favourite(FITTED, judgement)
        print(f"fitted: {compare([play(judgement, n, favourite) for n in numbers], base)} "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)
        return 0
    end = args.start + args.deals
    if args.rows and args.rows.exists():
        train, test = pickle.loads(args.rows.read_bytes())
    else:
        judgement = replace(BRAIN.judgement, ending=0.0)
        train = [r for n in range(args.start, end) for r in record(n, judgement, args.ahead)]
        test = [r for n in range(end, end + args.test) for r in record(n, judgement, args.ahead)]
        if args.rows:
            args.rows.write_bytes(pickle.dumps((train, test)))
    print(f"{len(train)} rows from deals {args.start}-{end - 1}, {len(test)} test rows from {end}-"
          f"{end + args.test - 1} ({time.process_time() - start:.0f} s CPU)", flush=True)
    fits: dict[str, list[list[float]]] = {}
    for target, lam, name in ((2, None, "cards owned to the end of the game"),
                              (3, None, f"cards owned over {args.ahead} turns more"),
                              *((2, lam, f"TD({lam}) of the cards owned to the end") for lam in args.lam)):
        print(f"{name}:")
        coefficients = fit(train, test, target, lam)
        fits[name] = coefficients
        print("  " + repr({b: tuple(round(c, 3) for c in cs) for b, cs in enumerate(coefficients)}), flush=True)
    if args.out:
        args.out.write_text(json.dumps(fits, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
