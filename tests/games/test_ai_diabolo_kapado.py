"""The strong Diabolo and Kapado players in rigged positions where the rules make the right move clear.

Diabolo: a doubler pays double only to the colour's top holder, and there is one per round.
Kapado: a card that fits a stack doubly (colour and number) earns an extra draw, and every drawn card
is owned at the end, so a double fit is taken and the extra draw always drawn.
"""

from __future__ import annotations

import copy
import random

from games import BRAINS
from games.base import Action
from games.computer import choose
from games.diabolo import GAME as DIABOLO
from games.diabolo import position as diabolo_position
from games.diabolo import score_now
from games.diabolo.computer import placements, placements_likelihood
from games.kapado import BRAIN as KAPADO_BRAIN
from games.kapado import GAME as KAPADO
from games.kapado.rules import position as kapado_position


def easy(game, state, seat: int) -> Action:
    return choose(game, state, seat, "easy", random.Random(0))


def strong(game, state, seat: int, seed: int = 0) -> Action:
    action = choose(game, state, seat, "strong", random.Random(seed))
    game.check(state, seat, action)
    return action


# -- Diabolo --------------------------------------------------------------------------------------
def test_diabolo_strong_saves_its_doubler_for_the_later_colour_it_surely_leads():
    """Purple pays first but the seat holds none; blue pays next and the seat holds 14 of it."""
    state = diabolo_position(3, {0: ["b5a", "b5b", "b4a", "r1a", "y1a", "g1a"],
                                 1: ["p5a", "p4a", "r1b", "y1b", "g1b", "r2a"],
                                 2: ["p5b", "p3a", "r1c", "y1c", "g1c", "r2b"]},
                             angel={"p": ["p2a", "p2b"], "b": ["b3a", "b3b"]}, devil={"p": ["p1a"], "b": ["b1a"]},
                             draw=False)
    score_now(state)
    assert DIABOLO.view(state, None).deciding == "p"
    for seed in range(3):
        assert strong(DIABOLO, state, 0, seed) == Action("doubler", "none")
    DIABOLO.apply(state, 0, Action("doubler", "none"))
    DIABOLO.apply(state, 1, Action("doubler", "p"))
    DIABOLO.apply(state, 2, Action("doubler", "p"))
    assert DIABOLO.view(state, None).deciding == "b"
    for seed in range(3):
        assert strong(DIABOLO, state, 0, seed) == Action("doubler", "b")


def test_diabolo_strong_closes_its_own_colour_for_the_angels_with_its_smallest_card_that_does():
    """Blue's last slot is on the angel side, devils ahead 5 to 3, and the seat holds most of blue: a 4
    closes it for the angels (7 to 5) and keeps the most blue in hand; a 1 would close it for the devils,
    and leaving it open lets another seat do that."""
    state = diabolo_position(3, {0: ["b5a", "b5b", "b4a", "b1a", "r1a", "y1a"]},
                             devil={"b": ["b2a", "b2b", "b1c"]}, angel={"b": ["b3a"]}, next_cards=("g1d",))
    for seed in range(3):
        assert strong(DIABOLO, state, 0, seed) == Action("angel", "b4a")


