"""An open hand follows the game: the bot keeps it current through the token of the player's
newest click in it, and never puts it back into a step the player has left."""

from __future__ import annotations

import asyncio

from bot.registry import presenter
from bot.transport import ids
from bot.ui.base import YOUR_TURN, unfollowed_hand
from tests.double import payloads as P
from tests.e2e.game_driver import GameDriver, said
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
    assert said(new) == shown.text, "the hand opened last stopped following the game"


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


async def test_a_hand_opened_again_tells_the_older_one_it_no_longer_follows_the_table(env):
    """Bob presses Hand on the table, then Hand in the turn ping: two hands on his screen. The older
    one says it no longer follows the table (no cards, no moves) and only the newer one follows the
    game; Show my hand in the older one makes it the current hand again, and the newer one says so."""
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], pictures=True)
    while not _plays(session, actor := next(iter(session.to_act()))):
        await drive.play(actor, session.game.legal_actions(session.state, actor)[0].key)
    waiter, double = 1 - actor, env.double
    user, lang = drive.user_of(waiter), drive.lang_of(waiter)
    hand_button = ids.table(session.id, "hand")
    first = await hand_of(double, await double.click(user, drive.table_message_with(hand_button), hand_button))
    assert first.has_component(_step(session, waiter, "")) is False and first.shown
    ping = env.public()[-1]
    assert ping.has_component(hand_button)
    second = (await double.click(user, ping, hand_button)).message
    await env.settle()
    assert second.ephemeral and second.id != first.id

    def superseded(message) -> bool:
        note = unfollowed_hand(session, waiter, lang, "hand_superseded")
        return said(message) == note.text and not message.shown and message.custom_ids == [
            _step(session, waiter, "")]

    assert said(double.message(first.id)) == said(second)       # both show the same until a move
    await _click_path(drive, actor, _plays(session, actor)[0])
    await env.settle()
    now = presenter("skippo").hand(session, waiter, lang, "", None)
    assert said(double.message(second.id)) == now.text
    assert superseded(double.message(first.id)), "the older hand still claims to be current"

    again = await double.click(user, double.message(first.id), _step(session, waiter, ""))
    assert again.message.id == first.id and said(double.message(first.id)) == now.text
    await _click_path(drive, actor, session.game.legal_actions(session.state, actor)[0].key)
    await env.settle()
    assert superseded(double.message(second.id))
    now = presenter("skippo").hand(session, waiter, lang, "", None)
    assert said(double.message(first.id)) == now.text


def _step(session, seat: int, ui: str) -> str:
    return ids.hand_step(session.id, seat, session.counters[seat], ui)


async def test_a_hand_from_before_hands_were_v2_is_answered_with_the_v2_hand_and_loses_its_old_text(env):
    """A hand is a Components V2 message whose container turns green on its owner's turn. One that an
    older version of the bot sent as text and buttons (legacy) still answers its button: the answer
    takes the flag on and the old text off, as Discord asks."""
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"])
    seat = next(iter(session.to_act()))
    hand = await drive.open_hand(seat)
    assert hand.is_v2 and not hand.content
    assert hand.components[0]["accent_color"] == YOUR_TURN
    other = await drive.open_hand(1 - seat)
    assert "accent_color" not in other.components[0]
    step = _step(session, seat, "")
    hand.payload.update(content="Your hand: 3 · 7", flags=P.EPHEMERAL,
                        components=[{"type": 1, "components": [{"type": 2, "style": 2, "label": "Show my hand",
                                                                "custom_id": step}]}])
    record = await env.double.click(drive.user_of(seat), hand, step)
    assert not record.rejected and env.double.errors == []
    now = env.double.message(hand.id)
    assert now.is_v2 and not now.content and said(now) == presenter("skippo").hand(session, seat, drive.lang_of(seat),
                                                                                  "", None).text
