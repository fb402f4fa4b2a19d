"""The bot survives Discord's refusals: every move, ping, hand and summary still goes out.

Each scenario plays a game through the stricter double while it refuses what Discord documents
refusing: edits of an old message edited too often (30046), edits in an archived thread (50083),
rate limits per route and global (429, waited out), server errors (503, retried with backoff);
and a deleted channel or thread, or the bot removed from a server, ends the game there.
"""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

from bot.play.sessions import Status
from tests.double.ratelimits import RateLimits
from tests.e2e import outside as O
from tests.e2e.game_driver import GameDriver
from tests.e2e.refusals import (
    catch_up,
    hands_show_now,
    no_timers,
    pinged_now,
    play_accounted,
    table_shows_now,
)

EDIT = "/channels/*/messages/*"
HOUR = 3600


def claim(caplog, fragment: str) -> list[logging.LogRecord]:
    """Take the warnings a test provoked on purpose out of the log the ``quiet_logs`` fixture checks."""
    mine = [r for r in caplog.records if fragment in r.getMessage() and r.levelno == logging.WARNING]
    for record in mine:
        caplog.handler.records.remove(record)
    return mine


def owed_announcements(env, drive) -> list[str]:
    """The public announcements (a hand's scores) the bot owes, in order, as it decides them."""
    owed: list[str] = []
    changed = env.bot.tables.changed

    def note(session, announce=None):
        if announce is not None:
            owed.append(announce)
        changed(session, announce)

    env.monkeypatch.setattr(env.bot.tables, "changed", note)
    return owed


async def ended(*sessions) -> None:
    """Until the bot ended these sessions on a gateway event (no request tells the double when)."""
    for _ in range(100_000):
        if not any(s.is_live for s in sessions):
            return
        await asyncio.sleep(0)
    raise AssertionError(f"still live: {[s for s in sessions if s.is_live]}")


def summaries(env, channel=None) -> list:
    return [m for m in env.public(channel) if m.content.startswith("🏁")]


async def test_an_old_table_edited_too_often_is_posted_afresh_and_the_game_goes_on(env, caplog):
    """A relaxed table edits messages older than an hour: after a few edits Discord answers
    30046; the bot posts a fresh table and the game runs to its end with every ping and summary."""
    env.double.old_message_edits = 3
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    announced = owed_announcements(env, drive)

    def age(n: int) -> None:
        if n % 8 == 0:
            env.double.age(2 * HOUR, env.channel)       # a day goes by between some turns

    moves = await play_accounted(drive, random.Random(11), moves=100, before_move=age)
    assert session.status is Status.FINISHED and moves == 40
    # A refused edit through a click's token falls back to the channel route, refused too: each
    # channel-route refusal is one table that could no longer be edited.
    refused = [r for r in env.double.requests if r.code == 30046 and r.path.startswith("/channels/")]
    assert len(refused) >= 3, "the scenario never hit Discord's limit"
    posts = [r for r in env.double.requests if r.method == "POST" and r.path.endswith("/messages")
             and (r.body or {}).get("flags", 0) & (1 << 15)]
    assert len(posts) >= 1 + len(refused), "a refused table was not posted afresh"
    assert len(O.tables(env.double, env.channel)) == 1, "old tables were left behind"
    assert len(summaries(env)) == 1
    assert announced == [m.content for m in env.public() if m.content in announced], "an announcement was lost"


async def test_an_archived_thread_is_unarchived_by_a_fresh_table(env, caplog):
    drive = GameDriver(env, "safaru", channel=env.thread)
    session = await drive.start(["ann", "bob"])

    def archive(n: int) -> None:
        if n == 3:
            env.double.archive(env.thread)          # a moderator archived it
        elif n == 9:
            env.double.advance(24 * 3600)           # a day without a message: Discord archives it

    await play_accounted(drive, random.Random(3), moves=14, channel=env.thread, before_move=archive)
    assert [r.code for r in env.double.requests
            if r.code == 50083 and r.path.startswith("/channels/")] == [50083, 50083]
    assert not env.double.world.is_archived(env.thread)
    assert len(O.tables(env.double, env.thread)) == 1 and pinged_now(env, session, env.thread)


