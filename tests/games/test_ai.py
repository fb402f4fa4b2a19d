"""Computer players (games.computer) for every registered game: legal, deterministic, and deciding only
from what their seat may know; plus a few moves any decent player makes.

Positions come from seeded random play (a random move draws its kind first, so Mü auctions end
and tricks get played). The strong level is called on one position per game and player count, the
expert on one per game: their budgets are real, so the file stays within seconds.
"""

from __future__ import annotations

import random

import pytest

from games import BRAINS, REGISTRY
from games.base import Action, Game
from games.computer import LEVELS, choose


def random_move(game: Game, state, seat: int, rng: random.Random) -> Action:
    legal = game.legal_actions(state, seat)
    kind = rng.choice(sorted({a.kind for a in legal}))
    return rng.choice([a for a in legal if a.kind == kind])


def positions(game: Game, players: int, count: int, tag: str) -> list:
    """``count`` seeded positions where every seat to act has a choice, a few moves to a few hundred in."""
    rng = random.Random(f"ai-positions:{game.key}:{players}:{tag}")
    out = []
    while len(out) < count:
        state = game.setup(players, game.default_options(), f"{tag}-{len(out)}-{rng.random()}")
        for _ in range(rng.choice((0, 3, 10, 30, 80, 200))):
            if game.is_over(state):
                break
            seat = min(game.to_act(state))
            game.apply(state, seat, random_move(game, state, seat, rng))
        if not game.is_over(state) and all(len(game.legal_actions(state, s)) > 1 for s in game.to_act(state)):
            out.append(state)
    return out


def cases() -> list[tuple[str, int]]:
    return [(key, n) for key, game in REGISTRY.items() for n in range(game.min_players, game.max_players + 1)]


def seats(game: Game, state) -> list[int]:
    return sorted(game.to_act(state))


@pytest.mark.parametrize(("key", "players"), cases())
def test_resample_depends_only_on_what_the_seat_knows(key: str, players: int) -> None:
    """A redeal of a redeal is the redeal itself: the search's worlds never depend on hidden cards."""
    game = REGISTRY[key]
    for state in positions(game, players, 4, "resample"):
        for seat in range(players):
            other = game.resample(state, seat, random.Random(1))
            first, second = game.resample(state, seat, random.Random(2)), game.resample(other, seat, random.Random(2))
            for viewer in (None, *range(players)):
                assert game.view(first, viewer) == game.view(second, viewer)


@pytest.mark.parametrize(("key", "players"), cases())
def test_the_searchs_redeals_depend_only_on_what_the_seat_knows(key: str, players: int) -> None:
    """The brain's redeal (``Brain.determinize``, which may read the others' plays) from a redeal
    is the one from the real deal."""
    game, brain = REGISTRY[key], BRAINS[key]
    for state in positions(game, players, 4, "determinize"):
        for seat in range(players):
            other = game.resample(state, seat, random.Random(1))
            first = brain.determinize(game, state, seat, random.Random(2))
            second = brain.determinize(game, other, seat, random.Random(2))
            for viewer in (None, *range(players)):
                assert game.view(first, viewer) == game.view(second, viewer)
            assert brain.likelihood(game, first, seat) == brain.likelihood(game, second, seat)


@pytest.mark.parametrize(("key", "players"), cases())
def test_easy_moves_are_legal_and_repeatable(key: str, players: int) -> None:
    game = REGISTRY[key]
    for n, state in enumerate(positions(game, players, 8, "easy")):
        for seat in seats(game, state):
            action = choose(game, state, seat, "easy", random.Random(n))
            game.check(state, seat, action)
            assert choose(game, state, seat, "easy", random.Random(n)) == action


