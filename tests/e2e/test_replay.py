"""Replays over Discord: ``/replay`` lists the caller's finished matches of this server, the Replay button
of a finished match opens a private stepper, and each step shows the table exactly as the channel saw
it after that move (its texts and its picture, compared with what the double recorded during the
match), with every hand on request. The stepper's state lives in its custom ids, so it works on after
a restart; a match of an older rules version, a pruned log, a forged step and a match of another
server are refused in one friendly sentence, in the clicker's language."""

from __future__ import annotations

import random

from bot.transport import ids
from bot.ui.labels import seat_badge
from tests.double.components import text_displays
from tests.e2e.conftest import on_both_stores
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_rematch import closing_message, refused

#: Each recorded position: per table message, its text displays and its pictures' bytes by name.
Seen = dict[int, tuple[list[list[str]], dict[str, bytes]]]


def look(env) -> tuple[list[list[str]], dict[str, bytes]]:
    tables = env.table_messages()
    return [text_displays(m.payload) for m in tables], {name: png for m in tables for name, png in m.files.items()}


async def play_recorded(drive: GameDriver, rng: random.Random, seen: Seen) -> None:
    """People (no computer players) move at random until the match is over; after each move the table
    as the channel shows it is recorded under its step."""
    session, env = drive.session, drive.env
    seen[0] = look(env)
    while session.status == "playing":
        seat = rng.choice(sorted(session.to_act()))
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        await env.settle()
        seen[len(session.history)] = look(env)


def shows(stepper, seen: Seen, step: int) -> None:
    """The stepper shows the table of ``step`` as the channel did: every text of every table message, in
    order, and the very same pictures."""
    texts, pictures = seen[step]
    own = text_displays(stepper.payload)
    flat = [text for message in texts for text in message]
    at = own.index(flat[0])
    assert own[at:at + len(flat)] == flat, (step, own, flat)
    assert {name: stepper.file(name) for name in pictures} == pictures


def step_line(stepper) -> str:
    return text_displays(stepper.payload)[0].splitlines()[1]


async def finished_diabolo(env, seen: Seen):
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["ann", "cem", "dia"])
    await play_recorded(drive, random.Random(3), seen)
    assert session.status == "finished"
    return session


async def test_the_stepper_shows_each_step_as_the_table_showed_it(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    steps = len(match.history)
    closing = closing_message(env, match)
    # The final table offers Replay beside Rematch, as the closing message does.
    (table,) = env.table_messages()
    assert table.component(ids.replay_button(match.id))["label"] == "Replay"
    assert closing.component(ids.replay_button(match.id))["label"] == "Replay"

    opened = await env.double.click(env.ann, closing, ids.replay_button(match.id))
    assert opened.ephemeral
    stepper = opened.message
    assert step_line(stepper).startswith(f"The deal · {steps} moves in all")
    shows(stepper, seen, 0)
    assert stepper.component(ids.replay(match.id, 0, False, "back"))["disabled"]

    # Forward, forward, back: each step is the table after that move, with its move line.
    for step in (1, 2):
        stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, step - 1, False, "next"))).message
        assert step_line(stepper).startswith(f"Move **{step}** of {steps}")
        shows(stepper, seen, step)
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, 2, False, "back"))).message
    shows(stepper, seen, 1)
    assert len(text_displays(stepper.payload)[0].splitlines()) == 2, "the move is read in the table's log alone"

    # The end is the final table; the start the deal again.
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, 1, False, "last"))).message
    shows(stepper, seen, steps)
    assert stepper.component(ids.replay(match.id, steps, False, "next"))["disabled"]
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, steps, False, "first"))).message
    shows(stepper, seen, 0)

    # The jump lists each round and lands where it was dealt, the round's first move one step on.
    jump = ids.replay(match.id, 0, False, "jump")
    options = stepper.component(jump)["options"]
    assert [o["label"] for o in options] == [f"Round {n}" for n in range(1, len(options) + 1)]
    assert len(options) >= 2
    second = int(options[1]["value"])
    stepper = (await env.double.select(env.ann, stepper, jump, [str(second)])).message
    shows(stepper, seen, second)
    assert "Round 2" in step_line(stepper)
    assert "Round 2" in "\n".join(seen[second][0][0]) and "Round 2" not in "\n".join(seen[second - 1][0][0])
    assert any(event.kind == "deal" and event.to is None for event in match.events_from(second - 1)[0])