@pytest.mark.parametrize("limits, scope", [
    (dict(per_route=2, window=8, per_resource=2, global_per_second=10**6, tick=0.002), (False, "shared")),
    (dict(per_route=50, window=8, global_per_second=2, global_window=8, tick=0.002), (True, "global")),
], ids=["per-route", "global"])
async def test_rate_limits_are_waited_out_and_nothing_is_lost(env, caplog, limits, scope):
    """Tight limits on every channel route, counted in requests (so they bite however fast the
    machine is; discord.py sleeps the tiny real waits they announce): each 429 is waited out, the
    writer merges redraws meanwhile, and the game runs to its end."""
    model = env.double.rate_limits = RateLimits(**limits)
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    drive.hand_from = "ping"        # no click on the table: its edits take the channel route
    announced = owed_announcements(env, drive)
    await play_accounted(drive, random.Random(7), moves=100)
    assert session.status is Status.FINISHED and len(summaries(env)) == 1
    assert announced == [m.content for m in env.public() if m.content in announced], "an announcement was lost"
    hit = {(r.error["global"], r.error["message"]) for r in model.limited}
    assert hit and all(glob == scope[0] for glob, _ in hit), hit
    assert not any(r.status == 429 for r in env.double.requests if "/interactions/" in r.path or
                   r.path.startswith(f"/webhooks/{env.double.app_id}/")), "an interaction route was limited"
    claim(caplog, "could not redraw")


async def test_server_errors_are_retried_with_backoff(env, caplog):
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    drive.hand_from = "ping"        # no click on the table: its edits take the channel route
    # Table edits take the channel route here (hands opened from the ping); pings and their deletes
    # go through the mover's token, where discord.py itself retries a 5xx after a second.
    faults = [env.double.fault("PATCH", EDIT, status=503, nth=2, times=3),
              env.double.fault("POST", "/webhooks/*", status=503, nth=4, times=1),
              env.double.fault("DELETE", "/webhooks/*", status=503, nth=3, times=1)]
    await play_accounted(drive, random.Random(5), moves=100)
    assert session.status is Status.FINISHED and all(f.spent for f in faults)
    assert len(summaries(env)) == 1
    assert claim(caplog, "could not redraw")


async def test_a_refused_edit_never_stops_the_pings_hands_and_announcements_of_its_redraw(env, caplog):
    """Every table edit answers 503 for a while: without any retry yet (the bot's clock stands
    still), each move's ping, hand refreshes and announcements still go out; then the table
    catches up."""
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    drive.hand_from = "ping"        # no click on the table: its edits take the channel route
    announced = owed_announcements(env, drive)
    fault = env.double.fault("PATCH", EDIT, status=503, times=10**6)
    rng = random.Random(2)
    for move in range(1, 17):
        seat = rng.choice(sorted(session.to_act()))
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        await env.settle()
        assert pinged_now(env, session), f"move {move}: the ping waited for the table"
        assert not hands_show_now(drive, seat), f"move {move}: a hand waited for the table"
        assert announced == [m.content for m in env.public() if m.content in announced]
    assert fault.hits and not table_shows_now(env, session)
    env.double.faults.clear()
    await catch_up(env, lambda: table_shows_now(env, session))
    assert claim(caplog, "could not redraw")


async def test_a_deleted_channel_ends_its_game_without_a_result(env):
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"], options={})
    thread_game = GameDriver(env, "calcory", channel=env.thread)
    lobby = (await env.double.slash(env.cem, env.thread, "start", game="calcory")).message
    assert thread_game.session.status is Status.LOBBY and lobby
    await drive.play(min(session.to_act()), session.game.legal_actions(session.state, min(session.to_act()))[0].key)
    before = len(env.double.requests)
    await env.double.delete_channel(env.channel)       # its thread goes with it
    await ended(session, thread_game.session)
    await env.settle()
    assert session.status is Status.STOPPED and thread_game.session.status is Status.CANCELLED
    stored = await env.bot.storage.session(session.id, with_actions=True)
    assert stored.status == Status.STOPPED and stored.actions == session.log
    assert await no_timers(env, session)
    assert env.double.requests[before:] == [], "the bot still talked to a deleted channel"
    assert env.bot.sessions.by_channel(int(env.channel.id)) is None


