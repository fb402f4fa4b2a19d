"""An ended match taken away from the table, over Discord: Export sends its record privately as a JSON
file that validates and replays to the stored result; Share as GIF posts the public table through the
match to the channel, for a player of it only; after ``replay_days`` the moves are pruned and both
say so; after /forget-me neither carries the forgotten person."""

from __future__ import annotations

import io
import json
import random

from PIL import Image

from bot.i18n import t
from bot.registry import pictures
from bot.replays import gif
from bot.replays.record import MatchRecord, steps
from bot.replays.retention import DAY
from bot.replays.share import EXPORT, GIF
from bot.transport import ids
from tests.e2e.conftest import on_both_stores
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_rematch import closing_message, finish, refused


async def finished_safaru(env):
    """A finished Safarü match of ann (English), bob (German) and a computer player."""
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"], options={"open_piles": True}, computers=1)
    await finish(drive, random.Random(8))
    assert session.status == "finished"
    return drive, session


async def _stored(env, session_id: int):
    """What the bot's database (SQLite or PostgreSQL) holds of the match, read beside the bot."""
    async def rows(sql: str) -> list[tuple]:
        return [tuple(row) for row in await env.bot.storage._fetchall(sql, (session_id,))]

    ((seed, options, started, ended),) = await rows(
        "SELECT seed, options, started_at, ended_at FROM sessions WHERE id = ?")
    moves = await rows("SELECT seat, action, at FROM actions WHERE session_id = ? ORDER BY seq")
    results = await rows("SELECT seat, score, rank, won FROM results WHERE session_id = ? ORDER BY seat")
    return seed, json.loads(options), started, ended, moves, results


def _exported(answer) -> tuple[dict, MatchRecord]:
    """The one file of a private answer: its attachment as Discord lists it, and the record it holds."""
    assert answer.ephemeral, f"{answer} was answered in public"
    (attachment,) = answer.message.shown
    data = answer.message.file(attachment["filename"])
    return attachment, MatchRecord.model_validate_json(data)


@on_both_stores
async def test_export_sends_the_record_privately_as_a_json_file_that_replays_the_match(env):
    _, session = await finished_safaru(env)
    closing = closing_message(env, session)
    export, share = ids.table(session.id, EXPORT), ids.table(session.id, GIF)
    assert [closing.component(c)["label"] for c in (ids.rematch(session.id), export, share)] == [
        "Rematch", "Export", "Share as GIF"]

    answer = await env.double.click(env.ann, closing, export)
    attachment, record = _exported(answer)
    assert attachment["filename"] == f"spieltisch-safaru-{session.id}.json"
    assert attachment["content_type"] == "application/json"
    assert answer.message.text == (f"The record of match {session.id} (Safarü): every move with its time, the "
                                   "seats and the result, as JSON (format 1). It replays the match exactly.")
    raw = json.loads(answer.message.file(attachment["filename"]))
    assert raw["format"] == 1 and set(raw) == {
        "format", "match", "game", "rules_version", "house_rules", "status", "seed", "started", "ended", "seats",
        "moves", "results"}

    # Every field is what the database holds of the match.
    seed, options, started, ended, moves, results = await _stored(env, session.id)
    assert (record.match, record.game, record.status, record.seed) == (session.id, "safaru", "finished", seed)
    assert record.rules_version == session.game.rules_version and record.house_rules == options
    assert record.house_rules["open_piles"] is True
    assert (record.started.timestamp(), record.ended.timestamp()) == (started, ended)
    assert [(m.seat, m.action, m.at.timestamp()) for m in record.moves] == moves
    assert [(s.name, s.computer, s.anonymous) for s in record.seats] == [
        (seat.name, seat.level, False) for seat in session.seats]
    assert sorted(s.computer is None for s in record.seats) == [False, True, True]
    assert [(r.seat, r.score, r.rank, r.won) for r in record.results] == [
        (seat, score, rank, bool(won)) for seat, score, rank, won in results]
    rated = await env.bot.storage.rating_changes(session.id)
    assert {r.seat: (r.rating, r.rating_change) for r in record.results} == {
        seat: (after, after - before) for seat, (before, after) in rated.items()}
    assert "user_id" not in json.dumps(raw) and env.ann.id not in json.dumps(raw)

    # The record alone replays the match to the result the table showed.
    *_, last = steps(record)
    replayed = session.game.result(last.state)
    assert list(replayed.scores) == [r.score for r in record.results]
    assert list(replayed.ranks) == [r.rank for r in record.results]

    # Anyone who sees the button may export, after a restart too (the record is read from the
    # database); nothing is posted in the channel.
    await env.stop_bot()
    await env.start_bot()
    posted = len(env.public())
    other = await env.double.click(env.cem, closing, export)
    assert _exported(other)[1] == record and len(env.public()) == posted


