"""The coach's review (bot/coach/review.py) against itself: blind to the cards the seat never saw,
silent about the strong player's own moves, and first to name a move planted to lose points, on
every seed tried."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pytest

import games
from bot.coach.review import CANDIDATES, Decision, Match, Review, candidates, review
from games.base import Action
from games.calcory import FLIP
from games.computer import choose
from games.computer.coach import evaluate
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


@pytest.mark.long(seconds=5)
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


#: Worlds in which a give-away is confirmed to lose before it is planted (twice the refining pass's).
SURE_WORLDS = 200


def gives_away(state) -> Action | None:
    """Mü: the last card of a trick worth 3 triangles or more, which seat 0 could win, played so that
    an opponent takes it (the richest such card: it gives away its own triangles too), where that is
    a sure loss: a winning card leads it by 2 points and 7 standard errors in ``SURE_WORLDS`` worlds
    of dice of their own. Not every give-away loses: with 14 cards left, winning a trick with a trump
    led by 0.5 give or take 0.9 (the lead and the trump cost what the trick brought). Seven errors in
    200 worlds are about five in the review's 96, clear of its bar of three; at five, a plant could
    sit on the bar (one did: 2.9)."""
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
    planted = max(lost, key=lambda move: triangles(move.arg))
    rng = random.Random(f"plant:{state.hand_no}:{state.hidden[0]}:{state.shown[0]}:{state.trick}")
    values = evaluate(game, state, 0, rng, played=planted, moves=won, worlds=SURE_WORLDS)
    lead = max(values, key=lambda value: value.gap)
    return planted if lead.gap >= 2 and lead.gap > 7 * lead.gap_error else None


@pytest.mark.long(seconds=5)
@pytest.mark.parametrize("seed", ["p0", "p3", "p8", "p15", "p16"])
def test_a_planted_mu_card_that_gives_away_a_trick_it_wins_is_named_first(seed: str) -> None:
    """Seed p0 gives away a trick that loses about 4 points, give or take 0.5 in the review, the
    smallest loss of these seeds. (Seed p2, whose give-away six screening worlds once missed, plants
    none since the strong seat's auction counts its Chef hands higher: the match went elsewhere.)"""
    match, planted = played("mu", 4, seed, {0: "strong"}, plant=gives_away, after=12)
    assert planted is not None
    made = review(match, 0)
    assert made.decisions and made.decisions[0].move == planted
    assert made.decisions[0].played == match.actions[planted][1]


def test_the_refining_pass_gets_sure_leads_and_large_noisy_ones() -> None:
    """Two screenings of Mü matches. Seed p0's planted give-away led by 2.7 give or take 0.6 (every
    world agreed), eight decisions of the hands' starts by more, give or take half as much again: ranked
    by the bare lead it came ninth and was never refined. Seed p5's led by 31 give or take 21 in seven
    worlds (refined: 39 give or take 5), among sure small leads: ranked by the lead less three errors,
    it came last."""
    noisy = [Decision(112, "play:k6", "play:r1a", 44.9, 22.0), Decision(133, "play:k8", "play:b0", 35.1, 18.2),
             Decision(108, "play:r6", "play:k8", 32.0, 16.6), Decision(96, "bid:k5.k6.k7a", "bid:k5.k6", 22.0, 16.7),
             Decision(179, "bid:g1a.g4.g7a", "pass", 18.2, 23.6), Decision(175, "bid:b2", "bid:g1a", 16.7, 16.7),
             Decision(120, "play:g5", "play:r3", 14.4, 16.9), Decision(38, "play:b9", "play:b7b", 12.9, 13.6)]
    planted = Decision(246, "play:y1a", "play:y8", 2.67, 0.6)
    picked = candidates([*noisy, planted, Decision(5, "pass", "pass", 0.0, math.inf)])
    assert len(picked) == CANDIDATES and planted in picked and all(d.move != 5 for d in picked)

    sure = [Decision(21, "play:r2", "play:y4", 6.0, 1.61), Decision(27, "play:b3", "play:b6", 6.5, 2.19),
            Decision(133, "play:y4", "play:k3", 4.22, 1.65), Decision(129, "play:k1a", "play:y4", 1.2, 0.81),
            Decision(89, "play:g4", "play:g7a", 0.13, 0.5), Decision(125, "play:k6", "play:k1a", 1.67, 1.67),
            Decision(45, "play:r7a", "play:y4", 7.24, 3.84), Decision(37, "play:b6", "play:y4", 1.33, 2.64)]
    planted = Decision(181, "play:b6", "play:b8", 30.9, 21.0)
    assert candidates([*sure, planted])[0] == planted


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


@pytest.mark.long(seconds=3)
def test_two_matches_that_differ_only_in_cards_the_seat_never_saw_get_the_same_review() -> None:
    match, _ = played("rummu", 4, "unseen", {0: "easy"}, limit=80)
    swapped = Swapped(**{name: getattr(match, name) for name in ("id", "game", "players", "options", "seed", "actions")})
    bottom = [state.stock[:2] for _, state in swapped.walked() if state.hand_no == 1]
    assert len(bottom) > 20 and all(cards == bottom[0] for cards in bottom)  # at the bottom all hand long: unseen
    assert bottom[0] != next(s.stock[:2] for _, s in match.walked())
    first, second = review(match, 0), review(swapped, 0)
    assert first == second and isinstance(first, Review) and first.judged > 5
