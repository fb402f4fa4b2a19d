"""The match record's format as docs/match-record.md describes it: the example there validates and
replays to its results, and a record of another format or with unknown fields is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

import games
from bot.replays.record import MatchRecord, NoRecord, steps
from games.base import Action, replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "match-record.md"


def example() -> str:
    (block,) = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return block


def test_the_documented_example_validates_and_replays_to_its_results():
    record = MatchRecord.model_validate_json(example())
    assert record.format == 1 and record.game == "calcory" and len(record.moves) > 10
    *_, last = steps(record)
    game = games.REGISTRY[record.game]
    result = game.result(last.state)
    assert game.is_over(last.state)
    assert list(result.scores) == [r.score for r in record.results]
    assert list(result.ranks) == [r.rank for r in record.results]
    assert sorted(result.winners) == [r.seat for r in record.results if r.won]
    # The snippet the page shows for readers without this code does the same.
    raw = json.loads(example())
    moves = [(m["seat"], Action.parse(m["action"])) for m in raw["moves"]]
    state = replay(game, len(raw["seats"]), game.parse_options(raw["house_rules"]), raw["seed"], moves).state
    assert list(game.result(state).scores) == [r["score"] for r in raw["results"]]


def test_a_record_of_another_format_or_with_unknown_fields_is_refused():
    raw = json.loads(example())
    for changed in ({**raw, "format": 2}, {**raw, "discord_id": 1}, {**raw, "seats": []}):
        with pytest.raises(ValidationError):
            MatchRecord.model_validate(changed)


def test_a_record_of_other_rules_is_not_replayed():
    record = MatchRecord.model_validate_json(example())
    with pytest.raises(NoRecord) as refused:
        steps(record.model_copy(update={"rules_version": record.rules_version + 1}))
    assert refused.value.key == "archive.other_rules"
    with pytest.raises(NoRecord) as refused:
        steps(record.model_copy(update={"game": "chess"}))
    assert refused.value.key == "archive.unknown_game"
