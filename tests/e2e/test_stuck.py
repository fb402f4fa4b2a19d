"""No table ever stuck: what follows a commit happens even when Discord refuses or loses a request.

The double answers chosen requests with the errors Discord gives on a bad day (``tests/double/
faults.py``): the click's answer 10062 (it came too late), a 503 on the table post or the turn ping.
"""

from __future__ import annotations

import logging

from bot.i18n import t
from bot.play.autoplay import DEADLINE
from bot.transport import ids
from games.calcory import SLOTS
from tests.e2e import outside as O
from tests.e2e.calcory_driver import CalcoryDriver, settled, start_calcory

CALLBACK = "/interactions/*/callback"
#: Within this many seconds the table writer tries a refused post again.
RETRY = 30
V2 = 1 << 15


def is_table_post(record) -> bool:
    return bool((record.body or {}).get("flags", 0) & V2)


def is_ping(record) -> bool:
    return "<@" in str((record.body or {}).get("content", ""))


def claim(caplog, fragment: str) -> list[logging.LogRecord]:
    """Take the warnings a test provoked on purpose out of the log the ``quiet_logs`` fixture checks."""
    mine = [r for r in caplog.records if fragment in r.getMessage() and r.levelno == logging.WARNING]
    for record in mine:
        caplog.handler.records.remove(record)
    return mine


# ------------------------------------------------------------------ 1: the answer failed


async def test_a_move_whose_answer_failed_is_drawn_and_the_next_click_works(env, caplog):
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    seat = drive.active
    first = drive.face_down(1)
    custom_id = drive.flip_id(first)
    env.double.fault("POST", CALLBACK, status=404, code=10062)      # the commit took over 3 s
    record = await env.double.click(drive.user_of(seat), drive.message_with(custom_id), custom_id,
                                    expect_ack=False)
    await settled(env, lambda: session.log, "the move to be stored")
    assert record.callback is None and session.log == [(seat, f"flip:{first}")]
    tables = env.table_messages()
    assert O.drawn_for(tables, session.id, seat, 1), "the table still shows the buttons of before the move"
    await drive.flip(drive.face_down(2, avoid=(first,)))      # the mover's next click is not "out of date"
    assert session.counters[seat] == 2
    assert claim(caplog, "could not answer")


async def test_a_start_whose_answer_failed_still_posts_the_table(env, caplog):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    env.double.fault("POST", CALLBACK, status=404, code=10062)
    record = await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"), expect_ack=False)
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted")
    assert record.callback is None and session.status == "playing"
    assert O.pinged(env.double, env.channel) == {str(session.seats[session.state.active].user_id)}
    assert not lobby.has_component(ids.lobby(session.id, "start")), "the lobby still offers Start"
    assert claim(caplog, "could not answer")


async def test_a_move_whose_answer_failed_still_sets_the_turn_clock(env, caplog):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await env.double.select(env.ann, lobby, ids.lobby(session.id, "pace"), ["live"])
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted")
    drive = CalcoryDriver(env)
    seat = drive.active
    custom_id = drive.flip_id(drive.face_down(1))
    env.double.fault("POST", CALLBACK, status=404, code=10062)
    await env.double.click(drive.user_of(seat), drive.message_with(custom_id), custom_id, expect_ack=False)
    await settled(env, lambda: session.log, "the move to be stored")
    (deadline,) = [row for row in await env.bot.storage.timers() if row.kind == DEADLINE]
    assert deadline.payload["seq"] == 1, "the deadline is still the one of the turn before the move"
    assert deadline.due == env.clock.now() + 120
    assert claim(caplog, "could not answer")


async def test_a_refusal_answered_too_late_is_a_warning_and_changes_nothing(env, caplog):
    """A click that changes nothing (here: out of turn) whose notice comes after Discord's 3 s is
    refused with 10062; the bot notes it and goes on, with no error and nothing stored."""
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    waiting = 1 - drive.active
    custom_id = drive.flip_id(drive.face_down(1))
    env.double.fault("POST", CALLBACK, status=404, code=10062)
    record = await env.double.click(drive.user_of(waiting), drive.message_with(custom_id), custom_id,
                                    expect_ack=False)
    await settled(env, lambda: any("3 seconds" in r.getMessage() for r in caplog.records), "the late notice")
    assert record.callback is None and session.log == []
    (warning,) = claim(caplog, "after Discord's 3 seconds")
    assert "changed nothing" in warning.getMessage()


# ------------------------------------------------------------------ 2: a missing table