def test_diabolo_strong_commits_to_the_colour_it_clearly_leads():
    """The seat holds 17 of green (no other seat may hold more than the 4s and 5s left unseen) and the
    green row leans devil 3 to 0: it turns green towards the angels with a green card rather than
    spending the turn on another colour; a green card on the devil side would charge its own lead."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"],
                                 1: ["r5a", "r4a", "y3a", "p2a", "b2a", "g1b"],
                                 2: ["y5a", "r3a", "p5a", "b4a", "y2a", "g1c"]},
                             devil={"g": ["g2a", "g1a"]}, next_cards=("y1a",))
    for seed in range(3):
        action = strong(DIABOLO, state, 0, seed)
        assert action.kind == "angel" and action.arg.startswith("g"), action


def test_diabolo_strong_ends_the_round_while_its_colour_pays():
    """Red is closed; blue has one place left, on the angel side, and a card there closes it, which ends
    the round (two rows closed) with yellow leaning to the angels 5 to 0 and the seat holding its top 10
    (the table saw the seat's hand; the other yellows are in the draw pile). The heuristic judges a card
    by its own colour only and ranks that blue 1 fifth of the seat's distinct moves, below four cards
    sent to the devils; the search compares it and takes the sure 10 before anyone can tip yellow."""
    hands = {0: ["y5a", "y5b", "g2c", "g1a", "p1a", "b1a"], 1: ["r1c", "g2a", "p2a", "b2b", "y1a", "g3a"],
             2: ["r2c", "g2b", "p2b", "y1b", "p3a", "g3b"]}
    state = diabolo_position(3, hands, devil={"r": ["r1a", "r1b"], "b": ["b3a", "b2a", "b1c"]},
                             angel={"r": ["r5a", "r4a", "r3a"], "y": ["y3a", "y2a"], "b": ["b4a"]},
                             next_cards=("p4a",))
    state.known[0] = frozenset(hands[0])
    legal = DIABOLO.legal_actions(state, 0)
    narrow = copy.copy(BRAINS["diabolo"])
    narrow.keep = 4
    assert Action("angel", "b1a") not in narrow.candidates(DIABOLO, state, 0, legal)
    assert Action("angel", "b1a") in BRAINS["diabolo"].candidates(DIABOLO, state, 0, legal)
    for seed in range(4):
        assert strong(DIABOLO, state, 0, seed) == Action("angel", "b1a")


def test_diabolo_strong_compares_distinct_moves_and_not_copies_of_one_card():
    """The seat holds three red 1s and two yellow 1s: laying one red 1 to the devils leaves the table
    laying another would, so the search's ``keep`` candidates are ``keep`` different moves (copies took
    several of its few places, and the playouts split between moves that are one)."""
    state = diabolo_position(3, {0: ["r1a", "r1b", "r1c", "y1a", "y1b", "g5a"]},
                             devil={"p": ["p2a"]}, angel={"b": ["b3a"]}, next_cards=("g2a",))
    brain = BRAINS["diabolo"]
    legal = DIABOLO.legal_actions(state, 0)
    arms = brain.candidates(DIABOLO, state, 0, legal)
    kinds = {(a.kind, a.arg[:2]) for a in arms}
    assert len(arms) == len(kinds) == brain.keep, arms
    assert brain.same(DIABOLO, state, 0, Action("devil", "r1a")) == brain.same(DIABOLO, state, 0, Action("devil", "r1c"))
    assert brain.same(DIABOLO, state, 0, Action("devil", "r1a")) != brain.same(DIABOLO, state, 0, Action("angel", "r1a"))


def test_diabolo_strong_counts_every_redeal_of_its_view_alike():
    """The search averages playouts over redeals of what the seat cannot see. Weighing a redeal by a
    guess of where easy players keep their cards left a few redeals carrying most of the weight (the
    rest counted for little), so the search could not tell its candidates apart: every redeal counts
    the same, whatever the others' hidden hands and the rows' lean."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]},
                             devil={"g": ["g2a", "g1a"], "r": ["r5a", "r4a"]}, angel={"y": ["y5a", "y4a"]},
                             next_cards=("y1a",))
    rng = random.Random(4)
    for _ in range(20):
        world = DIABOLO.resample(state, 0, rng)
        assert BRAINS["diabolo"].likelihood(DIABOLO, world, 0) == 1.0


