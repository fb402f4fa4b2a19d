"""Numbers in action keys have one spelling: ASCII digits without leading zeros.

``str.isdigit`` accepts "²" (which ``int`` then cannot read) and "٣" (which it reads as 3), so each
rule that read a number from a key either crashed on a forged custom_id or logged a second spelling
of a move. Every such parser now goes through ``games.keys.number``.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import games
from games.base import Action, IllegalAction
from games.buildpiles import BuildPileGame
from games.kapado.state import parse_stack
from games.keys import MAX_DIGITS, number
from games.mu.declare import check_partner

UNCANONICAL = ["", "²", "٣", "١٢", "+1", "-1", " 1", "1 ", "01", "00", "1_0", "1.0", "x", "9" * (MAX_DIGITS + 1)]


@pytest.mark.parametrize("text, expected", [("0", 0), ("7", 7), ("12", 12), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS))])
def test_canonical_numbers_are_read(text, expected):
    assert number(text) == expected


@pytest.mark.parametrize("text", UNCANONICAL)
def test_every_other_spelling_is_refused(text):
    assert number(text) is None


def test_a_tighter_bound():
    assert number("123", max_digits=2) is None and number("12", max_digits=2) == 12


@pytest.mark.parametrize("bad", ["²", "٣", "01", "1²"])
def test_kapado_stack_ids(bad):
    assert parse_stack("s1:2", 3, 5) == (1, 2)
    assert parse_stack(f"s{bad}:2", 3, 5) is None
    assert parse_stack(f"s1:{bad}", 3, 5) is None


@pytest.mark.parametrize("bad", ["²", "٣", "02", ""])
def test_mu_partner(bad):
    s = SimpleNamespace(players=4, chef=0, vize=1)
    assert check_partner(s, "2") == 2
    with pytest.raises(IllegalAction) as refused:
        check_partner(s, bad)
    assert refused.value.reason == "mu.partner_unknown"


@pytest.mark.parametrize("bad", ["²", "٣", "01", "0"])
def test_build_pile_targets_and_helpers(bad):
    game = games.REGISTRY["skippo"]
    assert isinstance(game, BuildPileGame)
    table = SimpleNamespace(build=[(), (), ()])
    assert game.target_slot(table, "b2") == 1
    assert BuildPileGame.helper_index("helper:2") == 1
    with pytest.raises(IllegalAction):
        game.target_slot(table, f"b{bad}")
    assert BuildPileGame.helper_index(f"helper:{bad}") is None


@pytest.mark.parametrize("bad", ["²", "٣", "01"])
def test_dacapo_opponent_pile(bad):
    game = games.REGISTRY["dacapo"]
    table = SimpleNamespace(players=3)
    with pytest.raises(IllegalAction) as refused:
        game.locate_other(table, 0, "k5", f"pile:seat{bad}")
    assert refused.value.reason == "dacapo.no_such_source"


@pytest.mark.parametrize("key", ["takediscard:²", "takediscard:٣", "takediscard:01", "takediscard:", "take:x", "take:1"])
def test_rummu_takes(key):
    game = games.REGISTRY["rummu"]
    state = game.setup(3, game.default_options(), "keys")
    seat = next(iter(game.to_act(state)))
    assert Action("take") in game.legal_actions(state, seat)
    with pytest.raises(IllegalAction):
        game.check(state, seat, Action.parse(key))
