"""Seasons in storage, on SQLite and PostgreSQL: a match counts for the season current as it ends,
a monthly season ends once however many processes try, its post is taken once, season ratings are
computed like the all-time ones and rebuilt with them, and forgetting a person reaches them too."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.__main__ import main
from bot.storage.seasons import SeasonRefused, month
from bot.storage.store import ResultRow, Storage
from tests.host.test_ratings import play, series

#: 14 November 2023, 22:13:20 UTC, and the first moments of the months after it.
NOVEMBER = 1_700_000_000.0
DECEMBER = 1_701_388_800.0
JANUARY = 1_704_067_200.0


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


async def dump(storage: Storage) -> list[tuple]:
    async with storage._sql.alone() as db:
        return [tuple(row) for row in await db.fetchall("SELECT * FROM season_ratings ORDER BY season_id, game, player")]


def test_a_month_is_named_and_bounded_in_utc():
    assert month(NOVEMBER) == ("2023-11", 1_698_796_800.0, DECEMBER)
    assert month(DECEMBER) == ("2023-12", DECEMBER, JANUARY)
    assert month(JANUARY - 0.5)[0] == "2023-12"


async def test_a_match_counts_for_the_season_current_as_it_ends_even_before_the_month_end_was_handled(storage):
    before = await play(storage, [replace(row, guild_id=1, ended_at=NOVEMBER - 10) for row in series(1, 1)[0]], 1)
    changed = await storage.change_season(1, "monthly", channel_id=55, now=NOVEMBER)
    november = changed.current
    assert changed.ended is None and november is not None and november.started_at == NOVEMBER
    rows = series(2, 3)
    guilds = [replace(row, guild_id=1) for row in rows[0]]
    inside = await play(storage, [replace(row, ended_at=NOVEMBER + 5) for row in guilds], 2)
    # Nobody handled the month's end yet: the match that ends after it rolls the season itself.
    after = await play(storage, [replace(row, ended_at=DECEMBER + 5) for row in guilds], 3)
    elsewhere = await play(storage, [replace(row, guild_id=2, ended_at=NOVEMBER + 6) for row in rows[1]], 4)
    seasons = {r.session_id: r.season for s in (before, inside, after, elsewhere) for r in await storage.results(s)}
    december = await storage.current_season(1, DECEMBER + 5)
    assert december is not None and december.name == "2023-12" and december.channel_id == 55
    assert seasons == {before: None, inside: november.id, after: december.id, elsewhere: None}
    assert await storage.roll_seasons(DECEMBER + 10) == 0          # already done by the match
    (taken,) = await storage.claim_season_posts(DECEMBER + 10, 300.0)
    assert taken.id == november.id and taken.ended_at == DECEMBER


async def test_two_processes_end_a_month_once_and_take_its_post_once(database):
    first, second = await Storage.open(database), await Storage.open(database)
    try:
        await first.change_season(1, "monthly", channel_id=55, now=NOVEMBER)
        await first.change_season(2, "monthly", now=NOVEMBER)       # no channel: nothing to post
        rolled = await asyncio.gather(first.roll_seasons(JANUARY + 1), second.roll_seasons(JANUARY + 1))
        assert sum(rolled) == 2
        for storage in (first, second):
            seasons = await storage.seasons(1)
            assert [(s.name, s.current) for s in seasons] == [("2024-01", True),
                                                               ("2023-11", False)]
        assert (await first.seasons(1))[0].started_at == JANUARY       # December had no bot: skipped
        taken = await asyncio.gather(first.claim_season_posts(JANUARY + 2, 300.0),
                                     second.claim_season_posts(JANUARY + 2, 300.0))
        assert sorted(len(t) for t in taken) == [0, 1]
        assert await second.claim_season_posts(JANUARY + 200, 300.0) == []     # the lease holds
        (again,) = await second.claim_season_posts(JANUARY + 303, 300.0)       # the taker never posted
        await second.season_posted(again.id)
        assert await first.claim_season_posts(JANUARY + 10_000, 300.0) == []
        assert await first.next_season_due() == month(JANUARY)[2]
    finally:
        await first.close()
        await second.close()


async def test_season_changes_and_refusals_change_nothing_else(storage):
    with pytest.raises(SeasonRefused, match="refused_off"):
        await storage.change_season(1, "off", now=NOVEMBER)
    named = await storage.change_season(1, "new", name="Cup", now=NOVEMBER)
    with pytest.raises(SeasonRefused, match="refused_name_taken"):
        await storage.change_season(1, "new", name="Cup", now=NOVEMBER + 1)
    moved = await storage.change_season(1, None, channel_id=77, now=NOVEMBER + 2)
    assert moved.ended is None and moved.current.id == named.current.id and moved.current.channel_id == 77
    monthly = await storage.change_season(1, "monthly", now=NOVEMBER + 3)
    assert monthly.ended.name == "Cup" and monthly.ended.ended_at == NOVEMBER + 3
    assert monthly.current.until == DECEMBER and monthly.current.channel_id == 77
    assert (await storage.change_season(1, "monthly", now=NOVEMBER + 4)).current.id == monthly.current.id
    off = await storage.change_season(1, "off", now=NOVEMBER + 5)
    assert off.current is None and off.ended.id == monthly.current.id
    assert await storage.current_season(1, NOVEMBER + 6) is None
    assert [s.name for s in await storage.seasons(1)] == ["2023-11", "Cup"]


async def test_a_seasons_boards_and_stats_count_its_matches_alone(storage):
    def match(winner: int, loser: int, at: float, *, computers: bool = False) -> list[ResultRow]:
        return [ResultRow(session_id=0, guild_id=1, game="calcory", seat=k, user_id=user, name=f"user{user}",
                          score=0, rank=k + 1, won=k == 0, shared=False, with_computers=computers,
                          stopped=False, ended_at=at) for k, user in enumerate((winner, loser))]

    await play(storage, match(8, 7, 1.0), 1)                          # before any season
    cup = (await storage.change_season(1, "new", name="Cup", now=2.0)).current
    await play(storage, match(7, 8, 3.0), 2)
    await play(storage, match(7, 9, 4.0, computers=True), 3)
    await play(storage, [replace(row, game="mu") for row in match(9, 8, 5.0)], 4)
    await play(storage, [replace(row, game="mu") for row in match(9, 8, 5.5)], 5)

    wins = await storage.leaderboard(1, "calcory", season=cup.id, include_computer_matches=True, user_id=8)
    assert [(row.user_id, row.wins, row.games) for row in wins.rows] == [(7, 2, 2), (8, 0, 1), (9, 0, 1)]
    people = await storage.leaderboard(1, "calcory", season=cup.id)
    assert [(row.user_id, row.wins, row.games) for row in people.rows] == [(7, 1, 1), (8, 0, 1)]
    overall = await storage.leaderboard(1, None, season=cup.id, user_id=7)
    assert [(row.user_id, row.wins, row.games) for row in overall.rows] == [(9, 2, 2), (7, 1, 1), (8, 0, 3)]
    assert (await storage.leaderboard(1, "calcory")).rows[0].games == 2          # all time: the match before too
    assert await storage.most_played_game(1, season=cup.id) == "mu"
    assert await storage.season_games(cup.id) == ["mu", "calcory"]
    stats = await storage.stats(1, 8, season=cup.id)
    assert [(row.game, row.games, row.wins, row.last_played) for row in stats] == [("mu", 2, 0, 5.5),
                                                                                ("calcory", 1, 0, 3.0)]
    assert [(row.game, row.games) for row in await storage.stats(1, 8)] == [("calcory", 2), ("mu", 2)]
    rated = await storage.rating_trends(1, 7, season=cup.id)
    assert list(rated) == ["calcory"] and rated["calcory"].games == 2 and rated["calcory"].over == 0
    board = await storage.rating_board(1, "calcory", season=cup.id, user_id=8, limit=1)
    assert [row.user_id for row in board.rows] == [7] and board.me is not None and board.me.pos == 3   # 9 lost to 7 too


async def test_season_ratings_are_rated_like_the_all_time_ones_and_forgotten_with_them(storage):
    await storage.change_season(1, "new", name="Cup", now=0.0)
    await storage.change_season(2, "new", name="Cup", now=0.0)
    for n, rows in enumerate(series(5, 30)):
        await play(storage, rows, 100 + n)
    async with storage._sql.alone() as db:
        all_time = [tuple(r) for r in await db.fetchall(
            "SELECT game, player, user_id, level, name, mu, sigma, ordinal, games FROM ratings ORDER BY guild_id, game, player")]
    season = [row[1:] for row in await dump(storage)]
    assert season == all_time                       # every match of both guilds was in their seasons
    await storage.forget_user(3)
    assert all(row[3] != 3 for row in await dump(storage))


async def test_python_m_bot_rebuild_ratings_rebuilds_the_seasons_ratings_too(database, tmp_path):
    storage = await Storage.open(database)
    matches = series(9, 40)
    for n, rows in enumerate(matches):
        if n in (0, 15, 30):                        # three seasons per guild, a new one now and then
            for guild in (1, 2):
                await storage.change_season(guild, "new", name=f"Season {n}", now=rows[0].ended_at - 0.5)
        if n == 35:
            await storage.change_season(1, "off", now=rows[0].ended_at - 0.5)
        await play(storage, rows, 100 + n)
    expected = await dump(storage)
    assert len({row[0] for row in expected}) == 6
    async with storage._sql.alone() as db:
        await db.execute("DELETE FROM season_ratings")
    await storage.close()
    config = tmp_path / "config.toml"
    config.write_text(f'token = "x"\ndatabase_url = "{database}"\n', encoding="utf-8")

    assert await asyncio.to_thread(main, ["--config", str(config), "rebuild-ratings"]) == 0
    again = await Storage.open(database)
    try:
        assert await dump(again) == expected
    finally:
        await again.close()
