"""/forget-me (/vergiss-mich) on the double: asked first, refused at a live table (of any process),
and afterwards the person's rows are anonymous, the seat a computer took over from them included,
while everyone else's records hold."""

from __future__ import annotations

import json
import sqlite3

from bot.i18n import t
from bot.storage.store import Storage
from bot.transport import ids
from tests.e2e.calcory_driver import CalcoryDriver, board_lines, play_two_player_game, start_calcory


def _stored(env) -> tuple[list[tuple], list[tuple]]:
    with sqlite3.connect(env.database) as db:
        results = db.execute("SELECT session_id, seat, user_id, name, score, rank, won FROM results "
                             "ORDER BY session_id, seat").fetchall()
        sessions = db.execute("SELECT id, host_id, seats FROM sessions ORDER BY id").fetchall()
    return results, sessions


async def test_forget_me_makes_a_players_rows_anonymous_and_keeps_the_others(env):
    await start_calcory(env, players=("ann", "bob"))
    await play_two_player_game(env, CalcoryDriver(env))
    ann, bob = int(env.ann.id), int(env.bob.id)
    results_before, _ = _stored(env)
    assert {row[2] for row in results_before} == {ann, bob}

    # At a live table: told to finish or leave it first, nothing offered, nothing changed.
    lobby = (await env.double.slash(env.ann, env.thread, "start", game="calcory")).message
    refused = await env.double.slash(env.ann, env.channel, "forget-me")
    assert refused.ephemeral and refused.message.text == (
        f"You are at the table of Calcory in <#{env.thread.id}>. Leave the lobby or finish the game first (the "
        "host can also end it with /stop), then try again.")
    assert not refused.message.custom_ids and _stored(env)[0] == results_before
    await env.double.click(env.ann, lobby, ids.lobby(env.session(env.thread).id, "cancel"))

    asked = await env.double.slash(env.ann, env.channel, "forget-me")
    assert asked.ephemeral and asked.message.text.startswith("Forget you? This removes your name and your Discord id")
    confirm = ids.user(ann, "forget")
    assert asked.message.custom_ids == [confirm]
    assert _stored(env)[0] == results_before                # asking changes nothing

    # Another user's forged click of Ann's button, on their own /forget-me message, forgets nobody.
    own = (await env.double.slash(env.bob, env.channel, "vergiss-mich")).message
    assert own.text.startswith("Soll der Bot dich vergessen?") and own.custom_ids == [ids.user(bob, "forget")]
    forged = await env.double.forge_click(env.bob, own, confirm)
    assert forged.message.text == t("de", "table.not_on_message")
    assert _stored(env)[0] == results_before

    done = await env.double.click(env.ann, asked.message, confirm)
    assert done.message.id == asked.message.id          # the question becomes the answer, in place
    assert env.double.message(asked.message.id).text == (
        "Done: your name and id are gone from every result and every ended game.")
    assert not env.double.message(asked.message.id).custom_ids

    results, sessions = _stored(env)
    assert len(results) == len(results_before)          # every row stays
    for before, after in zip(results_before, results, strict=True):
        if before[2] == ann:
            assert after == (*before[:2], None, "", *before[4:])    # anonymous; score, rank, win kept
        else:
            assert after == before                                  # Bob's record holds
    assert all(str(ann) not in seats and host != ann for _, host, seats in sessions)
    first = json.loads(sessions[0][2])
    with sqlite3.connect(env.database) as db:               # no derived data keeps her id either
        assert [row[0] for row in db.execute("SELECT user_id FROM player_totals")] == [bob]
        assert [row[0] for row in db.execute("SELECT user_id FROM ratings")] == [bob]
        assert {row[0] for row in db.execute("SELECT user_id FROM rating_log")} == {bob}
    assert [seat["user_id"] for seat in first].count(None) == 1 and bob in [s["user_id"] for s in first]

    board = await env.double.slash(env.bob, env.channel, "leaderboard", game="calcory")
    lines = board_lines(board.message)
    assert any("Bob" in line for line in lines[1:]) and not any("Ann" in line for line in lines)
    stats = await env.double.slash(env.ann, env.channel, "stats")
    assert "No finished games yet." in stats.message.text
    bob_stats = await env.double.slash(env.bob, env.channel, "stats")
    assert "**Calcory**: 1 gespielt" in bob_stats.message.text

    again = await env.double.slash(env.ann, env.channel, "forget-me")
    nothing = await env.double.click(env.ann, again.message, confirm)
    assert env.double.message(nothing.message.id).text == (
        "The bot keeps no results of yours, so there was nothing to forget.")


