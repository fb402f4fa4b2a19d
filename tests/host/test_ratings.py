"""OpenSkill ratings: openskill's documented numbers, teams and ties, computer levels, the update in
the results' transaction, rebuild == incremental, and a restart in the middle of a series."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce

import games
from bot.storage import ratings_store
from bot.storage.ratings import MODEL, PROVISIONAL, Skill, rate_match
from bot.storage.store import ResultRow, Storage, StorageFault

# openskill's README (the model without its later τ, i.e. ``tau=0``): documented inputs and outputs.
DOCUMENTED = PlackettLuce(tau=0)


def seat(seat: int, rank: int, *, user: int | None = None, level: str | None = None, team: int | None = None,
         session: int = 1, guild: int = 1, game: str = "toy", at: float = 1.0) -> ResultRow:
    user = seat + 1 if user is None and level is None else user
    return ResultRow(session_id=session, guild_id=guild, game=game, seat=seat, user_id=user,
                     name=f"user{user}" if user else "🤖", score=0, rank=rank, won=rank == 1,
                     shared=False, with_computers=level is not None, stopped=False, ended_at=at,
                     team=team, level=level)


def test_the_model_is_openskills_default_plackett_luce():
    assert isinstance(MODEL, PlackettLuce)
    assert (MODEL.mu, MODEL.sigma) == (25.0, 25.0 / 3)
    assert Skill(25.0, 25.0 / 3).ordinal == 0.0


def test_free_for_all_matches_openskills_documented_ranks():
    rows = [seat(0, 4), seat(1, 1), seat(2, 3), seat(3, 2)]
    rated = rate_match(rows, {}, DOCUMENTED)
    documented = [(20.96265504062538, 8.083731307186588), (27.795084971874736, 8.263160757613477),
                  (24.68943500312503, 8.083731307186588), (26.552824984374855, 8.179213704945203)]
    for k, (mu, sigma) in enumerate(documented):
        skill = rated.skills[f"u{k + 1}"]
        assert (skill.mu, skill.sigma, skill.games) == (pytest.approx(mu, abs=1e-12), pytest.approx(sigma), 1)
        assert rated.seats[k] == (pytest.approx(0.0), pytest.approx(mu - 3 * sigma))


def test_shared_places_are_ties_as_in_openskills_documented_scores():
    """openskill documents scores (37, 19, 37, 42); the two 37s share a place, as our ranks (2, 4, 2, 1) do."""
    rated = rate_match([seat(0, 2), seat(1, 4), seat(2, 2), seat(3, 1)], {}, DOCUMENTED)
    tie = (24.68943500312503, 8.179213704945203)
    assert (rated.skills["u1"].mu, rated.skills["u1"].sigma) == pytest.approx(tie)
    assert (rated.skills["u3"].mu, rated.skills["u3"].sigma) == pytest.approx(tie)
    assert rated.skills["u2"].mu == pytest.approx(22.826045021875203)
    assert rated.skills["u4"].mu == pytest.approx(27.795084971874736)


def test_partners_are_rated_as_a_team_as_in_openskills_documented_team_match():
    """The README's a1 + a2 beat b1 + b2, seated the way Safarü seats partners (opposite: 0 and 2)."""
    current = {"u1": Skill(25.0, 25.0 / 3, 0), "u3": Skill(32.444, 5.123, 3),
               "u2": Skill(43.381, 2.421, 9), "u4": Skill(25.188, 6.211, 2)}
    rows = [seat(0, 1, team=0), seat(1, 3, team=1), seat(2, 1, team=0), seat(3, 3, team=1)]
    rated = rate_match(rows, current, DOCUMENTED)
    documented = {"u1": (28.669648436582808, 8.071520788025197), "u3": (33.83086971107981, 5.062772998705765),
                  "u2": (43.071274808241974, 2.4166900452721256), "u4": (23.149503312339064, 6.1378606973362135)}
    for key, (mu, sigma) in documented.items():
        assert (rated.skills[key].mu, rated.skills[key].sigma) == pytest.approx((mu, sigma))
        assert rated.skills[key].games == current[key].games + 1
    # Without the team numbers the same ranks would be a four-player free-for-all: different numbers.
    alone = rate_match([seat(0, 1), seat(1, 3), seat(2, 1), seat(3, 3)], current, DOCUMENTED)
    assert alone.skills["u1"].mu != pytest.approx(rated.skills["u1"].mu)


