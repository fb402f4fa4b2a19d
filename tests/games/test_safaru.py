"""Safarü: the worked cases S1–S8, the edge rules and the invariants."""

from __future__ import annotations

import random
import re
import tomllib
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from games.base import Action, IllegalAction, random_playout
from games.deck import DECK, colour, digit
from games.safaru import ANIMAL_COLOURS, GAME, Catch, Options, SafaruState
from games.safaru.catches import (
    LISTED,
    Tally,
    can_catch,
    catches,
    parse_catch,
    score_lines,
    split_cards,
    splits,
    validate,
)
from games.safaru.state import Play
from tests.games.invariants import check_playouts

ROOT = Path(__file__).resolve().parents[2]


def rig(players: int = 2, *, hands: dict[int, tuple[str, ...]], table: tuple[str, ...], turn: int = 0,
        piles: dict[int, tuple[str, ...]] | None = None, deck: tuple[str, ...] | None = None,
        dealer: int | None = None, options: Options | None = None, rest: str = "deck") -> SafaruState:
    """A Safarü state with chosen hands, free cards and catch piles.

    Seats missing from ``hands`` hold nothing. Every card not placed goes to the deck (``deck``
    names the top cards, last = top), or with ``rest="table"`` lies free after ``table``, so the
    state still holds the whole 60-card deck.
    """
    state = GAME.setup(players, options or Options(), "rig")
    piles = piles or {}
    state.hands = [tuple(hands.get(s, ())) for s in range(players)]
    state.table = tuple(table)
    state.piles = [tuple(piles.get(side, ())) for side in range(state.sides)]
    placed = {c for h in state.hands for c in h} | set(table) | {c for p in state.piles for c in p}
    top = tuple(deck or ())
    state.deck = [c for c in DECK if c not in placed and c not in top] + list(top)
    if rest == "table":
        state.table += tuple(state.deck)
        state.deck = []
    state.turn = turn
    state.dealer = (turn - 1) % players if dealer is None else dealer
    assert sorted(GAME.cards(state)) == sorted(DECK)
    return state


def keys_for(state: SafaruState, card: str) -> set[str]:
    return {a.key for a in GAME.legal_actions(state, state.turn) if a.arg.split("/")[0] == card}


def play(state: SafaruState, arg: str) -> None:
    GAME.apply(state, state.turn, Action("play", arg))


def refused(state: SafaruState, arg: str) -> str:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(GAME.clone(state), state.turn, Action("play", arg))
    return err.value.reason


# -- the worked cases ------------------------------------------------------------------------------

def test_s1_seed_example_adding_or_seventeen_with_a_seven() -> None:
    state = rig(hands={0: ("r7a", "g8"), 1: ("k2",)}, table=("g3", "b4", "k6"))
    assert keys_for(state, "r7a") == {"play:r7a/add=g3b4", "play:r7a/sev=b4k6"}

    added = GAME.clone(state)
    play(added, "r7a/add=g3b4")
    assert sorted(added.table) == ["k6", "r7a"]
    assert added.piles[0] == ("g3", "b4")

    seventeen = GAME.clone(state)
    play(seventeen, "r7a/sev=b4k6")
    assert sorted(seventeen.table) == ["g3", "r7a"]
    assert sorted(seventeen.piles[0]) == ["b4", "k6"]

    assert refused(state, "r7a/add=g3b4/sev=b4k6") == "safaru.card_twice"  # the 4 twice
    assert refused(state, "r7a/add=g3b4k6") == "safaru.add_sum"
    assert refused(state, "r7a/add=g3b4/sev=k6") == "safaru.sev_sum"  # 7 + 6 is not 17
    assert refused(state, "r7a") == "safaru.must_catch"


def test_s2_pairing_with_seventeen_clears_the_table_and_the_next_player_releases() -> None:
    state = rig(hands={0: ("r5", "k1a"), 1: ("b6", "r2")}, table=("g5", "b3", "k9"))
    assert "play:r5/sev=b3k9/pair=g5" in keys_for(state, "r5")
    play(state, "r5/sev=b3k9/pair=g5")
    assert sorted(state.piles[0]) == sorted(["g5", "b3", "k9", "r5"])
    assert state.table == ()
    assert {a.key for a in GAME.legal_actions(state, 1)} == {"play:b6", "play:r2"}


