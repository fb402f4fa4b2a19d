"""Moves any decent player makes, asked of the computer players in rigged positions.

One or two per game (the build-pile games have their own file): the easy level where its
heuristic should see it, the strong level where only search or memory finds it.
"""

from __future__ import annotations

import random

from games import BRAINS
from games.base import Action
from games.calcory import GAME as CALCORY
from games.calcory import SLOT_INDEX
from games.calcory import position as calcory_position
from games.computer import choose
from games.deck import DECK
from games.diabolo import GAME as DIABOLO
from games.diabolo import position as diabolo_position
from games.diabolo import score_now
from games.kapado import GAME as KAPADO
from games.kapado.rules import position as kapado_position
from games.mu import GAME as MU
from games.mu import position as mu_position
from games.rummu.computer import HELD_BACK
from games.safaru import SafaruState, computer
from games.safaru.computer import PLAY_FLOOR, fit, read_seat
from tests.games.test_rummu import GAME as RUMMU
from tests.games.test_rummu import rig as rummu_rig
from tests.games.test_safaru import GAME as SAFARU
from tests.games.test_safaru import rig as safaru_rig


def move(game, state, seat: int, level: str, seed: int = 0) -> Action:
    action = choose(game, state, seat, level, random.Random(seed))
    game.check(state, seat, action)
    return action


# -- Calcory --------------------------------------------------------------------------------------
def flipped(state, *slots: str) -> None:
    state.flips = [SLOT_INDEX[s] for s in slots]


def test_calcory_strong_remembers_where_the_missing_seven_lies():
    state = calcory_position(2, {"A1": "r6", "J6": "g7a"}, {0: ["k2"], 1: ["b2", "b3", "b4"]})
    flipped(state, "A1")
    state.seen = {SLOT_INDEX["J6"]}  # the table saw the green 7 turned down there
    assert move(CALCORY, state, 0, "strong") == Action("flip", "J6")


def test_calcory_strong_remembers_the_card_that_broke_another_players_turn():
    """D16 (docs/rules-decisions.md): the bust's cards lay face up for everyone; the 4 among them is worth a
    13 later."""
    state = calcory_position(2, {"A1": "r6", "J6": "g4", "B1": "r8", "C3": "r9"}, {0: ["k2"], 1: ["b2"]},
                             active=1)
    for slot in ("A1", "J6", "B1"):  # 6 + 4 + 8 = 18: bust
        CALCORY.apply(state, 1, Action("flip", slot))
    for seat in (0, 1):
        assert CALCORY.view(state, seat).failed.digits == (6, 4, 8)
    assert move(CALCORY, state, 0, "easy").kind == "flip"
    CALCORY.apply(state, 0, Action("flip", "C3"))  # 9; the bust's cards are face down again
    assert CALCORY.view(state, 0).failed is None
    assert move(CALCORY, state, 0, "strong") == Action("flip", "J6")


def test_calcory_easy_stops_on_twelve_and_never_stops_below_a_marked_set():
    state = calcory_position(2, {"A1": "r6", "B1": "g6"}, {0: ["k2"], 1: ["b2"]})
    flipped(state, "A1", "B1")
    assert move(CALCORY, state, 0, "easy") == Action("stop")
    marked = calcory_position(2, {"A1": "r6", "B1": "g5", "C1": "k6", "D1": "y6"}, {0: ["k2"], 1: ["b2"]},
                              marked=("C1", "D1"), owner=1)
    flipped(marked, "A1", "B1")
    assert move(CALCORY, marked, 0, "easy").kind == "flip", "11 does not beat the marked 12"


# -- Mü -------------------------------------------------------------------------------------------
RED = ["r0", "r1a", "r1b", "r2", "r3", "r4", "r5", "r6", "r7a", "r7b", "r8", "r9"]


