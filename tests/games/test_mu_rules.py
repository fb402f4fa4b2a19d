"""Mü beyond the worked cases: whole hands, match end, 3-player decks, views, resample, invariants."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.i18n import catalogue
from games.base import Action, IllegalAction, replay
from games.deck import COLOURS, DECK, colour
from games.mu import GAME, MuOptions, bid_action, position
from tests.games.invariants import _check_resample, check_playouts

A, B, C, D = range(4)
REDS = ["r0", "r1a", "r1b", "r2", "r3", "r4", "r5", "r6", "r7a", "r7b", "r8", "r9"]


def act(state, seat, kind, arg=""):
    return GAME.apply(state, seat, Action(kind, arg))


def refused(state, seat, action):
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    return info.value


def patt_to(state, top):
    """Play an auction in which the ``top`` seats reach two cards each, in seat order from the
    dealer (so the last of them is the Provokateur), and everyone else passes."""
    players, number = state.players, state.hand_no
    for _ in range(2):
        for seat in range(state.dealer, state.dealer + players):
            seat %= players
            if seat in top:
                act(state, seat, "bid", state.hidden[seat][0])
            else:
                act(state, seat, "pass")
    seat = state.turn
    while state.hand_no == number and not GAME.is_over(state):
        act(state, seat, "pass")
        seat = (seat + 1) % players


# -- a whole hand through the engine -------------------------------------------------------------

def test_whole_hand_chef_takes_every_trick_and_the_bonus():
    s = position(3, {A: REDS}, removed_colours=("yellow", "black"))
    act(s, A, "bid", "r9")
    act(s, B, "pass")
    act(s, C, "pass")
    act(s, A, "bid", "r8")
    act(s, B, "pass")
    act(s, C, "pass")
    act(s, A, "bid", "r0")
    for seat in (B, C, A):
        act(s, seat, "pass")
    assert GAME.view(s, None).goal == 16  # 3 players, 3 cards
    act(s, A, "trump", "red")
    assert GAME.view(s, A).hand == tuple(REDS)  # all trumps, weakest first
    for _ in range(12):
        leader = GAME.to_act(s)
        assert leader == {A}
        act(s, A, "play", GAME.view(s, A).hand[-1])
        for seat in (B, C):
            act(s, seat, "play", GAME.legal_actions(s, seat)[0].arg)
    score = s.history[0]
    lines = [(x.seat, x.label, x.points) for x in score.lines]
    assert lines == [
        (A, "mu.line.tricks", 36), (B, "mu.line.tricks", 0), (C, "mu.line.tricks", 0),
        (A, "mu.line.bonus.colour", 30),
    ]
    assert score.totals == (66, 0, 0)
    view = GAME.view(s, None)
    assert (view.hand_no, view.dealer, view.phase, view.scores) == (2, B, "auction", (66, 0, 0))
    assert view.last_score == score
    assert view.last_chef == A, "the Chef of the hand just scored"


def test_partner_and_vize_play_with_the_chef_against_the_others_in_scoring():
    s = position(4, chef=A, vize=B, partner=C, shown={A: ["r0", "r1a"], B: ["r2"]},
                 vize_trump="red", chef_trump="none")
    assert GAME.view(s, None).goal == 32
    while not s.history:
        seat = next(iter(GAME.to_act(s)))
        GAME.apply(s, seat, GAME.legal_actions(s, seat)[-1])
    score = s.history[0]
    points = {x.seat: x.points for x in score.lines if x.label == "mu.line.tricks"}
    assert sum(points.values()) == 60
    assert sum(x.params["tricks"] for x in score.lines if x.label == "mu.line.tricks") == 15
    team = points[A] + points[C]
    assert team == 46  # every seat plays its last legal card: a fixed, repeatable hand
    extra = [(x.seat, x.label, x.points, x.params) for x in score.lines if x.label != "mu.line.tricks"]
    params = {"cards": 2, "team": 46, "goal": 32}
    assert extra == [(A, "mu.line.bonus.none", 50, params), (C, "mu.line.bonus.none", 50, params)]
    assert score.totals == (points[A] + 50, points[B], points[C] + 50, points[D])


# -- refusals with reasons -----------------------------------------------------------------------

def test_bid_refusals():
    s = position(4, {A: ["r5"], B: ["g5"]})
    assert refused(s, A, Action("bid", "g5")).reason == "mu.bid_not_in_hand"
    assert refused(s, A, Action("bid", "")).reason == "mu.bid_empty"
    assert refused(s, A, Action("bid", "r5.r5")).reason == "mu.bid_twice"
    assert refused(s, B, Action("bid", "g5")).reason == "core.not_your_turn"
    assert refused(s, A, Action("play", "r5")).reason == "mu.wrong_phase"
    act(s, A, "bid", "r5")
    assert refused(s, B, Action("trump", "green")).reason == "mu.wrong_phase"


def test_multi_card_bid_in_any_order_is_one_action():
    s = position(4, {A: ["r5"], B: ["g5", "b1a", "k9"]})
    act(s, A, "bid", "r5")
    act(s, B, "bid", "k9.g5")
    assert GAME.view(s, None).bids == (1, 2, 0, 0)
    assert bid_action(["k9", "g5", "b1a"]).key == "bid:g5.b1a.k9"
    assert refused(s, C, bid_action(list(s.hidden[C][:4]))).params == {"limit": 3, "most": 2}


def test_not_following_suit_is_refused_with_the_suit():
    s = position(4, {A: ["g5"], B: ["g9", "r9"]}, chef=A, chef_trump="none", partner=C)
    act(s, A, "play", "g5")
    error = refused(s, B, Action("play", "r9"))
    assert error.reason == "mu.must_follow.green" and error.params == {}
    assert refused(s, B, Action("play", "g5")).reason == "mu.card_not_in_hand"
    assert all(colour(a.arg) == "green" for a in GAME.legal_actions(s, B))


def test_partner_refusals_and_no_partner_nobody():
    s = position(4, dealer=A)
    act(s, A, "bid", s.hidden[A][0])
    for seat in (B, C, D, A):
        act(s, seat, "pass")
    act(s, A, "trump", "none")
    assert refused(s, A, Action("partner", "")).reason == "mu.partner_unknown"
    assert refused(s, A, Action("partner", "4")).reason == "mu.partner_unknown"
    assert refused(s, A, Action("partner", "0")).reason == "mu.partner_self"


def test_chef_may_name_the_vize_trump_again():
    s = position(4, {A: ["r5", "r6"], B: ["r7a"]})
    act(s, A, "bid", "r5")
    act(s, B, "bid", "r7a")
    act(s, C, "pass")
    act(s, D, "pass")
    act(s, A, "bid", "r6")
    for seat in (B, C, D, A):
        act(s, seat, "pass")
    act(s, B, "trump", "red")
    act(s, A, "trump", "red")
    assert s.ranks["r0"] == ("trump", 3)


def test_every_reason_and_label_has_english_and_german_text():
    source = "\n".join(p.read_text() for p in Path("games/mu").glob("*.py"))
    keys = set(re.findall(r'"(mu\.[a-z_.]+[a-z_])"', source))
    keys |= {f"mu.must_follow.{suit}" for suit in (*COLOURS, "trump")}
    keys |= {f"mu.line.bonus.{kind}" for kind in ("colour", "ones_sevens", "digit", "none")}
    keys -= {"mu.line.bonus"}
    assert "mu.bid_too_many" in keys and "mu.line.lost.chef" in keys
    for lang in ("en", "de"):
        missing = keys - set(catalogue(lang))
        assert not missing, (lang, missing)
    assert "ü" in catalogue("de")["mu.must_follow.green"]


# -- match end -----------------------------------------------------------------------------------

def test_match_ends_when_a_total_exceeds_the_target():
    s = position(4, dealer=A, scores=[191, 50, 190, 0])
    patt_to(s, top=(A, C))  # A +10, C (last) -20
    assert GAME.is_over(s)
    result = GAME.result(s)
    assert result.scores == (201, 50, 170, 0)
    assert result.winners == {A} and result.ranks == (1, 3, 2, 4)
    assert GAME.to_act(s) == frozenset() and GAME.legal_actions(s, A) == []
    assert refused(s, A, Action("pass")).reason == "core.game_over"


def test_exactly_the_target_does_not_end_the_match():
    s = position(4, dealer=A, scores=[190, 0, 0, 0])
    patt_to(s, top=(A, C))
    assert s.scores[A] == 200 and not GAME.is_over(s)
    assert GAME.result(s).winners == frozenset()


def test_tied_leaders_share_the_win():
    s = position(4, dealer=A, scores=[191, 191, 0, 0])
    patt_to(s, top=(A, B, C))  # A +10, B +10, C -20
    result = GAME.result(s)
    assert GAME.is_over(s) and result.scores == (201, 201, -20, 0)
    assert result.winners == {A, B} and result.shared


def test_tied_leaders_play_on_with_the_option():
    s = position(4, dealer=A, scores=[191, 191, 0, 0], options=MuOptions(tie_plays_on=True))
    patt_to(s, top=(A, B, C))
    assert not GAME.is_over(s) and GAME.view(s, None).hand_no == 2


def test_target_option():
    s = position(4, dealer=A, scores=[45, 0, 0, 0], options=MuOptions(target=50))
    patt_to(s, top=(A, C))
    assert GAME.is_over(s) and GAME.result(s).winners == {A}


# -- setup, options, 3 players -------------------------------------------------------------------

def test_options_defaults_and_validation():
    options = MuOptions()
    assert (options.target, options.removed_colours, options.tie_plays_on) == (200, "random", False)
    assert all(field.description for field in MuOptions.model_fields.values())
    with pytest.raises(ValidationError):
        MuOptions(removed_colours="red-red")
    with pytest.raises(ValidationError):
        MuOptions(jokers=True)
    assert GAME.parse_options({"removed_colours": "yellow-black"}).removed_colours == "yellow-black"


def test_setup_deals_everything_and_draws_the_first_dealer():
    dealers = set()
    for n, players in enumerate((4, 5, 6) * 4):
        s = GAME.setup(players, MuOptions(), f"seed{n}")
        assert sorted(GAME.cards(s)) == sorted(DECK)
        assert GAME.view(s, None).hand_counts == (60 // players,) * players
        assert GAME.to_act(s) == {s.dealer}
        dealers.add(s.dealer)
    assert len(dealers) > 2
    again = GAME.setup(5, MuOptions(), "seed1")
    assert again.dealer == GAME.setup(5, MuOptions(), "seed1").dealer and again.hidden == GAME.setup(5, MuOptions(), "seed1").hidden


def play_out_hand(s, rng):
    number = s.hand_no
    while s.hand_no == number and not GAME.is_over(s):
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        GAME.apply(s, seat, legal[0] if legal[0].kind == "pass" and rng.random() < 0.8 else rng.choice(legal))


def test_three_players_remove_two_random_colours_each_hand():
    s = GAME.setup(3, MuOptions(), "three")
    pairs = set()
    rng = random.Random(3)
    for _ in range(8):
        removed = GAME.view(s, None).removed_colours
        assert len(removed) == 2
        pairs.add(removed)
        in_play = {colour(c) for h in s.hidden for c in h}
        assert in_play == set(COLOURS) - set(removed)
        assert GAME.view(s, None).hand_counts == (12, 12, 12)
        assert sorted(GAME.cards(s)) == sorted(DECK)
        assert Counter(colour(c) for c in s.removed) == {removed[0]: 12, removed[1]: 12}
        play_out_hand(s, rng)
        if GAME.is_over(s):
            break
    assert len(pairs) > 1


def test_three_players_fixed_colours():
    s = GAME.setup(3, MuOptions(removed_colours="red-green"), "fixed")
    rng = random.Random(4)
    for _ in range(3):
        assert GAME.view(s, None).removed_colours == ("red", "green")
        assert {colour(c) for h in s.hidden for c in h} == {"yellow", "blue", "black"}
        play_out_hand(s, rng)


# -- views and resample --------------------------------------------------------------------------

def test_views_show_shown_cards_but_no_hidden_ones():
    s = position(4, {A: ["r5"], B: ["g5", "k9"]})
    act(s, A, "bid", "r5")
    act(s, B, "bid", "k9.g5")
    public = GAME.view(s, None)
    assert public.shown == (("r5",), ("g5", "k9"), (), ())
    assert public.hand == () and public.seat is None and public.bid_limit == 0
    mine = GAME.view(s, C)
    assert mine.hand == tuple(sorted(s.hidden[C], key=DECK.index)) and mine.bid_limit == 3
    assert "seed" not in repr(public) and s.seed not in repr(mine)
    assert set(mine.hand).isdisjoint(c for seat in (A, B, D) for c in s.hidden[seat])


def test_own_hand_is_grouped_by_effective_suit():
    s = position(4, {A: ["r6", "g6", "r2", "g2", "y6", "k1a"], B: ["b1a"]}, chef=A, vize=B,
                 shown={A: ["g6"], B: ["b1a"]}, vize_trump="1", chef_trump="6", partner=C)
    hand = GAME.view(s, A).hand
    trumps = [c for c in hand if s.ranks[c][0] == "trump"]
    assert trumps == ["r1a", "r1b", "k1a", "r6", "y6", "g6"]  # Vize 1s, then Chef 6s: strongest last
    assert hand[-6:] == tuple(trumps)
    assert hand[:-6] == ("r0", "r2", "r3", "r4", "r5", "r7a", "r7b", "r8", "g2")


def test_resample_keeps_voids_and_views():
    # B holds no green and shows it by not following; resampled deals never give B a green card.
    b_hand = ["r1a", *[c for c in REDS if c != "r1a"], "y0", "y1a", "y1b"]
    s = position(4, {A: ["g5", "g6"], B: b_hand}, chef=A, chef_trump="none", partner=C)
    act(s, A, "play", "g5")
    act(s, B, "play", "r1a")
    assert s.voids[B] == {"green"}
    rng = random.Random(7)
    for _ in range(50):
        other = GAME.resample(s, A, rng)
        assert not any(colour(c) == "green" for c in other.hidden[B])
        assert GAME.view(other, A) == GAME.view(s, A) and GAME.view(other, None) == GAME.view(s, None)
        assert Counter(GAME.cards(other)) == Counter(GAME.cards(s)) and other.seed != s.seed
    assert len({GAME.resample(s, A, rng).hidden[C] for _ in range(10)}) > 1
    # without a void, seat B's cards mix with the others too
    fresh = position(4, {A: ["g5", "g6"], B: b_hand}, chef=A, chef_trump="none", partner=C)
    assert any(colour(c) == "green" for c in GAME.resample(fresh, A, random.Random(1)).hidden[B])


def test_clone_is_independent():
    s = GAME.setup(4, MuOptions(), "clone")
    copy = GAME.clone(s)
    seat = s.dealer
    act(copy, seat, "bid", copy.hidden[seat][0])
    assert s.bids == [0, 0, 0, 0] and copy.bids[seat] == 1
    assert GAME.view(s, None) != GAME.view(copy, None)


# -- random play ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playouts_keep_the_invariants(players):
    check_playouts(GAME, players, 12)


def _cautious_playout(players, seed):
    """Random matches whose auctions mostly pass (random play shows nearly every card and ends in
    a Patt), with multi-card bids; every invariant of ``check_playout`` is checked along the way."""
    rng = random.Random(seed)
    s = GAME.setup(players, MuOptions(target=60), seed)
    deck = Counter(GAME.cards(s))
    log = []
    labels = Counter()
    for step in range(5000):
        if GAME.is_over(s):
            break
        seat = next(iter(GAME.to_act(s)))
        legal = GAME.legal_actions(s, seat)
        action = rng.choice(legal)
        if legal[0].kind == "pass":
            limit = GAME.view(s, seat).bid_limit
            k = rng.randint(1, limit)
            action = legal[0] if rng.random() < 0.75 else bid_action(rng.sample(list(s.hidden[seat]), k))
        GAME.apply(s, seat, action)
        log.append((seat, action))
        assert Counter(GAME.cards(s)) == deck
        if step % 5 == 0 and not GAME.is_over(s):
            _check_resample(GAME, s, players, rng)
    assert GAME.is_over(s)
    rebuilt = replay(GAME, players, MuOptions(target=60), seed, log).state
    assert GAME.view(rebuilt, None) == GAME.view(s, None)
    for hand in s.history:
        labels.update(x.label.rsplit(".", 1)[0] if "bonus" in x.label else x.label for x in hand.lines)
    return labels


def test_cautious_random_matches_cover_played_hands():
    labels = Counter()
    for players in (3, 4, 5, 6):
        for n in range(3):
            labels += _cautious_playout(players, f"cautious-{players}-{n}")
    for label in ("mu.line.tricks", "mu.line.bonus", "mu.line.lost.chef", "mu.line.lost.partner",
                  "mu.line.lost.opponent", "mu.line.patt.top", "mu.line.patt.provokateur"):
        assert labels[label] > 0, label
