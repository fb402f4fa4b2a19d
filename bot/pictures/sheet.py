"""A picture put together from sprites: rows of pieces, wrapped at the picture's width, then one PNG.

Layouts say what goes in which row; the sheet places, wraps and encodes. Nothing is drawn here
but pasted, so a table picture costs a few milliseconds once its sprites are cached. A table's
picture is encoded in bands (``Plan``): between two moves most of the table stays as it was, and
only the bands that changed are pasted and compressed again.
"""

from __future__ import annotations

import bisect
import itertools
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from PIL import Image
from zlib_ng import zlib_ng

from bot.pictures.sprites import PALETTE

WIDTH = 640  # the widest picture: digits stay 24 px high on a 360 px wide phone screen
MARGIN = 14
GAP = 8  # between pieces of a row
ROW_GAP = 14
LIFT = 16  # how far a playable card stands out above the others
#: The tallest table: a phone shows it whole at 640 px wide (the Hand button stays in sight).
TALLEST = 900


@dataclass
class Piece:
    """One sprite, or several stacked in a column (a card over its count), placed as one."""

    images: tuple[Image.Image, ...]
    dy: tuple[int, ...] = ()  # per image, its vertical offset (cascades, lifted cards)
    gap_after: int = GAP
    dx: tuple[int, ...] = ()  # per image, its horizontal offset (a group kept on one line)
    lead: bool = False  # a row's seat badge: the row's wrapped lines start right of it

    #: Its size and each image's offset from its top, computed once: a sheet asks for them several
    #: times while it wraps and places.
    width: int = field(init=False, repr=False)
    height: int = field(init=False, repr=False)
    offsets: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        sizes = [image.size for image in self.images]
        if self.dy:
            self.offsets = self.dy
        else:
            out, y = [], 0
            for _, h in sizes:
                out.append(y)
                y += h + 4
            self.offsets = tuple(out)
        if self.dx:
            self.width = max(x + w for x, (w, _) in zip(self.dx, sizes, strict=True))
        else:
            self.width = max(w for w, _ in sizes)
        self.height = max(dy + h for dy, (_, h) in zip(self.offsets, sizes, strict=True))


def strip(images: list[Image.Image], gap: int = GAP, gap_after: int = GAP) -> Piece:
    """Images side by side that wrap as one (a Rummü display never breaks over two lines)."""
    xs, x = [], 0
    for image in images:
        xs.append(x)
        x += image.width + gap
    return Piece(tuple(images), (0,) * len(images), gap_after, tuple(xs))


def piece(*images: Image.Image, gap_after: int = GAP) -> Piece:
    """Images stacked top to bottom, centred in their column."""
    return Piece(tuple(images), gap_after=gap_after)


def cascade(images: list[Image.Image], step: int) -> Piece:
    """Cards overlapping downwards, each showing its top ``step`` pixels, the last one whole."""
    return Piece(tuple(images), tuple(i * step for i in range(len(images))))


def lifted(image: Image.Image, up: bool) -> Piece:
    """A hand card, standing ``LIFT`` pixels higher when it is playable."""
    return Piece((image,), (0 if up else LIFT,))


