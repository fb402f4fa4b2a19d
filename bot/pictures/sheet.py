"""A picture put together from sprites: rows of pieces, wrapped at the picture's width, then one PNG.

Layouts say what goes in which row; the sheet places, wraps and encodes. Nothing is drawn here
but pasted, so a table picture costs a few milliseconds once its sprites are cached.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field

from PIL import Image
from zlib_ng import zlib_ng

from bot.pictures.sprites import PALETTE

WIDTH = 640  # the widest picture: digits stay 24 px high on a 360 px wide phone screen
MARGIN = 14
GAP = 8  # between pieces of a row
ROW_GAP = 14
LIFT = 16  # how far a playable card stands out above the others


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

    def row(self, pieces: list[Piece], *, gap: int = ROW_GAP, centre: bool = False) -> None:
        if pieces:
            self.rows.append((pieces, gap, centre))

    def place(self, items: list[tuple[Image.Image, int, int]], *, gap: int = ROW_GAP) -> None:
        """A row laid out by the caller: (sprite, x, y within the row) each."""
        if items:
            images = tuple(image for image, _, _ in items)
            whole = Piece(images, tuple(y for _, _, y in items), 0, tuple(x - MARGIN for _, x, _ in items))
            self.rows.append(([whole], gap, False))

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

    def render(self, pad: int = 0) -> Image.Image:
        """The picture; ``pad`` blank columns (the table colour) on its left, see ``png``."""
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
        canvas = Image.new("P", (self.width + pad, y - GAP + MARGIN), 0)
        canvas.putpalette(_PALETTE)
        paste = canvas.im.paste
        for image, x, top in placed:
            if image.mode == "P":
                # What ``canvas.paste`` does for a sprite of the canvas's mode, without its checks and
                # loads (a fresh canvas, sprites made in memory): most of a picture's pasting time.
                paste(image.im, (x + pad, top, x + pad + image.width, top + image.height))
            else:
                canvas.paste(image, (x + pad, top))
        return canvas

    def png_ready(self) -> Image.Image:
        """The picture drawn one pixel to the right, so its rows come with PNG's filter byte: what
        ``png_rows`` encodes (``png`` without the copy; a piece wider than the sheet is cut off at
        the blank column)."""
        rows = self.render(pad=1)
        rows.paste(0, (0, 0, 1, rows.height))
        return rows

    def png(self) -> bytes:
        return png_rows(self.png_ready())


_PALETTE = PALETTE.getpalette()


def png(image: Image.Image) -> bytes:
    """The palette picture as an 8-bit PNG: signature, header, palette, one compressed data chunk.

    Written here rather than by Pillow so the data goes through zlib-ng at level 2: smaller files than
    zlib's level 1 at under half its CPU (a table picture is drawn after every move). Every row gets
    PNG's filter byte 0 ("none"): the picture is pasted one pixel to the right on a blank canvas, so
    its bytes come out with a 0 before each row."""
    rows = Image.new("P", (image.width + 1, image.height), 0)
    rows.putpalette(image.getpalette("RGB"))
    rows.paste(image, (1, 0))
    return png_rows(rows)


def png_rows(rows: Image.Image) -> bytes:
    """``rows`` (a palette picture whose first column is blank) as a PNG of the picture right of it.
    Most of the time goes to zlib-ng, which runs without holding the GIL: so a thread may do it."""
    width, height = rows.width - 1, rows.height
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)   # 8 bits, palette, no interlace
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", bytes(rows.getpalette("RGB"))),
                     _chunk(b"IDAT", zlib_ng.compress(rows.tobytes(), 2)), _chunk(b"IEND", b"")))


_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