async def test_the_hands_toggle_shows_every_hand_and_hides_them_again(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    stepper = (await env.double.click(env.dia, closing_message(env, match), ids.replay_button(match.id))).message
    stepper = (await env.double.click(env.dia, stepper, ids.replay(match.id, 0, False, "next"))).message
    hidden = text_displays(stepper.payload)
    stepper = (await env.double.click(env.dia, stepper, ids.replay(match.id, 1, False, "hands"))).message
    shown = text_displays(stepper.payload)
    assert shown[:len(hidden)] == hidden
    # Under the table: the heading, then each seat's line with its hand's picture under it.
    lines = shown[len(hidden):]
    assert lines[0] == "**Everyone's hands**"
    for seat, person in enumerate(match.seats):
        assert lines[seat + 1].startswith(f"{seat_badge(seat)} **{person.name}** · ") and "Your hand" not in lines[seat + 1]
    hands = [name for name in stepper.files if name.startswith("hand-")]
    assert len(hands) == len(match.seats)
    assert stepper.component(ids.replay(match.id, 1, True, "hands"))["label"] == "Hide hands"
    # The toggle survives a step, and hides them again.
    stepper = (await env.double.click(env.dia, stepper, ids.replay(match.id, 1, True, "next"))).message
    assert "**Everyone's hands**" in text_displays(stepper.payload)
    stepper = (await env.double.click(env.dia, stepper, ids.replay(match.id, 2, True, "hands"))).message
    assert not any(name.startswith("hand-") for name in stepper.files)
    shows(stepper, seen, 2)


@on_both_stores
async def test_replay_lists_the_callers_matches_of_this_server_only_and_opens_one(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    # A match in another server, with ann in it too.
    other = env.double.add_guild("Elsewhere")
    channel = env.double.add_text_channel(other, "karten")
    for name in ("ann", "bob"):
        env.double.add_member(other, env.users[name])
    elsewhere = GameDriver(env, "calcory", channel)
    far = await elsewhere.start(["ann", "bob"])
    rng = random.Random(1)
    while far.status == "playing":
        seat = next(iter(far.to_act()))
        await elsewhere.play(seat, rng.choice(far.game.legal_actions(far.state, seat)).key)
    await env.settle()

    listed = await env.double.slash(env.ann, env.channel, "replay")
    assert listed.ephemeral
    (select,) = [c for c in listed.message.components[0]["components"] if c["type"] == 1]
    options = select["components"][0]["options"]
    assert [o["value"] for o in options] == [str(match.id)]
    assert options[0]["label"].startswith("Diabolo · ")
    assert ", ".join(person.name for person in match.seats) in options[0]["description"]
    elsewhere_list = await env.double.slash(env.ann, channel, "replay")
    assert [o["value"] for o in elsewhere_list.message.component(ids.replay_pick())["options"]] == [str(far.id)]

    # Someone who played nothing here is told so; a pick opens the stepper in place.
    refused(await env.double.slash(env.bob, env.channel, "replay"),
            "Du hast in diesem Server noch keine Partie beendet. Spiel eine mit /start und sieh sie dir dann hier an.")
    # A match of another server, forged into the pick, is not shown.
    refused(await env.double.forge_click(env.ann, listed.message, ids.replay_pick(), [str(far.id)]),
            "That match is not kept in this server. Open /replay to see yours.")
    stepper = (await env.double.select(env.ann, listed.message, ids.replay_pick(), [str(match.id)])).message
    shows(stepper, seen, 0)


@on_both_stores
async def test_a_stepper_clicked_after_a_restart_just_works(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    stepper = (await env.double.click(env.ann, closing_message(env, match), ids.replay_button(match.id))).message
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, 0, False, "next"))).message
    await env.stop_bot()
    await env.start_bot()
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, 1, False, "next"))).message
    shows(stepper, seen, 2)


@on_both_stores
async def test_refusals_change_nothing_and_speak_the_clickers_language(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    closing = closing_message(env, match)
    stepper = (await env.double.click(env.ann, closing, ids.replay_button(match.id))).message
    before = stepper.rendered
    steps = len(match.history)

    # A forged step past the end, a step that is no number, an id the message does not carry.
    jump = ids.replay(match.id, 0, False, "jump")
    refused(await env.double.forge_click(env.ann, stepper, jump, [str(steps + 1)]),
            "That move is not part of this match. Open the replay again with /replay.")
    refused(await env.double.forge_click(env.ann, stepper, jump, ["٣"]),
            "That button does not belong to any game I know.")
    for forged in (ids.replay(match.id, steps, False, "next"), ids.replay(match.id + 50, 0, False, "next")):
        refused(await env.double.forge_click(env.ann, stepper, forged),
                "That button is not on this message, so nothing happened.")
    # A stepper's click forged onto the public closing message redraws nothing there.
    refused(await env.double.forge_click(env.ann, closing, ids.replay(match.id, 0, True, "hands")),
            "That button is not on this message, so nothing happened.")
    assert stepper.rendered == before

    # A match of an older rules version: said in one sentence, in German for bob.
    version = match.game.rules_version
    env.monkeypatch.setattr(type(match.game), "rules_version", version + 1)
    refused(await env.double.click(env.bob, closing, ids.replay_button(match.id)),
            "Diese Partie Diabolo wurde nach einer älteren Fassung der Regeln gespielt, "
            "die dieser Bot nicht mehr wiederholen kann.")
    env.monkeypatch.setattr(type(match.game), "rules_version", version)

    # A pruned log (a finished match always had moves).
    await env.bot.storage._write1("DELETE FROM actions WHERE session_id = ?", (match.id,))
    env.bot.replays.walks = type(env.bot.replays.walks)()
    refused(await env.double.click(env.cem, closing, ids.replay_button(match.id)),
            "This match's moves are no longer kept, so it cannot be replayed; its result and ratings still count.")
    assert stepper.rendered == before


async def test_a_forgotten_player_is_anonymous_in_the_replay(env):
    seen: Seen = {}
    match = await finished_diabolo(env, seen)
    seat = next(s for s, person in enumerate(match.seats) if person.user_id == int(env.cem.id))
    asked = await env.double.slash(env.cem, env.channel, "forget-me")
    await env.double.click(env.cem, asked.message, ids.user(int(env.cem.id), "forget"))
    stepper = (await env.double.click(env.ann, closing_message(env, match), ids.replay_button(match.id))).message
    stepper = (await env.double.click(env.ann, stepper, ids.replay(match.id, 0, False, "hands"))).message
    text = "\n".join(text_displays(stepper.payload))
    assert f"{seat_badge(seat)} **Anonymous player** · " in text and "Cem" not in text
    german = (await env.double.click(env.bob, closing_message(env, match), ids.replay_button(match.id))).message
    german = (await env.double.click(env.bob, german, ids.replay(match.id, 0, False, "hands"))).message
    text = "\n".join(text_displays(german.payload))
    assert f"{seat_badge(seat)} **Anonyme Person** · " in text and "Cem" not in text
    assert "Wiederholung · Diabolo" in text and "Karten verbergen" in german.labels
