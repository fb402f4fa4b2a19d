"""Computer players at the table: seated from the lobby or by /start, moving by themselves after a
short delay, shown like anyone, and their matches marked in the results."""

from __future__ import annotations

import random

import pytest

from bot.play.autoplay import seed_of
from bot.play.computers import ComputerPool, decide
from bot.play.seats import SeatKind
from bot.transport import ids
from tests.e2e.game_driver import GameDriver
from tests.host.dying import alive, brain_fault


async def test_the_host_seats_and_removes_computer_players_and_sets_the_pace_in_the_lobby(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="kapado")).message
    session = env.session()
    sid = session.id
    await env.double.select(env.ann, lobby, ids.lobby(sid, "cpu"), ["easy"])
    await env.double.select(env.ann, lobby, ids.lobby(sid, "cpu"), ["strong"])
    record = await env.double.select(env.ann, lobby, ids.lobby(sid, "pace"), ["live"])
    text = record.message.text
    assert "🤖 Ada (easy)" in text and "🤖 Konrad (strong)" in text
    assert "Time for a turn: **Live: 2 minutes a turn**" in text
    assert [seat.kind for seat in session.seats] == [SeatKind.HUMAN, SeatKind.COMPUTER, SeatKind.COMPUTER]
    assert session.pace == "live"

    refused = await env.double.select(env.cem, record.message, ids.lobby(sid, "cpu"), ["easy"])
    assert refused.ephemeral and refused.message.text == "Only the host can do that."
    removed = await env.double.select(env.ann, record.message, ids.lobby(sid, "remove"), ["1"])
    assert "Ada" not in removed.message.text and len(session.seats) == 2
    stored = await env.bot.storage.session(sid)
    assert stored.pace == "live" and [s["name"] for s in stored.seats] == ["Ann", "🤖 Konrad"]


def options_of(message, custom_id: str) -> list[tuple[str, str]]:
    """The (label, description) of each option of the message's select ``custom_id``."""
    (select,) = [c for row in message.components for c in row["components"] if c.get("custom_id") == custom_id]
    return [(o["label"], o.get("description", "")) for o in select["options"]]


async def test_the_lobby_offers_three_levels_with_what_to_expect_of_each_in_both_languages(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    cpu = ids.lobby(session.id, "cpu")
    assert options_of(lobby, cpu) == [
        ("Computer player: easy", "A sensible move at once"),
        ("Computer player: strong", "Tries its best moves out on redealt hands, up to 1 s a move"),
        ("Computer player: expert", "Tries them out six times as often, up to 3 s a move: as strong as strong, in some games stronger"),
    ]
    record = await env.double.select(env.ann, lobby, cpu, ["expert"])
    assert "🤖 Ada (expert)" in record.message.text and session.seats[1].level == "expert"
    german = (await env.double.select(env.ann, lobby, ids.lobby(session.id, "lang"), ["de"])).message
    assert "🤖 Ada (Experte)" in german.text
    assert [label for label, _ in options_of(german, cpu)] == [
        "Computerspieler: leicht", "Computerspieler: stark", "Computerspieler: Experte"]
    assert options_of(german, cpu)[2][1] == "Probiert sie sechsmal so oft aus, bis zu 3 s pro Zug: so stark wie stark, in manchen Spielen stärker"


@pytest.mark.long(seconds=6)
async def test_an_expert_plays_a_whole_calcory_match_and_is_rated_as_its_own_level(env):
    """The expert searches in a thread here (no worker pool), as a bot with ``computer_processes = 0``
    makes it; its result and rating are kept under its level like any other computer's."""
    drive = GameDriver(env, "calcory")
    session = await drive.start(["ann"], computers=1, level="expert")
    assert sorted(str(seat.level) for seat in session.seats) == ["None", "expert"]
    await env.settle()
    rng = random.Random(4)
    by_expert = 0
    while session.status == "playing":
        by_expert += await drive.let_computers_move()
        if session.status != "playing":
            break
        (seat,) = session.to_act()
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    assert session.status == "finished" and by_expert > 5
    rows = await env.bot.storage.results(session.id)
    assert [row.level for row in rows if row.user_id is None] == ["expert"]
    listed = await env.double.slash(env.ann, env.channel, "leaderboard", game="calcory", computers=True)
    assert "· Computer (expert): " in listed.message.text and "· Ann: " in listed.message.text


async def test_one_person_and_three_computers_play_a_whole_diabolo_round(env):
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["ann"], options={"rounds": 1}, computers=3)
    levels = {seat.user_id: seat.level for seat in session.seats if seat.user_id == int(env.ann.id)}
    assert levels == {int(env.ann.id): None}  # seats are shuffled at the start
    assert sorted(str(seat.level) for seat in session.seats) == ["None", "easy", "easy", "easy"]
    await env.settle()
    rng = random.Random(3)
    by_computers = 0
    while session.status == "playing":
        by_computers += await drive.let_computers_move()
        if session.status != "playing":
            break
        (seat,) = [s for s in session.to_act() if not session.seats[s].played_by_computer]
        assert session.seats[seat].user_id == int(env.ann.id)
        (ping,) = [m for m in env.public() if "your turn" in m.text]     # computers are never pinged
        link = f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{session.messages['table'][0]}"
        assert ping.text == f"🎲 Diabolo · <@{env.ann.id}>, it is your turn. Table: {link}\nHand"
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        drive.check_channel_private(rng)
    assert session.status == "finished" and by_computers >= 3 * 4
    table = env.table_messages()[0].text
    assert all(name in table for name in ("🤖 Ada", "🤖 Konrad", "🤖 Emmy"))


