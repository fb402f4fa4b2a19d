"""A click in an open hand and the table writer's redraw of that hand never cross on the way: the
newer rendering is the one the player keeps seeing."""

from __future__ import annotations

import asyncio
import json

from bot.registry import presenter
from tests.double import custom_ids
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


async def test_a_step_clicked_while_the_writer_redraws_the_hand_is_what_the_hand_shows(env):
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], pictures=True)
    seat = min(session.to_act())
    user, sid, double = drive.user_of(seat), session.id, env.double
    hand = await drive.open_hand(seat)
    hold = asyncio.Event()
    redraw = double.fault("PATCH", "/webhooks/*/messages/*", hold=hold,
                          when=lambda r: f"st:h:{sid}:{seat}:" in json.dumps(r.body))
    # The writer redraws the hand (as after another player's move), slowly
    hands = env.bot.tables._tables[sid].hands
    hands[seat] = hands[seat]._replace(drawn=b"")
    env.bot.tables.changed(session)
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

    lang, ui = hands[seat].lang, hands[seat].ui
    assert ui, "the writer put back the hand it drew before the step"
    shown = double.message(hand.id)
    assert custom_ids(shown.payload) == custom_ids(kit.body(presenter("skippo").hand(session, seat, lang, ui, None)))
    assert custom_ids(shown.payload) != before         # the step, not the hand before it
