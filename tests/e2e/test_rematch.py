"""The end of a match over Discord: the closing message with the result picture, each player's rating
change and a Rematch button, which opens a lobby like the match (its computer players, house rules
and clock) that seats every player who clicks it, and refuses, in the clicker's language and changing
nothing, anyone who did not play, a second click, and a channel that holds another table."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.storage.status import Status
from bot.transport import ids
from bot.ui.labels import seat_badge
from games.base import Action
from tests.double import payloads as P
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


async def finish(drive: GameDriver, rng: random.Random) -> None:
    """People move at random, computer players on their timers, until the match is over."""
    session = drive.session
    while session.status == "playing":
        await drive.let_computers_move()
        if session.status != "playing":
            break
        seat = rng.choice(sorted(s for s in session.to_act() if session.seats[s].is_human))
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    await drive.env.settle()


def closing_message(env, session):
    """The match's closing message, as the channel shows it."""
    return env.double.message(str(session.messages["summary"]))


def refused(record, text: str) -> None:
    assert record.ephemeral, f"{record} was answered in public"
    assert record.message.text == text, record.message.text


async def test_the_closing_message_and_a_rematch_of_the_same_table(env):
    drive = GameDriver(env, "safaru")
    old = await drive.start(["ann", "bob"], options={"open_piles": True}, computers=1)
    computer = next(seat for seat in old.seats if seat.level)
    await finish(drive, random.Random(8))
    assert old.status == "finished"

    # The closing message: badges and names, each player's rating change, the picture, the button.
    closing = closing_message(env, old)
    assert closing is env.public()[-1]
    rated = await env.bot.storage.rating_changes(old.id)
    assert set(rated) == {0, 1, 2}
    lines = closing.content.splitlines()      # the summary; the buttons' labels are under it
    assert len(lines) <= 15 and len(set(lines)) == len(lines)
    for seat, person in enumerate(old.seats):
        line = next(line for line in lines if f"{seat_badge(seat)} {person.name}:" in line and " · rating " in line)
        before, after = rated[seat]
        assert f"({'+' if after >= before else '−'}" in line
    (shown,) = closing.shown
    picture = Image.open(io.BytesIO(closing.file(shown["filename"])))
    assert picture.width == 640 and picture.height <= 900 and len(closing.file(shown["filename"])) <= 200_000
    assert shown["description"].startswith("The result. Podium: place 1:")
    rematch = ids.rematch(old.id)
    assert closing.component(rematch)["label"] == "Rematch"

    # Someone who did not play is refused in their language; nothing opens.
    refused(await env.double.click(env.cem, closing, rematch),
            "Only the players of this match can ask for a rematch. Start a game of your own with /start.")
    assert env.bot.sessions.by_channel(int(env.channel.id)) is None

    # bob (German) opens the rematch: a lobby like the match, hosted by him, posted in the channel.
    opened = await env.double.click(env.bob, closing, rematch)
    await env.settle()
    lobby = env.session()
    assert lobby is not old and lobby.status == Status.LOBBY and lobby.host_id == int(env.bob.id)
    assert opened.message is not None and not opened.ephemeral and lobby.messages["lobby"] == int(opened.message.id)
    assert lobby.options == old.options and lobby.pace == old.pace and lobby.lang == old.lang
    bob, ann = (next(seat.name for seat in old.seats if seat.user_id == int(user.id)) for user in (env.bob, env.ann))
    assert [(seat.name, seat.level) for seat in lobby.seats] == [(bob, None), (computer.name, computer.level)]
    assert bob in opened.message.text and computer.name in opened.message.text

    # A second click, and a click from someone who did not play: refused, the lobby unchanged.
    refused(await env.double.click(env.bob, closing, rematch),
            "Du sitzt schon in der Lobby der Revanche; ihre Spielleitung startet dort die Partie.")
    refused(await env.double.click(env.cem, closing, rematch),
            "Only the players of this match can ask for a rematch. Start a game of your own with /start.")
    assert len(lobby.seats) == 2

    # ann joins by the same button: told where the lobby is, and the lobby message shows her.
    joined = await env.double.click(env.ann, closing, rematch)
    await env.settle()
    link = f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{lobby.messages['lobby']}"
    refused(joined, f"You are seated in the rematch lobby: {link}. Its host starts the game there.")
    assert [seat.name for seat in lobby.seats] == [bob, computer.name, ann]
    assert ann in env.double.message(str(lobby.messages["lobby"])).text

    # The host starts it as usual: the same people and computer player at a new table.
    await env.double.click(env.bob, env.double.message(str(lobby.messages["lobby"])), ids.lobby(lobby.id, "start"))
    await env.settle()
    assert lobby.status == Status.PLAYING
    assert sorted(seat.name for seat in lobby.seats) == sorted(seat.name for seat in old.seats)
    refused(await env.double.click(env.ann, closing, rematch),
            "The rematch has started already. Start a new game with /start once it is over.")


async def test_no_rematch_while_another_table_is_open_and_one_after_a_restart(env):
    drive = GameDriver(env, "safaru")
    old = await drive.start(["ann"], computers=1, pictures=False)
    await finish(drive, random.Random(3))
    closing = closing_message(env, old)
    assert closing.shown == [] and not closing.files        # pictures off: text only
    rematch = ids.rematch(old.id)

    # cem opens another game here: a rematch must wait, and his lobby stays as it was.
    other = (await env.double.slash(env.cem, env.channel, "start", game="calcory")).message
    lobby = env.session()
    refused(await env.double.click(env.ann, closing, rematch),
            "Another table is open in this channel, so a rematch can start here only once it has ended.")
    assert env.session() is lobby and [seat.user_id for seat in lobby.seats] == [int(env.cem.id)]
    await env.double.click(env.cem, other, ids.lobby(lobby.id, "cancel"))
    await env.settle()

    # After a restart the finished match is read back from the database: the button still works.
    await env.stop_bot()
    await env.start_bot()
    opened = await env.double.click(env.ann, closing, rematch)
    await env.settle()
    again = env.session()
    assert again.status == Status.LOBBY and again.host_id == int(env.ann.id) and not again.pictures
    assert opened.message is not None and again.messages["lobby"] == int(opened.message.id)
    assert [seat.level for seat in again.seats] == [None, next(seat.level for seat in old.seats if seat.level)]


async def test_a_channel_that_takes_no_files_gets_the_closing_message_without_its_picture(env):
    """Attach Files is taken away just before the last move: the table had its pictures to the end, the
    closing message goes without its picture, and no upload is tried (the last click said so)."""
    drive = GameDriver(env, "safaru")
    old = await drive.start(["ann", "cem"])
    rng = random.Random(3)
    while old.status == "playing":
        (seat,) = old.to_act()
        key = rng.choice(old.game.legal_actions(old.state, seat)).key
        after = old.game.clone(old.state)
        old.game.apply(after, seat, Action.parse(key))
        if not old.game.is_over(after):
            await drive.play(seat, key)
            continue
        # the last move, clicked in the hand the writer kept current: no other click comes between
        assert env.table_messages()[0].shown
        await env.double.set_overwrite(env.channel, env.guild, deny=P.ATTACH_FILES)
        await drive.attempt(seat, kit.hand_path(old, seat, key), fresh=False)
    await env.settle()
    closing = closing_message(env, old)
    assert closing.shown == [] and closing.has_component(ids.rematch(old.id))
    assert closing.text.startswith("🏁 **Safarü** is over.")
    assert [r for r in env.double.requests if r.status == 403] == []
