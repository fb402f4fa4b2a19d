"""The How did I play? button of a finished match over Discord: each player gets a private review in
their language, with its progress while it works and at once from the store the second time; anyone
else is refused; a restart in the middle of a review loses nothing (the next press makes it)."""

from __future__ import annotations

import asyncio
import random
import threading

import pytest

from bot.coach import review as reviews
from bot.transport import ids
from tests.e2e.conftest import on_both_stores
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_rematch import closing_message, finish, refused


@pytest.mark.long(seconds=8)
@on_both_stores
async def test_a_review_privately_with_its_progress_then_from_the_store_and_a_refusal(env):
    drive = GameDriver(env, "safaru")
    match = await drive.start(["ann", "bob"], computers=1)
    await finish(drive, random.Random(8))
    assert match.status == "finished"
    closing = closing_message(env, match)
    coach = ids.coach(match.id)
    assert closing.component(coach)["label"] == "How did I play?"
    table = env.double.message(str(match.messages["table"][0]))
    assert table.component(coach)["label"] == "How did I play?"

    refused(await env.double.click(env.cem, closing, coach),
            "Only the players of this match can see how they played. Play a match of your own with /start.")
    assert await env.bot.storage.review(match.id, 0) is None

    asked = await env.double.click(env.ann, table, coach)
    await env.settle()
    answer = asked.message
    assert asked.ephemeral
    steps = [version for version in answer.history]
    assert any("Reviewing your play…" in str(version) for version in steps), steps
    seat = match.seat_of(int(env.ann.id))
    stored = await env.bot.storage.review(match.id, seat)
    assert stored is not None and stored["seat"] == seat
    assert answer.text.startswith("## 🔎 How did I play? · Safarü")
    made = reviews.Review.from_json(stored)
    if made.decisions:
        assert "The strong player would have " in answer.text
        assert len(answer.shown) == 2 * len(made.decisions)
    else:
        assert "Well played" in answer.text

    # The second press shows the stored review at once, no progress on the way; bob reads German.
    again = await env.double.click(env.ann, closing, coach)
    assert again.ephemeral and again.message.text == answer.text and not again.message.history
    german = await env.double.click(env.bob, closing, coach)
    await env.settle()
    assert german.message.text.startswith("## 🔎 Wie habe ich gespielt? · Safarü")


@on_both_stores
async def test_a_restart_in_the_middle_of_a_review_and_the_next_press_makes_it(env, monkeypatch):
    drive = GameDriver(env, "safaru")
    match = await drive.start(["ann"], computers=1, pictures=False)
    await finish(drive, random.Random(3))
    coach = ids.coach(match.id)
    closing = closing_message(env, match)
    held, reached = threading.Event(), threading.Event()
    screen = reviews.screen

    def slow(*args):
        reached.set()
        held.wait(30)
        return screen(*args)

    monkeypatch.setattr(reviews, "screen", slow)
    first = await env.double.click(env.ann, closing, coach)
    await asyncio.to_thread(reached.wait, 30)
    assert first.ephemeral and first.message.text == "🔎 Reviewing your play… 0 %"
    await env.stop_bot()
    held.set()
    seat = match.seat_of(int(env.ann.id))
    assert await _stored(env, match.id, seat) is None
    monkeypatch.setattr(reviews, "screen", screen)

    await env.start_bot()
    second = await env.double.click(env.ann, closing_message(env, match), coach)
    await env.settle()
    assert second.message.text.startswith("## 🔎 How did I play? · Safarü")
    assert await env.bot.storage.review(match.id, seat) is not None


async def _stored(env, match_id: int, seat: int):
    from bot.storage.store import Storage
    storage = await Storage.open(str(env.database))
    try:
        return await storage.review(match_id, seat)
    finally:
        await storage.close()


@on_both_stores
async def test_a_match_whose_moves_were_pruned_is_refused_in_one_sentence(env):
    drive = GameDriver(env, "safaru")
    match = await drive.start(["ann", "bob"], computers=1)
    await finish(drive, random.Random(8))
    closing = closing_message(env, match)
    coach = ids.coach(match.id)
    await env.double.click(env.ann, closing, coach)      # ann's review is made before the prune
    await env.settle()
    now = env.clock.now()
    assert await env.bot.storage.prune_actions(now + 1, now=now) == (1, len(match.log))
    refused(await env.double.click(env.bob, closing, coach),
            "Die Züge dieser Partie werden nicht mehr aufbewahrt, darum kann sie nicht ausgewertet werden; "
            "ihr Ergebnis und die Wertungen zählen weiter.")
    refused(await env.double.click(env.ann, closing, coach),      # a kept review's positions are gone too
            "The moves of this match are no longer kept, so its play cannot be reviewed; its result and "
            "ratings still count.")