@pytest.mark.parametrize(("key", "players", "sides"), [
    ("safaru", 4, (0, 1, 0, 1)), ("safaru", 3, ()), ("rummu", 6, (0, 1, 2, 0, 1, 2)), ("rummu", 5, ()),
    ("mu", 4, ()),      # Mü's Chef and partner change every hand: a match is a free-for-all
])
def test_a_results_sides_name_the_partners_who_share_a_score(key, players, sides):
    game = games.REGISTRY[key]
    assert game.result(game.setup(players, game.parse_options({}), "seed")).sides == sides


def test_two_seats_of_one_computer_level_move_one_rating_by_both_results():
    rows = [seat(0, 1, user=7), seat(1, 2, level="easy"), seat(2, 3, level="easy")]
    rated = rate_match(rows, {}, MODEL)
    (_, (second,), (third,)) = MODEL.rate([[MODEL.rating()], [MODEL.rating()], [MODEL.rating()]])
    easy = rated.skills["ceasy"]
    assert easy.games == 2
    assert easy.mu == pytest.approx(25.0 + (second.mu - 25.0) + (third.mu - 25.0))
    assert easy.sigma == pytest.approx(25.0 / 3 * (second.sigma / (25.0 / 3)) * (third.sigma / (25.0 / 3)))
    assert rated.seats[1][1] == rated.seats[2][1] == pytest.approx(easy.ordinal)


def test_a_row_without_user_or_level_plays_fresh_and_is_not_kept():
    forgotten = ResultRow(session_id=1, guild_id=1, game="toy", seat=1, user_id=None, name="", score=0,
                          rank=2, won=False, shared=False, with_computers=False,
                          stopped=False, ended_at=1.0)
    rated = rate_match([seat(0, 1, user=7), forgotten], {})
    assert set(rated.skills) == {"u7"} and set(rated.seats) == {0}


def test_a_match_of_one_side_changes_nothing():
    assert rate_match([seat(0, 1, team=0), seat(1, 1, team=0)], {}).skills == {}


# ------------------------------------------------------------------------------------- storage

@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


def series(seed: int, matches: int) -> list[list[ResultRow]]:
    """Seeded matches over two guilds and two games: free-for-alls with shared places, team games,
    computer levels (two of one level at a table too)."""
    rng = random.Random(seed)
    out = []
    for m in range(matches):
        guild, game = rng.choice((1, 2)), rng.choice(("calcory", "safaru"))
        users = rng.sample(range(1, 9), rng.randint(1, 4))
        entrants: list[tuple[int | None, str | None]] = [(u, None) for u in users]
        entrants += [(None, rng.choice(("easy", "strong"))) for _ in range(rng.randint(0, 2))]
        if len(entrants) < 2:
            entrants.append((None, "easy"))
        teams = game == "safaru" and len(entrants) == 4
        ranks = [rng.randint(1, len(entrants)) for _ in entrants]
        if teams:
            ranks[2], ranks[3] = ranks[0], ranks[1]
        out.append([ResultRow(session_id=0, guild_id=guild, game=game, seat=k, user_id=uid,
                              name=f"user{uid}" if uid else f"🤖 {level}", score=0,
                              rank=ranks[k], won=ranks[k] == 1, shared=False,
                              with_computers=level is not None, stopped=False,
                              ended_at=1000.0 + m, team=k % 2 if teams else None,
                              level=level)
                    for k, (uid, level) in enumerate(entrants)])
    return out


async def play(storage: Storage, rows: list[ResultRow], channel: int) -> int:
    first = rows[0]
    session_id = await storage.create_session(
        guild_id=first.guild_id, channel_id=channel, game=first.game, host_id=1, lang="en", options={},
        seats=[], rules_version=1, created_at=first.ended_at)
    await storage.end_session(session_id, "finished", ended_at=first.ended_at,
                              results=[replace(row, session_id=session_id) for row in rows])
    return session_id


async def fetched(storage: Storage, sql: str) -> list[tuple]:
    async with storage._sql.alone() as db:
        return [tuple(row) for row in await db.fetchall(sql)]


async def dump(storage: Storage) -> tuple[list, list]:
    return (await fetched(storage, "SELECT * FROM ratings ORDER BY guild_id, game, player"),
            await fetched(storage, "SELECT * FROM rating_log ORDER BY session_id, seat"))