@pytest.mark.parametrize(("key", "players"), cases())
def test_strong_moves_are_legal_and_blind_to_hidden_cards(key: str, players: int) -> None:
    """The same move whatever the cards the seat cannot see: a redeal of them changes nothing."""
    game = REGISTRY[key]
    (state,) = positions(game, players, 1, "strong")
    seat = seats(game, state)[0]
    action = choose(game, state, seat, "strong", random.Random(7))
    game.check(state, seat, action)
    other = game.resample(state, seat, random.Random(99))
    assert choose(game, other, seat, "strong", random.Random(7)) == action


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_expert_moves_are_legal_and_blind_to_hidden_cards(key: str) -> None:
    """The expert searches longer from the same redeals: it, too, never reads a hidden card."""
    game = REGISTRY[key]
    (state,) = positions(game, game.min_players, 1, "strong")
    seat = seats(game, state)[0]
    action = choose(game, state, seat, "expert", random.Random(7))
    game.check(state, seat, action)
    other = game.resample(state, seat, random.Random(99))
    assert choose(game, other, seat, "expert", random.Random(7)) == action


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_easy_moves_are_blind_to_hidden_cards(key: str) -> None:
    game = REGISTRY[key]
    for players in (game.min_players, game.max_players):
        for n, state in enumerate(positions(game, players, 6, "blind")):
            for seat in seats(game, state):
                action = choose(game, state, seat, "easy", random.Random(n))
                for k in range(3):
                    other = game.resample(state, seat, random.Random(k))
                    assert choose(game, other, seat, "easy", random.Random(n)) == action


def test_levels_and_refusals() -> None:
    assert LEVELS == ("easy", "strong", "expert")
    game = REGISTRY["calcory"]
    state = game.setup(2, game.default_options(), "levels")
    seat = min(game.to_act(state))
    with pytest.raises(ValueError):
        choose(game, state, seat, "grandmaster", random.Random(0))
    with pytest.raises(ValueError):
        choose(game, state, 1 - seat, "easy", random.Random(0))



def count_playouts(monkeypatch) -> list[int]:
    """The playout actions of every playout the strong search runs from now on."""
    import games.computer.strong as strong

    spent: list[int] = []
    real = strong.playout

    def counted(*args, **kwargs):
        value, steps = real(*args, **kwargs)
        spent.append(steps)
        return value, steps

    monkeypatch.setattr(strong, "playout", counted)
    return spent


def test_a_strong_move_stops_when_its_playout_actions_are_spent(monkeypatch) -> None:
    """The action budget bounds a move's time: past it the search decides on what it has seen."""
    game, brain = REGISTRY["safaru"], BRAINS["safaru"]
    (state,) = positions(game, 2, 1, "budget")
    seat = seats(game, state)[0]
    spent = count_playouts(monkeypatch)
    choose(game, state, seat, "strong", random.Random(3))
    full = list(spent)
    assert len(full) > 10 and sum(full) < brain.steps
    spent.clear()
    monkeypatch.setattr(brain, "steps", sum(full) // 4)
    game.check(state, seat, choose(game, state, seat, "strong", random.Random(3)))
    assert sum(spent[:-1]) < brain.steps <= sum(spent)


@pytest.mark.parametrize("key", ["dacapo", "skippo"])
def test_a_strong_build_pile_move_stops_when_its_planned_positions_are_spent(key: str, monkeypatch) -> None:
    """Build-pile playouts plan every move: the positions planned bound a move. They are counted
    afresh for each move, so earlier moves never change the next one."""
    game, brain = REGISTRY[key], BRAINS[key]
    states = positions(game, 2, 4, "positions")
    spent = count_playouts(monkeypatch)
    free = [choose(game, s, seats(game, s)[0], "strong", random.Random(5)) for s in states]
    runs = len(spent)
    monkeypatch.setattr(brain, "positions", 1)  # spent by the first playout's first plan
    moves = [choose(game, s, seats(game, s)[0], "strong", random.Random(5)) for s in states]
    assert 1 <= len(spent) - runs <= len(states) < runs  # at most one playout a move
    again = [choose(game, s, seats(game, s)[0], "strong", random.Random(5)) for s in reversed(states)]
    assert again[::-1] == moves
    for state, move in zip(states, moves + free, strict=False):
        game.check(state, seats(game, state)[0], move)
