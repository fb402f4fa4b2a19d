"""Kapado: every worked case (KA-01 … KA-21), the decisions docs/rules-decisions.md D6, D10 and D13,
edge cases and the generic invariants for 2–7 players.

Positions are rigged with ``games.kapado.position`` (documented there): chosen stacks, the next
cards of the draw pile and the bans in force; the current player has already drawn the first of
``next_cards``. Card ids are colour letter + value: the worked cases' ``8A`` is ``a8``.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.i18n import catalogue
from games.base import Action, IllegalAction, random_playout
from games.kapado import GAME, Options, position
from games.kapado.cards import DECK, DOUBLE, NONE, SINGLE, DeckError, fit, load_deck
from tests.games.invariants import check_playouts

B0 = frozenset()
B2 = frozenset({2})
B5 = frozenset({5})
B25 = frozenset({2, 5})


def refused(state, seat: int, key: str) -> IllegalAction:
    """Apply a move that must be refused; return the refusal for its reason."""
    before = GAME.view(state, None)
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, Action.parse(key))
    assert GAME.view(state, None) == before, "a refused move changed the table"
    return info.value


def keys(state, seat: int = 0) -> set[str]:
    return {a.key for a in GAME.legal_actions(state, seat)}


def stack(state, sid: str):
    seat, index = (int(x) for x in sid[1:].split(":"))
    return GAME.view(state, None).stacks[seat][index]


# -- KA-01 … KA-08: the fit relation ----------------------------------------------------------------

def test_ka01_two_ban_forbids_eight_on_ten():
    assert fit("a8", "b10", B2) == NONE


def test_ka02_two_ban_keeps_divisor_four():
    assert fit("a8", "b12", B2) == SINGLE


def test_ka03_without_bans_divisor_and_colour():
    assert fit("a8", "b10", B0) == SINGLE
    assert fit("a8", "a10", B0) == DOUBLE


def test_ka04_colour_alone_under_the_two_ban_is_single():
    assert fit("a8", "a10", B2) == SINGLE
    state = position(2, {0: [["a10"], ["b3"], ["c3"], ["d3"], ["b9"]]}, next_cards=("a8",), banned=(2,))
    GAME.apply(state, 0, Action("up", "s0:0"))
    assert state.current == 1, "a single fit ends the turn"


def test_ka05_five_ban():
    assert fit("a15", "b10", B5) == NONE
    assert fit("a25", "b35", B5) == NONE
    assert fit("a10", "b30", B5) == SINGLE


def test_ka06_both_bans_leave_ten():
    assert fit("a10", "b20", B25) == SINGLE
    assert fit("a6", "b10", B25) == NONE


def test_ka07_divisors_without_bans():
    assert fit("a7", "b14", B0) == SINGLE
    assert fit("a9", "b21", B0) == SINGLE
    assert fit("a7", "b9", B0) == NONE


def test_ka08_one_is_a_joker_even_under_bans():
    for banned in (B0, B2, B5, B25):
        assert fit("a1", "a7", banned) == DOUBLE
        assert fit("a1", "b7", banned) == SINGLE
        assert fit("c9", "c1", banned) == DOUBLE
    assert fit("d8", "a1", B25) == SINGLE


# -- KA-09 … KA-11: ban cards ------------------------------------------------------------------------

def test_ka09_ban_card_switches_on_and_player_draws_again():
    state = position(2, next_cards=("v2a", "a7"))
    assert state.middle == ["v2a"]
    assert state.banned == B2
    assert state.current == 0 and state.drawn == "a7"
    assert GAME.view(state, None).banned == (2,)


def test_ka10_second_ban_card_lifts_the_ban():
    state = position(2, next_cards=("v2b", "a7"), banned=(2,))
    assert state.banned == B0
    assert state.middle == ["v2b"]
    assert state.current == 0 and state.drawn == "a7"


def test_ka11_five_ban_joins_the_two_ban():
    state = position(2, next_cards=("v5a", "a7"), banned=(2,))
    assert state.banned == B25
    assert state.current == 0 and state.drawn == "a7"


# -- KA-12 … KA-16: face-down cards, unlocking, dead stacks -------------------------------------------

OWN = [["b8"], ["c9"], ["d10"], ["b4"], ["c6"]]


def test_ka12_card_that_fits_nowhere_goes_face_down():
    state = position(2, {0: OWN}, next_cards=("a7",))
    assert keys(state) == {f"down:s0:{i}" for i in range(5)}
    GAME.apply(state, 0, Action("down", "s0:2"))
    seen = stack(state, "s0:2")
    assert seen.lock == "locked"
    assert seen.cards == ("d10", None) and seen.face_down == (False, True)
    assert GAME.view(state, 0).stacks[0][2].cards[-1] is None, "hidden from the owner too (D30)"
    assert state.current == 1


def test_ka13_face_down_refused_when_the_card_fits():
    own = [["b8"], ["c9"], ["d10"], ["b4"], ["b14"]]
    state = position(2, {0: own}, next_cards=("a7",))
    assert refused(state, 0, "down:s0:0").reason == "kapado.fits_somewhere"
    assert keys(state) == {"up:s0:4"}


def locked_position(drawn: str, **kw):
    """Seat 0's stack s0:0 is locked by the face-down key a7; ``drawn`` is in seat 0's hand."""
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    return position(2, {0: own}, face_down=("a7",), next_cards=(drawn,), **kw)


def test_ka14_double_fit_on_the_key_unlocks():
    state = locked_position("a14")
    assert "unlock:s0:0" in keys(state)
    events = GAME.apply(state, 0, Action("unlock", "s0:0"))
    seen = stack(state, "s0:0")
    assert seen.lock == "open" and seen.top == "a14"
    assert seen.cards == ("b3", "a7", "a14"), "the key is shown when it is tried"
    assert state.phase == "extra" and state.current == 0
    assert keys(state) == {"draw", "stop"}
    assert any(e.kind == "unlock" and e.data["opened"] for e in events)


def test_ka15_wrong_unlock_kills_the_stack():
    state = locked_position("b21")
    GAME.apply(state, 0, Action("unlock", "s0:0"))
    seen = stack(state, "s0:0")
    assert seen.lock == "dead" and seen.top == "b21" and seen.count == 3
    assert state.current == 1, "the turn ends"
    assert GAME.view(state, None).counts[0] == 7, "dead stacks still count"


def test_ka16_dead_stack_refuses_cards():
    state = position(2, {0: [["b3", "c5"], ["c9"], ["d10"], ["b4"], ["c6"]]}, dead=("s0:0",),
                     next_cards=("a14",))
    assert refused(state, 0, "up:s0:0").reason == "kapado.stack_dead"
    assert "up:s0:0" not in keys(state)
    assert sum(1 for s in GAME.view(state, 0).stacks[0] if s.lock != "dead") == 4


# -- KA-17, KA-18: wish cards ----------------------------------------------------------------------------

def test_ka17_wish_card_takes_a_card_that_fits_doubly():
    state = position(
        2, {0: [["a8"], ["c9"], ["d3"], ["b3"], ["c3"]], 1: [["c5", "a12"], ["b9"], ["c21"], ["d9"], ["b27"]]},
        next_cards=("w1",),
    )
    assert state.phase == "wish"
    assert "take:a12" in keys(state)
    GAME.apply(state, 0, Action("take", "a12"))
    assert stack(state, "s1:0").top == "c5"
    assert state.wishes[0] == ("w1",)
    assert GAME.view(state, 1).drawn == "a12", "a taken card is public"
    GAME.apply(state, 0, Action("up", "s0:0"))
    assert stack(state, "s0:0").top == "a12"
    assert state.phase == "extra" and state.current == 0


NO_FIT_OWN = [["a7"], ["a21"], ["a35"], ["a9"], ["a25"]]
NO_FIT_THEIRS = [["b2"], ["b4"], ["b8"], ["b16"], ["b32"]]


def test_ka18_wish_card_with_nothing_to_take_is_kept():
    state = position(2, {0: NO_FIT_OWN, 1: NO_FIT_THEIRS}, next_cards=("w2",))
    assert keys(state) == {"keep"}
    assert refused(state, 0, "take:b2").reason == "kapado.taken_card_no_place"
    GAME.apply(state, 0, Action("keep"))
    assert state.wishes[0] == ("w2",)
    assert state.current == 1
    assert GAME.view(state, None).counts[0] == 6, "a kept wish card counts"


# -- KA-19 … KA-21: end of the game, counting, the deck ------------------------------------------------

def test_ka19_ban_card_as_the_last_card_ends_the_game():
    state = position(2, {0: [["b7"], ["c9"], ["d10"], ["b4"], ["c6"]]}, pile=["a14", "v5a"])
    GAME.apply(state, 0, Action("up", "s0:0"))  # a14 on b7: single, turn passes
    assert GAME.is_over(state)
    assert state.middle == ["v5a"] and state.banned == B5
    assert GAME.to_act(state) == frozenset()


def _cards(n: int, pool: list[str]) -> list[str]:
    out = pool[:n]
    del pool[:n]
    return out


def test_ka20_counting_includes_dead_stacks_and_wish_cards_and_ties_share():
    pool = [c for c in DECK.ids if c[0] in "abcd"]
    p1 = [_cards(n, pool) for n in (4, 3, 6, 2, 3)]
    p2 = [_cards(n, pool) for n in (5, 5, 4, 3, 2)]
    state = position(2, {0: p1, 1: p2}, dead=("s0:4",), wishes={0: ["w1"]}, pile=[])
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result.scores == (19, 19)
    assert result.winners == frozenset({0, 1}) and result.shared
    lines = {(line.seat, line.label): line.points for line in result.breakdown[0].lines}
    assert lines == {(0, "kapado.line_stacks"): 18, (0, "kapado.line_wishes"): 1, (1, "kapado.line_stacks"): 19}


def test_ka21_placeholder_deck():
    cards = DECK.cards
    assert len(cards) == 109
    assert DECK.reconstruction
    for colour in "abcd":
        mine = [c for c in cards if c.colour == colour]
        assert len(mine) == 25
        assert sum(1 for c in mine if c.value == 1) == 1
    assert sum(1 for c in cards if c.kind == "wish") == 3
    assert sorted(c.id for c in cards if c.kind == "ban") == ["v2a", "v2b", "v2c", "v5a", "v5b", "v5c"]
    assert len(set(DECK.ids)) == 109


# -- edges -----------------------------------------------------------------------------------------------

def test_banned_divisor_is_refused_with_its_reason():
    state = position(2, {0: [["b10"], ["c9"], ["d3"], ["b3"], ["c3"]]}, next_cards=("a8",), banned=(2,))
    err = refused(state, 0, "up:s0:0")
    assert err.reason == "kapado.divisor_banned" and err.params == {"divisor": 2}
    assert refused(state, 0, "up:s0:1").reason == "kapado.no_fit"
    assert refused(state, 0, "up:s1:0").reason == "kapado.not_your_stack"
    assert refused(state, 1, "up:s1:0").reason == "core.not_your_turn"


def test_one_fits_every_stack_under_both_bans():
    state = position(2, {0: [["b10"], ["c9"], ["d8"], ["b25"], ["c6"]]}, next_cards=("a1",), banned=(2, 5))
    assert keys(state) == {f"up:s0:{i}" for i in range(5)}
    state = position(2, {0: [["b1"], ["c9"], ["d8"], ["b25"], ["c6"]]}, next_cards=("a10",), banned=(2, 5))
    assert "up:s0:0" in keys(state)


def test_double_fit_offers_another_draw():
    state = position(2, {0: [["a10"], ["c9"], ["d3"], ["b3"], ["c3"]]}, next_cards=("a8", "b7"))
    GAME.apply(state, 0, Action("up", "s0:0"))
    assert state.phase == "extra" and GAME.to_act(state) == frozenset({0})
    assert refused(state, 0, "up:s0:1").reason == "kapado.decide_extra_draw"
    GAME.apply(state, 0, Action("draw"))
    assert state.current == 0 and state.drawn == "b7"
    other = position(2, {0: [["a10"], ["c9"], ["d3"], ["b3"], ["c3"]]}, next_cards=("a8", "b7"))
    GAME.apply(other, 0, Action("up", "s0:0"))
    GAME.apply(other, 0, Action("stop"))
    assert other.current == 1 and other.drawn == "b7"


def test_auto_extra_draw_option_draws_at_once():
    state = position(2, {0: [["a10"], ["c9"], ["d3"], ["b3"], ["c3"]]}, next_cards=("a8", "b7"),
                     options=Options(auto_extra_draw=True))
    GAME.apply(state, 0, Action("up", "s0:0"))
    assert state.phase == "place" and state.current == 0 and state.drawn == "b7"


def test_dead_stack_never_comes_back():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, face_down=("a7",), next_cards=("b21",))
    GAME.apply(state, 0, Action("unlock", "s0:0"))  # b21 on key a7: single fit -> dead
    assert stack(state, "s0:0").lock == "dead"
    for _ in range(30):  # play on; the dead stack is never offered again
        if state.current == 0 and state.phase == "place":
            assert all(not k.endswith("s0:0") for k in keys(state))
        GAME.apply(state, state.current, GAME.legal_actions(state, state.current)[0])
    while state.current != 0 or state.phase != "place":
        GAME.apply(state, state.current, GAME.legal_actions(state, state.current)[0])
    assert all(not k.endswith("s0:0") for k in keys(state))
    assert refused(state, 0, "unlock:s0:0").reason == "kapado.dead_cannot_unlock"
    assert stack(state, "s0:0").lock == "dead"
    assert stack(state, "s0:0").cards == ("b3", "a7", "b21"), "nobody builds on or takes from it"


def test_face_down_goes_on_a_live_stack_while_one_exists():
    own = [["b8"], ["c9"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, dead=("s0:0", "s0:1"), next_cards=("a7",))
    assert keys(state) == {"down:s0:2", "down:s0:3", "down:s0:4"}
    assert refused(state, 0, "down:s0:0").reason == "kapado.stack_dead"


def test_all_stacks_dead_card_goes_on_a_dead_stack_which_stays_dead():
    own = [["b8"], ["c9"], ["d10"], ["b4"], ["c6"]]
    dead = tuple(f"s0:{i}" for i in range(5))
    state = position(2, {0: own}, dead=dead, next_cards=("a14",))
    assert keys(state) == {f"down:s0:{i}" for i in range(5)}
    GAME.apply(state, 0, Action("down", "s0:3"))
    assert stack(state, "s0:3").lock == "dead"
    assert stack(state, "s0:3").cards == ("b4", None)


def test_face_down_on_a_locked_stack_makes_the_new_card_the_key():
    own = [["b3", "a21"], ["b8"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, face_down=("a21",), next_cards=("a7",))
    assert keys(state) == {"unlock:s0:0"} | {f"down:s0:{i}" for i in range(5)}
    GAME.apply(state, 0, Action("down", "s0:0"))
    assert stack(state, "s0:0").lock == "locked"
    assert stack(state, "s0:0").cards == ("b3", None, None)
    assert state.face_down == {"a7", "a21"}
    assert state.stacks[0][-1] == "a7", "the newest face-down card is the key"


def test_wish_card_uncovering_a_face_down_card_relocks():
    theirs = [["b3", "c9", "a14"], ["b9"], ["c21"], ["d9"], ["b27"]]
    state = position(2, {0: [["a8"], ["c3"], ["d3"], ["b15"], ["c15"]], 1: theirs},
                     face_down=("c9",), next_cards=("w1", "b7"))
    assert stack(state, "s1:0").lock == "open"
    GAME.apply(state, 0, Action("take", "a14"))
    seen = stack(state, "s1:0")
    assert seen.lock == "locked" and seen.cards == ("b3", None)
    GAME.apply(state, 0, Action("up", "s0:0"))  # a14 on a8: double fit
    GAME.apply(state, 0, Action("stop"))
    assert state.current == 1 and "unlock:s1:0" in keys(state, 1)


def test_taken_card_never_goes_face_down():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    theirs = [["b2"], ["d16"], ["b8"], ["b16"], ["b32"]]
    state = position(2, {0: own, 1: theirs}, face_down=("a7",), next_cards=("w1",))
    GAME.apply(state, 0, Action("take", "b2"))  # b2 fits b4 (divisor 2 and colour) -> up allowed
    assert "up:s0:3" in keys(state)
    assert all(not k.startswith("down") for k in keys(state))
    assert refused(state, 0, "down:s0:1").reason == "kapado.taken_card_face_up"


def test_take_refusals():
    own = [["a8"], ["c9"], ["d3"], ["b3"], ["c3"]]
    theirs = [["d5", "a12"], ["b9"], ["c21"], ["d9"], ["b27"]]
    state = position(2, {0: own, 1: theirs}, dead=("s1:1",), next_cards=("w1",))
    assert refused(state, 0, "take:a8").reason == "kapado.take_from_opponent"
    assert refused(state, 0, "take:b9").reason == "kapado.take_open_only"
    assert refused(state, 0, "take:d5").reason == "kapado.take_top_only"
    assert refused(state, 0, "up:s0:0").reason == "kapado.use_wish"


def test_stack_emptied_by_a_wish_accepts_any_card_as_a_single_fit():
    theirs = [["a12"], ["b9"], ["c21"], ["d9"], ["b27"]]
    state = position(2, {0: [["a8"], ["c3"], ["d3"], ["b15"], ["c15"]], 1: theirs},
                     next_cards=("w1", "c35", "d7"))
    GAME.apply(state, 0, Action("take", "a12"))
    GAME.apply(state, 0, Action("up", "s0:0"))
    GAME.apply(state, 0, Action("draw"))  # c35: fits c15 (colour and 5) doubly, or c3 by colour
    GAME.apply(state, 0, Action("up", "s0:1"))  # single fit on c3: turn passes
    assert state.current == 1 and state.drawn == "d7"
    assert "up:s1:0" in keys(state, 1)
    GAME.apply(state, 1, Action("up", "s1:0"))
    assert stack(state, "s1:0").cards == ("d7",)
    assert state.current == 0, "an empty stack is only a single fit"


def test_owner_may_peek_option_shows_own_face_down_cards_only():
    state = position(2, {0: OWN}, next_cards=("a7",), options=Options(owner_may_peek=True))
    GAME.apply(state, 0, Action("down", "s0:2"))
    assert GAME.view(state, 0).stacks[0][2].cards == ("d10", "a7")
    assert GAME.view(state, 1).stacks[0][2].cards == ("d10", None)
    assert GAME.view(state, None).stacks[0][2].cards == ("d10", None)


def test_ban_multiples_option():
    assert fit("a8", "b12", B2, multiples=True) == NONE
    assert fit("a6", "b12", B2, multiples=True) == SINGLE  # divisor 3 remains
    assert fit("a10", "b20", B25, multiples=True) == NONE


def test_drawn_card_is_seen_by_the_drawer_only():
    state = position(3, {0: OWN}, next_cards=("a7",))
    assert GAME.view(state, 0).drawn == "a7" and GAME.view(state, 0).phase == "place"
    for seat in (None, 1, 2):
        view = GAME.view(state, seat)
        assert view.drawn is None and view.phase == "resolve"
    number = position(3, {0: OWN}, next_cards=("a7", "w3"))
    wish = position(3, {0: OWN}, next_cards=("w3", "a7"))
    assert wish.phase == "wish" and number.phase == "place"
    for seat in (None, 1, 2):
        assert GAME.view(wish, seat) == GAME.view(number, seat)


def test_resample_keeps_what_the_seat_saw_and_redeals_face_down_cards():
    state = position(2, {0: OWN}, next_cards=("a7", "b35"))
    GAME.apply(state, 0, Action("down", "s0:2"))
    keys_seen, drawn_seen = set(), set()
    for n in range(20):
        other = GAME.resample(state, 0, random.Random(n))  # seat 1 is drawing: hidden from seat 0
        assert other.seed != state.seed
        assert GAME.view(other, 0) == GAME.view(state, 0)
        assert GAME.view(other, None) == GAME.view(state, None)
        key = other.stacks[2][-1]
        assert key in other.face_down and key[0] in "abcd", "a face-down card is always a number card"
        assert other.drawn[0] != "v", "the hidden drawn card is never a ban card"
        keys_seen.add(key)
        drawn_seen.add(other.drawn)
    assert len(keys_seen) > 5, "the face-down card is hidden from everyone, its owner too"
    assert len(drawn_seen) > 5
    assert GAME.resample(state, 1, random.Random(0)).drawn == "b35", "the drawer keeps the drawn card"


def test_deal_gives_number_cards_only_and_the_rest_forms_the_pile():
    for players in range(2, 8):
        state = GAME.setup(players, Options(), f"deal-{players}")
        pile = len(state.pile) + len(state.middle) + 1  # one card is drawn already
        assert pile == 109 - 5 * players
        assert all(len(s) == 1 and s[0][0] in "abcd" for s in state.stacks)
        assert state.current == (state.dealer + 1) % players


def test_first_dealer_is_drawn_at_random():
    dealers = {GAME.setup(4, Options(), f"dealer-{n}").dealer for n in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_several_games_add_up_and_the_deal_passes_left():
    state = GAME.setup(3, Options(games=2), "match")
    first = state.dealer
    random_playout(GAME, state, random.Random(2))
    result = GAME.result(state)
    assert GAME.is_over(state) and len(result.breakdown) == 2
    assert state.dealer == (first + 1) % 3
    per_game = [sum(line.points for line in hand.lines if line.seat == 0) for hand in result.breakdown]
    assert result.scores[0] == sum(per_game)


def test_action_keys_are_short():
    state = position(7, next_cards=("w1",))
    assert all(len(a.key) <= 50 for a in GAME.legal_actions(state, 0))


# -- the deck as data -------------------------------------------------------------------------------------

def _deck_text() -> str:
    return (Path(__file__).resolve().parents[2] / "games" / "data" / "kapado_deck.toml").read_text("utf-8")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("total = 109", "total = 110", "total"),
        ('id = "b"', 'id = "a"', "colours[1].id"),
        ('id = "c"', 'id = "w"', "colours[2].id"),
        ("divisor = 5", "divisor = 1", "bans[1].divisor"),
        ("wish = 3", 'wish = "three"', "wish"),
        ("numbers = [1, 2, 3,", "numbers = [0, 2, 3,", "colours[0].numbers"),
        ("[[bans]]", "[[bans]", "not valid TOML"),
    ],
)
def test_malformed_deck_is_refused_with_a_clear_message(old, new, message):
    text = _deck_text()
    assert old in text
    with pytest.raises(DeckError, match=re.escape(message)):
        load_deck(text.replace(old, new, 1))


def test_deck_file_can_describe_repeated_values():
    text = _deck_text().replace("numbers = [1, 2, 3,", "numbers = [1, 2, 2, 3,", 1).replace(
        "total = 109", "total = 110")
    deck = load_deck(text)
    assert {"a2a", "a2b"} <= set(deck.ids) and "a2" not in deck.ids


# -- texts and invariants ---------------------------------------------------------------------------------

def test_every_reason_label_and_option_has_english_and_german_text():
    root = Path(__file__).resolve().parents[2] / "games" / "kapado"
    source = "\n".join(p.read_text("utf-8") for p in root.glob("*.py"))
    used = set(re.findall(r'"(kapado\.[a-z_]+)"', source))
    used |= {f"kapado.option.{name}" for name in Options.model_fields}
    used |= {"kapado.help_deck", "kapado.name"} | {f"kapado.colour.{c}" for c in DECK.colours}
    assert len(used) > 20
    for lang in ("en", "de"):
        missing = sorted(k for k in used if k not in catalogue(lang))
        assert not missing, f"{lang}: {missing}"
    assert "ü" in catalogue("de")["kapado.colour.c"]


@pytest.mark.parametrize("players", range(2, 8))
def test_invariants(players):
    check_playouts(GAME, players, 4)


def test_invariants_with_house_rules():
    check_playouts(GAME, 3, 3, options=Options(owner_may_peek=True, auto_extra_draw=True, ban_multiples=True))
    check_playouts(GAME, 2, 2, options=Options(stacks=3, games=2))
