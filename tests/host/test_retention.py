"""The retention prune on SQLite and PostgreSQL: the action logs of matches that ended more than
``replay_days`` ago go, their session rows, results and ratings stay, live and recent matches keep
every move, and an export of a pruned match says its moves are no longer kept."""

from __future__ import annotations

import pytest

from bot.replays.record import NoRecord, load
from bot.replays.retention import DAY, Retention
from bot.storage.store import ResultRow, Storage
from tests.host.test_storage import new_session

NOW = 1_700_000_000.0


@pytest.fixture
async def storage(scratch):
    storage = await Storage.open(scratch)
    yield storage
    await storage.close()


async def played(storage: Storage, *, ended: float | None, status: str = "finished", moves: int = 3) -> int:
    """A match of two people with ``moves`` moves, ended at ``ended`` (None: still played)."""
    session_id = await new_session(storage, game="mu")
    seats = [{"user_id": 11, "name": "Ann", "kind": "human"}, {"user_id": 12, "name": "Bob", "kind": "human"}]
    await storage.start_session(session_id, seats=seats, seed="seed", started_at=(ended or NOW) - 600)
    for seq in range(moves):
        await storage.append_action(session_id, seq, seq % 2, f"play:{seq}", (ended or NOW) - 600 + seq)
    if ended is not None:
        rows = [ResultRow(session_id=session_id, guild_id=1, game="mu", seat=seat, user_id=user, name=name,
                          score=None if status == "stopped" else 10 - seat, rank=None if status == "stopped" else seat + 1,
                          won=seat == 0 and status == "finished", shared=False, with_computers=False,
                          stopped=status == "stopped", ended_at=ended)
                for seat, (user, name) in enumerate([(11, "Ann"), (12, "Bob")])]
        await storage.end_session(session_id, status, ended_at=ended, results=rows)
    return session_id


async def test_the_prune_deletes_old_logs_only_and_keeps_results_and_ratings(storage):
    old = await played(storage, ended=NOW - 200 * DAY)
    stopped = await played(storage, ended=NOW - 181 * DAY, status="stopped")
    recent = await played(storage, ended=NOW - 179 * DAY)
    live = await played(storage, ended=None)
    results = {s: await storage.results(s) for s in (old, stopped, recent)}
    ratings = await storage.rating_board(1, "mu")
    changes = await storage.rating_changes(old)
    assert changes and ratings.rows

    assert await Retention(storage, 180).prune(NOW) == 2
    assert await storage.actions(old) == await storage.actions(stopped) == []
    assert len(await storage.actions(recent)) == len(await storage.actions(live)) == 3
    assert {s: await storage.results(s) for s in (old, stopped, recent)} == results
    assert await storage.rating_board(1, "mu") == ratings and await storage.rating_changes(old) == changes
    row = await storage.session(old)
    assert row is not None and row.status == "finished" and row.seed == "seed" and row.moves_pruned_at == NOW
    assert (await storage.session(recent)).moves_pruned_at is None

    # An export of a pruned match says so; the others still have every move.
    with pytest.raises(NoRecord) as missing:
        await load(storage, old, "de")
    assert (missing.value.key, missing.value.params) == ("archive.pruned", {"match": old, "game": "Mü"})
    assert len((await load(storage, recent, "en")).moves) == 3

    # The next day's prune finds nothing more; the day after that, the recent match is old too.
    assert await Retention(storage, 180).prune(NOW + DAY / 2) == 0
    assert await Retention(storage, 180).prune(NOW + 2 * DAY) == 1
    assert await storage.actions(recent) == [] and len(await storage.actions(live)) == 3


async def test_replay_days_zero_keeps_every_move_for_ever(storage):
    ancient = await played(storage, ended=NOW - 5000 * DAY)
    retention = Retention(storage, 0)
    assert await retention.prune(NOW) == 0 and retention.last == NOW
    assert len(await storage.actions(ancient)) == 3
    assert (await storage.session(ancient)).moves_pruned_at is None


async def test_a_match_still_played_or_never_dealt_has_no_record(storage):
    live = await played(storage, ended=None)
    lobby = await new_session(storage, game="mu")
    for session_id, key in ((live, "archive.live"), (lobby, "archive.no_match"), (999_999, "archive.no_match")):
        with pytest.raises(NoRecord) as missing:
            await load(storage, session_id, "en")
        assert missing.value.key == key


async def test_many_old_matches_are_pruned_a_batch_at_a_time_oldest_first(storage, monkeypatch):
    monkeypatch.setattr("bot.replays.retention.BATCH", 2)
    old = [await played(storage, ended=NOW - (300 - n) * DAY, moves=2) for n in range(5)]
    recent = await played(storage, ended=NOW - DAY)
    assert await storage.prune_actions(NOW - 180 * DAY, now=NOW, batch=2) == (2, 4)
    assert [len(await storage.actions(s)) for s in old] == [0, 0, 2, 2, 2]
    assert await Retention(storage, 180).prune(NOW) == 3
    assert [len(await storage.actions(s)) for s in old] == [0] * 5 and len(await storage.actions(recent)) == 3
