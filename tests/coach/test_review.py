"""The coach's review (bot/coach/review.py) against itself: blind to the cards the seat never saw,
silent about the strong player's own moves, and first to name a move planted to lose points."""

from __future__ import annotations

import random
from dataclasses import dataclass

import games
from bot.coach.review import Match, Review, review
from games.base import Action
from games.calcory import FLIP
from games.computer import choose
from games.deck import triangles
from games.mu.scoring import trick_points
from games.mu.state import TRICKS


def played(key: str, players: int, seed: str, levels: dict[int, str], *, plant=None, after: int = 40,
           limit: int = 10_000) -> tuple[Match, int | None]:
    """A match of ``key`` played by computer players (``levels`` per seat, easy elsewhere); ``plant``
    may replace one move of seat 0 (it returns the bad move in a position, or None), and the match
    then stops ``after`` moves later. Returns the match and the planted move's index."""
    game = games.get(key)
    options = game.default_options()
    state, _ = game.begin(players, options, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str]] = []
    planted = None
    while not game.is_over(state) and len(log) < limit and (planted is None or len(log) < planted + after):
        seat = min(game.to_act(state))
        move = plant(state) if plant is not None and planted is None and seat == 0 else None
        if move is not None:
            planted = len(log)
        else:
            move = choose(game, state, seat, levels.get(seat, "easy"), rng)
        game.apply(state, seat, move)
        log.append((seat, move.key))
    return Match(7, key, players, options.model_dump(mode="json"), seed, tuple(log)), planted


def test_the_strong_players_own_moves_cost_nothing_beyond_the_noise() -> None:
    match, _ = played("safaru", 4, "s1", dict.fromkeys(range(4), "strong"))
    made = review(match, 0)
    assert made.judged >= 5 and made.decisions == ()


def _digit(card: str) -> int:
    return int("".join(c for c in card if c.isdigit()))


def underbid(state) -> Action | None:
    """Calcory: stop although a card the whole table saw turned down makes the 13 (a sure take)."""
    if state.phase != FLIP or state.active != 0 or not state.flips:
        return None
    need = 13 - sum(_digit(state.grid[i]) for i in state.flips)
    if any(_digit(state.grid[i]) == need for i in state.seen if state.grid[i] and i not in state.flips
           and i not in state.marks) and Action("stop") in games.get("calcory").legal_actions(state, 0):
        return Action("stop")
    return None


def test_a_planted_underbid_is_named_first() -> None:
    match, planted = played("calcory", 3, "plant", {0: "strong"}, plant=underbid)
    assert planted is not None
    made = review(match, 0)
    assert made.decisions and made.decisions[0].move == planted
    assert made.decisions[0].played == "stop" and made.decisions[0].best.startswith("flip:")
    assert Review.from_json(made.to_json()) == made


def gives_away(state) -> Action | None:
    """Mü: the last card of a trick worth 3 triangles or more, which seat 0 could win, played so that
    an opponent takes it (the richest such card: it gives away its own triangles too)."""
    game = games.get("mu")
    if state.phase != TRICKS or state.turn != 0 or len(state.trick) != state.players - 1:
        return None
    if trick_points([card for _, card in state.trick]) < 3:
        return None
    side = {0, state.chef, state.partner} - {-1} if 0 in (state.chef, state.partner) else {0}
    won, lost = [], []
    for move in game.legal_actions(state, 0):
        after = game.clone(state)
        game.apply(after, 0, move)
        (won if after.last_winner in side else lost).append(move)
    if not won or not lost:
        return None
    return max(lost, key=lambda move: triangles(move.arg))


def test_a_planted_mu_card_that_gives_away_a_trick_it_wins_is_named_first() -> None:
    match, planted = played("mu", 4, "p5", {0: "strong"}, plant=gives_away, after=12)
    assert planted is not None
    made = review(match, 0)
    assert made.decisions and made.decisions[0].move == planted
    assert made.decisions[0].played == match.actions[planted][1]


@dataclass(frozen=True)
class Swapped(Match):
    """The same match with two cards at the bottom of Rummü's first draw pile swapped: nobody drew
    them in the first hand, and the next hand is dealt from a shuffle of its own, so no seat ever
    saw them."""

    def walked(self):
        game = games.get(self.game)
        state, _ = game.begin(self.players, game.parse_options(self.options), self.seed)
        state.stock[0], state.stock[1] = state.stock[1], state.stock[0]
        for index, (seat, key) in enumerate(self.actions):
            yield index, state
            game.apply(state, seat, Action.parse(key))


def test_two_matches_that_differ_only_in_cards_the_seat_never_saw_get_the_same_review() -> None:
    match, _ = played("rummu", 4, "unseen", {0: "easy"}, limit=80)
    swapped = Swapped(**{name: getattr(match, name) for name in ("id", "game", "players", "options", "seed", "actions")})
    bottom = [state.stock[:2] for _, state in swapped.walked() if state.hand_no == 1]
    assert len(bottom) > 20 and all(cards == bottom[0] for cards in bottom)  # at the bottom all hand long: unseen
    assert bottom[0] != next(s.stock[:2] for _, s in match.walked())
    first, second = review(match, 0), review(swapped, 0)
    assert first == second and isinstance(first, Review) and first.judged > 5
