"""/stop, /table, /rules, /stats, /leaderboard and the German command names, through the Discord double."""

from __future__ import annotations

import games
from bot.storage.ratings import MODEL
from bot.storage.store import ResultRow
from bot.transport import ids
from tests.double import payloads as P
from tests.e2e import outside as O
from tests.e2e.calcory_driver import (
    CalcoryDriver,
    board_lines,
    last_public,
    play_two_player_game,
    settled,
    start_calcory,
)

# ----------------------------------------------------------------------------------------- /stop

async def test_stop_by_host_ends_without_result_and_table_shows_it(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    await drive.flip(drive.face_down(5))
    tables = env.table_messages()

    record = await env.double.slash(env.ann, env.channel, "stop")
    await settled(env, lambda: "Stopped without a result." in env.table_messages()[1].text, "the table redraw")
    assert not record.ephemeral
    assert record.message.text == "⏹️ Ann stopped the game (Calcory); it counts for nobody."
    assert session.status == "stopped"
    assert [(m.id, m.deleted) for m in tables] == [(m.id, False) for m in env.table_messages()]
    assert "⏹️ Stopped without a result." in tables[1].text
    for message in tables:       # no button can be used any more
        assert message.custom_ids and all(message.component(c).get("disabled") for c in message.custom_ids)
    assert last_public(env).id == record.message.id      # the command's answer is the only message about it
    assert not [m for m in env.public() if "your turn" in m.text]
    rows = await env.bot.storage.results(session.id)
    assert len(rows) == 3 and all(row.stopped and not row.won for row in rows)

    nothing = await env.double.slash(env.cem, env.channel, "leaderboard")
    assert nothing.ephemeral and nothing.message.text == "No finished games here yet. Start one with /start!"
    board = await env.double.slash(env.cem, env.channel, "leaderboard", game="calcory")
    assert board_lines(board.message)[1:-1] == ["No finished games here yet. Start one with /start!"]
    assert board_lines(board.message)[-1].startswith("-# Rating: an OpenSkill estimate of skill")
    rated = await env.bot.storage.rating_board(int(env.guild.id), "calcory", include_computers=True)
    assert rated.rows == ()          # a stopped match rates nobody
    stats = await env.double.slash(env.ann, env.channel, "stats")
    assert "No finished games yet." in stats.message.text


async def test_stop_by_manage_server_works_and_by_an_outsider_is_refused(env):
    session, _ = await start_calcory(env)
    counters = list(session.counters)

    refused = await env.double.slash(env.dia, env.channel, "stop")
    assert refused.ephemeral and refused.message.text == "You are not playing at this table."
    assert session.status == "playing" and session.counters == counters

    record = await env.double.slash(env.mod, env.channel, "stop")
    await env.settle()
    assert record.message.text == "⏹️ Mod stopped the game (Calcory); it counts for nobody."
    assert session.status == "stopped"
    again = await env.double.slash(env.mod, env.channel, "stop")
    assert again.ephemeral and again.message.text == "No game is running in this channel."


async def test_players_end_a_match_by_a_majority_vote(env):
    session, _ = await start_calcory(env)            # ann hosts; bob and cem play

    first = await env.double.slash(env.bob, env.channel, "stop")
    assert not first.ephemeral
    assert first.message.text.startswith("🗳️ Bob wants to end this match") and "(1 of 2 votes)" in first.message.text
    again = await env.double.slash(env.bob, env.channel, "stop")    # voting twice counts once
    assert "(1 of 2 votes)" in again.message.text and session.status == "playing"

    before = {m.id for m in env.public()}
    second = await env.double.slash(env.cem, env.channel, "stop")
    await env.settle()
    assert second.message.text == "⏹️ The players voted to end the game (Calcory); it counts for nobody."
    posted = [m.text for m in env.public() if m.id not in before]
    assert posted == [second.message.text]       # one message says so, not three
    assert env.table_messages()[1].text.startswith("⏹️ Stopped without a result.")
    assert session.status == "stopped" and session.end_reason == "vote"
    assert all(row.stopped for row in await env.bot.storage.results(session.id))


# ----------------------------------------------------------------------------------------- /table

async def test_table_reposts_and_the_new_messages_work(env):
    session, _ = await start_calcory(env)
    drive = CalcoryDriver(env)
    old = env.table_messages()

    record = await env.double.slash(env.cem, env.channel, "table")
    await settled(env, lambda: all(message.deleted for message in old), "the old table to go")
    assert record.ephemeral
    assert record.message.text == "Here it comes: the table is posted again at the bottom of the channel."
    new = env.table_messages()
    assert len(new) == 2 and {m.id for m in new}.isdisjoint({m.id for m in old})
    await env.settle()
    # at the bottom of the channel, then a fresh ping linking it (the old one linked the old table)
    assert env.public()[-3:] == [*new, env.double.message(session.messages["ping"])]
    assert f"/{new[0].id}" in env.public()[-1].content

    slot = drive.face_down(4)
    counter = session.counters[drive.active]
    await drive.flip(slot)
    assert session.counters[drive.active] == counter + 1 and session.state.flips
    assert "4" in new[0].labels + new[1].labels

    nobody = await env.double.slash(env.ann, env.thread, "table")
    assert nobody.message.text == "No game is running in this channel."


def _sent_since(env, first: int) -> list:
    """The requests the bot sent the double since request ``first``, but the answers to interactions."""
    return [r for r in list(env.double.requests)[first:] if not r.path.startswith("/interactions/")]


async def test_table_is_for_the_players_at_the_table_and_once_a_minute(env):
    session, _ = await start_calcory(env)            # ann hosts; bob (German) and cem play
    old = env.table_messages()

    # Dia watches, and Mod manages the server: neither plays here, so nothing is posted or deleted.
    first = len(env.double.requests)
    for user in (env.dia, env.mod):
        refused = await env.double.slash(user, env.channel, "table")
        assert refused.ephemeral and refused.message.text == "Only the players at this table can post it again."
    await env.settle()
    assert _sent_since(env, first) == [] and env.table_messages() == old

    first = len(env.double.requests)
    reposted = await env.double.slash(env.bob, env.channel, "tisch")
    assert reposted.message.text == "Kommt sofort: Der Tisch wird unten im Kanal neu angezeigt."
    await settled(env, lambda: all(message.deleted for message in old), "the old table to go")
    new = env.table_messages()
    sent = [r.method for r in _sent_since(env, first)]
    # what a repost costs the global limit: the table and a ping linking it, and deleting the old ones
    assert sent.count("POST") >= 2 and sent.count("DELETE") == 3
    again_at = int(env.clock.now() + 60)

    # Within the minute: told when it works again and where the table is, and nothing is sent.
    env.clock.advance(59)
    first = len(env.double.requests)
    link = f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{new[0].id}"
    soon = await env.double.slash(env.cem, env.channel, "table")
    assert soon.ephemeral and soon.message.text == (
        f"The table was posted again less than a minute ago: {link}. /table works again <t:{again_at}:R>.")
    german = await env.double.slash(env.bob, env.channel, "tisch")
    assert german.message.text == (
        f"Der Tisch wurde vor weniger als einer Minute neu angezeigt: {link}. /tisch geht wieder <t:{again_at}:R>.")
    await env.settle()
    assert _sent_since(env, first) == [] and env.table_messages() == new

    # A minute on, the host posts it again, even with her own seat handed to a computer player: she
    # still runs the table.
    env.clock.advance(1)
    await env.double.slash(env.ann, env.channel, "replace", player=env.ann)
    await env.settle()
    assert session.seat_of(int(env.ann.id)) is None
    await env.double.slash(env.ann, env.channel, "table")
    await settled(env, lambda: all(message.deleted for message in new), "the second table to go")
    await env.settle()
    ping = env.double.message(session.messages["ping"])
    assert len(env.table_messages()) == 2 and env.public()[-3:] == [*env.table_messages(), ping]


# ----------------------------------------------------------------------------------------- /rules

async def test_rules_are_ephemeral_in_each_users_language(env):
    english = await env.double.slash(env.ann, env.channel, "rules", game="calcory")
    assert english.ephemeral and english.message.text.startswith("**Calcory** (2–6 players)")
    german = await env.double.slash(env.bob, env.channel, "regeln", spiel="calcory")
    assert german.ephemeral and german.message.text.startswith("**Calcory** (2–6 Spieler)")
    assert not env.public()


# ------------------------------------------------------------------------------------ /stats, /leaderboard

async def test_stats_after_a_finished_game_for_oneself_and_another_user(env):
    await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    winner, loser = await play_two_player_game(env, drive)
    when = int(env.clock.now())
    win_user, lose_user = drive.user_of(winner), drive.user_of(loser)

    # One two-player match from fresh ratings, as openskill's Plackett–Luce model rates it.
    (won,), (lost,) = MODEL.rate([[MODEL.rating()], [MODEL.rating()]])
    up, down = won.ordinal(), lost.ordinal()
    assert up > 0 > down

    mine = await env.double.slash(win_user, env.channel, "stats")
    assert not mine.ephemeral
    lines = board_lines(mine.message)
    assert lines[0] == f"## 📊 {win_user.name.title()}"
    if win_user is env.bob:
        assert lines[1] == f"**Calcory**: 1 gespielt, 1 gewonnen (100 %), zuletzt gespielt <t:{when}:D>"
        assert lines[2] == f"  ↳ Wertung {up:.1f} (+{up:.1f} in der letzten Partie)".replace(".", ",")
    else:
        assert lines[1] == f"**Calcory**: 1 played, 1 won (100 %), last played <t:{when}:D>"
        assert lines[2] == f"  ↳ rating {up:.1f} (+{up:.1f} in the last game)"

    theirs = await env.double.slash(env.cem, env.channel, "stats", user=lose_user)
    assert board_lines(theirs.message) == [
        f"## 📊 {lose_user.name.title()}", f"**Calcory**: 1 played, 0 won (0 %), last played <t:{when}:D>",
        f"  ↳ rating {down:.1f} (−{-down:.1f} in the last game)"]
    nobody = await env.double.slash(env.cem, env.channel, "stats", user=env.dia)
    assert board_lines(nobody.message) == ["## 📊 Dia", "No finished games yet."]


async def test_leaderboard_without_results(env):
    english = await env.double.slash(env.ann, env.channel, "leaderboard")
    assert english.ephemeral and english.message.text == "No finished games here yet. Start one with /start!"
    german = await env.double.slash(env.bob, env.channel, "rangliste")
    assert german.message.text == "Hier gibt es noch keine beendeten Partien. Starte eine mit /starten!"


async def seed_board(env, players: list[tuple[int, str]]) -> None:
    """Rounds of one big table: the k-th player wins len(players) - 1 - k rounds; everyone plays all."""
    storage = env.bot.storage
    guild = int(env.guild.id)
    rounds = len(players) - 1
    for r in range(rounds):
        session_id = await storage.create_session(
            guild_id=guild, channel_id=900 + r, game="calcory", host_id=players[0][0], lang="en", options={},
            seats=[], rules_version=1, created_at=1_000.0 + r)
        rows = [ResultRow(session_id=session_id, guild_id=guild, game="calcory", seat=k, user_id=uid,
                          name=name, score=0, rank=1, won=k < rounds - r, shared=False,
                          with_computers=False, stopped=False, ended_at=1_000.0 + r) for k, (uid, name) in enumerate(players)]
        await storage.end_session(session_id, "finished", ended_at=1_000.0 + r, results=rows)


async def test_leaderboard_top_ten_and_the_callers_own_rank_below(env):
    fake = [(10_000 + k, f"player{k}") for k in range(11)]
    fake[3] = (int(env.ann.id), "ann")
    await seed_board(env, [*fake, (int(env.dia.id), "dia")])

    board = await env.double.slash(env.dia, env.channel, "leaderboard", by="wins")
    lines = board_lines(board.message)
    assert not board.ephemeral
    assert lines[0] == "## 🏆 Calcory leaderboard (matches among people)"
    expected = [f"**{k + 1}.** {name}: {11 - k} of 11 won ({round((11 - k) / 11 * 100)} %)"
                for k, (_, name) in enumerate(fake[:10])]
    assert lines[1:11] == expected
    assert lines[11:] == ["…", "**12.** dia: 0 of 11 won (0 %)"]
    assert "player10" not in board.message.text

    inside = await env.double.slash(env.ann, env.channel, "leaderboard", game="calcory", by="wins")
    assert board_lines(inside.message)[1:] == expected            # ann is 4th: no extra line


async def seed_ratings(env, matches: list[list[tuple[int | None, str, str | None, int]]]) -> None:
    """Finished Calcory matches, each a list of seats ``(user id, name, computer level, rank)``."""
    storage = env.bot.storage
    guild = int(env.guild.id)
    for m, seats in enumerate(matches):
        at = 2_000.0 + m
        session_id = await storage.create_session(
            guild_id=guild, channel_id=800 + m, game="calcory", host_id=1, lang="en", options={}, seats=[],
            rules_version=1, created_at=at)
        rows = [ResultRow(session_id=session_id, guild_id=guild, game="calcory", seat=k, user_id=uid,
                          name=name, score=0, rank=rank, won=rank == 1, shared=False,
                          with_computers=level is not None, stopped=False, ended_at=at,
                          level=level) for k, (uid, name, level, rank) in enumerate(seats)]
        await storage.end_session(session_id, "finished", ended_at=at, results=rows)


async def test_leaderboard_by_rating_lists_provisional_players_below_and_computers_on_request(env):
    ann, bob, dia = int(env.ann.id), int(env.bob.id), int(env.dia.id)
    # Ann beats Bob five times, and the easy computer level twice; Dia plays once and loses.
    await seed_ratings(env, [[(ann, "ann", None, 1), (bob, "bob", None, 2)]] * 5
                       + [[(ann, "ann", None, 1), (None, "🤖 Robo", "easy", 2)]] * 2
                       + [[(bob, "bob", None, 1), (dia, "dia", None, 2)]])
    board = await env.bot.storage.rating_board(int(env.guild.id), "calcory", include_computers=True)
    ordinal = {row.name or row.level: row.ordinal for row in board.rows}
    assert ordinal["ann"] > ordinal["bob"] > ordinal["dia"]

    record = await env.double.slash(env.dia, env.channel, "leaderboard")      # by rating is the default
    assert not record.ephemeral
    assert board_lines(record.message)[:-1] == [
        "## 🏆 Calcory ratings (people)",
        f"**1.** ann: **{ordinal['ann']:.1f}** (7 games)",
        f"**2.** bob: **{ordinal['bob']:.1f}** (6 games)",
        "Provisional, fewer than 5 rated games:",
        f"· dia: {ordinal['dia']:.1f} (1 game)",
    ]
    with_computers = await env.double.slash(env.bob, env.channel, "rangliste", computer=True, nach="rating")
    lines = board_lines(with_computers.message)
    assert lines[0] == "## 🏆 Wertung Calcory (mit Computerspielern)"
    assert lines[3:6] == ["Vorläufig, weniger als 5 gewertete Partien:",
                          f"· Computer (leicht): {ordinal['easy']:.1f} (2 Partien)".replace(".", ","),
                          f"· dia: {ordinal['dia']:.1f} (1 Partie)".replace(".", ",")]
    assert lines[-1].startswith("-# Wertung: eine OpenSkill-Schätzung")


# ------------------------------------------------------------------------------------ command names

async def test_german_command_names_are_registered(env):
    synced = env.double.commands[None]
    german = {name: command["name_localizations"]["de"] for name, command in synced.items()}
    assert german == {"start": "starten", "stop": "beenden", "table": "tisch", "rules": "regeln",
                      "leaderboard": "rangliste", "stats": "statistik", "replace": "ersetzen",
                      "forget-me": "vergiss-mich", "season": "saison", "replay": "wiederholung"}
    for command in synced.values():
        assert command["description_localizations"]["de"] != command["description"]
    game = next(o for o in synced["start"]["options"] if o["name"] == "game")
    assert game["name_localizations"] == {"de": "spiel"}
    assert {c["value"] for c in game["choices"]} == set(games.REGISTRY)   # every game has its table
    by = next(o for o in synced["leaderboard"]["options"] if o["name"] == "by")
    assert by["name_localizations"] == {"de": "nach"}
    assert [(c["value"], c["name"], c["name_localizations"]) for c in by["choices"]] == [
        ("rating", "rating", {"de": "wertung"}), ("wins", "wins", {"de": "siege"})]
    user = next(o for o in synced["stats"]["options"] if o["name"] == "user")
    assert user["name_localizations"] == {"de": "nutzer"} and user["type"] == 6

    record = await env.double.slash(env.bob, env.channel, "starten", spiel="calcory")
    assert "Spielleitung: **Bob**" in record.message.text
    assert P.EPHEMERAL & record.message.flags == 0


# ----------------------------------------------------------------------------------------- /start, lobby

async def open_lobby(env, user=None, channel=None):
    record = await env.double.slash(user or env.ann, channel or env.channel, "start", game="calcory")
    assert not record.ephemeral
    return record.message, env.session(channel)


async def test_lobby_join_leave_and_start_rules(env):
    lobby, session = await open_lobby(env)
    join, leave, start = (ids.lobby(session.id, op) for op in ("join", "leave", "start"))
    assert lobby.text.splitlines()[1:4] == [
        "Host: **Ann**", "Players (1/6): Ann", "2–6 players. The host starts the game."]
    assert lobby.component(start).get("disabled")            # Discord shows Start disabled while alone

    await env.double.click(env.bob, lobby, join)
    assert "Players (2/6): Ann, Bob" in lobby.text and not lobby.component(start).get("disabled")
    refused = await env.double.click(env.bob, lobby, join)
    assert refused.ephemeral and refused.message.text == "Du sitzt schon an diesem Tisch."
    refused = await env.double.click(env.cem, lobby, leave)
    assert refused.ephemeral and refused.message.text == "You are not playing at this table."
    refused = await env.double.click(env.bob, lobby, start)
    assert refused.ephemeral and refused.message.text == "Das darf nur die Spielleitung."
    await env.double.click(env.bob, lobby, leave)
    assert "Players (1/6): Ann" in lobby.text and lobby.component(start).get("disabled")

    await env.double.click(env.cem, lobby, join)
    await env.double.click(env.ann, lobby, leave)             # the host leaves: cem takes over
    assert lobby.text.splitlines()[1:3] == ["Host: **Cem**", "Players (1/6): Cem"]
    await env.double.click(env.dia, lobby, join)
    assert session.status == "lobby" and not env.table_messages()
    await env.double.click(env.cem, lobby, start)
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted")
    assert session.status == "playing"
    assert lobby.text.splitlines()[1] == "The game has started with Cem, Dia. The table is below." or \
        lobby.text.splitlines()[1] == "The game has started with Dia, Cem. The table is below."
    assert not lobby.custom_ids and len(env.table_messages()) == 2


async def test_lobby_cancel_by_host_or_manager_only(env):
    lobby, session = await open_lobby(env)
    cancel = ids.lobby(session.id, "cancel")
    await env.double.click(env.cem, lobby, ids.lobby(session.id, "join"))
    refused = await env.double.click(env.cem, lobby, cancel)
    assert refused.ephemeral
    assert refused.message.text == "Only the host or someone allowed to manage the server can do that."
    assert session.status == "lobby"

    await env.double.click(env.mod, lobby, cancel)
    assert session.status == "cancelled"
    assert lobby.text.splitlines()[1:] == ["This lobby was closed."] and not lobby.custom_ids

    again, second = await open_lobby(env)                     # the channel is free again
    await env.double.click(env.ann, again, ids.lobby(second.id, "cancel"))
    assert second.status == "cancelled" and again.text.endswith("This lobby was closed.")
    assert (await env.bot.storage.session(second.id)).status == "cancelled"

    third_lobby, third = await open_lobby(env)                # /stop closes a lobby too
    refused = await env.double.slash(env.cem, env.channel, "stop")
    assert refused.message.text == "Only the host or someone allowed to manage the server can do that."
    record = await env.double.slash(env.ann, env.channel, "stop")
    await env.settle()
    assert record.message.text == "⏹️ Ann stopped the game (Calcory); it counts for nobody."
    await env.double.wait_until(lambda: third_lobby.text.endswith("This lobby was closed."), what="the lobby closed")
    assert third.status == "cancelled"
    assert not third_lobby.custom_ids


async def test_lobby_expires_after_the_configured_time(env):
    lobby, session = await open_lobby(env)
    minutes = env.bot.settings.lobby_timeout_minutes
    due = int(env.clock.now()) + minutes * 60
    assert f"This lobby closes <t:{due}:R> unless the game starts." in lobby.text

    env.clock.advance(minutes * 60 - 1)
    await env.bot.timers.idle()
    assert session.status == "lobby" and lobby.custom_ids
    env.clock.advance(2)
    await env.double.wait_until(lambda: "Nobody started this lobby in time" in lobby.text, what="the lobby to expire")
    assert lobby.text.splitlines()[1:] == ["Nobody started this lobby in time, so it closed."]
    assert not lobby.custom_ids and session.status == "expired"
    assert (await env.bot.storage.session(session.id)).status == "expired"
    fresh, _ = await open_lobby(env, env.bob)                   # the channel is free again
    assert "Spielleitung: **Bob**" in fresh.text


async def test_second_start_in_a_busy_channel_is_refused_politely(env):
    lobby, session = await open_lobby(env)
    busy = await env.double.slash(env.cem, env.channel, "start", game="calcory")
    assert busy.ephemeral
    assert busy.message.text == "There is already a game in this channel. Finish or stop it first."
    german = await env.double.slash(env.bob, env.channel, "starten", spiel="calcory")
    assert german.message.text == "In diesem Kanal läuft schon ein Spiel. Es muss erst enden oder mit /beenden abgebrochen werden."
    assert env.session() is session and [m for m in env.public() if m.custom_ids] == [lobby]


async def test_start_in_a_thread(env):
    session, lobby = await start_calcory(env, ("cem", "dia"), channel=env.thread)
    assert lobby.channel is env.thread and session.channel_id == int(env.thread.id)
    tables = env.table_messages(env.thread)
    assert len(tables) == 2 and all(m.channel is env.thread for m in tables)
    assert not env.public(env.channel)
    drive_user = env.cem if session.seats[session.state.active].user_id == int(env.cem.id) else env.dia
    flip = next(c for c in tables[0].custom_ids if ":flip:" in c)
    await env.double.click(drive_user, tables[0], flip)
    await env.settle()
    assert session.counters[session.state.active] == 1 and session.state.flips


async def test_start_without_send_messages_names_the_missing_permissions(env):
    await env.double.set_app_permissions(env.channel, P.VIEW_CHANNEL | P.EMBED_LINKS)
    record = await env.double.slash(env.ann, env.channel, "start", game="calcory")
    assert record.ephemeral
    assert record.message.text == ("I cannot run a table here: I am missing these permissions in this channel: "
                                   "Send Messages.")
    german = await env.double.slash(env.bob, env.channel, "starten", spiel="calcory")
    assert german.message.text.endswith("Mir fehlen in diesem Kanal diese Berechtigungen: Nachrichten senden.")
    assert env.session() is None and not env.public()

    await env.double.set_app_permissions(env.thread, P.VIEW_CHANNEL | P.SEND_MESSAGES)
    record = await env.double.slash(env.ann, env.thread, "start", game="calcory")
    assert record.message.text.endswith("Send Messages in Threads.")
    assert env.session(env.thread) is None


async def test_lobby_language_select_switches_the_table_to_german(env):
    lobby, session = await open_lobby(env)
    lang = ids.lobby(session.id, "lang")
    refused = await env.double.click(env.cem, lobby, ids.lobby(session.id, "join"))
    refused = await env.double.select(env.cem, lobby, lang, ["de"])
    assert refused.ephemeral and refused.message.text == "Only the host can do that."
    assert "Host: **Ann**" in lobby.text

    await env.double.select(env.ann, lobby, lang, ["de"])
    assert lobby.text.splitlines()[1:3] == ["Spielleitung: **Ann**", "Mitspieler (2/6): Ann, Cem"]
    assert lobby.labels == ["Mitspielen", "Aussteigen", "Starten", "Abbrechen", "Tischeinstellungen"]
    assert (await env.bot.storage.session(session.id)).lang == "de"
    # Ephemeral answers follow each user's own language, not the table's.
    mine = await env.double.click(env.ann, lobby, ids.lobby(session.id, "join"))
    assert mine.message.text == "You already have a seat at this table."
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    theirs = await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    assert theirs.message.text == "Du sitzt schon an diesem Tisch."

    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted")
    assert lobby.text.splitlines()[1].startswith("Das Spiel läuft mit ")
    first, second = env.table_messages()
    assert first.text.splitlines()[1].startswith("Karten auf der Hand:")
    assert "📌 Aufhören und markieren" in second.labels and "Spalten F–J:" in second.text
    assert "🎲 Calcory · <@" in env.public()[-1].text and "du bist am Zug." in env.public()[-1].text
    drive = CalcoryDriver(env)
    hand_id = ids.table(session.id, "hand")
    english = await O.hand_of(env.double, await env.double.click(env.ann, second, hand_id))
    german = await O.hand_of(env.double, await env.double.click(env.bob, second, hand_id))
    assert english.ephemeral and english.text.startswith("**Your cards (0):**")
    assert german.ephemeral and german.text.startswith("**Deine Karten (0):**")
    assert drive.session is session
