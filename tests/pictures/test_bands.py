"""Table pictures encoded in bands: only what changed is drawn and compressed again, and what players
see, and the bytes the host hashes, stay what drawing the whole picture gives."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from zlib_ng import zlib_ng

import games
from bot.pictures import faces, sheet, sprites
from bot.pictures.sheet import Sheet, piece
from bot.registry import pictures, with_pictures

MOVES = 24


def _decoded(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _whole(drawn: Sheet) -> Image.Image:
    """The picture as before bands: drawn whole, then written by Pillow's own PNG encoder."""
    out = io.BytesIO()
    drawn.render().save(out, "PNG")
    return _decoded(out.getvalue())


def _walk(key: str, seed: str, moves: int = MOVES):
    """The public view after each of ``moves`` seeded random legal moves (a table as it is played)."""
    game = games.REGISTRY[key]
    players = min(4, game.max_players)
    rng = random.Random(seed)
    state = game.setup(players, game.default_options(), seed)
    for _ in range(moves):
        yield game.view(state, None)
        if game.is_over(state):
            return
        seat = rng.choice(sorted(game.to_act(state)))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


@pytest.mark.parametrize("key", sorted(with_pictures()))
def test_a_table_drawn_in_bands_shows_every_pixel_and_colour_of_the_whole_picture(key: str) -> None:
    sheet.forget()
    reused = 0
    for view in _walk(key, f"bands-{key}"):
        plan = pictures(key).table_plan(view)
        reused += len(plan.bands) - len(plan.todo)
        new, old = _decoded(plan.png()), _whole(pictures(key).table(view))
        assert new.format == "PNG" and new.mode == old.mode == "P" and new.size == old.size
        assert new.getpalette() == old.getpalette()
        assert new.tobytes() == old.tobytes()
    assert reused, "consecutive tables share bands, which come from the cache"


@pytest.mark.parametrize("key", sorted(with_pictures()))
def test_equal_views_give_byte_equal_pngs_whatever_the_band_cache_holds(key: str) -> None:
    """The host hashes a picture's bytes to skip uploads: cached bands must never change them."""
    sheet.forget()
    warm = [pictures(key).table_png(view) for view in _walk(key, f"equal-{key}")]
    for view, expected in zip(_walk(key, f"equal-{key}"), warm, strict=True):
        sheet.forget()
        assert pictures(key).table_png(view) == expected


def _rows_of(cards: list[str]) -> Sheet:
    drawn = Sheet()
    for cid in cards:
        drawn.row([piece(sprites.card(faces.mu(cid)))])
    return drawn


def test_only_the_rows_that_changed_are_drawn_and_compressed_again() -> None:
    sheet.forget()
    first = sheet.Plan.of(_rows_of(["r7a", "g3", "b5"]))
    first.png()
    again = sheet.Plan.of(_rows_of(["r7a", "g3", "b5"]))
    assert again.todo == [] and again.rows == []   # nothing to draw or compress
    changed = sheet.Plan.of(_rows_of(["r7a", "y9", "b5"]))
    new_card = sprites.card(faces.mu("y9"))
    middle = [band.key for band in changed.bands if any(image is new_card for image, *_ in band.spans)]
    assert middle and [band.key for band in changed.todo] == middle
    assert _decoded(changed.png()).tobytes() == _rows_of(["r7a", "y9", "b5"]).render().tobytes()


def test_the_band_cache_stays_bounded(monkeypatch) -> None:
    monkeypatch.setattr(sheet, "SEGMENTS", 4)
    sheet.forget()
    for view in _walk("diabolo", "bounded", 6):
        assert _decoded(pictures("diabolo").table_png(view)).tobytes() == pictures("diabolo").table(view).render().tobytes()
        assert len(sheet._segments) <= 4


def test_adler32_combine_gives_the_checksum_of_the_bytes_one_after_the_other() -> None:
    rng = random.Random("adler")
    for first_len, second_len in [(0, 0), (0, 5), (5, 0), (1, 65521), (65521, 65522), (200_000, 131_071)]:
        first, second = rng.randbytes(first_len), rng.randbytes(second_len)
        combined = sheet._adler32_combine(zlib_ng.adler32(first), zlib_ng.adler32(second), second_len)
        assert combined == zlib_ng.adler32(first + second)
    ones = b"\xff" * 300_000  # sums near the modulus on both halves
    assert sheet._adler32_combine(zlib_ng.adler32(ones), zlib_ng.adler32(ones), len(ones)) == zlib_ng.adler32(ones * 2)


def test_bands_with_the_same_sprites_lying_higher_or_lower_are_not_mixed_up() -> None:
    """Two pictures cut at the same rows, with the same sprites at the same columns: only how high
    each lies differs, and each picture shows its own."""
    sheet.forget()
    red, blue = sprites.card(faces.mu("r7a")), sprites.card(faces.mu("b5"))
    for red_y, blue_y in ((0, 20), (20, 0)):
        drawn = Sheet()
        drawn.place([(red, 14, red_y), (blue, 200, blue_y)])
        assert _decoded(sheet.Plan.of(drawn).png()).tobytes() == drawn.render().tobytes()
