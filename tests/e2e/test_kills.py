"""The bot process SIGKILLed at seeded random points of its request stream while two tables play:
nothing a player saw accepted is lost, nothing is applied twice, and every running game has a
working table after each restart. ``python -m bench.kills`` runs the same at a large size."""

from __future__ import annotations

import pytest

from bench.kills import run


@pytest.mark.long(seconds=10)
async def test_random_kills_lose_nothing_double_nothing_and_leave_no_game_without_a_table(tmp_path):
    outcome = await run(tmp_path, kills=3, tables=2, every=30, seed=1)
    assert outcome.kills == 3 and outcome.moves > 0
    assert not outcome.lost, f"moves players saw accepted are not in the log: {outcome.lost}"
    assert not outcome.doubled, f"log entries no click accounts for: {outcome.doubled}"
    assert not outcome.stuck, f"games whose table stopped working: {outcome.stuck}"