def test_diabolo_redeals_deal_a_colours_high_cards_to_the_seat_that_laid_it_to_the_angels():
    """Easy players lay a colour they lead on the angel side and keep its high cards, and send a colour
    they hold little of to the devils: redeals follow what each seat laid (measured odds, ``HELD``), so
    the red 4s and 5s nobody has seen go to seat 2 (two red angels) far more often than to seat 1 (two
    red devils), and every redeal keeps the cards the seat cannot see together."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]},
                             devil={"r": ["r1a", "r2a"]}, angel={"r": ["r1b", "r2b"]}, next_cards=("y1a",))
    state.laid[1] = [("devil", "r1a"), ("devil", "r2a")]
    state.laid[2] = [("angel", "r1b"), ("angel", "r2b")]
    high = {"r4a", "r4b", "r5a", "r5b"}
    held = [0, 0, 0]
    rng = random.Random(7)
    for _ in range(300):
        world = BRAINS["diabolo"].determinize(DIABOLO, state, 0, rng)
        assert world.hands[0] == state.hands[0]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert sorted(DIABOLO.cards(world)) == sorted(DIABOLO.cards(state))
        for s in (1, 2):
            held[s] += len(high & set(world.hands[s]))
    assert held[2] > 5 * held[1], held


def test_diabolo_strong_keeps_its_doubler_where_a_seat_laid_the_colour_to_the_angels():
    """Red pays first and the seat holds 7 of it, blue pays next and it holds 6. Seat 1 laid two red cards
    on the angel side, which easy players do with the colour they lead: it most likely holds red's 4s and
    5s and beats 7, so the seat keeps its doubler for blue (dealing the unseen reds at random, it
    spent it on red)."""
    state = diabolo_position(3, {0: ["r4a", "r3a", "b5a", "b1a", "g1a", "y1a"]},
                             angel={"r": ["r1a", "r2a"], "b": ["b2a", "b2b"]},
                             devil={"r": ["r1b"], "b": ["b1b"], "g": ["g3a"]}, draw=False)
    state.laid[1] = [("angel", "r1a"), ("angel", "r2a")]
    state.laid[2] = [("devil", "r1b"), ("devil", "g3a")]
    score_now(state)
    assert DIABOLO.view(state, None).deciding == "r"
    for seed in range(3):
        assert strong(DIABOLO, state, 0, seed) == Action("doubler", "none")


def test_diabolo_redeals_draw_the_others_hidden_doubler_choices_from_their_dealt_hands():
    """Seats 1 and 2 chose before seat 0; their choices stay hidden, so a redeal gives each the choice
    an easy player makes with the hand it dealt it (a coin would spend it on colours it cannot win)."""
    state = diabolo_position(3, {0: ["b5a", "b5b", "b4a", "r1a", "y1a", "g1a"]},
                             angel={"p": ["p2a", "p2b"]}, devil={"p": ["p1a"]}, draw=False)
    score_now(state)
    DIABOLO.apply(state, 1, Action("doubler", "p"))
    DIABOLO.apply(state, 2, Action("doubler", "none"))
    rng = random.Random(5)
    brain = BRAINS["diabolo"]
    for _ in range(40):
        world = brain.determinize(DIABOLO, state, 0, rng)
        for s in (1, 2):
            purple = sum(int(c[1]) for c in world.hands[s] if c[0] == "p")
            if purple == 0:
                assert world.choices[s] == "none", world.hands[s]
            expected = brain.policy(DIABOLO, world, s, random.Random(0))
            assert world.choices[s] == ("use" if expected.arg == "p" else "none")


def high_yellows_redealt(state) -> list[int]:
    """Yellow 4s and 5s each seat is dealt over 400 of seat 0's redeals of ``state`` (seeded); every
    redeal holds the same cards as the table."""
    high = {"y4a", "y4b", "y5a", "y5b"}
    held = [0, 0, 0]
    rng = random.Random(3)
    for _ in range(400):
        world = BRAINS["diabolo"].determinize(DIABOLO, state, 0, rng)
        assert sorted(DIABOLO.cards(world)) == sorted(DIABOLO.cards(state))
        for s in (1, 2):
            held[s] += len(high & set(world.hands[s]))
    return held


def test_diabolo_redeals_keep_the_high_cards_of_a_colour_away_from_the_seat_that_just_laid_it_to_the_devils():
    """Seat 1's latest placement was a yellow 1 on the devil side, its first card this round. An easy
    player tips a colour to the devils only when it holds little of it: with a yellow 4 or 5 in hand it
    would not have laid that card there, so no redeal gives it one (by the measured odds alone, ``HELD``,
    some did), and seat 2 still gets its share of them."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]}, devil={"y": ["y1b"]},
                             next_cards=("g1d",))
    state.laid[1] = [("devil", "y1b")]
    held = high_yellows_redealt(state)
    assert held[1] == 0 and held[2] > 60, held