def test_s3_baby_rule_adding_must_take_the_zero() -> None:
    state = rig(hands={0: ("r7a",), 1: ("k2",)}, table=("g0", "b3", "k4"))
    assert keys_for(state, "r7a") == {"play:r7a/add=g0b3k4"}
    assert refused(state, "r7a/add=b3k4") == "safaru.baby_rule"
    play(state, "r7a/add=g0b3k4")
    assert state.table == ("r7a",)


def test_s4_adding_two_cards_leaves_the_played_card() -> None:
    state = rig(hands={0: ("r4",), 1: ("k2",)}, table=("g2", "b2"))
    assert keys_for(state, "r4") == {"play:r4/add=g2b2"}
    play(state, "r4/add=g2b2")
    assert state.table == ("r4",)
    assert sorted(state.piles[0]) == ["b2", "g2"]


def test_s5_no_catch_releases_the_card() -> None:
    state = rig(hands={0: ("r2",), 1: ("k2",)}, table=("g8", "b9"))
    assert keys_for(state, "r2") == {"play:r2"}
    play(state, "r2")
    assert state.table == ("g8", "b9", "r2")
    assert state.piles[0] == ()


def test_s6_the_seat_that_would_play_next_deals_and_its_left_neighbour_starts() -> None:
    state = GAME.setup(3, Options(), "s6")
    state.dealer, state.turn = 0, 1  # deal 1 by seat 0, seat 1 starts
    for _ in range(12):
        GAME.apply(state, state.turn, GAME.legal_actions(state, state.turn)[0])
    assert state.deal_no == 2
    assert state.dealer == 1
    assert state.turn == 2
    assert all(len(h) == 4 for h in state.hands)


def test_s7_three_players_last_deal_fills_the_hands_and_nothing_to_the_table() -> None:
    state = GAME.setup(3, Options(), "s7")
    deals = [(4, len(state.deck))]
    rng = random.Random(7)
    while not GAME.is_over(state):
        events = GAME.apply(state, state.turn, rng.choice(GAME.legal_actions(state, state.turn)))
        deals += [(len(e.data["table"]), e.data["deck"]) for e in events if e.kind == "deal"]
        if any(e.kind == "game_end" for e in events):
            assert not state.deck and not any(state.hands)
    assert deals == [(4, 44), (4, 28), (4, 12), (0, 0)]


def test_s8_scoring_example() -> None:
    lines = score_lines([Tally(unicorns=5, fish=2, babies=1, triangles=20),
                         Tally(unicorns=5, fish=4, babies=2, triangles=25)])
    assert [sum(points for _, points, _ in side) for side in lines] == [27, 15]
    assert [label for label, _, _ in lines[1]] == [
        "safaru.line.most_unicorns", "safaru.line.most_fish", "safaru.line.babies", "safaru.line.triangles"]


# -- scoring details ------------------------------------------------------------------------------

def test_tie_splits_are_whole_and_nobody_gets_an_empty_majority() -> None:
    three = score_lines([Tally(2, 0, 0, 0), Tally(2, 0, 0, 0), Tally(2, 0, 0, 0)])
    assert [side[0][1] for side in three] == [8, 8, 8]
    four = score_lines([Tally(0, 1, 0, 0)] * 4)
    assert [side[0] for side in four] == [("safaru.line.most_fish", -3, {"count": 1})] * 4
    assert all(label != "safaru.line.most_unicorns" for side in four for label, _, _ in side)


def test_animal_colours_are_one_constant_red_unicorns_blue_fish() -> None:
    assert dict(ANIMAL_COLOURS) == {"unicorn": "red", "fish": "blue"}


def test_last_play_scores_the_game_from_the_piles_and_ignores_free_cards() -> None:
    state = rig(hands={0: ("k9",), 1: ("g9",)}, table=("r9", "b9"), rest="table",
                piles={0: ("r3", "r6", "r0", "g2", "y9"), 1: ("r4", "r5", "b4", "b5", "b0")})
    assert len(state.table) > 40 and not state.deck
    play(state, "k9/pair=r9")
    play(state, "g9/pair=b9")
    assert state.over
    result = GAME.result(state)
    # seat 0: r3 r6 r0 g2 y9 r9 k9 -> 4 unicorns (most), one 0, triangles 1 + 2 + 1 + 1 = 5
    # seat 1: r4 r5 b4 b5 b0 b9 g9 -> 2 unicorns, 4 fish (most), one 0, triangles 5
    assert result.scores == (24 - 5 + 5, -12 - 5 + 5)
    assert result.winners == {0}
    lines = result.breakdown[0].lines
    assert [(line.seat, line.label, line.points) for line in lines] == [
        (0, "safaru.line.most_unicorns", 24), (0, "safaru.line.babies", -5), (0, "safaru.line.triangles", 5),
        (1, "safaru.line.most_fish", -12), (1, "safaru.line.babies", -5), (1, "safaru.line.triangles", 5)]


