"""The turn clock: a reminder before the deadline, the easy computer moving for an absent player,
an away seat after three missed turns until its player rejoins, the host replacing a player, and
deadlines that survive a restart without a flood of messages."""

from __future__ import annotations

import logging

from bot.i18n import t
from bot.play.seats import SeatKind
from bot.transport import ids
from tests.double import payloads as P
from tests.e2e.game_driver import GameDriver


async def _live_table(env, players=("ann", "bob")):
    """A two-player Safarü table on the live clock (every turn is one move there)."""
    drive = GameDriver(env, "safaru")
    lobby = (await env.double.slash(env.users[players[0]], env.channel, "start", game="safaru")).message
    session = env.session()
    await env.double.select(env.users[players[0]], lobby, ids.lobby(session.id, "pace"), ["live"])
    for name in players[1:]:
        await env.double.click(env.users[name], lobby, ids.lobby(session.id, "join"))
    await env.double.click(env.users[players[0]], lobby, ids.lobby(session.id, "start"))
    await env.settle()
    return drive, session


def _texts(env) -> list[str]:
    return [m.text for m in env.public()]


async def test_a_missed_turn_is_reminded_then_played_by_the_computer(env):
    drive, session = await _live_table(env)
    seat = next(iter(session.to_act()))
    user = drive.user_of(seat)
    due = env.clock.now() + 120
    assert f"<t:{int(due)}:R>" in _texts(env)[-1]          # the ping shows the deadline
    assert f"⏳ Time runs out <t:{int(due)}:R>." in env.table_messages()[0].text       # and the table

    await drive.wait(89)
    assert not any(text.startswith("⏰") for text in _texts(env))
    await drive.wait(1)
    reminder = env.public()[-1]
    assert reminder.text.startswith(f"⏰ <@{user.id}>, your turn at Safarü runs out <t:{int(due)}:R>")

    await drive.wait(30)
    assert len(session.history) == 1 and session.history[0][0] == seat   # the computer moved for them
    assert session.seats[seat].missed == 1 and session.seats[seat].kind is SeatKind.HUMAN
    assert (await env.bot.storage.session(session.id)).seats[seat]["missed"] == 1


async def _away_after_three_missed_turns(env):
    """A live table where the first player to act misses three turns: the away notice with Rejoin."""
    drive, session = await _live_table(env)
    absent = next(iter(session.to_act()))
    while session.seats[absent].kind is SeatKind.HUMAN:
        if absent in session.to_act():
            await drive.wait(120)
        else:
            other = next(iter(session.to_act()))
            await drive.play(other, session.game.legal_actions(session.state, other)[0].key)
    notice = next(m for m in env.public() if "missed three turns" in m.text)
    assert notice.has_component(ids.table(session.id, "rejoin"))
    return drive, session, absent, notice


async def test_three_missed_turns_hand_the_seat_to_the_computer_until_rejoin(env):
    drive, session, absent, notice = await _away_after_three_missed_turns(env)

    # Away: the computer now moves for the seat after the short delay, not after the clock.
    if absent not in session.to_act():
        other = next(iter(session.to_act()))
        await drive.play(other, session.game.legal_actions(session.state, other)[0].key)
    if absent in session.to_act() and session.status == "playing":
        before = len(session.history)
        await drive.wait(env.bot.autoplay.delay)
        assert len(session.history) > before

    user = drive.user_of(absent)
    stranger = await env.double.click(drive.user_of(1 - absent), notice, ids.table(session.id, "rejoin"))
    assert stranger.message.text == t(drive.lang_of(1 - absent), "table.not_away")
    back = await env.double.click(user, notice, ids.table(session.id, "rejoin"))
    assert back.ephemeral and back.message.text == t(drive.lang_of(absent), "table.rejoined")
    assert session.seats[absent].kind is SeatKind.HUMAN and session.seats[absent].missed == 0


async def test_the_host_replaces_a_player_by_a_computer(env):
    drive, session = await _live_table(env)
    refused = await env.double.slash(env.bob, env.channel, "replace", player=env.ann)
    assert refused.ephemeral and refused.message.text == "Das darf nur die Spielleitung."
    record = await env.double.slash(env.ann, env.channel, "replace", player=env.bob, level="easy")
    assert record.message.text == "🤖 A computer player (easy) takes over Bob's seat for the rest of the match."
    seat = next(i for i, s in enumerate(session.seats) if s.name == "🤖 Bob")
    assert session.seats[seat].kind is SeatKind.COMPUTER and session.seats[seat].user_id is None
    if seat in session.to_act():
        moved = await drive.let_computers_move()
        assert moved >= 1


async def test_a_deadline_that_passed_while_the_bot_was_down_is_handled_once(env):
    _, session = await _live_table(env)
    seat = next(iter(session.to_act()))
    sid = session.id
    await env.stop_bot()
    env.clock.advance(6 * 3600)               # hours later: the deadline and the reminder are long past
    posted = len(env.public())
    await env.start_bot()
    await env.bot.timers.idle()
    await env.settle()
    session = env.bot.sessions.get(sid)
    assert [s for s, _, _ in session.history] == [seat]          # one move for the absent player, no more
    new = [m.text for m in env.public()[posted:]]
    assert not any(text.startswith("⏰") for text in new)          # no stale reminder
    assert env.bot.autoplay.deadline(session) == env.clock.now() + 120


async def test_rejoin_is_no_longer_offered_once_the_match_is_over(env):
    _, session, _, _ = await _away_after_three_missed_turns(env)

    await env.double.slash(env.users["ann"], env.channel, "stop")        # the host ends the match
    await env.settle()
    notice = next(m for m in env.public() if "missed three turns" in m.text)
    assert not notice.has_component(ids.table(session.id, "rejoin")) and "missed three turns" in notice.text
    assert session.messages.get("away") == []


async def test_reminders_a_channel_refuses_are_logged_once_not_every_turn(env, caplog):
    """Send Messages taken away at a live table: every reminder is refused, and the log says so once
    (without a traceback), however many turns run out; a reminder that goes through again ends it."""
    drive, _ = await _live_table(env)
    await env.double.set_overwrite(env.channel, env.double.bot, deny=P.SEND_MESSAGES)
    for _ in range(3):                                       # three deadlines: three reminders refused
        await drive.wait(120)
    refused = [r for r in env.double.requests if r.status == 403 and r.method == "POST"
               and "/messages" in r.path and r.path.startswith("/channels")]
    assert len(refused) >= 3
    notices = [r for r in caplog.records if "refuses the notices" in r.getMessage()]
    assert len(notices) == 1 and notices[0].levelno == logging.WARNING and notices[0].exc_info is None
    caplog.clear()          # asserted: the test's own log check is satisfied

    await env.double.set_overwrite(env.channel, env.double.bot)
    before = len([m for m in env.public() if m.text.startswith("⏰")])
    await drive.wait(90)
    assert len([m for m in env.public() if m.text.startswith("⏰")]) == before + 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