def test_diabolo_placements_see_the_table_as_the_seat_saw_it_at_each_of_its_cards():
    """Seat 1 laid red to the angels, seat 2 red to the devils, seat 0 green, then seat 1 yellow and seat 2
    yellow, and seat 0 is on turn: seat 1 saw the red row without either red card (balance 0) and, at its
    yellow card, with both (balance -1) and seat 0's green; seat 2 saw red with seat 1's angel card (+2),
    then yellow with seat 1's yellow. After a discard the turn order no longer tells which placement came
    when, so nothing is read."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]}, devil={"r": ["r3a"], "y": ["y1a"]},
                             angel={"r": ["r2a"], "g": ["g2a"], "y": ["y4a"]}, next_cards=("g1d",))
    state.laid[1] = [("angel", "r2a"), ("angel", "y4a")]
    state.laid[2] = [("devil", "r3a"), ("devil", "y1a")]
    state.laid[0] = [("angel", "g2a")]
    (first, third), (second, fourth) = placements(state, 1), placements(state, 2)
    assert (first.side, first.card, first.balance[:3], first.laid[:3]) == ("angel", "r2a", (0, 0, 0), (0, 0, 0))
    assert (second.side, second.card, second.balance[:3], second.laid[:3]) == ("devil", "r3a", (2, 0, 0), (2, 0, 0))
    assert (third.card, third.balance[:3], third.laid[:3]) == ("y4a", (-1, 0, 2), (5, 0, 2))
    assert (fourth.card, fourth.balance[:3], fourth.laid[:3]) == ("y1a", (-1, 4, 2), (5, 4, 2))
    assert placements(state, 0)[0].laid[:3] == (5, 0, 0)
    state.laid[0] = []
    assert placements(state, 0) == ()  # laid nothing yet
    state.removed.append("y1b")
    assert placements(state, 1) == ()


def test_diabolo_reading_an_earlier_placement_leaves_out_the_cards_drawn_since():
    """Seat 1 laid a yellow 1 to the devils on an empty table, then a blue card. An easy player holding a
    yellow 5 then would not have tipped yellow against itself: a hand whose yellow 5 was there before is
    far less likely than the same hand whose yellow 5 is the one card drawn since (the hand is listed
    latest draw first)."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]}, devil={"y": ["y1b"], "r": ["r1a"]},
                             angel={"b": ["b3a"], "p": ["p2a"], "g": ["g3b"]}, next_cards=("g1d",))
    state.laid[1] = [("devil", "y1b"), ("angel", "b3a")]
    state.laid[2] = [("angel", "p2a"), ("devil", "r1a")]
    state.laid[0] = [("angel", "g3b")]
    hand = ["r2a", "g2a", "p3a", "b4a", "b5a"]
    seen = placements(state, 1)
    kept_before = placements_likelihood(seen, state.laid[1], ["r2a", "y5a", "g2a", "p3a", "b4a", "b5a"], 0.25)
    drawn_since = placements_likelihood(seen, state.laid[1], ["y5a", *hand], 0.25)
    assert kept_before < drawn_since / 5


def test_diabolo_redeals_keep_a_colours_high_cards_away_from_a_seat_that_laid_it_to_the_devils_before():
    """The same table: seat 1's latest card is blue, its yellow devil card came a round earlier. Reading
    every placement of the round, few redeals give seat 1 a yellow 4 or 5 (only as the card drawn since);
    by the measured odds of its colours (``HELD``) and its latest placement alone, 18 in these 400 did."""
    state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]}, devil={"y": ["y1b"], "r": ["r1a"]},
                             angel={"b": ["b3a"], "p": ["p2a"], "g": ["g3b"]}, next_cards=("g1d",))
    state.laid[1] = [("devil", "y1b"), ("angel", "b3a")]
    state.laid[2] = [("angel", "p2a"), ("devil", "r1a")]
    state.laid[0] = [("angel", "g3b")]
    held = high_yellows_redealt(state)
    assert held[1] <= 6 and held[2] > 2 * held[1], held


