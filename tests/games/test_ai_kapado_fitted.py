"""Kapado's fitted value (bench/kapado_fit.py): the features of a seat's stacks after a placement, as
the fit records them and the fitted player weighs them."""

from __future__ import annotations

import random

import pytest

from bench.kapado_fit import FITTED, NAMES, Features, fitted_favourite
from games.kapado import GAME
from games.kapado.cards import COLOUR
from games.kapado.computer import Judgement, _table_of_view, doubles, fitting
from games.kapado.state import DEAD, LOCKED, OPEN, PLACE


def counted(tops: list[str | None], locks: list[int], banned: frozenset[int], unseen: int,
            regimes: list[tuple[float, frozenset[int]]], now: float) -> tuple[float, ...]:
    """The features counted from scratch on the stacks as they stand."""
    n = unseen.bit_count()
    open_tops = [t for t in tops if t is not None]
    double = 0.0
    for chance, bans in regimes:
        bits = 0
        for top in open_tops:
            bits |= doubles(top, bans) & unseen
        double += chance * bits.bit_count() / n
    fits = 0
    for top in open_tops:
        fits |= fitting(top, banned) & unseen
    each = sum((doubles(top, banned) & unseen).bit_count() for top in open_tops) / n
    return (now, double, fits.bit_count() / n, each, float(locks.count(OPEN)), float(locks.count(LOCKED)),
            float(len({COLOUR[t] for t in open_tops})))


def placements(walk: str, tag: str, games: int, most: int):
    """Games ``tag``-0, -1, ... walked a random number of random moves (up to ``most``, drawn from the
    seed ``walk``) into a placement: the game's number, its state and the seat to place, for each
    game that stopped at one."""
    rng = random.Random(walk)
    for n in range(games):
        state = GAME.setup(2, GAME.default_options(), f"{tag}-{n}")
        for _ in range(rng.randrange(0, most)):
            if GAME.is_over(state):
                break
            seat = min(GAME.to_act(state))
            GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if not GAME.is_over(state) and state.phase == PLACE:
            yield n, state, state.current


def test_features_after_a_placement_are_those_of_the_stacks_it_leaves():
    """Features.after counts the stacks a placement leaves from bit sets kept beside each stack; over
    placements of seeded games (up, down, unlocks opened and failed) it gives what counting those
    stacks from scratch gives."""
    seen: set[tuple[str, int]] = set()
    for _, state, seat in placements("kapado-features", "features", 60, 80):
        table = _table_of_view(GAME.view(state, seat))
        tops, locks = table.tops[seat], table.locks[seat]
        features = Features(tops, locks, table.banned, table.unseen, table.regimes)
        card = state.held
        for action in GAME.legal_actions(state, seat):
            i = table.index(action)
            for odds, now, (after, shut, _) in table.outcomes((tops, locks, table.keys[seat]), card, action.kind, i):
                if not odds:
                    continue
                got = features.after(after[i], i, shut[i], now)
                assert len(got) == len(NAMES)
                want = counted(after, shut, table.banned, table.unseen, table.regimes, now)
                assert got == pytest.approx(want), (action, after, shut)
                seen.add((action.kind, shut[i]))
    assert {("up", OPEN), ("down", LOCKED), ("unlock", OPEN), ("unlock", DEAD)} <= seen, seen



def test_the_fitted_player_reads_only_the_seats_view():
    """The fitted value weighs unseen cards only: a redeal of the pile, the face-down cards and the
    hidden drawn card leaves its placement unchanged."""
    favourite = fitted_favourite(FITTED, Judgement(ending=0.0))
    checked = 0
    for n, state, seat in placements("kapado-fitted-view", "fitted", 30, 100):
        legal = GAME.legal_actions(state, seat)
        chosen = favourite(state, seat, legal, random.Random(n))
        for k in range(2):
            assert favourite(GAME.resample(state, seat, random.Random(k)), seat, legal, random.Random(n)) == chosen
        checked += 1
    assert checked >= 8, checked
