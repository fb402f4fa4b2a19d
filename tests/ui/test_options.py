"""House rules offered in the lobby: the values each kind of field can take there."""

from __future__ import annotations

from typing import Annotated

from pydantic import TypeAdapter

import games
from bot.ui.options import choices


def _field(game: str, name: str):
    return games.REGISTRY[game].Options.model_fields[name]


def test_a_switch_is_on_or_off() -> None:
    assert choices(_field("safaru", "teams")) == [True, False]


def test_a_literal_offers_each_of_its_values() -> None:
    assert choices(_field("skippo", "scoring")) == ["points", "wins"]
    assert len(choices(_field("mu", "removed_colours"))) == 11


def test_a_small_range_is_listed_whole() -> None:
    assert choices(_field("dacapo", "pile_size")) == list(range(5, 21))


def test_a_wide_range_offers_steps_around_the_rulebook_value_within_bounds() -> None:
    target = choices(_field("mu", "target"))
    assert 200 in target and target == sorted(target) and len(target) <= 25
    assert min(target) >= 10 and max(target) <= 2000
    assert choices(_field("safaru", "match_target"))[0] == 0


def test_every_offered_value_passes_its_field_as_the_click_sends_it() -> None:
    """Values arrive as strings; rules that depend on each other are judged by the model later."""
    for game in games.REGISTRY.values():
        for info in game.Options.model_fields.values():
            field = TypeAdapter(Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation)
            for value in choices(info):
                assert field.validate_python(str(value).lower() if isinstance(value, bool) else str(value)) == value
