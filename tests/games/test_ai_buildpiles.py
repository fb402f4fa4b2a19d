"""Computer players of the build-pile games (Da Capo!, Skippo): legal, deterministic, blind to
hidden cards, and sensible where the right move is plain."""

from __future__ import annotations

import random

import pytest

from games import BRAINS
from games.buildpiles import rig
from games.computer import choose
from games.dacapo import GAME as DACAPO
from games.skippo import GAME as SKIPPO

GAMES = {"dacapo": DACAPO, "skippo": SKIPPO}


def positions(game, players: int, count: int, seed: str):
    """Positions reached by a mix of easy and random play (the seat to act has a choice)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.setup(players, game.default_options(), f"{seed}:{len(out)}")
        for _ in range(rng.randrange(0, 150)):
            if state.over:
                break
            seat = state.current
            legal = game.legal_actions(state, seat)
            move = choose(game, state, seat, "easy", rng) if rng.random() < 0.5 else rng.choice(legal)
            game.apply(state, seat, move)
        if not state.over and len(game.legal_actions(state, state.current)) > 1:
            out.append(state)
    return out


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_choice_is_legal(key, players):
    game = GAMES[key]
    for i, state in enumerate(positions(game, players, 6, f"legal:{key}:{players}")):
        seat = state.current
        legal = game.legal_actions(state, seat)
        assert choose(game, state, seat, "easy", random.Random(i)) in legal
        if i == 0:
            assert choose(game, state, seat, "strong", random.Random(i)) in legal


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_plan_move_names_a_legal_action(key):
    """The plan's moves (values only) always translate back into the engine's actions."""
    game, brain = GAMES[key], BRAINS[key]
    model = brain.model
    for players in (2, 4, 6):
        for state in positions(game, players, 6, f"plan:{key}:{players}"):
            seat = state.current
            legal = game.legal_actions(state, seat)
            sight = brain.sight(game, state, seat)
            out, turn = model.read(sight)
            for _, move in model.ranked(out, turn):
                if move[0] != "stop":
                    assert model.action(move, sight, legal) is not None, move


@pytest.mark.parametrize("key", sorted(GAMES))
@pytest.mark.parametrize(("level", "counts", "redeals"), [("easy", (2, 3, 5), 2), ("strong", (2,), 1)])
def test_equal_rng_equal_move_and_blind_to_hidden_cards(key, level, counts, redeals):
    game = GAMES[key]
    for players in counts:
        for i, state in enumerate(positions(game, players, 2, f"blind:{key}:{players}")):
            seat = state.current
            first = choose(game, state, seat, level, random.Random(i))
            assert choose(game, state, seat, level, random.Random(i)) == first
            for k in range(redeals):
                other = game.resample(state, seat, random.Random(100 + k))
                assert choose(game, other, seat, level, random.Random(i)) == first


def test_resample_keeps_what_the_seat_sees():
    """The check above is only worth something if the redeal really changes hidden cards."""
    state = positions(DACAPO, 3, 1, "redeal")[0]
    seat = state.current
    other = DACAPO.resample(state, seat, random.Random(5))
    assert DACAPO.view(other, seat) == DACAPO.view(state, seat)
    assert other.draw != state.draw or other.seats[(seat + 1) % 3].hand != state.seats[(seat + 1) % 3].hand


# -- plain right moves ---------------------------------------------------------------------------
def test_dacapo_easy_plays_its_pile_top_when_it_fits():
    state = rig(DACAPO, piles={0: ["?", "?", "5"], 1: ["?", "?", "9"]}, build=[4, 2],
                hands={0: ["9", "9", "8", "7"], 1: ["1", "1", "1", "1"]})
    top = state.seats[0].pile[-1]
    assert choose(DACAPO, state, 0, "easy", random.Random(0)).key == f"play:{top}@pile>b1"


def test_skippo_easy_plays_its_stock_top_when_it_fits():
    state = rig(SKIPPO, piles={0: ["?", "?", "5"], 1: ["?", "?", "9"]}, build=[4, 2, 7, 9],
                hands={0: ["K", "Q", "J", "10", "9"], 1: ["3", "3", "3", "3", "3"]})
    top = state.seats[0].pile[-1]
    assert choose(SKIPPO, state, 0, "easy", random.Random(0)).key == f"play:{top}@stock>b1"


def test_dacapo_easy_reaches_its_pile_top_through_its_hand():
    state = rig(DACAPO, piles={0: ["?", "?", "7"], 1: ["?", "?", "9"]}, build=[4],
                hands={0: ["5", "6", "9", "10"], 1: ["1", "1", "1", "1"]})
    five = next(c for c in state.seats[0].hand if DACAPO.face(c) == "5")
    assert choose(DACAPO, state, 0, "easy", random.Random(0)).key == f"play:{five}@hand>b1"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_strong_empties_its_pile_and_wins(key):
    """One card left (a 6) and a 4 on a build pile: play the 5 from the hand, then the 6."""
    game = GAMES[key]
    hand = ["5", "9", "9", "10"] + (["J"] if key == "skippo" else [])
    state = rig(game, piles={0: ["6"], 1: ["?", "?", "?", "7"]}, build=[4], hands={0: hand})
    for _ in range(2):
        game.apply(state, 0, choose(game, state, 0, "strong", random.Random(1)))
    assert state.winners[:1] == (0,)


def test_dacapo_never_plays_an_opponents_last_card():
    """Emptying another player's pile makes that player win."""
    state = rig(DACAPO, piles={0: ["?", "?", "9"], 1: ["2"]}, build=[1],
                hands={0: ["6", "6", "7", "8"]})
    for level in ("easy", "strong"):
        assert "pile:seat1" not in choose(DACAPO, state, 0, level, random.Random(3)).arg


