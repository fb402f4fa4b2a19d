"""A restart in the middle of a game loses nothing, and the old buttons keep working.

First with real processes (``python -m bot`` killed with SIGKILL, then started again on the same
database), then in-process (``env.stop_bot`` / ``env.start_bot``) for the lobby and the hand.
"""

from __future__ import annotations

import pytest

from bot.transport import ids
from games.calcory import SLOTS
from games.deck import digit
from tests.double import DiscordDouble
from tests.e2e import outside as O
from tests.e2e.bot_process import BotProcess, clean_env, stored_session, write_config
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory

PROCESS_TIMEOUT = 30      # only guards a hanging test; every wait ends on an event


async def _click_move(d, user, messages, custom_id):
    """Click a move button once the table shows it (a table message may still be being redrawn)."""
    message = await d.wait_until(lambda: next((m for m in messages if m.has_component(custom_id)), None),
                                 what=f"{custom_id} on the table")
    return await d.click(user, message, custom_id)


@pytest.mark.long(seconds=6)
async def test_killed_bot_process_continues_the_turn_with_the_old_buttons(tmp_path):
    d = DiscordDouble()
    guild = d.add_guild("Testserver")
    channel = d.add_text_channel(guild, "spiele")
    people = {name: d.add_user(name) for name in ("ann", "bob")}
    for user in people.values():
        d.add_member(guild, user)
    by_id = {u.id: u for u in people.values()}
    database = tmp_path / "bot.sqlite3"
    logs = []

    async with d:
        config = write_config(tmp_path / "config.toml", d, database, seed="restart")
        proc = BotProcess([str(config)], cwd=tmp_path, env=clean_env(), log=tmp_path / "bot-1.log")
        logs.append(proc)
        try:
            await d.wait_for_bot(timeout=PROCESS_TIMEOUT)
            lobby = (await d.slash(people["ann"], channel, "start", game="calcory")).message
            sid = O.session_id(lobby)
            await d.click(people["bob"], lobby, ids.lobby(sid, "join"))
            await d.click(people["ann"], lobby, ids.lobby(sid, "start"))
            stored = stored_session(database, sid)
            assert stored.seed == "restart:1", "the process deals from [testing] seed: the same cards every run"
            first = stored.state.active
            second = 1 - first
            p_user, q_user = by_id[stored.user_of(first)], by_id[stored.user_of(second)]
            tables = await d.wait_until(
                lambda: len(t := O.tables(d, channel)) == 2 and O.drawn_for(t, sid, first, 0)
                and O.pinged(d, channel) == {p_user.id} and t, PROCESS_TIMEOUT, "the table and the first ping")

            # Turn 1: a hit on 13, one card goes back through the hand.
            a, b = O.pair(stored.state, lambda x, y: x + y == 13 and x != y)
            for counter, slot in enumerate((a, b)):
                await _click_move(d, p_user, tables, ids.move(sid, first, counter, f"flip:{slot}"))
            await d.wait_until(lambda: O.drawn_for(tables, sid, first, 2), what="the return phase on the table")
            hand = await O.hand_of(d, await d.click(p_user, tables[1], ids.table(sid, "hand")))
            assert hand.ephemeral
            kept = stored_session(database, sid).state.hands[first]
            back = kept[0]
            await d.select(p_user, hand, ids.hand_step(sid, first, 2, "card"), [back])
            await d.select(p_user, hand, ids.move_select(sid, first, 2, f"ret:{back}-|0"), [a])
            await d.wait_until(lambda: O.drawn_for(tables, sid, second, 0)
                               and O.pinged(d, channel) == {q_user.id}, what="the second player's turn")

            # Turn 2: one flip, then the process dies mid-turn.
            state = stored_session(database, sid).state
            c, e = O.pair(state, lambda x, y: x + y <= 12 and not x == y == 0)
            await _click_move(d, q_user, tables, ids.move(sid, second, 0, f"flip:{c}"))
            await d.wait_until(lambda: O.drawn_for(tables, sid, second, 1), what="the flip on both messages")
            shown = digit(state.grid[SLOTS.index(c)])
            assert O.slot_label(tables, sid, second, 1, c) == str(shown)
            before = [m.rendered for m in tables]
            edits = [len(m.history) for m in tables]
            old_ping = O.pings(d, channel)[-1]
            assert "↩️" in tables[1].text and "has flipped" in tables[1].text

            assert proc.kill() != 0
            await d.wait_until(lambda: not d.gateway.connected, what="the gateway to notice the kill")
            log = [(first, f"flip:{a}"), (first, f"flip:{b}"), (first, f"ret:{back}-{a}"), (second, f"flip:{c}")]
            assert stored_session(database, sid).log == log     # committed before the click was answered

            # A new process on the same database, this time finding its config through the environment.
            proc = BotProcess([], cwd=tmp_path, env=clean_env(SPIELTISCH_CONFIG=str(config)),
                              log=tmp_path / "bot-2.log")
            logs.append(proc)
            await d.wait_for_bot(timeout=PROCESS_TIMEOUT)
            await d.wait_until(lambda: old_ping.deleted and O.pinged(d, channel) == {q_user.id}
                               and all(len(m.history) > n for m, n in zip(tables, edits, strict=True)),
                               PROCESS_TIMEOUT, "the restored table to be redrawn")
            assert [m.id for m in O.tables(d, channel)] == [m.id for m in tables]
            assert [m.rendered for m in tables] == before, "the restored table looks different"
            assert O.slot_label(tables, sid, second, 1, c) == str(shown)

            # The old messages' buttons finish the interrupted turn: counters continue at 1.
            await _click_move(d, q_user, tables, ids.move(sid, second, 1, f"flip:{e}"))
            await _click_move(d, q_user, tables, ids.move(sid, second, 2, "stop"))
            await d.wait_until(lambda: O.drawn_for(tables, sid, first, 3) and O.pinged(d, channel) == {p_user.id},
                               what="the turn to pass back")
            total = digit(state.grid[SLOTS.index(c)]) + digit(state.grid[SLOTS.index(e)])
            name = stored.seats[second]["name"]
            assert f"Marked: **{name}**'s set, sum **{total}** from 2 cards ({c}, {e})" in tables[0].text
            assert stored_session(database, sid).log == [*log, (second, f"flip:{e}"), (second, "stop")]
            assert not [r for r in d.requests if r.status >= 400], [r for r in d.requests if r.status >= 400]
        finally:
            proc.kill()
    assert not d.unknown_routes and not d.internal_errors
    for p in logs:
        assert "Traceback" not in p.output() and "Ignoring exception" not in p.output(), p.output()