@dataclass
class Sheet:
    """Rows of pieces, wrapped at the width; a row led by a ``lead`` piece indents its wrapped lines."""

    width: int = WIDTH
    rows: list[tuple[list[Piece], int, bool]] = field(default_factory=list)  # pieces, gap above, centred
    #: The layout once made: a table that must fit a screen asks for its height, then is drawn.
    _laid: tuple[list[tuple[Image.Image, int, int]], int] | None = field(default=None, init=False, repr=False,
                                                                         compare=False)

    def row(self, pieces: list[Piece], *, gap: int = ROW_GAP, centre: bool = False) -> None:
        if pieces:
            self.rows.append((pieces, gap, centre))
            self._laid = None

    def place(self, items: list[tuple[Image.Image, int, int]], *, gap: int = ROW_GAP) -> None:
        """A row laid out by the caller: (sprite, x, y within the row) each."""
        if items:
            images = tuple(image for image, _, _ in items)
            whole = Piece(images, tuple(y for _, _, y in items), 0, tuple(x - MARGIN for _, x, _ in items))
            self.rows.append(([whole], gap, False))
            self._laid = None

    @staticmethod
    def _indent(pieces: list[Piece]) -> int:
        return MARGIN + pieces[0].width + pieces[0].gap_after if pieces[0].lead else MARGIN

    def _lines(self, pieces: list[Piece]) -> list[list[Piece]]:
        lines: list[list[Piece]] = [[]]
        x = MARGIN
        for p in pieces:
            if lines[-1] and x + p.width > self.width - MARGIN:
                lines.append([])
                x = self._indent(pieces)
            lines[-1].append(p)
            x += p.width + p.gap_after
        return lines

    def _layout(self) -> tuple[list[tuple[Image.Image, int, int]], int]:
        """Where every sprite goes, in pasting order: (sprite, x, y on the picture) each; and the
        picture's height."""
        if self._laid is None:
            self._laid = self._lay_out()
        return self._laid

    def _lay_out(self) -> tuple[list[tuple[Image.Image, int, int]], int]:
        placed: list[tuple[Image.Image, int, int]] = []
        y = MARGIN
        first = True
        for pieces, gap, centre in self.rows:
            if not first:
                y += gap
            first = False
            for n, line in enumerate(self._lines(pieces)):
                used = sum(p.width + p.gap_after for p in line) - line[-1].gap_after
                x = (self.width - used) // 2 if centre else MARGIN if n == 0 else self._indent(pieces)
                height = max(p.height for p in line)
                for p in line:
                    for i, (image, dy) in enumerate(zip(p.images, p.offsets, strict=True)):
                        left = x + p.dx[i] if p.dx else x + (p.width - image.width) // 2
                        placed.append((image, left, y + dy))
                    x += p.width + p.gap_after
                y += height + GAP
        return placed, y - GAP + MARGIN

    def height(self) -> int:
        """The picture's height once laid out (a layout that must fit a screen tries a smaller one)."""
        return self._layout()[1]

    def render(self, pad: int = 0) -> Image.Image:
        """The picture; ``pad`` blank columns (the table colour) on its left, see ``png``."""
        placed, height = self._layout()
        canvas = _canvas(self.width + pad, height)
        _paste(canvas, placed, pad, 0)
        return canvas

    def png(self) -> bytes:
        """The picture as a PNG in one piece (a hand: it changes as a whole, see ``Plan`` for a table).
        Every row gets PNG's filter byte 0 ("none"): the picture is drawn one pixel to the right."""
        rows = self.render(pad=1)
        rows.paste(0, (0, 0, 1, rows.height))  # a piece wider than the sheet is cut off there
        return _png(self.width, rows.height, zlib_ng.compress(rows.tobytes(), LEVEL))


def fitting(layouts: Sequence[Callable[[], Sheet]], hint: Hashable) -> Sheet:
    """The first of a table's layouts, most generous first, that is at most ``TALLEST`` pixels tall;
    the last when none is.

    Every layout after one that fits fits too (each is more compact than the one before), so the
    search may start at the layout that fit the same kind of table (``hint``: the game and its number
    of seats) last time and step from there: it finds what trying them in order finds, usually after
    laying out two instead of up to five (a table changes little between two moves)."""
    made: dict[int, Sheet] = {}

    def fits(i: int) -> bool:
        if i not in made:
            made[i] = layouts[i]()
        return made[i].height() <= TALLEST

    i = min(_fitted.get(hint, 0), len(layouts) - 1)
    if fits(i):
        while i > 0 and fits(i - 1):
            i -= 1
    else:
        while i < len(layouts) - 1 and not fits(i):
            i += 1
    _fitted[hint] = i
    return made[i] if i in made else layouts[i]()


#: Per kind of table (``fitting``'s hint), the layout that fit it last.
_fitted: dict[Hashable, int] = {}


Span = tuple[Image.Image, int, int, int]  # a sprite, its x (right of the filter-byte column), top, bottom

#: The lowest band (but the last): a cut closer than this to the one above it is left out, as each
#: band costs its own deflate block.
BAND = 24
#: The highest band: a taller one is cut every so many rows. Its rows then stay under 128 KB, which
#: the C library hands out from its heap; larger blocks come fresh from the kernel, page by page, and
#: copying rows into them costs several times as much.
TALL = 150