async def test_share_as_gif_posts_the_table_through_the_match_for_a_player_only(pooled_env):
    env = pooled_env        # the GIF is drawn in a worker process: the record goes there and the GIF back
    _, session = await finished_safaru(env)
    closing = closing_message(env, session)
    share = ids.table(session.id, GIF)
    posted = len(env.public())

    refused(await env.double.click(env.cem, closing, share), t("en", "archive.gif_not_player"))
    assert len(env.public()) == posted

    answer = await env.double.click(env.bob, closing, share)
    await env.settle()
    assert answer.ephemeral and answer.message.text == t("de", "archive.gif_drawing", match=session.id)
    shared = env.public()[-1]
    assert len(env.public()) == posted + 1 and answer.followups == [shared] and not shared.ephemeral
    # In the table's language (English here), naming the player who shared it.
    assert shared.text == f"Bob shares match {session.id} (Safarü), the table after the deal and after each move."
    (attachment,) = shared.shown
    assert attachment["filename"] == f"spieltisch-safaru-{session.id}.gif"
    assert attachment["content_type"] == "image/gif" and attachment["size"] <= gif.MAX_BYTES
    data = shared.file(attachment["filename"])
    animation = Image.open(io.BytesIO(data))
    moves = len((await _stored(env, session.id))[4])
    assert animation.n_frames == min(moves + 1, gif.MAX_FRAMES)
    assert attachment["description"] == (f"The table of Safarü in match {session.id}, {animation.n_frames} "
                                          "pictures from the deal to the final table.")

    # The last frame is the final table, held longest; every colour is the table's own.
    final = Image.open(io.BytesIO(pictures("safaru").table_png(session.game.view(session.state, None)))).convert("RGB")
    animation.seek(animation.n_frames - 1)
    assert animation.info["duration"] == gif.FINAL_MS
    last = animation.convert("RGB").crop((0, 0, *final.size))
    assert last.tobytes() == final.tobytes()
    animation.seek(1)
    assert animation.info["duration"] == gif.FRAME_MS


@on_both_stores
async def test_moves_are_pruned_after_replay_days_and_an_export_says_so(env):
    _, session = await finished_safaru(env)
    closing = closing_message(env, session)
    results_before = (await _stored(env, session.id))[5]
    ratings_before = await env.bot.storage.rating_changes(session.id)

    env.clock.advance(179 * DAY)           # the daily prune ran; the match ended 179 days ago
    await env.bot.pruned()
    assert (await _stored(env, session.id))[4]
    env.clock.advance(2 * DAY)
    await env.bot.pruned()
    _, _, _, _, moves, results = await _stored(env, session.id)
    assert moves == [] and results == results_before
    assert await env.bot.storage.rating_changes(session.id) == ratings_before

    pruned = t("en", "archive.pruned", match=session.id, game="Safarü")
    refused(await env.double.click(env.ann, closing, ids.table(session.id, EXPORT)), pruned)
    posted = len(env.public())
    answer = await env.double.click(env.ann, closing, ids.table(session.id, GIF))
    await env.settle()
    refused(answer, pruned)
    assert len(env.public()) == posted


async def test_after_forget_me_the_record_and_the_gif_carry_no_trace_of_the_person(env):
    _, session = await finished_safaru(env)
    closing = closing_message(env, session)
    ann, bob = (next(i for i, seat in enumerate(session.seats) if seat.user_id == int(user.id))
                for user in (env.ann, env.bob))
    ann_name = session.seats[ann].name
    asked = await env.double.slash(env.ann, env.channel, "forget-me")
    await env.double.click(env.ann, asked.message, ids.user(int(env.ann.id), "forget"))

    # bob reads German: the forgotten seat is "anonym", and neither ann's name nor her id is in the file.
    answer = await env.double.click(env.bob, closing, ids.table(session.id, EXPORT))
    attachment, record = _exported(answer)
    text = answer.message.file(attachment["filename"]).decode()
    assert (record.seats[ann].name, record.seats[ann].anonymous) == ("anonym", True)
    assert record.seats[bob].name == session.seats[bob].name
    assert f'"{ann_name}"' not in text and env.ann.id not in text

    shared = await env.double.click(env.bob, closing, ids.table(session.id, GIF))
    await env.settle()
    assert shared.ephemeral
    post = env.public()[-1]
    assert post.shown[0]["content_type"] == "image/gif"
    assert ann_name not in post.text + post.shown[0]["description"]