# ------------------------------------------------------------------------------ in-process


async def test_restart_mid_turn_in_process_keeps_position_and_old_buttons(env):
    await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    first = drive.active
    a, b = drive.pair_to(13)
    await drive.flip(a)
    await drive.flip(b)
    await drive.put_back()
    second = drive.active
    assert second != first
    low = drive.face_down(1)
    await drive.flip(low)
    old = env.session()
    state, counters, history = old.state, list(old.counters), old.log
    tables = env.table_messages()
    before = [m.rendered for m in tables]

    await env.stop_bot()
    await env.start_bot()
    await env.settle()

    new = env.session()
    assert new is not old and new.state == state and new.counters == counters and new.log == history
    assert [m.id for m in env.table_messages()] == [m.id for m in tables]
    assert [m.rendered for m in tables] == before
    await drive.flip(drive.face_down(2, avoid=(low,)))
    await drive.stop()
    assert new.state.owner == second and new.counters[second] == counters[second] + 2
    assert "Marked: **" in tables[0].text and "sum **3** from 2 cards" in tables[0].text


async def test_a_bust_still_lies_open_after_a_restart_until_the_next_click(env):
    """D16 (docs/rules-decisions.md) across a restart: the replayed log shows the failed turn face up, as
    before."""
    await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    x = drive.face_down(9)
    y = drive.face_down(8, avoid=(x,))
    await drive.flip(x)
    await drive.flip(y)
    old = env.session()
    assert old.state.failed is not None
    tables = env.table_messages()
    before = [m.rendered for m in tables]
    line = f"👀 {x} 9 · {y} 8 = **17** 💥 over 13."

    await env.stop_bot()
    await env.start_bot()
    await env.settle()

    new = env.session()
    assert new is not old and new.state.failed == old.state.failed
    assert [m.rendered for m in tables] == before and line in tables[1].text
    assert [drive.message_with(drive.flip_id(s)).component(drive.flip_id(s))["label"] for s in (x, y)] == ["9", "8"]
    await drive.flip(drive.face_down(1, avoid=(x, y)))
    assert new.state.failed is None and "👀" not in tables[1].text
    assert [drive.message_with(drive.flip_id(s)).component(drive.flip_id(s))["label"] for s in (x, y)] == [x, y]


async def test_hand_opened_before_a_restart_still_returns_the_card(env):
    await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    seat = drive.active
    a, b = drive.pair_to(13)
    await drive.flip(a)
    await drive.flip(b)
    session = env.session()
    hand = await drive.open_hand(seat)
    card = session.state.choices[0]
    user = drive.user_of(seat)
    await env.double.select(user, hand, ids.hand_step(session.id, seat, 2, "card"), [card])

    await env.stop_bot()
    await env.start_bot()
    await env.settle()

    await env.double.select(user, hand, ids.move_select(session.id, seat, 2, f"ret:{card}-|0"), [b])
    await env.settle()
    restored = env.session()
    assert restored.state.grid[SLOTS.index(b)] == card and restored.state.phase == "flip"
    assert restored.log[-1] == (seat, f"ret:{card}-{b}")
    assert "Your cards (1)" in hand.text


async def test_lobby_survives_a_restart(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    sid = env.session().id
    await env.double.click(env.bob, lobby, ids.lobby(sid, "join"))

    await env.stop_bot()
    await env.start_bot()

    await env.double.click(env.cem, lobby, ids.lobby(sid, "join"))
    assert "Players (3/6): Ann, Bob, Cem" in lobby.text
    await env.double.click(env.ann, lobby, ids.lobby(sid, "start"))
    await env.settle()
    assert env.session().status == "playing" and len(env.session().seats) == 3
    assert len(env.table_messages()) == 2


async def test_a_computers_turn_whose_timer_was_never_stored_goes_on_after_a_restart(env):
    """A kill between a move's commit and the storing of the computer's timer (or a storage fault
    that kept the timer in memory only) must not leave the computer's turn waiting for ever."""
    from tests.e2e.game_driver import GameDriver

    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann"], computers=1)
    await drive.let_computers_move()
    (seat,) = session.to_act()
    await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
    assert drive.computers_to_act()
    await env.bot.storage.delete_timer(session.id, "computer")        # as if killed before it was stored
    moves = len(session.history)

    await env.stop_bot()
    await env.start_bot()
    await env.settle()
    session = drive.session
    assert len(session.history) == moves and drive.computers_to_act()
    assert await drive.let_computers_move() >= 1