async def test_a_deleted_thread_ends_its_game(env):
    drive = GameDriver(env, "calcory", channel=env.thread)
    session = await drive.start(["ann", "bob"])
    await env.double.delete_channel(env.thread)
    await ended(session)
    await env.settle()
    assert session.status is Status.STOPPED and await no_timers(env, session)


async def test_a_game_in_an_archived_thread_the_bot_never_saw_ends_with_its_deleted_channel(env):
    """Archived threads are not synced at start-up, so discord.py cannot report them deleted with
    their channel: the bot looks up the table's thread and ends the game."""
    drive = GameDriver(env, "calcory", channel=env.thread)
    session = await drive.start(["ann", "bob"])
    env.double.archive(env.thread)
    await env.stop_bot()
    await env.start_bot()
    session = env.session(env.thread)
    assert session.is_live and env.bot.get_guild(int(env.guild.id)).get_thread(int(env.thread.id)) is None
    await env.double.delete_channel(env.channel)
    await ended(session)
    await env.settle()
    assert session.status is Status.STOPPED and await no_timers(env, session)
    assert [r.path for r in env.double.requests if r.method == "GET"][-1] == f"/channels/{env.thread.id}"


async def test_the_bot_removed_from_a_server_ends_its_games_and_their_timers(env):
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="safaru")).message
    session = env.session()
    await env.double.select(env.ann, lobby, f"st:l:{session.id}:pace", ["live"])
    from bot.transport import ids

    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    await env.double.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await catch_up(env, lambda: table_shows_now(env, session))
    assert not await no_timers(env, session), "the game's turn clock was never set"
    before = len(env.double.requests)
    await env.double.remove_bot(env.guild)
    await ended(session)
    await env.settle()
    assert session.status is Status.STOPPED and await no_timers(env, session)
    assert env.double.requests[before:] == []
    assert env.bot.sessions.live() == []


@pytest.mark.long(seconds=5)
async def test_soak_many_tables_under_tight_limits_all_catch_up_and_lose_no_ping(env, caplog):
    """Six tables play at once while every channel route is tightly limited per route, per
    channel and globally: every table ends showing its position, every ping names whoever must
    act, every finished game has its one summary."""
    env.double.rate_limits = RateLimits(per_route=2, window=8, per_resource=3, global_per_second=2,
                                        global_window=8, tick=0.002)
    players = [("ann", "bob"), ("cem", "dia"), ("mod", "ann"), ("bob", "cem"), ("dia", "mod"), ("ann", "cem")]
    channels = [env.double.add_text_channel(env.guild, f"tisch-{n}") for n in range(len(players))]
    await env.double.gateway.dispatch("GUILD_CREATE", env.double.world.guild_payload(env.guild))
    drives = [GameDriver(env, "safaru", channel=ch) for ch in channels]
    sessions = [await drive.start(list(names)) for drive, names in zip(drives, players, strict=True)]
    for drive in drives:
        drive.hand_from = "ping"    # no click on the tables: their edits take the channel route
    rng = random.Random(13)

    async def move(drive) -> None:
        session = drive.session
        if session.status is Status.PLAYING:
            seat = rng.choice(sorted(session.to_act()))
            await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)

    def current(session, channel) -> bool:
        return table_shows_now(env, session, channel) and (not session.is_live or pinged_now(env, session, channel))

    for n in range(40):
        await asyncio.gather(*(move(drive) for drive in drives))
        await catch_up(env, lambda: all(current(s, ch) for s, ch in zip(sessions, channels, strict=True)))
        lagging = [s.id for s, ch in zip(sessions, channels, strict=True) if not current(s, ch)]
        assert not lagging, f"round {n}: tables {lagging} lag behind or lost a ping"
    await catch_up(env, lambda: all(table_shows_now(env, s, ch) for s, ch in zip(sessions, channels, strict=True)))
    for session, channel in zip(sessions, channels, strict=True):
        assert session.status is Status.FINISHED and table_shows_now(env, session, channel)
        assert len(summaries(env, channel)) == 1 and not O.pings(env.double, channel)
    assert len(env.double.rate_limits.limited) > 20, "the limits were never tight"
    claim(caplog, "could not redraw")