def test_diabolo_strong_tips_the_row_of_the_match_leader_to_the_devils():
    """Seat 0 can close red or yellow for the devils with a 1; seat 1 holds 14 red, seat 2 14 yellow, and
    the table saw both hands. The match is won against the leader, so the seat costs the leader its 14
    points: red while seat 1 leads the match, yellow while seat 2 does (the round's points alone make the
    two alike)."""
    hands = {0: ["r1a", "y1a", "g1a", "g1b", "p1a", "b1a"], 1: ["r5a", "r5b", "r4a", "g2a", "p2a", "b2a"],
             2: ["y5a", "y5b", "y4a", "g2b", "p2b", "b2b"]}
    for leader, card in ((1, "r1a"), (2, "y1a")):
        state = diabolo_position(3, hands, devil={"r": ["r2a", "r2b"], "y": ["y2a", "y2b"]},
                                 angel={"r": ["r3a", "r1b"], "y": ["y3a", "y1b"]}, next_cards=("g3a",))
        state.known[1], state.known[2] = frozenset(hands[1]), frozenset(hands[2])
        state.totals[leader] = 30
        for seed in range(3):
            assert strong(DIABOLO, state, 0, seed) == Action("devil", card)


def test_diabolo_playouts_in_the_last_round_count_a_lead_as_far_as_it_decides_who_finishes_first():
    """In the match's first round every point of a playout's lead counts; in its last round only finishing
    first does, so being 40 points ahead is worth hardly more than 15 ahead, and being 40 behind hardly
    less than 15 behind: a seat far behind then takes the gamble that could carry it past the leader."""
    brain = BRAINS["diabolo"]
    values = {}
    for round_no in (0, 2):
        for lead in (-40, -15, 15, 40):
            state = diabolo_position(3, {0: ["g5a", "g5b", "g4a", "g3a", "p1a", "b1a"]}, next_cards=("g1d",))
            state.round_no = round_no
            state.totals = [50 + lead, 50, 20]
            values[round_no, lead] = brain.value(DIABOLO, brain.mark(DIABOLO, state), state, 0)
    assert [values[0, lead] for lead in (-40, -15, 15, 40)] == [-40, -15, 15, 40]
    assert 0 < values[2, 40] - values[2, 15] < 1 and 0 < values[2, -15] - values[2, -40] < 1
    assert values[2, 15] > 9 and values[2, -15] < -9


def test_diabolo_playouts_play_the_judged_seat_by_the_hands_of_the_world_played_out():
    """Seat 0 holds red 9 and tips a row. In a world where seat 1 holds red 12, the judged seat's playout
    move sends red to the devils; where seat 1 holds yellow 12 instead and no one else more red, it sends
    yellow there. Judged for another seat, seat 0 plays the easy player's choice, which cannot see the
    dealt hands and lays the same card in both worlds."""
    moves = []
    for cards in (["r5b", "r4b", "r3a"], ["y5b", "y4b", "y3a"]):
        world = diabolo_position(3, {0: ["r5a", "r4a", "y1a", "g2a", "p2a", "b1a"],
                                     1: [*cards, "g1a", "p1a", "b1b"],
                                     2: ["g1b", "g1c", "p1b", "p1c", "b1c", "y1b"]},
                                 devil={"r": ["r1a"]}, angel={"r": ["r2a"]}, next_cards=("g3a",))
        brain = BRAINS["diabolo"]
        own = brain.playout_move(DIABOLO, world, 0, 0, random.Random(0))
        other = brain.playout_move(DIABOLO, world, 0, 1, random.Random(0))
        assert other == brain.policy(DIABOLO, world, 0, random.Random(0))
        moves.append((own, other))
    (red, first), (yellow, second) = moves
    assert red.kind == "devil" and red.arg[0] == "r"
    assert yellow == Action("devil", "y1a")
    assert first == second


