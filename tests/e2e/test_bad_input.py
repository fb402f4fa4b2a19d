"""Bad input on the click path: each click gets a short ephemeral explanation and changes nothing.

Clicks normal clients can make go through `double.click`/`double.select`. A custom_id a normal client
cannot send (a forged one, or a button the user's client still showed enabled while the bot had
already changed the message) goes through `tampered`: the double's own interaction sender with a
copy of the message as the client had it, which is all Discord checks.
"""

from __future__ import annotations

import asyncio
import copy

from bot.play import clicks
from bot.transport import ids
from games.calcory import SLOTS
from tests.double import components as C
from tests.double import payloads as P
from tests.double.world import Message
from tests.e2e.calcory_driver import CalcoryDriver, play_two_player_game, settled, start_calcory
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


async def tampered(env, user, message, custom_id: str, values: list[str] | None = None, *, replace: str | None = None,
                   channel=None):
    """A component interaction for `custom_id` on (a copy of) `message`, as a modified client sends it.

    `replace` names a component of the message whose custom_id the client swapped for `custom_id`;
    without it the component must be on the message (disabled ones count: the client had not redrawn).
    """
    payload = copy.deepcopy(message.payload)
    component = C.find_component(payload, replace or custom_id)
    assert component is not None, f"{replace or custom_id} is not on {message}"
    component["custom_id"] = custom_id
    component.pop("disabled", None)
    # The copy shows what the real message shows: Discord holds its files whatever a client sends.
    seen = Message(payload, message.channel, ephemeral_to=message.ephemeral_to, held=copy.deepcopy(message.held))
    data = {"custom_id": custom_id, "component_type": component["type"], "id": component.get("id")}
    if values is not None:
        data["values"] = values
    return await env.double._interact(user, channel or message.channel, P.MESSAGE_COMPONENT, data, seen, True)


async def snapshot(env, session) -> tuple:
    """What must not change: status, seats, counters, the engine state's view and the stored log."""
    stored = await env.bot.storage.session(session.id, with_actions=True)
    view = session.view(None) if session.state is not None else None
    return (session.status, session.seats, list(session.counters), view, session.log,
            stored.status, stored.seats, stored.actions)


def refused(record, text: str) -> None:
    assert record.ephemeral, f"{record} was answered in public"
    assert record.message.text == text, record.message.text
    assert len(record.message.text.splitlines()) == 1


# ------------------------------------------------------------------------------------- seat and turn