def test_mu_a_hand_of_one_colour_bids_and_strong_jumps_when_behind():
    state = mu_position(3, {0: RED}, dealer=0)
    assert move(MU, state, 0, "easy").kind == "bid"
    assert move(MU, state, 0, "strong").kind == "bid"
    behind = mu_position(3, {2: RED}, dealer=0)
    MU.apply(behind, 0, Action("bid", behind.hidden[0][0]))
    MU.apply(behind, 1, Action("bid", ".".join(behind.hidden[1][:2])))
    arms = BRAINS["mu"].candidates(MU, behind, 2, MU.legal_actions(behind, 2))
    assert any(a.kind == "bid" and a.arg.count(".") >= 2 for a in arms), "bids of three cards at once"
    assert move(MU, behind, 2, "strong").arg.count(".") >= 2, "a lone bid card would leave it behind"


def test_mu_strong_alone_on_top_does_not_raise_beyond_its_hand():
    """Five greens laid out, alone on top: the hand (green 2-8, two plain nines) carries four cards
    and the strong player one more, so a sixth would only add to what a Chef who misses pays."""
    hand = ["g2", "g3", "g4", "g5", "g6", "g8", "r9", "b9", "k1a", "k2", "y3", "y4", "b0", "r0", "k0"]
    state = mu_position(4, {0: hand}, dealer=0)
    for seat, arg in [(0, "g2"), (1, "2"), (2, ""), (3, ""), (0, "g3.g4"), (1, "2"), (2, ""), (3, ""),
                      (0, "g5.g6"), (1, ""), (2, ""), (3, "")]:
        if arg.isdigit():
            arg = ".".join(state.hidden[seat][:int(arg)])
        MU.apply(state, seat, Action("bid", arg) if arg else Action("pass"))
    assert state.bids == [5, 4, 0, 0] and state.turn == 0
    for seed in range(4):
        assert move(MU, state, 0, "strong", seed) == Action("pass")


def test_mu_last_to_a_trick_wins_it_with_its_lowest_winner():
    hands = {0: ["g5", *RED[:11]], 1: ["g0", "g1a", "g1b", "g2", "g3", "g4", "b0", "b1a", "b1b", "b2", "b3", "b4"],
             2: ["g6", "g9", "g8", "b5", "b6", "b7a", "b7b", "b8", "b9", "g7a", "g7b", "r9"]}
    state = mu_position(3, hands, chef=0, chef_trump="none", shown={0: ["r8"]})
    MU.apply(state, 0, Action("play", "g5"))
    MU.apply(state, 1, Action("play", "g4"))
    assert move(MU, state, 2, "easy") == Action("play", "g6")


# -- Safarü ---------------------------------------------------------------------------------------
def test_safaru_easy_catches_the_unicorns_and_releases_its_cheapest_card():
    state = safaru_rig(hands={0: ("k3", "g9")}, table=("r1a", "r2", "g3"))
    assert move(SAFARU, state, 0, "easy") == Action("play", "k3/add=r1ar2/pair=g3")
    empty = safaru_rig(hands={0: ("r6", "g8")}, table=())
    assert move(SAFARU, empty, 0, "easy") == Action("play", "g8")


def test_safaru_strong_takes_the_unicorn_that_ties_the_majority():
    mine = ("r2", "r4", "r5", "r6", "r9")
    placed = {"k3", "g9", "g1a", "g1b", "r3", "b3", *mine}
    theirs = tuple(c for c in DECK if c not in placed)  # six reds among them
    state = safaru_rig(hands={0: ("k3", "g9"), 1: ("g1a", "g1b")}, table=("r3", "b3"), piles={0: mine, 1: theirs})
    assert not state.deck
    assert move(SAFARU, state, 0, "strong") == Action("play", "k3/pair=r3")


def test_safaru_strong_takes_the_unicorn_that_decides_the_majority_over_more_triangles():
    """Pairing the last free unicorn wins the 24 points for sure, while the catch worth seven
    triangles leaves it to the opponent's 8 (seventeen) and a shared award."""
    state = majority_decider()
    assert not state.deck
    assert move(SAFARU, state, 0, "easy") == Action("play", "k7b/sev=g4g6/pair=g7a"), "seven triangles"
    assert move(SAFARU, state, 0, "strong") == Action("play", "k9/pair=r9")


