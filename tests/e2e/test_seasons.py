"""Seasons through the Discord double: /season for managers only, monthly seasons that roll over at
a month's end on the bot's clock, /leaderboard and /stats per season and all time, the end-of-season
post in the server's language, once, across a restart in the middle of a season's end."""

from __future__ import annotations

import itertools

import pytest

from bot.storage.ratings import MODEL
from bot.storage.store import ResultRow, Storage
from tests.e2e.calcory_driver import CalcoryDriver, board_lines, play_two_player_game, start_calcory
from tests.e2e.conftest import on_both_stores

#: ManualClock starts on 14 November 2023, 22:13:20 UTC; December begins at this moment.
DECEMBER = 1_701_388_800
JANUARY = 1_704_067_200
_channels = itertools.count(700)


async def finish(env, seats: list[tuple[object, int]]) -> int:
    """A finished Calcory match now, ended through the storage as a match ends: ``(user, rank)`` per seat."""
    storage = env.bot.storage
    guild, at = int(env.guild.id), env.clock.now()
    session_id = await storage.create_session(
        guild_id=guild, channel_id=next(_channels), game="calcory", host_id=1, lang="en", options={}, seats=[],
        rules_version=1, created_at=at)
    rows = [ResultRow(session_id=session_id, guild_id=guild, game="calcory", seat=k, user_id=int(user.id),
                      name=user.name.title(), score=0, rank=rank, won=rank == 1, shared=False, with_computers=False,
                      stopped=False, ended_at=at) for k, (user, rank) in enumerate(seats)]
    await storage.end_session(session_id, "finished", ended_at=at, results=rows)
    return session_id


async def ordinals(env, season) -> dict[str, float]:
    board = await env.bot.storage.rating_board(int(env.guild.id), "calcory", season=season)
    return {row.name: row.ordinal for row in board.rows}


def one(value: float, lang: str = "en") -> str:
    text = f"{value:.1f}"
    return text.replace(".", ",") if lang == "de" else text


async def until(env, when: float) -> None:
    """The bot's clock moved on to ``when``; the season keeper did what came due."""
    env.clock.advance(when - env.clock.now())
    await env.bot.seasons.idle()


# ------------------------------------------------------------------------------------ /season itself

@on_both_stores
async def test_season_is_offered_to_managers_and_refused_to_anyone_else_in_their_language(env):
    synced = env.double.commands[None]["season"]
    assert synced["default_member_permissions"] == "32"         # Manage Server: Discord hides it from others
    with pytest.raises(AssertionError, match="does not offer /season to ann"):
        await env.double.slash(env.ann, env.channel, "season", mode="monthly")

    # A server can hand the command to everyone (Integrations): the bot asks the member itself.
    english = await env.double.forge_slash(env.ann, env.channel, "season", mode="monthly")
    assert english.ephemeral
    assert english.message.text == "Only members with the Manage Server permission can set the seasons."
    german = await env.double.forge_slash(env.bob, env.channel, "saison", modus="new", name="Winterpokal")
    assert german.ephemeral
    assert german.message.text == "Nur Mitglieder mit der Berechtigung „Server verwalten“ können die Saisons einstellen."
    assert await env.bot.storage.seasons(int(env.guild.id)) == []

    status = await env.double.slash(env.mod, env.channel, "season")
    assert status.ephemeral and status.message.text.startswith("📅 This server runs no seasons")
    nothing = await env.double.slash(env.mod, env.channel, "season", mode="off")
    assert nothing.ephemeral and nothing.message.text.startswith("This server runs no season.")
    unnamed = await env.double.slash(env.mod, env.channel, "season", mode="new")
    assert unnamed.message.text == "A new season needs a name: /season mode: new name: …"

    started = await env.double.slash(env.mod, env.channel, "season", mode="new", name="Winter Cup")
    assert not started.ephemeral
    assert started.message.text == (
        f"📅 The current season is **Winter Cup**, since <t:{int(env.clock.now())}:D>; it runs until someone sets "
        "the seasons again. Its end is posted nowhere: name a channel with /season channel:.")
    again = await env.double.slash(env.mod, env.channel, "season", mode="new", name="Winter Cup")
    assert again.ephemeral
    assert again.message.text == "This server already had a season called “Winter Cup”; choose another name."
    (season,) = await env.bot.storage.seasons(int(env.guild.id))
    assert season.name == "Winter Cup" and season.current