async def test_one_person_and_three_computers_play_a_whole_mu_hand(env):
    drive = GameDriver(env, "mu")
    session = await drive.start(["ann"], computers=3)
    await env.settle()
    rng = random.Random(3)

    def scored() -> bool:
        return any(m.text.startswith("📋 **Mü**: hand 1 is scored.") for m in env.public())

    by_computers = 0
    while not scored():
        by_computers += await drive.let_computers_move()
        if scored():
            break
        (seat,) = session.to_act()
        assert session.seats[seat].user_id == int(env.ann.id)
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        drive.check_channel_private(rng)
    assert by_computers > 3 * 10                 # three computers, at least ten cards each in tricks
    table = env.table_messages()[0].text
    assert all(name in table for name in ("🤖 Ada", "🤖 Konrad", "🤖 Emmy"))


async def test_a_match_with_a_computer_player_is_recorded_as_such(env):
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann"], computers=1)
    await env.settle()
    rng = random.Random(8)
    while session.status == "playing":
        await drive.let_computers_move()
        if session.status != "playing":
            break
        (seat,) = session.to_act()
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    assert session.status == "finished"
    rows = await env.bot.storage.results(session.id)
    assert all(row.with_computers for row in rows)
    without = await env.double.slash(env.ann, env.channel, "leaderboard", game="safaru", by="wins")
    assert "Ann" not in without.message.text
    with_computers = await env.double.slash(env.ann, env.channel, "leaderboard", game="safaru", computers=True,
                                            by="wins")
    assert "**1.** Ann" in with_computers.message.text and "computer players included" in with_computers.message.text
    # The rating counts the match either way; `computers:` only decides whether the level is listed.
    level = next(seat.level for seat in session.seats if seat.level)
    assert [row.level for row in rows if row.user_id is None] == [level]
    rated = await env.double.slash(env.ann, env.channel, "leaderboard", game="safaru")
    assert "· Ann: " in rated.message.text and "Computer (" not in rated.message.text
    listed = await env.double.slash(env.ann, env.channel, "leaderboard", game="safaru", computers=True)
    assert f"· Computer ({level}): " in listed.message.text and "· Ann: " in listed.message.text