def test_skippo_strong_plays_its_stock_top_through_a_joker_run():
    """No 4 in hand for the 5 on the stock: the joker is worth spending on it. A run that ends on
    the stock top is never weighed against a discard by a few noisy playouts."""
    state = rig(SKIPPO, piles={0: ["?", "?", "5"], 1: ["?", "?", "Q"]}, build=[3, 9],
                hands={0: ["X", "K", "Q", "J", "9"], 1: ["3", "3", "3", "3", "3"]})
    joker = next(c for c in state.seats[0].hand if SKIPPO.face(c) == "X")
    top = state.seats[0].pile[-1]
    for seed in range(3):
        assert choose(SKIPPO, state, 0, "strong", random.Random(seed)).key == f"run:{joker}+{top}>b1"


def test_skippo_strong_plays_a_helper_card_before_the_same_hand_card():
    """A 7 on the 6 reaches the stock's 8 from the hand or from a helper pile: the helper card
    would cost points at the game's end, the hand card is replaced by the next refill anyway."""
    state = rig(SKIPPO, piles={0: ["?", "?", "8"], 1: ["?", "?", "3"]}, build=[6, 3],
                hands={0: ["7", "K", "K", "10", "10"]}, helpers={0: [["8", "7"]]})
    for seed in range(3):
        assert choose(SKIPPO, state, 0, "strong", random.Random(seed)).arg.endswith("@helper:1>b1")


def test_skippo_playouts_judge_a_finished_game_by_its_points():
    """Emptying the stock with a helper pile full of pictures loses the game on points (the
    winner's leftovers count too): a playout that ends so is a loss, not a win."""
    from games.buildpiles.computer import Horizon

    state = rig(SKIPPO, piles={0: ["5"], 1: ["?", "?", "?", "Q"]}, build=[4],
                hands={0: ["9", "9", "9", "9", "9"], 1: ["2", "2", "2", "2", "2"]},
                helpers={0: [["K", "K", "K"], ["Q", "Q", "Q"], ["J", "J"], ["K", "X"]]})
    mark = Horizon(state.game_no, 0, BRAINS["skippo"].passes)
    SKIPPO.apply(state, 0, next(a for a in SKIPPO.legal_actions(state, 0) if a.arg.endswith("@stock>b1")))
    assert state.winners == (0,) and state.history[0].totals[0] < state.history[0].totals[1]
    assert BRAINS["skippo"].value(SKIPPO, mark, state, 0) < 0 < BRAINS["skippo"].value(SKIPPO, mark, state, 1)