# -- Kapado ---------------------------------------------------------------------------------------
OWN = [["b3"], ["a10"], ["c9"], ["d25"], ["b4"]]


def test_kapado_strong_lays_a_card_where_it_fits_doubly_and_draws_again():
    state = kapado_position(2, {0: OWN}, next_cards=("a14",))
    assert strong(KAPADO, state, 0) == Action("up", "s0:1"), "a14 on a10: colour and divisor 2"
    KAPADO.apply(state, 0, Action("up", "s0:1"))
    assert state.phase == "extra"
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("draw")


def test_kapado_strong_takes_with_a_wish_card_rather_than_keeping_it():
    """Taking moves a card from the opponent to the seat: two cards' difference more than keeping."""
    state = kapado_position(2, {0: OWN, 1: [["a12"], ["c25"], ["d7"], ["b21"], ["c27"]]}, next_cards=("w1",))
    assert state.phase == "wish"
    assert strong(KAPADO, state, 0).kind == "take"


def test_kapado_strong_takes_the_double_fit_now_over_keeping_its_best_top():
    """a15 fits a36 doubly (colour and divisor 3) and b3 singly. Easy weighs its tops over the whole
    game and keeps a36 for later; a top lasts a few turns only, so strong lays a15 on a36 and draws."""
    state = kapado_position(2, {0: [["a36"], ["b3"], ["c9"], ["d25"], ["b4"]]}, next_cards=("a15",))
    assert easy(KAPADO, state, 0) == Action("up", "s0:1")
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("up", "s0:0")


def test_kapado_strong_keeps_the_top_whose_double_fits_are_still_to_come():
    """d25 fits a35 and b35 by the divisor 5 only. Every a card that would fit a35 doubly lies face up
    on the opponent's stacks, so a35 will never earn an extra draw: strong covers it and keeps b35."""
    opponent = [["a1", "a5", "a7"], ["a10", "a14", "a15"], ["a20", "a21"], ["a25", "a28"], ["a30", "b2"]]
    state = kapado_position(2, {0: [["a35"], ["b35"], ["c8"], ["c4"], ["c16"]], 1: opponent},
                            next_cards=("d25",))
    assert set(KAPADO.legal_actions(state, 0)) == {Action("up", "s0:0"), Action("up", "s0:1")}
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("up", "s0:0")


def test_kapado_strong_weighs_its_next_draw_and_keeps_a_top_of_every_colour():
    """b7 fits d7 (divisor 7), b32 and b5 (colour) singly, and covering d7 or b5 leaves as many
    unseen cards fitting a top doubly. Counted that far the choices tie and the first, d7, was
    covered; but then no top takes d3, d6, d9 or d18 (the 2 is banned, and every other d card is
    face up), so the next of those would go face down and lock a stack. Strong weighs the draw after
    this one and covers b5, keeping its only d top."""
    own = [["c15", "c3", "a18", "a7", "a3", "a2"], ["d15", "d16", "d32", "d28", "d7"],
           ["b25", "a35", "a14", "a5", "b15", "c9", "c36", "b32"],
           ["a4", "a6", "a32", "b4", "b20", "b2", "b24", "b3", "b5"], ["c24", "c28", "c20", "c18", "c32"]]
    opponent = [["d2", "d10", "d30", "d24", "d20", "d35", "d5", "d14", "d8", "d12", "d25"],
                ["a27", "b27", "d27", "b9", "b35", "a21"], ["c2", "b1", "b12"],
                ["c27", "c5", "c30", "c14", "c8", "c16", "c10"], ["c21", "c4", "a16", "a28"]]
    state = kapado_position(2, {0: own, 1: opponent}, banned=(2,), next_cards=("b7",))
    assert set(KAPADO.legal_actions(state, 0)) == {Action("up", "s0:1"), Action("up", "s0:2"), Action("up", "s0:3")}
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("up", "s0:3")