class Band(NamedTuple):
    """Some full-width rows of a picture, cut where a sprite starts or ends.

    Its pixels depend on nothing but the sprites reaching into it, where they lie (clipped at its
    edges), its width and height; sprites are cached and never changed, so those (a sprite by its
    identity) are the ``key`` its compressed rows are cached under. (A named tuple: a table picture
    has a few dozen bands, made anew for every picture.)"""

    top: int  # on the picture
    height: int
    key: tuple  # width, height, (id, x, y in the band) of each sprite in pasting order
    spans: tuple[Span, ...]  # its sprites, held while it is cached so no id in its key is reused


class Segment(NamedTuple):
    """A band's rows compressed on their own: raw deflate ended by an empty stored block (a flush), so
    segments put one after another are one deflate stream; with their adler-32 and length for the
    stream's checksum."""

    data: bytes
    adler: int
    length: int


#: Compression level of zlib-ng: smaller files than zlib's level 1 at under half its CPU.
LEVEL = 2
#: Compressed bands kept: the last pictures of some fifty tables, about 3.5 MB when full.
SEGMENTS = 1024
_segments: OrderedDict[tuple, tuple[Segment, Band]] = OrderedDict()
_lock = threading.Lock()  # the table writer's painter and the event loop both draw pictures


def deflate(rows: list[bytes]) -> list[Segment]:
    """Each band's rows as a segment; touches no shared state and zlib-ng runs without the GIL, so a
    worker thread may do it. Every band gets a compressor of its own, so its bytes depend on its rows
    alone (and a sync flush ends it: nothing follows in that compressor that a full one would keep
    from looking back). The checksums go first, in a pass of their own: measurably cheaper than
    taking each between two compressions."""
    adlers = [zlib_ng.adler32(data) for data in rows]
    out = []
    for data, adler in zip(rows, adlers, strict=True):
        packer = zlib_ng.compressobj(LEVEL, zlib_ng.DEFLATED, -15)
        out.append(Segment(packer.compress(data) + packer.flush(zlib_ng.Z_SYNC_FLUSH), adler, len(data)))
    return out


@dataclass
class Plan:
    """A picture as PNG rows cut in bands: segments the cache has, and the rows of the bands still
    to compress, drawn from the sprites reaching into them alone.

    ``of`` and ``finish`` read and fill the cache under its lock; ``deflate(plan.rows)`` between them
    runs without it, so another thread may draw meanwhile.
    The PNG's bytes depend only on the bands' contents, never on which came from the cache: equal
    pictures are byte-equal PNGs (the host hashes them to skip uploads)."""

    width: int
    height: int
    bands: list[Band]
    found: list[Segment | int]  # per band, its segment from the cache, or where in ``todo`` it is
    todo: list[Band]
    rows: list[bytes]  # of the bands in ``todo``

    @classmethod
    def of(cls, sheet: Sheet) -> Plan:
        placed, height = sheet._layout()
        width = sheet.width + 1
        spans = [(image, x + 1, y, y + image.size[1]) for image, x, y in placed]
        spans = [span for span in spans if span[3] > 0 and span[2] < height]  # the rest is off the picture
        bands = _bands(spans, width, height)
        found: list[Segment | int] = []
        todo: list[Band] = []
        waiting: dict[tuple, int] = {}  # a band that recurs is compressed once
        with _lock:
            for band in bands:
                hit = _segments.get(band.key)
                if hit is not None:
                    _segments.move_to_end(band.key)
                    found.append(hit[0])
                else:
                    found.append(waiting.setdefault(band.key, len(todo)))
                    if found[-1] == len(todo):
                        todo.append(band)
        return cls(sheet.width, height, bands, found, todo, _rows(todo, spans, width))

    def finish(self, made: list[Segment]) -> bytes:
        """The PNG, with ``made`` (``deflate(self.rows)``) kept for the pictures that follow."""
        with _lock:
            for band, segment in zip(self.todo, made, strict=True):
                _segments[band.key] = (segment, band)
                if len(_segments) > SEGMENTS:
                    _segments.popitem(last=False)
        segments = [made[s] if isinstance(s, int) else s for s in self.found]
        adler = 1
        for segment in segments:
            adler = _adler32_combine(adler, segment.adler, segment.length)
        data = b"".join((_ZLIB_HEADER, *(s.data for s in segments), _LAST_BLOCK, struct.pack(">I", adler)))
        return _png(self.width, self.height, data)

    def png(self) -> bytes:
        """The PNG, compressed here and now."""
        return self.finish(deflate(self.rows))


