"""A match as an animated GIF of its public table, to share in the channel.

The frames are the public table picture (``Pictures.table_png`` of ``game.view(state, None)``, what
everyone at the table saw) after the deal and after each move, at most ``MAX_FRAMES`` of them spread
evenly over the match (``chosen``): the deal first, the final table always last and held longest.
A file over ``MAX_BYTES`` is drawn again with fewer frames. Drawing is pure and slow (a picture per
frame), so the host runs ``animate`` off the event loop.

Calcory has no table picture: its table is text, so it has no GIF (and no button for one); the
match record tells its story instead.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

import games
from bot.pictures.result import spread
from bot.registry import pictures
from bot.replays.record import MatchRecord, steps

#: The largest GIF: well under the 10 MiB Discord takes in an interaction's answer, and quick to load.
MAX_BYTES = 8 * 1024 * 1024
#: Frames at most: a long Rummü match has hundreds of moves; 80 at ``FRAME_MS`` play for a minute.
MAX_FRAMES = 80
#: How long each move shows: long enough to see which cards moved.
FRAME_MS = 800
#: The final table stays, so the end can be read before the GIF starts again.
FINAL_MS = 5000
#: Fewer frames each time the file is too big.
SHRINK = 0.7


def has_gif(game_key: str) -> bool:
    """Whether a match of this game can be shown as a GIF (it has a table picture)."""
    return pictures(game_key) is not None


def chosen(count: int, most: int) -> list[int]:
    """Which of ``count`` pictures to show when at most ``most`` fit: the first (the deal), then the
    rest spread evenly (``bot.pictures.result.spread``), ending with the last (the final table)."""
    if count <= most:
        return list(range(count))
    if most < 2:
        return [count - 1]
    return [0, *(index + 1 for index in spread(count - 1, most - 1))]


def frames(record: MatchRecord, most: int = MAX_FRAMES) -> list[bytes]:
    """The public table after at most ``most`` positions of the match (``chosen``); none for a game
    without a table picture."""
    kit = pictures(record.game)
    if kit is None:
        return []
    wanted = set(chosen(len(record.moves) + 1, most))
    out = []
    for index, step in enumerate(steps(record)):
        if index in wanted:
            png = kit.table_png(games.REGISTRY[record.game].view(step.state, None))
            if png is not None:
                out.append(png)
    return out


def encode(pngs: list[bytes]) -> bytes:
    """The frames as one looping GIF, each on a canvas as large as the largest (tables grow and shrink
    during a match), padded in the table's own background colour; the last frame held longest.

    The picture kit draws tables as palette PNGs in a hundred colours or so, so one palette holds
    every colour of every frame and each frame's pixels are only renumbered into it: the GIF shows
    exactly the colours the table showed, and no frame is quantized (which would take seconds). Only
    pictures with more than 256 colours between them share a palette cut by median cut. The frames
    stay PNGs until each is written, so a long match never holds all of them decoded."""
    opened = [Image.open(io.BytesIO(png)) for png in pngs]
    size = (max(i.width for i in opened), max(i.height for i in opened))
    colours = _colours(pngs)
    if colours is None:
        cut = _cut([_rgb(pngs[0], size), _rgb(pngs[len(pngs) // 2], size), _rgb(pngs[-1], size)])

        def frame(png: bytes) -> Image.Image:
            return _rgb(png, size).quantize(palette=cut, dither=Image.Dither.NONE)
    else:
        number = {colour: index for index, colour in enumerate(colours)}
        flat = [value for colour in colours for value in colour]

        def frame(png: bytes) -> Image.Image:
            image = Image.open(io.BytesIO(png))
            own = image.getpalette() or []
            lut = [number.get(tuple(own[3 * i:3 * i + 3]), 0) for i in range(256)]
            renumbered = image.point(lut)
            canvas = Image.new("P", size, lut[_index(image.getpixel((0, 0)))])
            canvas.paste(renumbered, (0, 0))
            canvas.putpalette(flat)
            return canvas

    durations = [FRAME_MS] * (len(pngs) - 1) + [FINAL_MS]
    out = io.BytesIO()
    frame(pngs[0]).save(out, "GIF", save_all=True, append_images=(frame(png) for png in pngs[1:]),
                        duration=durations, loop=0)
    return out.getvalue()


def _colours(pngs: list[bytes]) -> list[tuple[int, ...]] | None:
    """Every colour the palette PNGs use, at most 256 of them; None when there are more, or a frame
    is not a palette picture."""
    found: dict[tuple[int, ...], None] = {}
    for png in pngs:
        image = Image.open(io.BytesIO(png))
        if image.mode != "P":
            return None
        own = image.getpalette() or []
        for _, index in image.getcolors(256) or ():
            start = 3 * _index(index)
            found[tuple(own[start:start + 3])] = None
        if len(found) > 256:
            return None
    return list(found)


def _index(value: object) -> int:
    """A palette picture's pixel value: its colour's index (Pillow types pixels for every mode)."""
    assert isinstance(value, int)
    return value


def _rgb(png: bytes, size: tuple[int, int]) -> Image.Image:
    """One frame in RGB on the GIF's canvas, padded in its own background colour."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if image.size == size:
        return image
    padded = Image.new("RGB", size, image.getpixel((0, 0)))
    padded.paste(image, (0, 0))
    return padded


def _cut(samples: list[Image.Image]) -> Image.Image:
    """The 256 colours median cut finds in ``samples`` (pictures with too many colours to keep all)."""
    sheet = Image.new("RGB", (samples[0].width, sum(s.height for s in samples)))
    for index, sample in enumerate(samples):
        sheet.paste(sample, (0, index * samples[0].height))
    return sheet.quantize(colors=256, method=Image.Quantize.MEDIANCUT)


@dataclass(frozen=True, slots=True)
class Animation:
    """A GIF and how many pictures it shows."""

    data: bytes
    frames: int


def animate(record: MatchRecord, *, limit: int = MAX_BYTES, most: int = MAX_FRAMES) -> Animation | None:
    """The GIF of the match within ``limit`` bytes: fewer frames (again spread evenly, the final table
    kept) until it fits. None for a game without a table picture, or a single table over the limit."""
    pngs = frames(record, most)
    while pngs:
        data = encode(pngs)
        if len(data) <= limit:
            return Animation(data, len(pngs))
        if len(pngs) == 1:
            return None
        pngs = [pngs[i] for i in chosen(len(pngs), max(1, int(len(pngs) * SHRINK)))]
    return None
