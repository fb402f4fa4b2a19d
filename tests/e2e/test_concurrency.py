"""Clicks at the same moment: every join is seated, a double-clicked Stop applies once."""

from __future__ import annotations

import asyncio

from bot.transport import ids
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory


async def test_two_joins_at_the_same_moment_are_both_seated(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    join = ids.lobby(session.id, "join")

    records = await asyncio.gather(env.double.click(env.bob, lobby, join), env.double.click(env.cem, lobby, join))
    assert all(r.callback_type == 7 and r.original is lobby for r in records)     # both answered in place
    assert sorted(seat.name for seat in session.seats) == ["Ann", "Bob", "Cem"]
    stored = await env.bot.storage.session(session.id)
    assert sorted(seat["name"] for seat in stored.seats) == ["Ann", "Bob", "Cem"]
    players = lobby.text.splitlines()[2]
    assert players.startswith("Players (3/6): Ann, ") and {"Bob", "Cem"} <= set(players.split(": ")[1].split(", "))

    # Three at once, one of them coming back after leaving.
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "leave"))
    records = await asyncio.gather(*(env.double.click(env.users[name], lobby, join)
                                     for name in ("bob", "dia", "mod")))
    assert [r.message.ephemeral for r in records] == [False, False, False]
    assert len(session.seats) == 5 and "Players (5/6)" in lobby.text
    assert {"Bob", "Dia", "Mod"} <= set(lobby.text.splitlines()[2].split(": ")[1].split(", "))


async def test_a_double_clicked_stop_applies_once(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    seat = drive.active
    for slot in drive.pair_to(5):
        await drive.flip(slot)
    user = drive.user_of(seat)
    stop = ids.move(session.id, seat, session.counters[seat], "stop")
    message = drive.message_with(stop)

    records = await asyncio.gather(env.double.click(user, message, stop), env.double.click(user, message, stop))
    await env.settle()
    assert sorted(r.callback_type for r in records) == [4, 7]       # one redraws the table, one explains
    refusal = next(r for r in records if r.callback_type == 4)
    assert refusal.ephemeral
    assert refusal.message.text in ("That button was out of date, so nothing happened.",
                                    "Dieser Button war veraltet, daher ist nichts passiert.")
    assert session.counters[seat] == 3 and session.state.owner == seat and len(session.state.marks) == 2
    assert drive.active != seat
    logged = await env.bot.storage.actions(session.id)
    assert [key for _, key in logged].count("stop") == 1 and len(logged) == 3
    assert "📌 Marked:" in env.table_messages()[0].text