def majority_decider() -> SafaruState:
    """The last deal: six unicorns against five, the last one free, the deck empty."""
    mine, theirs = ("r1a", "r2", "r3", "r4", "r5", "r6"), ("r0", "r1b", "r7a", "r7b", "r8")
    table, hands = ("r9", "g4", "g6", "g7a"), {0: ("k9", "k7b"), 1: ("g8", "b5")}
    placed = {*mine, *theirs, *table, *hands[0], *hands[1]}
    rest = [c for c in DECK if c not in placed]
    return safaru_rig(hands=hands, table=table, piles={0: (*mine, *rest[:20]), 1: (*theirs, *rest[20:])})


def best_against_easy(state: SafaruState, seat: int) -> float:
    """``seat``'s final lead with every legal play of its own tried against the easy player's
    replies: the solver's reference."""
    if SAFARU.is_over(state):
        scores = SAFARU.result(state).scores
        return scores[seat] - max(p for s, p in enumerate(scores) if s != seat)
    if state.turn != seat:
        after = SAFARU.clone(state)
        SAFARU.apply(after, state.turn, move(SAFARU, state, state.turn, "easy"))
        return best_against_easy(after, seat)
    values = []
    for action in SAFARU.legal_actions(state, seat):
        after = SAFARU.clone(state)
        SAFARU.apply(after, seat, action)
        values.append(best_against_easy(after, seat))
    return max(values)


def test_safaru_strong_solves_the_last_deal_when_it_sees_every_card():
    """With the deck empty the one other hand is known (every other card was seen): the solver
    plays the move whose best continuation does best against the greedy replies the playouts
    model, as trying every play finds; the catch worth most would leave the deciding unicorn."""
    state = majority_decider()
    brain = BRAINS["safaru"]
    legal = SAFARU.legal_actions(state, 0)
    solved = brain.solve(SAFARU, state, 0, legal)
    assert solved == Action("play", "k9/pair=r9")
    values = {}
    for action in legal:
        after = SAFARU.clone(state)
        SAFARU.apply(after, 0, action)
        values[action] = best_against_easy(after, 0)
    assert values[solved] == max(values.values()) > values[Action("play", "k7b/sev=g4g6/pair=g7a")]


def test_safaru_strong_solves_a_last_deal_its_sampling_misjudges(monkeypatch) -> None:
    """Seat 0 holds the last unicorn (r2) at six against five; the sampling search released it,
    the solver makes seventeen with an 8 and keeps its options: 21 points better against easy."""
    mine = ("b6", "r6", "k7a", "k7b", "b7a", "g7a", "g1b", "y1b", "b5", "k5", "g4", "r4", "k2", "y2", "y0",
            "k1b", "k9", "r3", "g3", "k4", "y7b", "r7a", "b9", "g9", "y1a", "y6", "b0", "k3", "b8", "r8")
    theirs = ("g6", "k6", "g5", "r5", "r9", "y3", "y4", "g0", "b2", "g2", "b1a", "b1b", "r0", "k8", "b7b",
              "r7b", "g1a", "r1b", "y7a", "g7b", "k1a", "r1a")
    state = safaru_rig(hands={0: ("r2", "y8", "g8"), 1: ("b3", "b4")}, table=("k0", "y9", "y5"),
                       piles={0: mine, 1: theirs})
    assert not state.deck
    legal = SAFARU.legal_actions(state, 0)

    def against_easy(action: Action) -> float:
        after = SAFARU.clone(state)
        SAFARU.apply(after, 0, action)
        return best_against_easy(after, 0)

    solved = move(SAFARU, state, 0, "strong")
    assert against_easy(solved) == max(map(against_easy, legal)) == -4
    monkeypatch.setattr(computer, "SOLVE_NODES", 0)  # the search alone
    assert against_easy(move(SAFARU, state, 0, "strong")) == -25


def test_safaru_strong_leaves_to_the_search_what_it_cannot_see_or_solve(monkeypatch) -> None:
    brain = BRAINS["safaru"]
    state = majority_decider()
    state.deck = [state.piles[1][-1]]  # one card still face down
    state.piles[1] = state.piles[1][:-1]
    assert brain.solve(SAFARU, state, 0, SAFARU.legal_actions(state, 0)) is None
    state = majority_decider()
    monkeypatch.setattr(computer, "SOLVE_NODES", 2)
    assert brain.solve(SAFARU, state, 0, SAFARU.legal_actions(state, 0)) is None
    assert move(SAFARU, state, 0, "strong") == Action("play", "k9/pair=r9")  # the search finds it too