async def test_a_fault_in_a_computer_player_does_not_freeze_the_table(env, monkeypatch, caplog):
    import bot.play.computers

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in a brain")

    monkeypatch.setattr(bot.play.computers, "choose", broken)
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann"], computers=1)
    await env.settle()
    if not drive.computers_to_act():
        (seat,) = session.to_act()
        await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
    assert await drive.let_computers_move() == 1
    assert any("a bug in a brain" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
    caplog.clear()          # the fault was logged, as it must be; the test's own log check is satisfied


async def test_a_fault_in_a_strong_computer_player_in_a_worker_does_not_freeze_the_table(env, caplog):
    await env.stop_bot()
    env.computers = pool = ComputerPool(1, think=brain_fault, niceness=0)
    try:
        await env.start_bot()
        drive = GameDriver(env, "safaru")
        session = await drive.start(["ann"], computers=1, level="strong")
        await env.settle()
        if not drive.computers_to_act():
            (seat,) = session.to_act()
            await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
        assert await drive.let_computers_move() == 1
        assert pool.replaced == 0           # the worker lived on; the bot made a legal move instead
        assert any("a bug in a brain, in a worker" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)
        caplog.clear()      # the fault was logged, as it must be; the test's own log check is satisfied
        await env.stop_bot()
    finally:
        await pool.close()


@pytest.mark.parametrize("level", ["strong", "expert"])
async def test_a_searching_computer_thinks_in_the_worker_pool_and_plays_what_it_would_in_process(pooled_env, level):
    env = pooled_env
    pool = env.bot.computers
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann"], computers=1, level=level)
    (robot,) = [s for s, seat in enumerate(session.seats) if seat.played_by_computer]
    assert session.seats[robot].level == level
    await env.settle()
    rng = random.Random(5)
    made, checked = pool.made, 0
    while checked < 3 and session.status == "playing":
        if drive.computers_to_act() == [robot]:
            game, seq = session.game, len(session.history)
            before = game.clone(session.state)
            await drive.wait(env.bot.autoplay.delay)
            assert len(session.history) == seq + 1
            assert session.log[-1] == (robot, decide(game, before, robot, level, seed_of(session, robot, seq)))
            checked += 1
            continue
        (seat,) = session.to_act()
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    assert checked == 3 and pool.made == made + 3       # every move it made came from the worker
    assert session.seats[robot].name in env.table_messages()[0].text     # the table shows who played


async def test_the_bot_starts_its_own_worker_pool_and_stops_it_when_it_closes(env):
    await env.stop_bot()
    env.computer_processes = 1
    bot = await env.start_bot()
    pool = bot.computers
    await pool.ready()                       # warmed in the background since start-up
    (worker,) = [p.pid for p in pool._pool._processes.values()]
    assert alive(worker)
    await env.stop_bot()
    assert not alive(worker)
    assert pool._pool is None


async def test_a_computer_leaves_a_failed_calcory_turn_face_up_for_five_seconds(env):
    """Ruling: the cards of a failed turn lie face up for the table to see; a computer to act next
    waits at least five seconds before its move turns them down, not the usual two."""
    from games.calcory import SLOTS
    from games.deck import digit

    drive = GameDriver(env, "calcory")
    session = await drive.start(["ann"], computers=1)
    await env.settle()
    await drive.let_computers_move()
    (ann,) = session.to_act()
    assert not session.seats[ann].played_by_computer
    state = session.state
    nines = [SLOTS[i] for i, card in enumerate(state.grid) if card and digit(card) >= 7
             and i not in state.marks][:2]
    for slot in nines:                              # 7 + 7 or more: over 13, a bust
        await drive.play(ann, f"flip:{slot}")
    assert session.state.failed is not None and drive.computers_to_act()
    moves = len(session.history)
    await drive.wait(env.bot.autoplay.delay)         # the usual wait is not enough
    assert len(session.history) == moves and session.state.failed is not None
    await drive.wait(5.0 - env.bot.autoplay.delay)
    assert len(session.history) == moves + 1         # five seconds in all: the computer moved
