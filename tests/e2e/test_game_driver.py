"""The generic driver plays a whole game by clicks alone (Calcory here; every game's scenario uses it)."""

from __future__ import annotations

import random

from tests.e2e.game_driver import GameDriver


async def test_a_random_calcory_game_is_played_to_the_end_by_clicks(env) -> None:
    drive = GameDriver(env, "calcory")
    session = await drive.start(["ann", "bob"])
    rng = random.Random(5)
    moves = await drive.play_out(rng, check_every=7)
    assert session.status == "finished"
    assert moves == len(session.history) > 10
    drive.check_channel_private(rng)
    assert "🏁" in env.public()[-1].text