async def test_click_without_a_seat_and_out_of_turn(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    before = await snapshot(env, session)
    flip = drive.flip_id(drive.face_down(7))
    message = drive.message_with(flip)
    hand = ids.table(session.id, "hand")

    refused(await env.double.click(env.dia, message, flip), "You are not playing at this table.")
    refused(await env.double.click(env.dia, drive.message_with(hand), hand), "You are not playing at this table.")
    stop = ids.move(session.id, drive.active, session.counters[drive.active], "stop")
    for seat in range(3):
        if seat == drive.active:
            continue
        user = drive.user_of(seat)
        text = "Du bist nicht am Zug." if user is env.bob else "It is not your turn."     # each user's locale
        refused(await env.double.click(user, message, flip), text)
        refused(await env.double.click(user, drive.message_with(stop), stop), text)
    await env.settle()
    assert await snapshot(env, session) == before


# --------------------------------------------------------------------------------------- stale hand

async def test_old_select_in_a_stale_hand_redraws_it_with_a_notice(env):
    session, _ = await start_calcory(env, ("ann", "cem"))
    drive = CalcoryDriver(env)
    seat = drive.active
    user = drive.user_of(seat)
    for slot in drive.pair_to(13):
        await drive.flip(slot)
    old_hand = await drive.open_hand(seat)
    counter = session.counters[seat]
    card_select = ids.hand_step(session.id, seat, counter, "card")
    card = C.find_component(old_hand.payload, card_select)["options"][0]["value"]
    await env.double.select(user, old_hand, card_select, [card])        # the slot select opens up
    slot_select = ids.move_select(session.id, seat, counter, f"ret:{card}-|0")
    slot = C.find_component(old_hand.payload, slot_select)["options"][-1]["value"]
    await _restart(env)                         # the old hand's token is gone: nothing tells it any more
    session = env.session()
    await drive.put_back()                      # through a fresh hand: the player moved on
    assert session.counters[seat] == counter + 1
    before = await snapshot(env, session)

    record = await env.double.select(user, old_hand, slot_select, [slot])
    assert record.callback_type == 7 and record.original is old_hand         # redrawn in place
    lines = old_hand.text.splitlines()
    assert lines[0] == "That button was out of date, so nothing happened."
    assert lines[1].startswith("**Your cards (1):** ")
    assert not old_hand.custom_ids                                          # nothing left to choose
    await env.settle()
    assert await snapshot(env, session) == before


async def test_old_card_select_in_a_stale_hand_redraws_it(env):
    session, _ = await start_calcory(env, ("ann", "cem"))
    drive = CalcoryDriver(env)
    seat = drive.active
    user = drive.user_of(seat)
    for slot in drive.pair_to(13):
        await drive.flip(slot)
    old_hand = await drive.open_hand(seat)
    card_select = ids.hand_step(session.id, seat, session.counters[seat], "card")
    card = C.find_component(old_hand.payload, card_select)["options"][0]["value"]
    await _restart(env)
    session = env.session()
    await drive.put_back()
    before = await snapshot(env, session)

    record = await env.double.select(user, old_hand, card_select, [card])
    assert record.callback_type == 7 and record.original is old_hand
    assert old_hand.text.splitlines()[0] == "The game moved on, so here is your hand as it is now."
    assert not old_hand.custom_ids
    assert await snapshot(env, session) == before


# ------------------------------------------------------------------------------------ old table message

async def test_click_on_a_table_message_that_table_replaced(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    slot = drive.face_down(6)
    flip = drive.flip_id(slot)
    old = drive.message_with(flip)
    await env.double.slash(env.cem, env.channel, "table")
    await settled(env, lambda: old.deleted, "the old table to go")
    before = await snapshot(env, session)

    # The player's client had not yet removed the old message: the same, still valid button on it.
    record = await tampered(env, drive.user_of(drive.active), old, flip)
    refused(record, "This table message was replaced; please use the table at the bottom of the channel.")
    await env.settle()
    assert await snapshot(env, session) == before
    await drive.flip(slot)                                   # the same move on the new table works
    assert session.state.flips


# ------------------------------------------------------------------------------------ finished game

async def test_clicks_on_a_finished_game(env):
    session, _ = await start_calcory(env, ("ann", "cem"))
    drive = CalcoryDriver(env)
    tables = env.table_messages()
    early = Message(copy.deepcopy(tables[1].payload), tables[1].channel)     # as a slow client still shows it
    stop = next(c for c in early.custom_ids if c.endswith(":stop"))
    await play_two_player_game(env, drive)
    before = await snapshot(env, session)

    for user in (env.ann, env.cem):
        refused(await tampered(env, user, early, stop),
                "This game is over or was closed, so that button does nothing any more.")
    hand = ids.table(session.id, "hand")
    refused(await tampered(env, env.dia, tables[1], hand),
            "This game is over or was closed, so that button does nothing any more.")
    await env.settle()
    assert await snapshot(env, session) == before
    assert len(await env.bot.storage.results(session.id)) == 2


# ------------------------------------------------------------------------------------ forged custom_ids

async def test_forged_ids_naming_a_wrong_session_seat_or_action(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    seat = drive.active
    user = drive.user_of(seat)
    assert user is not env.bob, "the planned seed seats an English speaker first; the texts below are English"
    counter = session.counters[seat]
    flip = drive.flip_id(drive.face_down(8))
    message = drive.message_with(flip)
    before = await snapshot(env, session)

    cases = [
        (ids.move(session.id + 40, seat, counter, "flip:A1"),
         "This game is over or was closed, so that button does nothing any more."),
        (f"st:m:{session.id}:{seat}", "That button does not belong to any game I know."),
        (f"st:m:{session.id}:x:{counter}:flip:A1", "That button does not belong to any game I know."),
        (f"st:q:{session.id}:hand", "That button does not belong to any game I know."),
        (ids.table(session.id, "peek"), "That button does not belong to any game I know."),
        (ids.lobby(session.id, "join"), "This lobby is closed; the game has already started or ended."),
        (ids.move(session.id, (seat + 1) % 3, session.counters[(seat + 1) % 3], "flip:A1"),
         "That button is out of date; open your hand again for the current choices."),
        (ids.move(session.id, 9, 0, "flip:A1"), "That button is out of date; open your hand again for the current choices."),
        (ids.hand_step(session.id, (seat + 1) % 3, 0, "card"),          # a hand step belongs in a hand
         "That button only works in a message that only you can see, so nothing happened."),
        (ids.move(session.id, seat, counter + 3, "flip:A1"), "That button was out of date, so nothing happened."),
        (ids.move(session.id, seat, counter, "flip:Z9"), "There is no such slot on the table."),
        (ids.move(session.id, seat, counter, "juggle"), "That move is not allowed right now."),
        (ids.move(session.id, seat, counter, "stop:"), "That move is not allowed right now."),   # "stop" misspelt
        (ids.move(session.id, seat, counter, "stop"),
         "While your hand is empty you must turn over at least two cards before you stop."),
        (ids.move(session.id, seat, counter, "ret:c1a-A1"), "You have no card to put back right now."),
        (ids.move_select(session.id, seat, counter, "ret:c1a-|0"), "You have no card to put back right now."),
    ]
    for custom_id, text in cases:
        values = ["A1"] if custom_id.startswith("st:s:") else None
        record = await tampered(env, user, message, custom_id, values, replace=flip)
        refused(record, text)
    await env.settle()
    assert await snapshot(env, session) == before


async def test_forged_id_naming_a_live_game_in_another_channel(env):
    here, _ = await start_calcory(env, ("ann", "cem"))
    there, _ = await start_calcory(env, ("dia", "mod"), channel=env.thread)
    there_seat = there.state.active
    there_user = env.dia if there.seats[there_seat].user_id == int(env.dia.id) else env.mod
    message = env.table_messages()[0]
    flip_here = next(c for c in message.custom_ids if ":flip:" in c and not message.component(c).get("disabled"))
    before = (await snapshot(env, here), await snapshot(env, there))

    slot = next(SLOTS[i] for i, card in enumerate(there.state.grid) if card and i not in there.state.flips)
    forged = ids.move(there.id, there_seat, there.counters[there_seat], f"flip:{slot}")
    refused(await tampered(env, there_user, message, forged, replace=flip_here),
            "That button belongs to a game in another channel.")
    refused(await tampered(env, there_user, message, ids.table(there.id, "hand"), replace=flip_here),
            "That button belongs to a game in another channel.")
    await env.settle()
    assert (await snapshot(env, here), await snapshot(env, there)) == before


async def test_forged_table_and_hand_ids_on_a_lobby(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    join = ids.lobby(session.id, "join")
    before = await snapshot(env, session)
    cases = [
        (ids.move(session.id, 0, 0, "flip:A1"), None, "The game has not started yet."),
        (ids.move(session.id, 3, 0, "flip:A1"), None, "The game has not started yet."),
        (ids.move_select(session.id, 0, 0, "ret:x-|0"), ["A1"], "The game has not started yet."),
        (ids.hand_step(session.id, 0, 0, "card"), ["x"],
         "That button only works in a message that only you can see, so nothing happened."),
        (ids.table(session.id, "hand"), None, "The game has not started yet."),
        (ids.lobby(session.id, "shuffle"), None, "That button does not belong to any game I know."),
        (ids.lobby(session.id, "lang"), ["fr"], "That is not a valid value for lang."),
    ]
    for custom_id, values, text in cases:
        refused(await tampered(env, env.ann, lobby, custom_id, values, replace=join), text)
    # Start with too few players: Discord shows the button disabled; a stale client may still send it.
    refused(await tampered(env, env.ann, lobby, ids.lobby(session.id, "start")), "At least 2 players are needed to start.")
    assert await snapshot(env, session) == before
    assert "Players (1/6): Ann" in lobby.text


# ------------------------------------------------------------------------------------ while busy

async def test_second_click_while_the_first_is_being_processed(env, monkeypatch):
    session, _ = await start_calcory(env, ("ann", "cem"))
    drive = CalcoryDriver(env)
    seat = drive.active
    user = drive.user_of(seat)
    first = drive.face_down(2)
    first_id = drive.flip_id(first)
    message = drive.message_with(first_id)
    second_id = next(drive.flip_id(s) for s in SLOTS if s != first and message.has_component(drive.flip_id(s)))

    storage = env.bot.storage
    real_append = storage.append_action
    entered, release = asyncio.Event(), asyncio.Event()

    async def slow_append(*args, **kwargs):
        entered.set()
        await release.wait()
        return await real_append(*args, **kwargs)

    monkeypatch.setattr(storage, "append_action", slow_append)
    monkeypatch.setattr(clicks, "LOCK_PATIENCE", 0.01)
    one = asyncio.create_task(env.double.click(user, message, first_id))
    await entered.wait()                              # the first click holds the session, mid-commit
    two = await env.double.click(user, message, second_id)
    assert two.callback_type == 6                      # it could not wait: deferred, no failure shown
    release.set()
    await one
    await env.double.wait_until(lambda: two.followups, what="the second click's answer")
    await env.settle()

    answer = two.followups[0]
    assert answer.ephemeral and answer.text == "That button was out of date, so nothing happened."
    assert session.counters[seat] == 1 and session.log == [(seat, f"flip:{first}")]
    assert await storage.actions(session.id) == [(seat, f"flip:{first}")]


async def test_join_on_a_cancelled_lobby(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    join = ids.lobby(session.id, "join")
    early = Message(copy.deepcopy(lobby.payload), lobby.channel)
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "cancel"))
    refused(await tampered(env, env.cem, early, join), "This game is over or was closed, so that button does nothing any more.")
    assert session.status == "cancelled" and session.seats[0].name == "Ann" and len(session.seats) == 1



async def test_a_move_after_the_table_message_was_deleted_still_counts(env, caplog):
    """A moderator deleted the table message: its redraw answers 404, the bot logs it, the move
    counts, a fresh table is posted and the game goes on; ``/table`` posts the table again."""
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    seat = min(session.to_act())
    key = session.game.legal_actions(session.state, seat)[0].key
    path = kit.hand_path(session, seat, key, drive.lang_of(seat))
    assert path and all(click.where == "hand" for click in path)
    await drive.open_hand(seat)
    for message in env.table_messages():
        message.deleted = True
    before = len(session.log)
    await drive.attempt(seat, path, fresh=False)
    assert len(session.log) == before + 1 and session.log[-1] == (seat, key)
    assert (await env.bot.storage.session(session.id, with_actions=True)).actions == session.log
    assert any("cannot be edited any more (404 10008)" in r.getMessage() for r in caplog.records)
    await settled(env, lambda: env.table_messages(), "a fresh table")
    await env.double.slash(env.ann, env.channel, "table")
    await settled(env, lambda: env.table_messages(), "a new table")


async def _restart(env) -> None:
    """Restart the bot: interaction tokens live in memory only, so a hand opened before it is left
    as it was, its old buttons on the player's screen (while a token lasts, a hand opened anew
    tells the older one that it no longer follows the table, which leaves nothing stale to click)."""
    await env.stop_bot()
    await env.start_bot()
    await env.settle()