def test_safaru_playouts_catch_what_is_worth_most_as_the_easy_player_does():
    """Pairing the blue 6 (two triangles and the 6) beats pairing the yellow 5 by half a point: the
    playouts take it every time, as the greedy player they model would."""
    state = safaru_rig(hands={0: ("k5", "k6")}, table=("b6", "y5"))
    brain = BRAINS["safaru"]
    assert move(SAFARU, state, 0, "easy") == Action("play", "k6/pair=b6")
    assert {brain.policy(SAFARU, state, 0, random.Random(n)) for n in range(20)} == {Action("play", "k6/pair=b6")}


def test_safaru_playouts_find_the_easy_players_catch_on_a_crowded_table():
    """Seven free cards give the y7b thirty-two catches; the one the easy player makes (three
    unicorns, seven triangles and a baby) comes late in the list, and the playouts, which model
    it, make it too (a list cut at twelve a card played the y0 for four points less)."""
    state = safaru_rig(hands={0: ("r8", "y0", "y1a", "y7b")}, table=("g1a", "y6", "r9", "r1a", "b6", "r7a", "k0"))
    brain = BRAINS["safaru"]
    easy = move(SAFARU, state, 0, "easy")
    assert easy == Action("play", "y7b/add=r1ay6/sev=r9g1ak0/pair=r7a")
    taken = brain.same(SAFARU, state, 0, easy)  # the same cards, however split between the methods
    assert {brain.same(SAFARU, state, 0, brain.policy(SAFARU, state, 0, random.Random(n))) for n in range(5)} == {taken}
    assert {brain.same(SAFARU, state, 0, brain.playout_move(SAFARU, state, 0, 0, random.Random(n)))
            for n in range(5)} == {taken}


def unicorn_race(mine: tuple[str, ...], theirs: tuple[str, ...], hand: tuple[str, str],
                 table: tuple[str, str]) -> SafaruState:
    """Seat 0 to play, the deck still full enough for more deals, the unicorns caught so far in the piles."""
    return safaru_rig(hands={0: hand}, table=table, piles={0: mine, 1: theirs})


def test_safaru_playouts_catch_for_the_seat_by_the_majority_as_it_stands():
    """Five unicorns each, two still out: the free r1a (no triangles) moves seat 0's chance of the
    24 points by a quarter, six points, more than the four triangles of the 7s, which the easy
    player (and the model of the others) takes for their fixed share of a unicorn, three."""
    state = unicorn_race(("r2", "r3", "r4", "r5", "r6"), ("r0", "r8", "r9", "r1b", "r7a"),
                         hand=("g1a", "k7b"), table=("r1a", "g7b"))
    brain = BRAINS["safaru"]
    assert move(SAFARU, state, 0, "easy") == Action("play", "k7b/pair=g7b")
    for n in range(10):
        assert brain.playout_move(SAFARU, state, 0, 0, random.Random(n)) == Action("play", "g1a/pair=r1a")
        assert brain.playout_move(SAFARU, state, 0, 1, random.Random(n)) == brain.policy(
            SAFARU, state, 0, random.Random(n)) == Action("play", "k7b/pair=g7b"), "the others play as easy does"


def test_safaru_playouts_catch_triangles_for_the_seat_once_its_majority_is_decided():
    """Seven unicorns of twelve decide the majority: the two free ones are worth their triangles
    (two) to seat 0, less than pairing the 7s (four); easy still counts three a unicorn."""
    state = unicorn_race(("r0", "r2", "r3", "r4", "r5", "r6", "r8"), ("r9", "r1b"),
                         hand=("y8", "y7b"), table=("r1a", "r7b"))
    brain = BRAINS["safaru"]
    assert move(SAFARU, state, 0, "easy") == Action("play", "y8/add=r1ar7b")
    assert {brain.playout_move(SAFARU, state, 0, 0, random.Random(n)) for n in range(10)} == {
        Action("play", "y7b/pair=r7b")}


