"""The turn ping as Discord delivers it: a follow-up of the newest click, so it carries that click
(``interaction_metadata`` naming who clicked, which a client may show above it), and it notifies
exactly the players to act, never the one whose click carried it unless they act next. Its text
stands on its own: the game, whose turn, and a jump link to the table, in the table's language."""

from __future__ import annotations

import random

from bot.i18n import t
from bot.transport import ids
from tests.double import payloads as P
from tests.e2e.game_driver import GameDriver


def check_ping(env, drive: GameDriver, clicker, before: int | None) -> tuple[set, object]:
    """The newest ping after ``clicker``'s move (``before``: the ping's id before it): who it
    notifies (the players to act, nobody else), what it carries and what it says. Returns who it
    notifies and its message."""
    session, d = drive.session, env.double
    acting = {drive.user_of(seat) for seat in session.to_act() if session.seats[seat].is_human}
    ping = d.message(session.messages["ping"])
    assert d.notified(ping) == acting, f"the ping notifies {d.notified(ping)}, not {acting}"
    assert {m.id for m in env.public() if d.notified(m)} == {ping.id}, "an older message still notifies"
    if int(ping.id) != before:      # sent anew by this move: a follow-up of its click
        assert ping.payload["type"] == P.REPLY
        meta = ping.payload["interaction_metadata"]
        assert meta["user"]["id"] == clicker.id and meta["type"] == P.MESSAGE_COMPONENT
    first = session.messages["table"][0]
    link = f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{first}"
    mentions = " ".join(f"<@{u.id}>" for u in sorted(acting, key=lambda u: session.seat_of(int(u.id))))
    key = "table.your_turn" if len(acting) == 1 else "table.your_turn_several"
    assert ping.content == t(session.lang, key, mentions=mentions, game=session.game.name, link=link)
    assert session.game.name in ping.content and link in ping.content
    return acting, ping


async def test_the_ping_notifies_the_player_to_act_and_not_the_one_who_clicked(env):
    drive = GameDriver(env, "calcory")
    session = await drive.start(["ann", "bob"])
    await env.settle()                  # the first ping, posted with the table
    rng = random.Random(7)
    handed_on = 0
    for _ in range(12):
        if session.status != "playing":
            break
        seat = rng.choice(sorted(session.to_act()))
        clicker, before = drive.user_of(seat), session.messages.get("ping")
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        acting, ping = check_ping(env, drive, clicker, before)
        handed_on += int(ping.id) != before and clicker not in acting
    assert handed_on, "no move handed the turn on with a ping its click carried"


async def test_with_several_to_act_the_ping_notifies_each_of_them_in_the_tables_language(env):
    """Diabolo's doubler: every player who may double acts at once. Bob's table plays in German."""
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["bob", "ann", "cem"])
    assert session.lang == "de"
    await env.settle()
    rng = random.Random(3)
    several = 0
    for _ in range(60):
        if session.status != "playing":
            break
        seat = rng.choice(sorted(session.to_act()))
        clicker, before = drive.user_of(seat), session.messages.get("ping")
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        if session.status != "playing":
            break
        acting, ping = check_ping(env, drive, clicker, before)
        if len(acting) > 1:
            several += 1
            assert "ihr seid am Zug" in ping.content
            assert ping.custom_ids == [ids.table(session.id, "hand")]
        else:
            assert "du bist am Zug" in ping.content
    assert several, "the doubler never came: no ping named several players"


async def test_a_table_posted_anew_is_linked_by_a_fresh_ping(env):
    """``/table`` posts the table at the bottom and deletes the old one: a ping linking the old
    table would lead nowhere, so the player to act gets a fresh ping linking the new one."""
    drive = GameDriver(env, "calcory")
    session = await drive.start(["ann", "bob"])
    await env.settle()
    old_table, old_ping = session.messages["table"][0], env.double.message(session.messages["ping"])
    await env.double.slash(env.ann, env.channel, "table")
    await env.settle()
    first = session.messages["table"][0]
    assert first != old_table and old_ping.deleted
    ping = env.double.message(session.messages["ping"])
    assert f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{first}" in ping.content
    (acting,) = session.to_act()
    assert env.double.notified(ping) == {drive.user_of(acting)}
