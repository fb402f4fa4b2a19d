"""The paired variant bench (bench/variant.py): options parsed, set and restored, differences paired."""

from __future__ import annotations

import pytest

from bench.computer import Deal
from bench.variant import changed, paired, parse
from games.safaru.computer import SafaruBrain


def test_a_variant_names_numeric_options_of_the_brain_and_takes_their_types():
    brain = SafaruBrain()
    changes = parse("least=90,most=500", brain)
    assert changes == {"least": 90, "most": 500}
    assert all(type(value) is int for value in changes.values())
    with pytest.raises(ValueError, match="no numeric attribute 'deepest'"):
        parse("deepest=3", brain)
    with pytest.raises(ValueError):
        parse("most=1.5", brain)  # a count stays a count


def test_a_variant_holds_only_within_its_block_and_only_for_that_brain():
    brain, other = SafaruBrain(), SafaruBrain()
    brain.most = 700  # an option of the brain's own survives the block
    with changed(brain, {"least": 10, "most": 300}):
        assert (brain.least, brain.most, other.least) == (10, 300, SafaruBrain.least)
    assert (brain.least, brain.most) == (SafaruBrain.least, 700)
    assert "least" not in brain.__dict__


def test_the_difference_is_taken_deal_by_deal():
    base = [Deal(1.0, 10.0, (0.02,)), Deal(0.0, -4.0, (0.03,)), Deal(0.5, 0.0, (0.01,))]
    same_but_one = [Deal(1.0, 12.0, (0.02,)), Deal(1.0, 6.0, (0.05,)), Deal(0.5, 0.0, (0.01,))]
    line = paired(same_but_one, base)
    assert line.startswith("paired +33.3% ± 33.3%, lead +4.00 ± 3.06")
    assert line.endswith("outcomes changed 1")