def test_four_players_teams_pool_their_catches_and_share_the_score() -> None:
    state = rig(4, hands={0: ("r4",), 1: ("k1a",), 2: ("g8",), 3: ("k1b",)}, table=("g2", "b2"))
    assert state.sides == 2
    play(state, "r4/add=g2b2")
    assert state.piles == [("g2", "b2"), ()]
    seen = GAME.view(state, 2)
    assert seen.piles == (("g2", "b2"), None)
    assert GAME.view(state, 1).piles == (None, ())
    solo = rig(4, hands={0: ("r4",)}, table=(), options=Options(teams=False))
    assert solo.sides == 4


def test_open_piles_show_every_pile() -> None:
    state = rig(hands={0: ("r4",), 1: ("k1a",)}, table=("g2", "b2"), options=Options(open_piles=True))
    play(state, "r4/add=g2b2")
    assert GAME.view(state, 1).piles == (("g2", "b2"), ())
    assert GAME.view(state, None).piles == (("g2", "b2"), ())


# -- edge rules -----------------------------------------------------------------------------------

def test_forced_catch_only_binds_the_card_that_can_catch() -> None:
    state = rig(hands={0: ("r7a", "g1a"), 1: ("k2",)}, table=("g3", "b4"))
    assert refused(state, "r7a") == "safaru.must_catch"
    assert "play:g1a" in {a.key for a in GAME.legal_actions(state, 0)}
    play(state, "g1a")  # a card that cannot catch may be released instead
    assert state.table == ("g3", "b4", "g1a")


def test_zero_caught_by_pairing_satisfies_the_baby_rule() -> None:
    state = rig(hands={0: ("r0",), 1: ("k2",)}, table=("g0", "k0", "b8", "k9"))
    keys = keys_for(state, "r0")
    assert "play:r0/sev=b8k9/pair=g0" in keys
    assert "play:r0/sev=b8k9" not in keys
    assert refused(state, "r0/sev=b8k9") == "safaru.baby_rule"
    assert "play:r0/add=g0k0" in keys  # two 0s add up to the played 0


def test_pairing_alone_needs_no_zero_and_every_method_has_its_own_check() -> None:
    state = rig(hands={0: ("r7a", "r5"), 1: ("k2",)}, table=("g0", "g7a", "b3", "k3"))
    assert "play:r7a/pair=g7a" in keys_for(state, "r7a")
    assert refused(state, "r7a/pair=b3") == "safaru.pair_digit"
    assert refused(state, "r7a/add=b3") == "safaru.add_needs_two"
    assert refused(state, "r7a/pair=r5") == "safaru.not_on_table"
    assert refused(state, "g8/pair=g7a") == "safaru.not_in_hand"
    assert refused(state, "r7a/pair=g7ag0") == "safaru.bad_action"
    assert refused(state, "r7a/nab=g7a") == "safaru.bad_action"


def test_out_of_turn_and_after_the_end_are_refused() -> None:
    state = rig(hands={0: ("r4",), 1: ("k1a",)}, table=("g2", "b2"))
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, 1, Action("play", "k1a"))
    assert err.value.reason == "core.not_your_turn"
    assert GAME.legal_actions(state, 1) == []


def test_catch_keys_round_trip_and_parse_run_together_ids() -> None:
    assert split_cards("r1ab1bk7a") == ("r1a", "b1b", "k7a")
    catch = parse_catch("r7a/add=g3b4/sev=k6/pair=k7b")
    assert (catch.add, catch.sev, catch.pair) == (("g3", "b4"), ("k6",), "k7b")
    assert catch.arg == "r7a/add=g3b4/sev=k6/pair=k7b"
    with pytest.raises(ValueError):
        split_cards("r1")


# -- match, views, resample -----------------------------------------------------------------------

def test_match_plays_games_until_the_target_and_the_dealer_moves_left() -> None:
    state = GAME.setup(2, Options(match_target=60), "match")
    first = state.first_dealer
    random_playout(GAME, state, random.Random(5))
    assert state.over
    assert state.game_no == len(state.history) > 1
    assert max(state.totals) >= 60
    assert all(max(h.totals) < 60 for h in state.history[:-1])
    assert state.first_dealer == (first + state.game_no - 1) % 2