def _stored_bytes(env) -> bytes:
    """The database file and its write-ahead log, as they lie on disk."""
    return b"".join(p.read_bytes() for p in env.database.parent.iterdir() if p.name.startswith(env.database.name))


async def test_forget_me_reaches_the_seat_a_computer_player_took_over(env):
    session, _ = await start_calcory(env)            # ann hosts; bob and cem play
    cem = int(env.cem.id)
    await env.double.slash(env.ann, env.channel, "replace", player=env.cem)
    await env.settle()
    index, taken = next((i, seat) for i, seat in enumerate(session.seats) if seat.replaced == cem)
    assert taken.user_id is None and taken.name == "🤖 Cem"

    # While that game runs, the seat carries Cem's name: he is told to wait for its end, no button.
    refused = await env.double.slash(env.cem, env.channel, "forget-me")
    assert refused.ephemeral and refused.message.text == (
        f"A computer player has taken over your seat at the table of Calcory in <#{env.channel.id}> and plays "
        "under your name until that game ends. Try again once it is over (the host can also end it with /stop).")
    assert not refused.message.custom_ids

    await env.double.slash(env.ann, env.channel, "stop")
    await env.settle()
    results_before, _ = _stored(env)
    assert (session.id, index, None, "🤖 Cem") in [row[:4] for row in results_before]
    assert "🤖 Cem".encode() in _stored_bytes(env)

    asked = await env.double.slash(env.cem, env.channel, "forget-me")
    await env.double.click(env.cem, asked.message, ids.user(cem, "forget"))
    assert env.double.message(asked.message.id).text == (
        "Done: your name and id are gone from every result and every ended game.")

    results, sessions = _stored(env)
    for before, after in zip(results_before, results, strict=True):
        if before[1] == index:
            assert after == (*before[:3], "", *before[4:])          # the computer's line, nameless
        else:
            assert after == before                                  # Ann's and Bob's lines hold
    (_, _, seats), = sessions
    assert json.loads(seats)[index] == {**taken.to_json(), "name": "", "replaced": None}
    assert [seat["name"] for seat in json.loads(seats)] == [s.name if s.replaced is None else "" for s in session.seats]
    assert "🤖 Cem".encode() not in _stored_bytes(env)               # nor in free space or the log


async def test_forget_me_sees_a_table_that_another_shard_process_keeps(env):
    """Dia sits at a table that only another process (another shard) holds in memory: its stored row
    refuses her, at the command and at a confirmation asked for before she sat down."""
    dia = int(env.dia.id)
    asked = await env.double.slash(env.dia, env.channel, "forget-me")
    assert asked.message.custom_ids == [ids.user(dia, "forget")]

    other = await Storage.open(env.database)
    try:
        await other.create_session(
            guild_id=4242, channel_id=777, game="calcory", host_id=dia, lang="en", options={},
            seats=[{"user_id": dia, "name": "dia"}], rules_version=1, created_at=0.0)
    finally:
        await other.close()
    assert env.bot.sessions.live() == []                # nothing of it in this process
    text = ("You are at the table of Calcory in <#777>. Leave the lobby or finish the game first (the host can "
            "also end it with /stop), then try again.")

    refused = await env.double.slash(env.dia, env.channel, "forget-me")
    assert refused.ephemeral and refused.message.text == text and not refused.message.custom_ids
    late = await env.double.click(env.dia, asked.message, ids.user(dia, "forget"))
    assert late.message.text == text
    assert env.double.message(asked.message.id).custom_ids == [ids.user(dia, "forget")]     # not answered in place
    with sqlite3.connect(env.database) as db:
        assert db.execute("SELECT host_id, seats FROM sessions").fetchall() == [
            (dia, json.dumps([{"user_id": dia, "name": "dia"}], separators=(",", ":")))]
