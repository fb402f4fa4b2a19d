"""The generic invariants every registered game must keep, driven by seeded random playouts.

``check_playouts`` is called by ``test_invariants.py`` for every game in the registry and by each
game's own tests for its player counts; the benchmark runs the same check as a long soak.
"""

from __future__ import annotations

import random
from collections import Counter

from games.base import Action, Game, IllegalAction, replay


def _views(game: Game, state, players: int) -> list:
    return [game.view(state, None)] + [game.view(state, s) for s in range(players)]


def check_playout(game: Game, players: int, seed: str, *, options=None, cap: int | None = None,
                  resample_every: int = 7) -> None:
    """One random playout with every invariant checked after every action."""
    options = options if options is not None else game.default_options()
    rng = random.Random(f"playout:{seed}")
    state = game.setup(players, options, seed)
    deck = Counter(game.cards(state))
    limit = game.playout_cap if cap is None else cap
    log: list[tuple[int, Action]] = []
    for step in range(limit):
        if game.is_over(state):
            break
        actors = game.to_act(state)
        assert actors, f"{game.key}: nobody can act at step {step} but the game is not over"
        seat = rng.choice(sorted(actors))
        legal = game.legal_actions(state, seat)
        assert legal, f"{game.key}: seat {seat} must act at step {step} but has no legal action"
        assert len({a.key for a in legal}) == len(legal), f"{game.key}: duplicate action keys"
        for a in legal:
            assert Action.parse(a.key) == a and len(a.key) <= 60, f"{game.key}: bad key {a.key!r}"
        for other in set(range(players)) - actors:
            try:
                game.check(state, other, legal[0])
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{game.key}: seat {other} may act out of turn")
        action = rng.choice(legal)
        game.apply(state, seat, action)
        log.append((seat, action))
        assert Counter(game.cards(state)) == deck, f"{game.key}: cards created or lost at step {step}"
        if step % resample_every == 0 and not game.is_over(state):
            _check_resample(game, state, players, rng)
    if game.is_over(state):
        result = game.result(state)
        assert len(result.scores) == players
        assert result.winners <= set(range(players))
    rebuilt = replay(game, players, options, seed, log).state
    assert _views(game, rebuilt, players) == _views(game, state, players), f"{game.key}: replay differs"


def _check_resample(game: Game, state, players: int, rng: random.Random) -> None:
    """Redealing what ``seat`` cannot see changes nothing ``seat`` or the table can see."""
    for seat in range(players):
        snapshot = game.clone(state)
        other = game.resample(state, seat, random.Random(rng.random()))
        assert _views(game, state, players) == _views(game, snapshot, players), "resample changed its input"
        assert game.view(other, seat) == game.view(state, seat), f"{game.key}: resample changed seat {seat}'s view"
        assert game.view(other, None) == game.view(state, None), f"{game.key}: resample changed the table"
        assert Counter(game.cards(other)) == Counter(game.cards(state)), f"{game.key}: resample lost cards"


def check_playouts(game: Game, players: int, games: int, *, options=None, cap: int | None = None) -> None:
    for n in range(games):
        check_playout(game, players, f"{game.key}-{players}-{n}", options=options, cap=cap)