def test_kapado_strong_keeps_the_top_a_lifted_ban_would_open():
    """b25 fits a10 and a5 singly (divisor 5). Under the 2-ban both take the same a cards doubly (the
    multiples of 5 and the 1), so counted under the bans in force the places tie and the first, a10,
    was covered. But two 2-ban cards are still in the pile, and the next one drawn lifts the ban: then
    a10 takes every even a card doubly as well. Strong covers a5."""
    state = kapado_position(2, {0: [["a10"], ["d2"], ["c3"], ["d28"], ["a5"]]}, banned=(2,), next_cards=("b25",))
    state.pile.remove("v2a")
    state.middle.append("v2a")
    assert set(KAPADO.legal_actions(state, 0)) == {Action("up", "s0:0"), Action("up", "s0:4")}
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("up", "s0:4")


def test_kapado_strong_takes_the_top_it_can_lay_doubly():
    """With a wish card easy takes the top that most cards fit doubly (a12); strong takes b21, which
    fits its own b14 doubly (colour and divisor 7): the take earns an extra draw at once."""
    own = [["b14"], ["b3"], ["c9"], ["d25"], ["b4"]]
    opponent = [["b5", "a7"], ["c3", "a12"], ["d7"], ["b21"], ["c27"]]
    state = kapado_position(2, {0: own, 1: opponent}, face_down=("b5",), next_cards=("w1",))
    assert easy(KAPADO, state, 0) == Action("take", "a12")
    for seed in range(3):
        taken = strong(KAPADO, state, 0, seed)
        assert taken == Action("take", "b21")
    KAPADO.apply(state, 0, taken)
    laid = strong(KAPADO, state, 0)
    assert laid in (Action("up", "s0:0"), Action("up", "s0:1")), "b21 fits b14 (7) and b3 (3) doubly"
    KAPADO.apply(state, 0, laid)
    assert state.phase == "extra"


def test_kapado_strong_favourite_reads_only_the_seats_view():
    """The favourite weighs unseen cards and the opponent's tops: a redeal of the pile, the face-down
    cards and the hidden drawn card leaves it unchanged, wish cards and places alike."""
    rng = random.Random("kapado-favourite")
    checked = {"place": 0, "wish": 0}
    for n in range(60):
        state = KAPADO.setup(2, KAPADO.default_options(), f"favourite-{n}")
        for _ in range(rng.randrange(0, 120)):
            if KAPADO.is_over(state):
                break
            seat = min(KAPADO.to_act(state))
            KAPADO.apply(state, seat, rng.choice(KAPADO.legal_actions(state, seat)))
        if KAPADO.is_over(state) or state.phase not in checked:
            continue
        seat = state.current
        legal = KAPADO.legal_actions(state, seat)
        favourite = KAPADO_BRAIN.default(KAPADO, state, seat, legal, random.Random(n))
        for k in range(3):
            other = KAPADO.resample(state, seat, random.Random(k))
            assert KAPADO_BRAIN.default(KAPADO, other, seat, legal, random.Random(n)) == favourite
        checked[state.phase] += 1
    assert checked["place"] >= 10 and checked["wish"] >= 1, checked


def test_kapado_strong_tries_the_locked_stack_whose_key_may_fit():
    """b21 fits no open top. A card goes face down only where it fits no open top, so the key on b3
    is no b card and can never fit b21 doubly; the key on a5 may be one: strong tries that stack."""
    own = [["b3", "d7"], ["a5", "d9"], ["c8"], ["c4"], ["c16"]]
    state = kapado_position(2, {0: own}, face_down=("d7", "d9"), next_cards=("b21",))
    assert {a.kind for a in KAPADO.legal_actions(state, 0)} == {"unlock", "down"}
    for seed in range(3):
        assert strong(KAPADO, state, 0, seed) == Action("unlock", "s0:1")
