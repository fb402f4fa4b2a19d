"""A click in an open hand and the table writer's redraw of that hand never cross on the way: the
newer rendering is the one the player keeps seeing."""

from __future__ import annotations

import asyncio
import json
import threading

from bot.registry import presenter
from bot.ui import pictured
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


async def test_while_the_writer_waits_for_a_hands_picture_the_hand_takes_clicks(env, monkeypatch):
    """The writer has the pictures of the hands whose cards changed painted in its painter's thread
    before it takes any seat's turn: a click in a hand never waits for the painter (busy with other
    tables' pictures), only for an edit of that hand already on its way."""
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], pictures=True)
    seat = min(session.to_act())
    user, sid, double = drive.user_of(seat), session.id, env.double
    hand = await drive.open_hand(seat)
    painting, real = asyncio.Event(), pictured._painted

    async def painted(*args):
        painting.set()
        return await real(*args)

    monkeypatch.setattr(pictured, "_painted", painted)
    busy = threading.Event()
    pictured.PAINTER.submit(busy.wait)      # the painter is busy elsewhere until released
    try:
        pictured._hands.pop(session, None)      # the hand's picture is to be painted again
        hands = env.bot.tables._tables[sid].hands
        hands[seat] = hands[seat]._replace(drawn=b"")
        env.bot.tables.changed(session)
        await asyncio.wait_for(painting.wait(), 5)
        assert not env.bot.tables.hand_turn(session, seat).locked()
        step = next(c for c in custom_ids(hand.payload) if c.startswith(f"st:h:{sid}:{seat}:"))
        clicked = await double.click(user, hand, step)      # answered while the painter is still busy
        assert clicked.callback is not None and busy.is_set() is False
    finally:
        busy.set()
    await env.settle()
    lang, ui = hands[seat].lang, hands[seat].ui
    shown = double.message(hand.id)
    assert custom_ids(shown.payload) == custom_ids(kit.body(presenter("skippo").hand(session, seat, lang, ui, None)))