# ------------------------------------------------------------------------------------ a monthly season

@on_both_stores
async def test_a_monthly_season_rolls_over_at_the_month_end_posts_its_top_three_and_keeps_its_standings(env):
    guild = int(env.guild.id)
    record = await env.double.slash(env.mod, env.channel, "season", mode="monthly", channel=env.channel)
    assert not record.ephemeral
    assert record.message.text == (
        f"📅 Seasons are monthly (UTC). The current season is **November 2023**, until <t:{DECEMBER}:f>. "
        f"When it ends, the top three of each game are posted in <#{env.channel.id}>.")
    november = await env.bot.storage.current_season(guild, env.clock.now())
    assert november is not None and november.name == "2023-11" and november.until == DECEMBER

    # A real match counts for the season it ended in; two more among four players.
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    await play_two_player_game(env, drive)
    assert {row.season for row in await env.bot.storage.results(session.id)} == {november.id}
    await finish(env, [(env.cem, 1), (env.dia, 2), (env.ann, 3)])
    await finish(env, [(env.cem, 1), (env.dia, 2)])
    standings = await ordinals(env, november.id)
    assert standings == await ordinals(env, None)        # so far every match was this season's
    top = sorted(standings, key=standings.get, reverse=True)

    board = await env.double.slash(env.ann, env.channel, "leaderboard")        # the current season by default
    assert board_lines(board.message)[:2] == ["## 🏆 Calcory ratings (people)",
                                              "-# Season November 2023, current (since <t:1700000000:D>)"]

    before = list(env.public())
    await until(env, DECEMBER - 1)
    assert env.public() == before                       # not a second early
    await until(env, DECEMBER + 5)
    posts = [m for m in env.public() if m not in before]
    assert len(posts) == 1 and env.bot.seasons.posted == 1
    medals = " · ".join(f"{medal} {name} ({one(standings[name])})" for medal, name in zip("🥇🥈🥉", top, strict=False))
    assert board_lines(posts[0]) == [
        "## 🏁 Season November 2023 is over",
        f"**Calcory**: {medals}",
        "-# The final standings stay: /leaderboard season: November 2023",
    ]
    december = await env.bot.storage.current_season(guild, env.clock.now())
    assert december is not None and december.name == "2023-12" and december.started_at == DECEMBER
    (ended,) = [s for s in await env.bot.storage.seasons(guild) if not s.current]
    assert ended.id == november.id and ended.ended_at == DECEMBER

    # December: one match, which counts for December and all time, never for November.
    await finish(env, [(env.bob, 1), (env.ann, 2)])
    assert await ordinals(env, november.id) == standings
    (won,), (lost,) = MODEL.rate([[MODEL.rating()], [MODEL.rating()]])
    assert await ordinals(env, december.id) == pytest.approx({"Bob": won.ordinal(), "Ann": lost.ordinal()})
    assert (await ordinals(env, None)).keys() == {"Ann", "Bob", "Cem", "Dia"}

    current = await env.double.slash(env.ann, env.channel, "leaderboard")
    assert board_lines(current.message)[1:4] == [
        f"-# Season December 2023, current (since <t:{DECEMBER}:D>)",
        "Provisional, fewer than 5 rated games:",
        f"· Bob: {one(won.ordinal())} (1 game)"]
    offered = await env.double.autocomplete(env.ann, env.channel, "leaderboard", "season", "")
    assert offered == [{"name": "Current season: December 2023", "value": "current"},
                       {"name": "All time", "value": "all"},
                       {"name": "November 2023 (ended Dec 1, 2023)", "value": str(november.id)}]
    final = await env.double.slash(env.ann, env.channel, "leaderboard", season=str(november.id))
    lines = board_lines(final.message)
    assert lines[1] == f"-# Season November 2023: final standings (<t:{november.started_at:.0f}:D> – <t:{DECEMBER}:D>)"
    assert [line.split(":")[0].lstrip("· ").split(". ")[-1] for line in lines[3:7]] == top
    typed = await env.double.slash(env.ann, env.channel, "leaderboard", season="november 2023", by="wins")
    assert board_lines(typed.message)[1].startswith("-# Season November 2023: final standings")
    everything = await env.double.slash(env.ann, env.channel, "leaderboard", season="all", by="wins")
    assert board_lines(everything.message)[1] == "-# All time"
    ann_wins = [line for line in board_lines(everything.message) if " Ann:" in line]
    assert ann_wins and "of 3 won" in ann_wins[0]

    # In German: the months in German, the same seasons.
    german = await env.double.autocomplete(env.bob, env.channel, "rangliste", "saison", "nov")
    assert german == [{"name": "November 2023 (beendet am 01.12.2023)", "value": str(november.id)}]
    stats = await env.double.slash(env.bob, env.channel, "statistik", saison=str(november.id))
    lines = board_lines(stats.message)
    assert lines[1].startswith("-# Saison November 2023: Endstand")
    assert lines[2].startswith("**Calcory**: 1 gespielt")
    assert lines[3] == f"  ↳ Wertung {one(standings['Bob'], 'de')}"
    now = await env.double.slash(env.bob, env.channel, "statistik")
    assert board_lines(now.message)[1:3] == [f"-# Saison Dezember 2023, laufend (seit <t:{DECEMBER}:D>)",
                                            f"**Calcory**: 1 gespielt, 1 gewonnen (100 %), zuletzt gespielt "
                                            f"<t:{int(env.clock.now())}:D>"]
    unknown = await env.double.slash(env.bob, env.channel, "rangliste", saison="Sommer")
    assert unknown.ephemeral and unknown.message.text == (
        "Auf diesem Server gibt es keine Saison „Sommer“. Wähle eine aus der Liste oder lass die Option weg.")

    # Turned off: all time again by default, the seasons' standings kept.
    off = await env.double.slash(env.mod, env.channel, "season", mode="off")
    assert off.message.text.splitlines() == [
        "🏁 **December 2023** has ended; its final standings stay with /leaderboard season:.", "Seasons are off now."]
    await env.bot.seasons.idle()
    assert board_lines(env.public()[-1])[0] == "## 🏁 Season December 2023 is over"
    default = await env.double.slash(env.ann, env.channel, "leaderboard")
    assert board_lines(default.message)[1] == "-# All time"