async def test_a_finished_match_rates_its_players_and_a_stopped_one_does_not(storage):
    await play(storage, [seat(0, 1, user=7), seat(1, 2, user=8)], 1)
    stopped = await storage.create_session(guild_id=1, channel_id=2, game="toy", host_id=1, lang="en", options={},
                                           seats=[], rules_version=1, created_at=0.0)
    await storage.end_session(stopped, "stopped", ended_at=2.0, results=[
        ResultRow(session_id=stopped, guild_id=1, game="toy", seat=k, user_id=7 + k, name="x", score=None,
                  rank=None, won=False, shared=False, with_computers=False, stopped=True,
                  ended_at=2.0) for k in (0, 1)])
    board = await storage.rating_board(1, "toy")
    (won,), (lost,) = MODEL.rate([[MODEL.rating()], [MODEL.rating()]])
    assert [(r.user_id, r.ordinal, r.games, r.provisional) for r in board.rows] == [
        (7, pytest.approx(won.ordinal()), 1, True), (8, pytest.approx(lost.ordinal()), 1, True)]


async def test_rebuild_equals_the_incremental_updates(storage):
    for n, rows in enumerate(series(7, 120)):
        await play(storage, rows, 100 + n)
    incremental = await dump(storage)
    assert len(incremental[0]) > 10 and any(r[4] == "strong" for r in incremental[0])
    assert await storage.rebuild_ratings() == (120, len(incremental[0]))
    assert await dump(storage) == incremental             # equal to the last bit: same arithmetic, same order


async def test_a_restart_in_the_middle_of_a_series_changes_no_rating(database):
    matches = series(11, 40)
    straight = await Storage.open(":memory:")
    for n, rows in enumerate(matches):
        await play(straight, rows, 100 + n)
    expected = await dump(straight)
    await straight.close()

    path = database
    first = await Storage.open(path)
    for n, rows in enumerate(matches[:17]):
        await play(first, rows, 100 + n)
    await first.close()
    again = await Storage.open(path)
    try:
        for n, rows in enumerate(matches[17:], start=17):
            await play(again, rows, 100 + n)
        assert await dump(again) == expected
        await again.rebuild_ratings()
        assert await dump(again) == expected
    finally:
        await again.close()


async def test_the_rating_update_commits_with_the_result_rows_or_neither(storage, monkeypatch):
    def broken(*_args, **_kwargs):       # what each database raises when the write cannot be made
        if storage.dialect.name == "sqlite":
            raise sqlite3.OperationalError("disk I/O error")
        raise ConnectionResetError("the connection to the server was lost")

    session_id = await storage.create_session(guild_id=1, channel_id=5, game="toy", host_id=1, lang="en",
                                              options={}, seats=[], rules_version=1, created_at=0.0)
    monkeypatch.setattr(ratings_store, "rate_match", broken)
    rows = [replace(row, session_id=session_id) for row in (seat(0, 1), seat(1, 2))]
    with pytest.raises(StorageFault):
        await storage.end_session(session_id, "finished", ended_at=1.0, results=rows)
    assert await storage.results(session_id) == []
    assert (await storage.session(session_id)).status == "lobby"
    monkeypatch.undo()
    await storage.end_session(session_id, "finished", ended_at=1.0, results=rows)
    assert len((await storage.rating_board(1, "toy")).rows) == 2


async def test_board_ranks_established_players_then_provisional_ones_and_finds_the_caller(storage):
    # Users 1..12 play PROVISIONAL matches each, user k losing to all below k; user 20 plays once.
    n = 0
    for _ in range(PROVISIONAL):
        for k in range(1, 12):
            n += 1
            await play(storage, [seat(0, 1, user=k, at=n), seat(1, 2, user=k + 1, at=n)], n)
    n += 1
    await play(storage, [seat(0, 1, user=20, at=n), seat(1, 2, user=1, at=n)], n)
    board = await storage.rating_board(1, "toy", limit=10, user_id=20)
    established = [row for row in board.rows if not row.provisional]
    assert len(board.rows) == 10 and len(established) == 10
    assert [row.rank for row in established] == list(range(1, 11))
    assert [row.ordinal for row in established] == sorted((row.ordinal for row in established), reverse=True)
    assert board.me is not None and board.me.provisional and board.me.games == 1 and board.me_outside
    full = await storage.rating_board(1, "toy", limit=20)
    assert [row.user_id for row in full.rows][-1] == 20        # provisional: below everyone, despite its win
    assert [row.pos for row in full.rows] == list(range(1, 14))
    last = full.rows[-2]                                       # the weakest established player, 12th
    mine = await storage.rating_board(1, "toy", limit=10, user_id=last.user_id)
    assert mine.me_outside and (mine.me.rank, mine.me.ordinal, mine.me.games) == (12, last.ordinal, last.games)
    assert (board.me.pos, board.me.ordinal) == (13, full.rows[-1].ordinal)