def test_safaru_strong_searches_the_catch_that_takes_a_close_majoritys_unicorn():
    """Five unicorns each, r5 free and r2 still in the deck: making seventeen with r5 (one
    triangle, a fish) moves seat 0's chance of the 24 points by a quarter, while the catches with
    the most triangles (the 7s, four) take none. Ranked by worth (a fixed three a unicorn) it came
    after six others, so the search never looked at it; ranked by the majority as it stands, it
    is each card's best, and the search plays it."""
    state = safaru_rig(hands={0: ("k2", "y2"), 1: ("g3", "k8")}, table=("r5", "k7a", "b9", "g7b", "y7b", "g1b"),
                       piles={0: ("r0", "r1a", "r6", "r7b", "r9"), 1: ("r1b", "r3", "r4", "r7a", "r8")})
    assert "r2" in state.deck
    assert "r5" not in computer.parse_catch(move(SAFARU, state, 0, "easy").arg).taken
    for seed in range(3):
        assert "r5" in computer.parse_catch(move(SAFARU, state, 0, "strong", seed).arg).taken


def released_g1a() -> SafaruState:
    """Seat 1 released its g1a where a 7 would have caught both unicorns (r2 r5); its b6 and y6
    had no catch there either."""
    state = safaru_rig(hands={0: ("k9", "g8"), 1: ("g1a", "b6", "y6")}, table=("r2", "r5"), turn=1)
    SAFARU.apply(state, 1, Action("play", "g1a"))
    return state


def test_safaru_a_card_fits_a_play_less_the_better_it_would_have_played():
    state = released_g1a()
    played = state.played[1]
    assert fit("y6", played) == 1.0  # nothing better than the release: fits fully
    assert fit("r7a", played) == PLAY_FLOOR  # r7a/add=r2r5 was there for the taking
    assert fit("r7a", ()) == 1.0  # no play yet: nothing to read


def test_safaru_strong_deals_the_reader_hands_that_fit_its_plays():
    """Seat 1's release leaves it unlikely to hold a 7 (both unicorns), a 2 or a 5 (a unicorn by
    pairing): seat 0's redeals give it such a card far less often than a plain redeal does, and
    weigh it no more (its hand was drawn by its plays)."""
    state = released_g1a()
    brain = BRAINS["safaru"]
    assert read_seat(state, 0) == 1 and read_seat(state, 1) is None  # seat 0 has not played yet

    def better(hand: tuple[str, ...]) -> bool:
        return any(fit(c, state.played[1]) < 0.5 for c in hand)

    plain = [SAFARU.resample(state, 0, random.Random(n)) for n in range(400)]
    read = [brain.determinize(SAFARU, state, 0, random.Random(n)) for n in range(400)]
    assert sum(better(w.hands[1]) for w in plain) > 160  # 18 such cards among 55 unseen
    assert sum(better(w.hands[1]) for w in read) < 40
    for world in read:
        assert sorted(SAFARU.cards(world)) == sorted(DECK) and len(world.hands[1]) == 2
        assert world.hands[0] == state.hands[0] and world.table == state.table
        assert brain.likelihood(SAFARU, world, 0) == 1.0


def test_safaru_strong_weighs_the_hands_of_seats_it_does_not_read():
    """At three players seat 0 reads seat 1, the next to play; seat 2's release still weighs a
    redeal that gives it a card with a much better play."""
    state = safaru_rig(3, hands={0: ("k9", "g8"), 1: ("g1a", "b6", "y6"), 2: ("y0", "g0", "k4")},
                       table=("r2", "r5"), turn=1)
    SAFARU.apply(state, 1, Action("play", "g1a"))
    SAFARU.apply(state, 2, Action("play", "y0"))
    brain = BRAINS["safaru"]
    assert read_seat(state, 0) == 1
    world = SAFARU.clone(state)
    world.hands[2] = ("r7a", "g0")
    world.deck[world.deck.index("r7a")] = "k4"
    assert brain.likelihood(SAFARU, world, 0) == PLAY_FLOOR
    world.hands[1] = ("r7b", "y6")  # seat 1's hand is drawn by its plays: no weight on it
    world.deck[world.deck.index("r7b")] = "b6"
    assert brain.likelihood(SAFARU, world, 0) == PLAY_FLOOR
    assert brain.likelihood(SAFARU, world, 1) == 1.0  # seat 1 reads seat 2, and knows its own hand