# ------------------------------------------------------------------------------------ a restart in the middle

@on_both_stores
async def test_a_season_ending_while_the_bot_is_down_or_in_the_middle_of_its_post_is_posted_once_in_german(env):
    guild = int(env.guild.id)
    env.guild.locale = "de"                     # the server's language, not the manager's
    await env.double.slash(env.mod, env.channel, "season", mode="monthly", channel=env.channel)
    november = await env.bot.storage.current_season(guild, env.clock.now())
    await finish(env, [(env.ann, 1), (env.bob, 2)])
    await env.stop_bot()

    # The month ends while the bot is down; at start-up it catches up, once.
    env.clock.advance(DECEMBER + 3_600 - env.clock.now())
    before = list(env.public())
    await env.start_bot()
    await env.bot.seasons.idle()
    posts = [m for m in env.public() if m not in before]
    assert [board_lines(m)[0] for m in posts] == ["## 🏁 Die Saison November 2023 ist vorbei"]
    assert board_lines(posts[0])[-1] == "-# Der Endstand bleibt: /rangliste saison: November 2023"
    december = await env.bot.storage.current_season(guild, env.clock.now())
    assert december is not None and december.name == "2023-12" and december.id != november.id
    await env.bot.seasons.tick()                # a second process (or another look) finds nothing owed
    await env.stop_bot()
    await env.start_bot()
    await env.bot.seasons.idle()
    assert [m for m in env.public() if m not in before] == posts

    # December ends; a process takes the post and stops before sending it (the bot is down meanwhile).
    await finish(env, [(env.cem, 1), (env.ann, 2)])
    await env.stop_bot()
    env.clock.advance(JANUARY + 60 - env.clock.now())
    other = await Storage.open(str(env.database))     # another process: the same database
    try:
        assert await other.roll_seasons(env.clock.now()) == 1
        (taken,) = await other.claim_season_posts(env.clock.now(), 300.0)
        assert taken.id == december.id
    finally:
        await other.close()
    before = list(env.public())
    await env.start_bot()
    await env.bot.seasons.idle()
    assert env.public() == before               # its lease holds: not posted twice
    await until(env, JANUARY + 60 + 300)
    posts = [m for m in env.public() if m not in before]
    assert [board_lines(m)[0] for m in posts] == ["## 🏁 Die Saison Dezember 2023 ist vorbei"]
    assert board_lines(posts[0])[1].startswith("**Calcory**: 🥇 Cem (")
    await until(env, JANUARY + 3_600)
    assert [m for m in env.public() if m not in before] == posts
