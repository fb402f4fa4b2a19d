"""A database that takes no writes, through Discord: every click and command is answered with a
friendly notice in the user's language, nothing changes (memory, database, table), the log says it
once for the whole episode, and once the database takes writes again the same click works."""

from __future__ import annotations

import copy
import logging
import random

import pytest

from bot.transport import ids
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_bad_input import refused, snapshot
from tests.host.faults import FAULTS, disk_full, fault, fault_lines

NOT_SAVED = {
    "en": "The table could not save that just now, so nothing changed. Please try again in a moment.",
    "de": "Der Tisch konnte das gerade nicht speichern, es hat sich also nichts geändert. "
          "Versuch es gleich noch einmal.",
}


async def unchanged(env, session):
    """What a refused change must leave alone: the session, its stored log, the table messages."""
    await env.settle()
    return await snapshot(env, session), [copy.deepcopy(m.payload) for m in env.table_messages()], len(env.public())


@pytest.mark.parametrize("kind", FAULTS)
async def test_a_click_during_a_fault_changes_nothing_and_works_afterwards(env, caplog, kind):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    seat, slot = drive.active, drive.face_down(5)
    flip = drive.flip_id(slot)
    player = drive.user_of(seat)
    lang = "de" if player is env.bob else "en"
    before = await unchanged(env, session)
    caplog.set_level(logging.INFO)

    async with fault(kind, env.bot.storage):
        for _ in range(3):                      # a player clicking again and again
            refused(await env.double.click(player, drive.message_with(flip), flip), NOT_SAVED[lang])
        hand = await drive.open_hand(seat)      # what only reads still works
        assert hand.ephemeral and hand.text.startswith(("**Your cards", "**Deine Karten"))
        assert await unchanged(env, session) == before

    # One line for the episode, naming the file, however often players clicked.
    (began,) = fault_lines(caplog.records)
    assert str(env.database) in began and "refuses writes" in began

    record = await env.double.click(player, drive.message_with(flip), flip)
    await env.settle()
    assert not record.ephemeral
    assert session.log == [(seat, f"flip:{slot}")] == await env.bot.storage.actions(session.id)
    assert [copy.deepcopy(m.payload) for m in env.table_messages()] != before[1]      # the table shows it
    lines = fault_lines(caplog.records)
    assert len(lines) == 2 and "takes writes again" in lines[1]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.name != "spieltisch.storage"]
    caplog.clear()


@pytest.mark.parametrize("kind", FAULTS)
async def test_stop_during_a_fault_says_so_in_the_users_language_and_works_afterwards(env, caplog, kind):
    session, _ = await start_calcory(env, ("bob", "ann"))
    before = await unchanged(env, session)
    async with fault(kind, env.bot.storage):
        refused(await env.double.slash(env.bob, env.channel, "stop"), NOT_SAVED["de"])
        refused(await env.double.slash(env.mod, env.channel, "stop"), NOT_SAVED["en"])
        assert await unchanged(env, session) == before
    record = await env.double.slash(env.bob, env.channel, "stop")
    await env.settle()
    assert not record.ephemeral and session.status == "stopped"
    assert record.message.text.startswith("⏹️ Bob")
    assert (await env.bot.storage.session(session.id)).status == "stopped"
    caplog.clear()


async def test_lobby_clicks_and_start_during_a_fault(env, caplog):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await env.double.click(env.cem, lobby, ids.lobby(session.id, "join"))
    await env.settle()
    shown, seats = copy.deepcopy(lobby.payload), session.seats
    async with fault("locked", env.bot.storage):
        refused(await env.double.click(env.bob, lobby, ids.lobby(session.id, "join")), NOT_SAVED["de"])
        refused(await env.double.click(env.ann, lobby, ids.lobby(session.id, "start")), NOT_SAVED["en"])
        refused(await env.double.slash(env.dia, env.thread, "start", game="calcory"), NOT_SAVED["en"])
        await env.settle()
        assert session.seats == seats and session.status == "lobby" and lobby.payload == shown
        assert env.bot.sessions.by_channel(int(env.thread.id)) is None
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    assert [seat.user_id for seat in session.seats] == [int(env.ann.id), int(env.cem.id), int(env.bob.id)]
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    assert session.status == "playing"
    caplog.clear()


async def test_computer_players_wait_out_a_fault_and_play_on(env, caplog):
    """(Every kind of fault is driven through autoplay in tests/host/test_autoplay_faults.py.)"""
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["ann"], options={"rounds": 1}, computers=3)
    rng = random.Random(5)
    await drive.let_computers_move()
    (seat,) = session.to_act()
    await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    assert drive.computers_to_act()
    before = await unchanged(env, session)
    caplog.set_level(logging.INFO)

    async with fault("locked", env.bot.storage):
        await drive.wait(env.bot.autoplay.delay)             # a computer's turn: its move is refused
        await drive.wait(env.bot.timers.retry_after)         # and again, while the fault lasts
        assert await unchanged(env, session) == before
    await drive.wait(env.bot.timers.retry_after)             # planned afresh
    assert await drive.let_computers_move() >= 1
    assert session.log == await env.bot.storage.actions(session.id)
    assert len(fault_lines(caplog.records)) == 2            # the episode and its end, nothing per retry
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING and r.name != "spieltisch.storage"]
    caplog.clear()


async def test_start_opens_the_lobby_even_if_its_computer_seats_could_not_be_saved(env, caplog):
    """The lobby row is saved, then the disk fills up: the host gets the lobby as far as it was
    saved and a notice, and seats the computers from the lobby once writes work again."""
    with disk_full(env.bot.storage, ("UPDATE",)):
        record = await env.double.slash(env.ann, env.channel, "start", game="kapado", computers=2)
        await env.double.wait_until(lambda: record.followups, what="the notice after the lobby")
        await env.settle()
    session = env.session()
    assert not record.ephemeral and "Players (1/" in record.message.text
    assert [seat.user_id for seat in session.seats] == [int(env.ann.id)]
    (notice,) = record.followups
    assert notice.ephemeral_to is not None and notice.text == NOT_SAVED["en"]
    stored = await env.bot.storage.session(session.id)
    assert stored.status == "lobby" and len(stored.seats) == 1 and stored.messages == session.messages == {}
    chosen = await env.double.select(env.ann, record.message, ids.lobby(session.id, "cpu"), ["easy"])
    assert "🤖" in chosen.message.text and len(session.seats) == 2
    assert len(fault_lines(caplog.records)) == 2            # the episode and its end
    caplog.clear()
