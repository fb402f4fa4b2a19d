"""A click in an open hand and the table writer's redraw of that hand never cross on the way: the
newer rendering is the one the player keeps seeing."""

from __future__ import annotations

import asyncio
import json
import random

from bot.ui import pictured
from bot.ui.presenters import presenter
from tests.double import custom_ids
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


async def test_a_step_clicked_while_the_writer_redraws_the_hand_is_what_the_hand_shows(env):
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], pictures=True)
    double, rng = env.double, random.Random(7)
    while not (path := _one_click_play(drive)):      # until a card can be played from the hand in a click
        seat = min(session.to_act())
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    seat = min(session.to_act())
    user, sid = drive.user_of(seat), session.id
    hand = await drive.open_hand(seat)
    pictured._drawn.clear()     # the hand's next picture is painted by the writer, not found in the cache
    hold = asyncio.Event()
    redraw = double.fault("PATCH", "/webhooks/*/messages/*", hold=hold,
                          when=lambda r: f"st:h:{sid}:{seat}:" in json.dumps(r.body))
    hand = (await double.click(user, hand, path[0].custom_id)).message
    await double.wait_until(lambda: redraw.hits, what="the writer's redraw of the hand")

    before = custom_ids(hand.payload)
    step = next(c for c in before if c.startswith(f"st:h:{sid}:{seat}:"))
    turn = env.bot.tables.hand_turn(session, seat)
    clicked = await double.click(user, hand, step, expect_ack=False)
    while clicked.callback is None and not turn._waiters:    # answered at once, or waiting for the writer
        await asyncio.sleep(0)
    hold.set()
    await double.wait_ack(clicked)
    await env.settle()

    _interaction, lang, ui, _drawn, _shown, _follow_up = env.bot.tables._tables[sid].hands[seat]
    assert ui, "the writer put back the hand it drew before the step"
    shown = double.message(hand.id)
    assert custom_ids(shown.payload) == custom_ids(kit.body(presenter("skippo").hand(session, seat, lang, ui, None)))
    assert custom_ids(shown.payload) != before         # the step, not the hand before it


def _one_click_play(drive: GameDriver) -> list[kit.Click] | None:
    """A card the seat to act can play straight from its hand (it keeps the turn, and the picture
    of the hand follows with the writer's redraw)."""
    session = drive.session
    seat = min(session.to_act())
    for action in session.game.legal_actions(session.state, seat):
        path = kit.hand_path(session, seat, action.key, drive.lang_of(seat))
        if action.key.startswith("play:") and path and len(path) == 1 and path[0].where == "hand":
            return path
    return None