async def test_computer_levels_are_listed_only_on_request(storage):
    await play(storage, [seat(0, 1, user=7), seat(1, 2, level="strong")], 1)
    assert [row.user_id for row in (await storage.rating_board(1, "toy")).rows] == [7]
    listed = await storage.rating_board(1, "toy", include_computers=True)
    assert [(row.user_id, row.level) for row in listed.rows] == [(7, None), (None, "strong")]


async def test_trend_is_the_change_over_the_last_ten_games(storage):
    for n in range(1, 14):
        await play(storage, [seat(0, 1 if n % 3 else 2, user=7, at=n), seat(1, 2 if n % 3 else 1, user=8, at=n)], n)
    log = await fetched(storage, "SELECT before, after FROM rating_log WHERE user_id = 7 ORDER BY ended_at")
    trend = (await storage.rating_trends(1, 7))["toy"]
    assert (trend.games, trend.over) == (13, 10)
    assert trend.ordinal == log[-1][1]
    assert trend.change == pytest.approx(log[-1][1] - log[3][0])
    assert await storage.rating_trends(1, 99) == {}


async def test_forgetting_a_user_removes_their_ratings_and_history(storage):
    await play(storage, [seat(0, 1, user=7), seat(1, 2, user=8)], 1)
    assert (await storage.forget_user(7)).results == 1
    ratings, log = await dump(storage)
    assert [row[3] for row in ratings] == [8] and [row[5] for row in log] == [8]


async def test_migration_gives_old_computer_rows_their_level_and_rebuild_rates_them(tmp_path):
    from bot.storage.migrations import MIGRATIONS

    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as raw:       # a database as schema 3 left it, with one finished match
        raw.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
                    "applied_at TEXT NOT NULL)")
        for version, name, statements in MIGRATIONS[:3]:
            for statement in statements:
                raw.execute(statement)
            raw.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (version, name))
        raw.execute("INSERT INTO sessions (id, guild_id, channel_id, game, host_id, lang, status, seats, "
                    "rules_version, created_at) VALUES (1, 1, 1, 'toy', 7, 'en', 'finished', ?, 1, 0)",
                    ('[{"user_id": 7, "name": "A"}, {"user_id": null, "name": "R", "kind": "computer", '
                     '"level": "strong"}]',))
        raw.executemany("INSERT INTO results VALUES (1, 1, 'toy', ?, ?, ?, 0, ?, ?, 0, 1, 0, 5.0)",
                        [(0, 7, "A", 2, 0), (1, None, "R", 1, 1)])
    storage = await Storage.open(path)
    try:
        assert [row.level for row in await storage.results(1)] == [None, "strong"]
        assert (await storage.rating_board(1, "toy", include_computers=True)).rows == ()
        assert await storage.rebuild_ratings() == (1, 2)
        board = await storage.rating_board(1, "toy", include_computers=True)
        assert [(row.user_id, row.level) for row in board.rows] == [(None, "strong"), (7, None)]
    finally:
        await storage.close()


async def test_python_m_bot_rebuild_ratings_recomputes_them(database, tmp_path, capsys):
    from bot.__main__ import main

    path = database
    storage = await Storage.open(path)
    for n, rows in enumerate(series(3, 12)):
        await play(storage, rows, 100 + n)
    expected = await dump(storage)
    async with storage._sql.alone() as db:
        await db.execute("DELETE FROM ratings")
    await storage.close()
    config = tmp_path / "config.toml"
    config.write_text(f'token = "x"\ndatabase_url = "{path}"\n', encoding="utf-8")

    assert await asyncio.to_thread(main, ["--config", str(config), "rebuild-ratings"]) == 0
    assert capsys.readouterr().out == f"Rebuilt {len(expected[0])} ratings from 12 rated matches in {path}.\n"
    again = await Storage.open(path)
    try:
        assert await dump(again) == expected
    finally:
        await again.close()


async def test_equal_ratings_share_a_rank(storage):
    for n in range(1, PROVISIONAL + 1):           # five shared places: the same rating to the last bit
        await play(storage, [seat(0, 1, user=7, at=n), seat(1, 1, user=8, at=n), seat(2, 3, user=9, at=n)], n)
    board = await storage.rating_board(1, "toy")
    assert {row.user_id: row.rank for row in board.rows} == {7: 1, 8: 1, 9: 3}
    assert board.rows[0].ordinal == board.rows[1].ordinal > board.rows[2].ordinal
    nine = await storage.rating_board(1, "toy", limit=2, user_id=9)
    assert nine.me_outside and nine.me.rank == 3
