"""The animated table of a match (``bot.replays.gif``): at most ``MAX_FRAMES`` pictures spread evenly
over a long match, fewer again when the file would pass the size cap, the final table always last and
held longest, every colour the table's own; Calcory, drawn as text, has no GIF and no button."""

from __future__ import annotations

import io
import itertools
import random
from datetime import UTC, datetime

import pytest
from PIL import Image

import games
from bot.registry import pictures, with_pictures
from bot.replays import gif
from bot.replays.record import MatchRecord, Move, Seat, steps
from bot.replays.share import EXPORT, GIF, archive_buttons

WHEN = datetime(2026, 11, 20, tzinfo=UTC)


def played(key: str, players: int, seed: int, most: int = 5000) -> MatchRecord:
    """A match of random legal moves, as its record."""
    game = games.REGISTRY[key]
    options = game.default_options()
    state, _ = game.begin(players, options, f"gif-{seed}")
    rng, moves = random.Random(seed), []
    while not game.is_over(state) and len(moves) < most:
        seat = rng.choice(sorted(game.to_act(state)))
        action = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, action)
        moves.append(Move(seat=seat, action=action.key, at=WHEN))
    return MatchRecord(match=1, game=key, rules_version=game.rules_version,
                       house_rules=options.model_dump(mode="json"), status="finished", seed=f"gif-{seed}",
                       started=WHEN, ended=WHEN, seats=[Seat(seat=i, name=f"P{i}") for i in range(players)],
                       moves=moves, results=[])


def table(record: MatchRecord, step: int | None = None) -> Image.Image:
    """The public table after ``step`` moves (None: the final table), as players saw it."""
    for index, position in enumerate(steps(record)):
        state = position.state          # the walk's own, moved on by the next step: stop here
        if index == step:
            break
    png = pictures(record.game).table_png(games.REGISTRY[record.game].view(state, None))
    return Image.open(io.BytesIO(png)).convert("RGB")


def final_table(record: MatchRecord) -> Image.Image:
    return table(record)


def last_frame(animation: Image.Image) -> Image.Image:
    animation.seek(animation.n_frames - 1)
    return animation.convert("RGB")


def test_a_long_match_shows_at_most_the_cap_of_frames_ending_on_the_final_table():
    record = played("mu", 4, 3)
    assert len(record.moves) + 1 > gif.MAX_FRAMES
    made = gif.animate(record)
    animation = Image.open(io.BytesIO(made.data))
    assert animation.n_frames == made.frames == gif.MAX_FRAMES and len(made.data) <= gif.MAX_BYTES
    durations = []
    for index in range(animation.n_frames):
        animation.seek(index)
        durations.append(animation.info["duration"])
    assert durations == [gif.FRAME_MS] * (gif.MAX_FRAMES - 1) + [gif.FINAL_MS]
    final = final_table(record)
    assert last_frame(animation).crop((0, 0, *final.size)).tobytes() == final.tobytes()
    animation.seek(0)
    deal = table(record, 0)
    assert animation.convert("RGB").crop((0, 0, *deal.size)).tobytes() == deal.tobytes()


def test_frames_are_chosen_evenly_from_the_deal_to_the_final_table():
    assert gif.chosen(5, 80) == [0, 1, 2, 3, 4]
    picked = gif.chosen(227, 80)
    assert len(picked) == 80 and picked[0] == 0 and picked[-1] == 226 and picked == sorted(set(picked))
    gaps = {b - a for a, b in itertools.pairwise(picked)}
    assert gaps <= {2, 3, 4}
    assert gif.chosen(227, 1) == [226]


def test_a_file_over_the_size_cap_is_drawn_again_with_fewer_frames_the_final_table_kept():
    record = played("safaru", 2, 0)
    whole = gif.animate(record)
    made = gif.animate(record, limit=len(whole.data) // 3)
    assert made is not None and len(made.data) <= len(whole.data) // 3
    assert 1 <= made.frames < whole.frames
    animation = Image.open(io.BytesIO(made.data))
    assert animation.n_frames == made.frames
    final = final_table(record)
    assert last_frame(animation).crop((0, 0, *final.size)).tobytes() == final.tobytes()
    assert gif.animate(played("safaru", 2, 0, most=3), limit=1000) is None     # not even the final table fits


@pytest.mark.parametrize("key", with_pictures())
def test_every_picture_game_has_a_gif_with_a_frame_per_position_of_a_short_match(key):
    game = games.REGISTRY[key]
    record = played(key, game.min_players, 1, most=12)
    made = gif.animate(record)
    assert made.frames == len(record.moves) + 1 and Image.open(io.BytesIO(made.data)).format == "GIF"


def test_calcory_has_no_gif_and_its_closing_message_no_button_for_one():
    record = played("calcory", 2, 16)
    assert not gif.has_gif("calcory") and gif.frames(record) == [] and gif.animate(record) is None
    assert [b["custom_id"] for b in archive_buttons(7, "en", "calcory")] == ["st:t:7:" + EXPORT]
    assert [b["label"] for b in archive_buttons(7, "de", "mu")] == ["Exportieren", "Als GIF teilen"]
    assert archive_buttons(7, "en", "mu")[1]["custom_id"] == "st:t:7:" + GIF