def test_views_hide_hands_and_resample_keeps_what_the_seat_knows() -> None:
    state = GAME.setup(3, Options(), "views")
    assert GAME.view(state, None).hand is None
    assert GAME.view(state, 1).hand == state.hands[1]
    other = GAME.resample(state, 0, random.Random(1))
    assert other.hands[0] == state.hands[0] and other.table == state.table and other.piles == state.piles
    assert other.hands[1:] != state.hands[1:] or other.deck != state.deck
    assert other.seed != state.seed


def test_a_play_is_public_kept_apart_by_clone_and_forgotten_at_the_next_deal() -> None:
    """What a play tells (the catch or release and the free cards it met) stays with the state for
    the computer players: every redeal keeps it, no view shows it, and new hands start afresh."""
    state = rig(hands={0: ("r7a", "g1a"), 1: ("k2", "b8")}, table=("g3", "b4"))
    play(state, "g1a")  # r7a could catch: the rule binds only the card played (D23)
    assert state.played == [(Play(Catch("g1a"), ("g3", "b4")),), ()]
    before = GAME.clone(state)
    play(state, "k2")  # nothing makes 2 or 15 of g3 b4 g1a
    assert state.played[1] == (Play(Catch("k2"), ("g3", "b4", "g1a")),)
    assert before.played[1] == ()
    for seat in (0, 1):
        assert GAME.resample(state, seat, random.Random(seat)).played == state.played
    blank = GAME.clone(state)
    blank.played = [(), ()]
    assert all(GAME.view(blank, s) == GAME.view(state, s) for s in (None, 0, 1))
    play(state, "r7a/add=g3b4")
    assert state.played[0][1] == Play(Catch("r7a", add=("g3", "b4")), ("g3", "b4", "g1a", "k2"))
    play(state, "b8/add=g1ar7a")  # the last card: a new deal
    assert state.deal_no == 2 and state.played == [(), ()]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_keep_the_invariants(players: int) -> None:
    check_playouts(GAME, players, 25)


def test_random_matches_with_open_piles_and_without_teams_keep_the_invariants() -> None:
    check_playouts(GAME, 4, 4, options=Options(teams=False, match_target=80, open_piles=True))


def test_every_reason_has_an_english_and_a_german_text() -> None:
    source = "".join(p.read_text() for p in (ROOT / "games" / "safaru").glob("*.py"))
    reasons = set(re.findall(r'"safaru\.([a-z_.]+)"', source))
    assert reasons
    for lang in ("en", "de"):
        with (ROOT / "bot" / "locales" / lang / "safaru.toml").open("rb") as fh:
            texts = tomllib.load(fh)
        flat = {f"{k}.{kk}" if isinstance(v, dict) else k
                for k, v in texts.items() for kk in (v if isinstance(v, dict) else [k])}
        assert reasons <= flat, reasons - flat
        for name in Options.model_fields:
            assert f"option.{name}" in flat


def test_deck_colours_match_the_animals() -> None:
    assert colour("r3") == ANIMAL_COLOURS["unicorn"] and colour("b3") == ANIMAL_COLOURS["fish"]


# -- many free cards --------------------------------------------------------------------------------

#: Twenty small free cards, as when nobody catches for a while: every card catches in thousands of ways.
CROWD = ("r0", "y0", "r1a", "y1a", "g1a", "b1a", "k1a", "r1b", "r2", "y2", "g2", "b2", "k2", "r3",
         "y3", "g3", "b3", "k3", "r4", "y4")


def by_assignment(card: str, table: tuple[str, ...]) -> set[str]:
    """Every catch, the slow way: each free card is left, added, made seventeen with or paired, and
    the engine's own ``validate`` keeps what the rules allow."""
    found = set()
    for roles in product(("-", "add", "sev", "pair"), repeat=len(table)):
        groups = {role: tuple(c for c, r in zip(table, roles, strict=True) if r == role) for role in ("add", "sev", "pair")}
        if len(groups["pair"]) > 1 or not any(groups.values()):
            continue
        catch = Catch(card, groups["add"], groups["sev"], groups["pair"][0] if groups["pair"] else None)
        try:
            validate(catch, (card,), table)
        except IllegalAction:
            continue
        found.add(catch.arg)
    return found