def _bands(spans: list[Span], width: int, height: int) -> list[Band]:
    """The picture cut at sprites' tops and bottoms (``BAND`` to ``TALL`` rows apart); a sprite is in
    every band it reaches into."""
    cuts = [0]
    for edge in [*sorted({y for span in spans for y in span[2:] if y < height}), height]:
        while edge - cuts[-1] > TALL:
            cuts.append(cuts[-1] + TALL)
        if edge - cuts[-1] >= BAND or edge == height:
            cuts.append(edge)
    if len(cuts) > 2 and cuts[-1] - cuts[-2] < BAND and cuts[-1] - cuts[-3] <= TALL:
        del cuts[-2]  # the last band's few rows go with the one above
    groups: list[list[Span]] = [[] for _ in cuts[1:]]
    for span in spans:
        for n in range(max(0, bisect.bisect_right(cuts, span[2]) - 1), bisect.bisect_left(cuts, span[3])):
            groups[n].append(span)
    return [Band(top, end - top, (width, end - top, tuple([(id(image), x, y - top) for image, x, y, _ in group])),
                 tuple(group))
            for (top, end), group in zip(itertools.pairwise(cuts), groups, strict=True)]


def _rows(bands: list[Band], spans: list[Span], width: int) -> list[bytes]:
    """The PNG rows of ``bands`` (in picture order): each run of adjacent ones drawn on one canvas,
    with the sprites reaching into it, and cut apart again."""
    runs: list[list[Band]] = []
    for band in bands:
        if runs and runs[-1][-1].top + runs[-1][-1].height == band.top:
            runs[-1].append(band)
        else:
            runs.append([band])
    out: list[bytes] = []
    for run in runs:
        top, bottom = run[0].top, run[-1].top + run[-1].height
        canvas = _canvas(width, bottom - top)
        _paste(canvas, ((image, x, y) for image, x, y, end in spans if y < bottom and end > top), 0, top)
        canvas.paste(0, (0, 0, 1, canvas.height))  # PNG's filter byte 0 ("none") on every row
        if bottom - top <= TALL:
            data = canvas.tobytes()
            out += [data[(band.top - top) * width:(band.top - top + band.height) * width] for band in run]
        else:  # band by band, so each stays small (see ``TALL``)
            out += [canvas.crop((0, band.top - top, width, band.top - top + band.height)).tobytes() for band in run]
    return out


def _entries(palette: Image.Image) -> list[int]:
    """A "P" image's palette as flat r, g, b values (Pillow types it optional: images of other
    modes have none)."""
    entries = palette.getpalette("RGB")
    if entries is None:
        raise ValueError("the shared palette image has no palette")
    return entries


_PALETTE = _entries(PALETTE)
_PLTE = bytes(_PALETTE)
_ZLIB_HEADER = zlib_ng.compress(b"", LEVEL)[:2]
_LAST_BLOCK = b"\x03\x00"  # an empty final block (fixed codes): the deflate stream ends here
_ADLER_BASE = 65521


def _adler32_combine(first: int, second: int, length: int) -> int:
    """The adler-32 of two byte strings one after the other, from their own (``second`` ``length``
    bytes long): zlib's adler32_combine, which neither zlib module offers."""
    rem = length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return low | (high << 16)


def forget() -> None:
    """Drop every compressed band (tests and the benchmark start cold with it)."""
    with _lock:
        _segments.clear()


def _canvas(width: int, height: int) -> Image.Image:
    canvas = Image.new("P", (width, height), 0)
    canvas.putpalette(_PALETTE)
    return canvas


def _paste(canvas: Image.Image, placed: Iterable[tuple[Image.Image, int, int]], pad: int, top: int) -> None:
    paste = canvas.im.paste
    for image, x, y in placed:
        if image.mode == "P":
            # What ``canvas.paste`` does for a sprite of the canvas's mode, without its checks and
            # loads (a fresh canvas, sprites made in memory): most of a picture's pasting time.
            left, upper = x + pad, y - top
            paste(image.im, (left, upper, left + image.width, upper + image.height))
        else:
            canvas.paste(image, (x + pad, y - top))


def _png(width: int, height: int, data: bytes) -> bytes:
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)   # 8 bits, palette, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", _PLTE),
                     _chunk(b"IDAT", data), _chunk(b"IEND", b"")))


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib_ng.crc32(kind + data))