def test_safaru_strong_counts_a_redeal_less_when_it_contradicts_a_small_catch():
    """Seat 1 took two unicorns (r3 r4) with its g7a, where a redeal's y2 would have taken all
    three (seventeen): a catch, not only a release, tells what the other cards were not."""
    state = safaru_rig(hands={0: ("k9", "g8"), 1: ("g7a", "k1a")}, table=("r3", "r4", "r8"), turn=1)
    SAFARU.apply(state, 1, Action("play", "g7a/add=r3r4"))
    assert fit("k1a", state.played[1]) == 1.0  # k1a could only be released: fits fully
    assert fit("y2", state.played[1]) == PLAY_FLOOR


def test_safaru_strong_reads_plays_from_its_own_view_only():
    """Every redeal keeps the plays (everyone saw them), and the move is the same whatever
    cards seat 1 and the deck really hold."""
    state = released_g1a()
    action = move(SAFARU, state, 0, "strong")
    for n in range(3):
        other = SAFARU.resample(state, 0, random.Random(n))
        assert other.played == state.played
        assert move(SAFARU, other, 0, "strong") == action


# -- Rummü ----------------------------------------------------------------------------------------
def test_rummu_easy_takes_a_discard_that_completes_a_meld_and_then_lays_it_down():
    state = rummu_rig(hands={0: ("r3", "r4", "k9", "k1a", "b6", "b8", "k7a", "g0")}, discard=("y9", "r5"),
                      phase="draw", totals=(0, 0, 0))
    assert move(RUMMU, state, 0, "easy") == Action("takediscard", "1")
    RUMMU.apply(state, 0, Action("takediscard", "1"))
    assert RUMMU.legal_actions(state, 0) and move(RUMMU, state, 0, "easy").kind == "discard", \
        "three cards do not open (four needed)"
    opened = rummu_rig(hands={0: ("r3", "r4", "r5", "r6", "g9", "k1a", "b6", "b8")}, totals=(0, 0, 0))
    assert move(RUMMU, opened, 0, "easy") == Action("meld", "r3r4r5r6")


def test_rummu_strong_goes_out():
    state = rummu_rig(hands={0: ("r3", "r4", "r5", "r6", "g9"), 1: ("k2", "k5"), 2: ("b2", "b5")},
                      combos=((1, ("g1a", "g2", "g3", "g4")),), totals=(0, 0, 0))
    assert move(RUMMU, state, 0, "strong") == Action("meld", "r3r4r5r6")


def rummu_after_a_round():
    """Seat 0 at its draw, last in the round (seat 0 dealt: seats 1 and 2 have had their turns);
    seat 2 opened with a blue run, seat 1 has not. Neither holds anything it could lay."""
    state = rummu_rig(hands={0: ("r1a", "g3", "k5", "b7b", "r9", "g0", "k2", "b4", "y6"),
                             1: ("r0", "r4", "r8", "g2", "g6", "k0", "k4", "b2", "k8"),
                             2: ("r3", "g5", "k7a", "g8", "k1b")},
                      combos=((2, ("b5", "b6", "b7a", "b8")),), phase="draw", totals=(0, 0, 0))
    state.dealer = 0
    return state


def rummu_deal_to(state, seat: int, old: str, new: str) -> None:
    """A redeal that gave ``seat`` the draw pile's ``new`` where it holds ``old``."""
    state.hands[seat] = tuple(new if c == old else c for c in state.hands[seat])
    state.stock = [old if c == new else c for c in state.stock]


