"""The generic driver plays a whole game by clicks alone (Calcory here; every game's scenario uses it)."""

from __future__ import annotations

import random

from bot.registry import presenter
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


async def test_starting_a_game_waits_for_the_bot_not_for_the_doubles_guard(env, monkeypatch) -> None:
    """The bot stores a posted table's message ids after its last request, which wakes no waiter on
    the double: the driver waits for the bot's own work, not for the double's 5 s guard against a
    hung test to run out (it did, in every scenario that posts a table with pictures). With no
    guard left at all, the table is there when ``start`` returns."""
    waits = []
    real = env.double.wait_until

    async def no_guard(predicate, timeout=5.0, what=None):
        waits.append(what)
        return await real(predicate, 0.0, what)

    monkeypatch.setattr(env.double, "wait_until", no_guard)
    session = await GameDriver(env, "safaru").start(["ann", "bob"])
    assert waits == ["the table to be posted"]
    assert len(session.messages["table"]) == presenter("safaru").table_messages