async def test_a_table_post_refused_once_is_posted_again(env, caplog):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    fault = env.double.fault("POST", "/channels/*/messages", status=503, when=is_table_post)
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await settled(env, lambda: fault.hits, "the refused post")
    assert not session.messages.get("table") and not O.tables(env.double, env.channel)
    await env.bot.timers.idle()
    env.clock.advance(RETRY)
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted again")
    tables = env.table_messages()
    assert [m.id for m in O.tables(env.double, env.channel)] == [m.id for m in tables]
    assert O.drawn_for(tables, session.id, session.state.active, 0)
    assert claim(caplog, "could not redraw")


# ------------------------------------------------------------------ 3: the turn ping


async def test_a_turn_ping_refused_once_is_sent_again(env, caplog):
    fault = env.double.fault("POST", "/channels/*/messages", status=503, when=is_ping)
    session, _ = await start_calcory(env, ("ann", "bob"))
    assert fault.hits and not O.pings(env.double, env.channel)
    drive = CalcoryDriver(env)
    seat = drive.active
    await drive.flip(drive.face_down(1))             # the same player is still to act
    assert O.pinged(env.double, env.channel) == {str(session.seats[seat].user_id)}
    assert claim(caplog, "could not redraw")


async def test_a_table_post_cut_short_takes_back_its_first_half_and_posts_again(env, caplog):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    fault = env.double.fault("POST", "/channels/*/messages", status=503, nth=2, when=is_table_post)
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await settled(env, lambda: fault.hits, "the refused second half")
    await env.settle()
    assert not O.tables(env.double, env.channel), "half a table with live buttons is left in the channel"
    assert session.messages.get("posting") and not session.messages.get("table")
    await env.bot.timers.idle()
    env.clock.advance(RETRY)
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted again")
    assert [m.id for m in O.tables(env.double, env.channel)] == [m.id for m in env.table_messages()]
    assert not session.messages.get("posting")
    assert claim(caplog, "could not redraw")


async def test_a_stop_whose_answer_failed_still_redraws_the_table(env, caplog):
    session, _ = await start_calcory(env, ("ann", "bob"))
    tables = env.table_messages()
    env.double.fault("POST", CALLBACK, status=404, code=10062)
    record = await env.double.slash(env.ann, env.channel, "stop", expect_ack=False)
    await settled(env, lambda: session.status == "stopped", "the game to stop")
    assert record.callback is None
    assert t("en", "table.stopped") in tables[1].text, "the table does not say the game was stopped"
    assert claim(caplog, "could not answer")


async def test_a_hand_move_whose_answer_failed_is_redrawn_in_the_hand(env, caplog):
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    seat = drive.active
    for slot in drive.pair_to(13):                  # a hit: a card goes back through the hand
        await drive.flip(slot)
    user = drive.user_of(seat)
    hand = await drive.open_hand(seat)
    card = session.state.choices[0]
    counter = session.counters[seat]
    await env.double.select(user, hand, ids.hand_step(session.id, seat, counter, "card"), [card])
    slot = next(s for s, c in zip(SLOTS, session.state.grid, strict=True) if not c)
    put_back = ids.move_select(session.id, seat, counter, f"ret:{card}-|0")
    env.double.fault("POST", CALLBACK, status=404, code=10062)
    record = await env.double.select(user, hand, put_back, [slot], expect_ack=False)
    await settled(env, lambda: len(session.log) == 3, "the move to be stored")
    assert record.callback is None and session.log[-1] == (seat, f"ret:{card}-{slot}")
    assert not hand.has_component(put_back), "the hand still offers the move it made"
    assert claim(caplog, "could not answer")


async def test_a_table_post_whose_ids_could_not_be_saved_is_posted_again_once_the_disk_takes_writes(env, caplog):
    """``/table`` during a storage fault: the writer cannot store its "posting" mark, so it posts
    nothing yet, neither dies nor logs per try (the storage logs the episode), and posts the table
    on its next try once writes work again."""
    from tests.host.faults import disk_full, fault_lines

    session, _ = await start_calcory(env, ("ann", "bob"))
    before = list(session.messages["table"])
    with disk_full(env.bot.storage, ("UPDATE",)):
        await env.double.slash(env.ann, env.channel, "table")
        await env.settle()
        assert session.messages["table"] == before
        writer = env.bot.tables._tables[session.id]
        assert writer.retry is not None and not writer.task.cancelled() and writer.task.exception() is None
    await env.bot.timers.idle()
    env.clock.advance(RETRY)
    await settled(env, lambda: session.messages["table"] != before, "the table to be posted again")
    assert [int(m.id) for m in O.tables(env.double, env.channel)] == session.messages["table"]
    assert len(fault_lines(caplog.records)) == 2        # the episode and its end, nothing per try
    caplog.clear()