def test_rummu_strong_counts_a_redeal_less_when_a_seat_kept_back_what_it_could_lay():
    """Everyone lays what they can on their turn: a redeal in which a seat that has had one holds
    an opening meld, or (opened) a card for a combination, contradicts its play."""
    state = rummu_after_a_round()
    brain = BRAINS["rummu"]
    assert brain.likelihood(RUMMU, state, 0) == 1.0
    world = RUMMU.clone(state)
    for old, new in (("r0", "r3"), ("r8", "r5"), ("k8", "r6")):
        rummu_deal_to(world, 1, old, new)  # r3 r4 r5 r6 opens
    assert brain.likelihood(RUMMU, world, 0) == HELD_BACK
    rummu_deal_to(world, 2, "g8", "b9")  # b9 lays off on seat 2's own run
    assert brain.likelihood(RUMMU, world, 0) == HELD_BACK ** 2
    assert brain.likelihood(RUMMU, world, 2) == HELD_BACK, "a seat knows its own hand: nothing to weigh"
    world.dealer = 2  # seat 0 plays first: the others have not had a turn yet
    assert brain.likelihood(RUMMU, world, 0) == 1.0


def test_rummu_expert_judges_the_hands_a_round_later_than_the_strong_player():
    """Six times the playouts of one round won no more than the strong player: the expert plays
    each playout on to the seat's next draw before it judges the hands."""
    state = rummu_after_a_round()
    brain = BRAINS["rummu"]
    mark = brain.mark(RUMMU, state)
    strong, expert = RUMMU.clone(state), RUMMU.clone(state)
    brain.value(RUMMU, mark, strong, 0)
    brain.scaled(6).value(RUMMU, mark, expert, 0)
    assert strong.hands == state.hands and strong.stock == state.stock, "the strong player judges where it stopped"
    assert (expert.hand_no, expert.turn, expert.phase) == (state.hand_no, 0, "draw")
    assert expert.stock != state.stock and expert.hands != state.hands, "a round of turns played on"


def test_rummu_a_seat_after_the_strong_one_has_played_once_more_cards_left_the_pile_than_a_round():
    state = rummu_after_a_round()
    state.dealer = 2  # seat 0 plays first
    for old, new in (("r0", "r3"), ("r8", "r5"), ("k8", "r6")):
        rummu_deal_to(state, 1, old, new)
    fresh = len(DECK) - 3 * 9 - 1
    state.stock = state.stock[len(state.stock) - fresh + 1:]  # seat 0's own first draw: seat 1 still to come
    assert BRAINS["rummu"].likelihood(RUMMU, state, 0) == 1.0
    state.stock = state.stock[1:]  # a card more: seat 1 has drawn since
    assert BRAINS["rummu"].likelihood(RUMMU, state, 0) == HELD_BACK


# -- Kapado ---------------------------------------------------------------------------------------
def test_kapado_easy_draws_again_and_prefers_a_double_fit():
    own = [["b3"], ["a10"], ["c9"], ["d25"], ["b4"]]
    state = kapado_position(2, {0: own}, next_cards=("a14",))
    assert move(KAPADO, state, 0, "easy") == Action("up", "s0:1"), "a14 on a10: colour and divisor 2"
    KAPADO.apply(state, 0, Action("up", "s0:1"))
    assert state.phase == "extra"
    assert move(KAPADO, state, 0, "easy") == Action("draw")


def test_kapado_a_card_that_fits_nowhere_tries_the_locked_stack():
    own = [["b3", "a7"], ["c10"], ["d10"], ["c4"], ["d16"]]
    state = kapado_position(2, {0: own}, face_down=("a7",), next_cards=("b21",))
    assert {a.kind for a in KAPADO.legal_actions(state, 0)} == {"unlock", "down"}
    assert move(KAPADO, state, 0, "easy") == Action("unlock", "s0:0")


# -- Diabolo --------------------------------------------------------------------------------------
def test_diabolo_doubler_where_the_seat_surely_holds_most_and_not_where_it_holds_none():
    state = diabolo_position(3, {0: ["p5a", "p5b", "p4a", "r1a"], 1: ["p1a", "g1a"], 2: ["g1b", "r1b"]},
                             devil={"p": ["p1b"]}, angel={"p": ["p4b", "p2a"]}, draw=False)
    score_now(state)
    assert state.phase == "doubler" and DIABOLO.view(state, None).deciding == "p"
    assert move(DIABOLO, state, 0, "easy") == Action("doubler", "p")
    assert move(DIABOLO, state, 2, "easy") == Action("doubler", "none")
    assert move(DIABOLO, state, 0, "strong") == Action("doubler", "p")
