"""Safarü with many free cards: legal moves and the hand, the work one click costs (issue 14).

Nobody catching for a while leaves many cards free, and every extra free card multiplies the
ways to catch. A sample is one seeded position: ``legal_actions`` for the seat to play plus the
slowest of its hand renderings (the plain hand, and the hand with each of its cards chosen).
Half the positions draw the free cards from the whole deck, half from the digits 0 to 4 only,
where small sums make the most catches.
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import dataclass

from bot.play.seats import human
from bot.play.sessions import Session, Status
from bot.tables.safaru.presenter import PRESENTER
from games.deck import DECK, digit, sort_cards
from games.safaru import GAME, Options

HAND = 4
TARGET_MS = 50.0


@dataclass(frozen=True)
class FreeCards:
    free: int
    samples: list[float]  # seconds per position


def position(free: int, n: int) -> Session:
    """Seat 0 to play four cards against ``free`` free cards; everything else in the deck."""
    rng = random.Random(f"bench-safaru:{free}:{n}")
    pool = [c for c in DECK if n % 2 == 0 or digit(c) <= 4]
    table = rng.sample(pool, free)
    hand = rng.sample([c for c in DECK if c not in table], HAND)
    state = GAME.setup(2, Options(), f"bench-safaru-{free}-{n}")
    placed = set(table) | set(hand)
    rest = [c for c in DECK if c not in placed]
    state.hands = [tuple(sort_cards(hand)), tuple(rest[:HAND])]
    state.deck, state.table, state.turn = rest[HAND:], tuple(table), 0
    state.piles = [(), ()]
    seats = (human(1, "P0"), human(2, "P1"))
    return Session(1, 1, 1, GAME, 1, "en", Status.PLAYING, state.options, seats, 0.0, seed="bench",
                   state=state, counters=[0, 0], started_at=0.0)


def one_click(session: Session) -> float:
    """Legal moves plus the slowest hand rendering of the seat to play, in seconds."""
    start = time.perf_counter()
    GAME.legal_actions(session.state, 0)
    legal = time.perf_counter() - start
    slowest = 0.0
    for ui in ("", *session.state.hands[0]):
        start = time.perf_counter()
        PRESENTER.hand(session, 0, "en", ui, None)
        slowest = max(slowest, time.perf_counter() - start)
    return legal + slowest


def measure(positions: int) -> list[FreeCards]:
    one_click(position(12, -1))  # warm up: the first hand loads the text catalogues
    return [FreeCards(free, [_alone(position(free, n)) for n in range(positions)]) for free in (16, 20)]


def _alone(session: Session) -> float:
    """``one_click`` without a full collection of this process's heap inside it: the benchmark's
    earlier phases leave a large heap whose collection (50-80 ms, seen in full runs) would be timed
    as the work of one Safarü click. The click's own work and allocations are timed as before."""
    gc.collect()
    gc.disable()
    try:
        return one_click(session)
    finally:
        gc.enable()
