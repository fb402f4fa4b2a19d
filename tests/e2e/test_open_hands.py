"""An open hand follows the game: the bot keeps it current through the token of the player's
newest click in it, and never puts it back into a step the player has left."""

from __future__ import annotations

import asyncio

from bot import ids
from bot.ui.presenters import presenter
from tests.e2e.game_driver import GameDriver
from tests.e2e.outside import hand_of
from tests.ui import kit


async def test_a_hand_opened_again_while_the_old_one_was_being_redrawn_follows_the_game(env):
    """Bob's open hand is being redrawn for Ann's move, slowly, when Bob opens his hand again: from
    then on the bot keeps the new hand current (the one Bob looks at), not the old one."""
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"])
    while not _plays(session, actor := next(iter(session.to_act()))):
        await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    waiter, double = 1 - actor, env.double
    hand_button = ids.table(session.id, "hand")
    opened = await double.click(drive.user_of(waiter), drive.table_message_with(hand_button), hand_button)
    old = await hand_of(double, opened)
    held = asyncio.Event()
    slow = double.fault("PATCH", f"/webhooks/*/{opened.token}/messages/{old.id}", hold=held)
    await _click_path(drive, actor, _plays(session, actor)[0])
    await double.wait_until(lambda: slow.hits, what="the bot's redraw of the first hand")
    new = await drive.open_hand(waiter)
    held.set()
    await env.settle()

    await _click_path(drive, actor, session.game.legal_actions(session.state, actor)[0].key)
    await env.settle()
    shown = presenter("skippo").hand(session, waiter, drive.lang_of(waiter), "", None)
    assert new.content == shown.content, "the hand opened last stopped following the game"


def _plays(session, seat: int) -> list[str]:
    """The seat's plays onto a build pile (its turn goes on after one)."""
    return [a.key for a in session.game.legal_actions(session.state, seat) if a.kind == "play"]


async def _click_path(drive: GameDriver, seat: int, key: str) -> None:
    """Make ``key`` by clicking, without waiting for the redraws that follow it."""
    session, user, double = drive.session, drive.user_of(seat), drive.env.double
    hand = await drive.open_hand(seat)
    for click in kit.hand_path(session, seat, key):
        message = drive.table_message_with(click.custom_id) if click.where == "table" else hand
        if click.values:
            await double.select(user, message, click.custom_id, list(click.values))
        else:
            await double.click(user, message, click.custom_id)