def test_the_catches_are_exactly_every_assignment_the_rules_allow() -> None:
    rng = random.Random(14)
    for n in range(40):
        pool = DECK if n % 2 else [c for c in DECK if digit(c) <= 4 or digit(c) in (8, 9)]
        card, *table = rng.sample(pool, rng.randint(2, 7))
        expected = by_assignment(card, tuple(table))
        listed = [c.arg for c in catches(card, table)]
        assert sorted(listed) == sorted(expected), (card, table)
        assert can_catch(card, table) == bool(expected)


def test_twenty_free_cards_list_at_most_a_hundred_catches_a_card_and_check_takes_any_catch() -> None:
    state = rig(hands={0: ("k9", "g7a", "b5", "g0"), 1: ("k8",)}, table=CROWD)
    legal = GAME.legal_actions(state, 0)
    by_card = Counter(a.arg.split("/")[0] for a in legal)
    assert by_card == {card: LISTED for card in state.hands[0]}
    for action in legal[::7]:
        GAME.check(state, 0, action)
    far = catches("k9", CROWD, 5000)[-1]  # far beyond the listed ones, legal all the same
    assert Action("play", far.arg) not in legal
    GAME.check(state, 0, Action("play", far.arg))
    big = "k9/add=r0r1ay1ag1ab1ak1ar1br2/sev=y0y2g2b2/pair=k9"
    assert refused(state, big) == "safaru.not_on_table"  # k9 is the played card, not a free one
    assert refused(state, "k9/add=r0r1ay1ag1ab1ak1ar1br2/sev=y0y2g2b2") == "safaru.add_sum"  # 6 x 1 + 2 = 8
    assert refused(state, "k9/add=r1ay1ag1ab1ak1ar1br3") == "safaru.baby_rule"
    assert refused(state, "k9/add=r0r1ay1ag1ab1ak1ar1by2/sev=r2y2g2b2") == "safaru.card_twice"
    assert refused(state, "k9") == "safaru.must_catch"
    play(state, "k9/add=r0r1ay1ag1ab1ak1ar1br3/sev=y0y2g2b2k2")  # 9 = 0 + 6 x 1 + 3; 17 = 9 + 0 + 4 x 2
    assert len(state.table) == 20 - 13 + 1 and state.piles[0][-1] == "k2"


def test_a_pick_of_free_cards_splits_into_at_most_two_catches() -> None:
    table = ("g3", "b4", "k6")
    assert [c.arg for c in splits("r7a", ("b4", "g3"), table)] == ["r7a/add=g3b4"]
    assert [c.arg for c in splits("r7a", ("k6", "b4"), table)] == ["r7a/sev=b4k6"]
    assert splits("r7a", ("g3", "b4", "k6"), table) == [] and splits("r7a", ("g3", "g3"), table) == []
    assert splits("r7a", ("g9",), table) == []
    both = ("g2", "b3", "k5", "r7a")  # 17 with a 5: adding 2 + 3 and seventeen 5 + 7, or pairing and 2 + 3 + 7
    assert [c.arg for c in splits("y5", both, both)] == ["y5/add=g2b3/sev=r7ak5", "y5/sev=r7ag2b3/pair=k5"]
    zeros = ("r0", "y0", "g0")
    assert [c.arg for c in splits("k0", zeros, zeros)] == ["k0/add=r0y0g0", "k0/add=y0g0/pair=r0"]
    assert [c.arg for c in splits("k0", ("r0", "y0"), zeros)] == ["k0/add=r0y0"]


def test_every_catch_has_a_split_that_takes_the_same_cards_the_same_way() -> None:
    rng = random.Random(15)
    for n in range(60):
        pool = DECK if n % 2 else [c for c in DECK if digit(c) <= 3 or digit(c) >= 8]
        card, *table = rng.sample(pool, rng.randint(3, 11))
        for catch in catches(card, table, 60):
            same = [c for c in splits(card, catch.taken, table) if bool(c.pair) == bool(catch.pair)]
            assert len(same) == 1 and sorted(same[0].taken) == sorted(catch.taken), catch.arg


def test_the_strong_players_majority_counts_what_is_still_out() -> None:
    """A majority that the animals still uncaught cannot overturn counts in full; a lead of one
    with one left is a win or a tie (the award shared, D22), alike likely; nothing caught, no award."""
    from games.safaru.computer import majority_shares

    assert majority_shares((7, 3), 2) == (1.0, 0.0)
    assert majority_shares((6, 5), 1) == (0.75, 0.25)
    assert majority_shares((6, 6), 0) == (0.5, 0.5)
    assert majority_shares((0, 0), 0) == (0.0, 0.0)
    assert sum(majority_shares((2, 1, 1), 8)) == pytest.approx(1.0)
