"""House rules offered in the lobby: the values each kind of field can take there."""

from __future__ import annotations

import re
from typing import Annotated

import pytest
from pydantic import TypeAdapter

import games
from bot.ui.options import choices, label, render_panel


def _field(game: str, name: str):
    return games.REGISTRY[game].options_model.model_fields[name]


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
        for info in game.options_model.model_fields.values():
            field = TypeAdapter(Annotated[info.annotation, *info.metadata] if info.metadata else info.annotation)
            for value in choices(info):
                assert field.validate_python(str(value).lower() if isinstance(value, bool) else str(value)) == value


# -- values that mean "as the rulebook says" -------------------------------------------------------
#: Fields whose 0 stands for the rulebook's own choice, as each game's Options documents it.
RULEBOOK_ZERO = sorted((key, name) for key, game in games.REGISTRY.items()
                       for name, info in game.options_model.model_fields.items()
                       if re.search(r"\b0(:| means| plays)", info.description or ""))


def _lobby(game: str, lang: str):
    from bot.play.sessions import Status
    from tests.ui import kit

    session = kit.make_session(game, games.REGISTRY[game].min_players, lang=lang)
    session.status = Status.LOBBY
    return session


def test_the_options_that_mean_rulebook_at_zero_are_found() -> None:
    assert RULEBOOK_ZERO == [("diabolo", "close_limit"), ("diabolo", "rounds"), ("safaru", "match_target"),
                             ("skippo", "decks")]


@pytest.mark.parametrize(("game", "name"), RULEBOOK_ZERO)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_rulebook_value_reads_as_such_never_as_a_bare_zero(game: str, name: str, lang: str) -> None:
    session = _lobby(game, lang)
    panel = render_panel(session, lang, name)
    line = next(x for x in panel.content.splitlines() if x.startswith(f"• {label(session, lang, name)}:"))
    assert "**0**" not in line and ("rulebook" in line or "laut Regel" in line), line
    (values,) = [c for r in panel.view.to_components() for c in r["components"] if c["custom_id"].endswith(name)]
    zero = next(option for option in values["options"] if option["value"] == "0")
    assert zero["label"] != "0" and ("rulebook" in zero["label"] or "laut Regel" in zero["label"])
    assert all(o["label"] == o["value"] for o in values["options"] if o["value"] != "0")  # the rest stay numbers
