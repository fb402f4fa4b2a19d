"""Card faces, numbers and seat badges, each drawn once and cached as a small palette image.

Everything is drawn three times too large and scaled down by averaging each 3×3 block (smooth edges
without per-pixel work at render time; a box filter is what supersampling needs, at a sixth of
Lanczos's CPU for a card), then mapped onto one fixed palette (``PALETTE``) so a table picture is only pasted
sprites and its PNG stays 8-bit. Text uses Pillow's bundled scalable font, never a system font,
so every machine draws the same picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.pictures.palette import INKS, JOKER, PAPER, RGB, contrast, mix

SS = 3  # supersampling factor
#: Font size of every number in a picture: its digits are 45 px high, so 25 px once a 640 px wide
#: picture is shown 360 px wide (the phone-width rule is 24 px).
TEXT_SIZE = 62
#: Font size of a count chip's and a pile label's digits and letters: 27 px high, 60 % of a value's.
SMALL_SIZE = 30
CARD = (80, 112)  # full card, width × height
#: A card on a crowded table (build-pile and Kapado tables): the number on top and the symbol under
#: it, without the room a full card leaves at its foot, so seven seats fit a phone's screen.
LOW_CARD = (80, 88)
#: A card where a table runs out of height: narrower, so three of them stand beside a seat's badge in
#: half the picture's width (``layouts.two_columns``), still with its number, symbol and triangles.
NARROW_CARD = (56, 104)
MINI_ROW = (46, 66)  # a Diabolo row card: the row shows its colour and symbol once
OUT_CARD = (54, 76)  # a Mü colour out of the hand, beside the trumps' hexagons
BADGE = 64
#: Diabolo's devil and angel heads: 48 px wide faces, 27 px on a phone.
HEAD = 92

BG: RGB = (0xE9, 0xE5, 0xDC)  # the table
DARK: RGB = (0x22, 0x22, 0x22)  # outlines and text
WHITE: RGB = (0xFF, 0xFF, 0xFF)
SLOT: RGB = (0xB4, 0xAE, 0xA2)  # an empty place
BACK: RGB = (0x3A, 0x4A, 0x6B)  # card backs
BACK_LINE: RGB = (0x55, 0x68, 0x8E)
#: How far a card that may not be played now fades into the table: its colour only, its number and
#: symbol keep a contrast of at least ``DIM_CONTRAST`` on it (see ``dimmed``).
DIM = 0.5
DIM_INK = 0.15  # how far its writing fades, while that keeps the contrast
DIM_CONTRAST = 3.2


def dimmed(face: Face) -> Face:
    """A card that may not be played now: its colour half faded into the table, so it still reads as
    its own colour (a faded black stays the darkest card, not a grey sixth suit), and its writing
    faded a little, or turned dark or white where a faded ink would not stand out (≥ 3:1)."""
    fill = mix(face.fill, BG, DIM)
    ink = mix(face.ink, BG, DIM_INK)
    if contrast(ink, fill) < DIM_CONTRAST:
        ink = DARK if contrast(fill, DARK) > contrast(fill, WHITE) else WHITE
    return replace(face, fill=fill, ink=ink)


def _base_colours() -> list[RGB]:
    out = [BG, DARK, WHITE, SLOT, BACK, BACK_LINE, PAPER, JOKER.rgb]
    out += [ink.rgb for ink in INKS.values()]
    return list(dict.fromkeys(out))


def _palette() -> Image.Image:
    """Every base colour, its blends with the table, white and dark (anti-aliased edges), and its
    faded version with the blends of its writing: about 240 entries, one palette for every picture."""
    colours = _base_colours()
    entries = list(colours)
    for c in colours:
        for other in (BG, WHITE, DARK):
            entries += [mix(c, other, s) for s in (0.25, 0.5, 0.75)]
    for c in colours:
        faded = mix(c, BG, DIM)
        entries.append(faded)
        for other in (WHITE, DARK, mix(WHITE, BG, DIM_INK), mix(DARK, BG, DIM_INK)):
            entries.append(mix(faded, other, 0.5))
    entries = list(dict.fromkeys(entries))
    assert len(entries) <= 256, len(entries)
    image = Image.new("P", (1, 1))
    flat = [v for rgb in entries for v in rgb]
    image.putpalette(flat + [0] * (768 - len(flat)))
    return image


PALETTE = _palette()


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB sprite on the shared palette (nearest colour, no dithering)."""
    return image.convert("RGB").quantize(palette=PALETTE, dither=Image.Dither.NONE)


def shrink(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A supersampled drawing at its shown ``size``: each SS×SS block averaged (a box filter)."""
    if image.size == (size[0] * SS, size[1] * SS):
        return image.reduce(SS)
    return image.resize(size, Image.Resampling.BOX)


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font; without FreeType Pillow would give a tiny bitmap font instead."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        raise RuntimeError("Pillow was built without FreeType: the pictures need its bundled scalable font")
    return loaded


def _baseline_box(f: ImageFont.FreeTypeFont, s: str) -> tuple[int, int, int, int]:
    """The box of ``s`` around its baseline start (anchor ``ls``), in whole pixels as FreeType
    measures it (Pillow's types allow floats, and a new image's size must be ints)."""
    left, top, right, bottom = f.getbbox(s, anchor="ls")
    return int(left), int(top), int(right), int(bottom)


# -- shapes ---------------------------------------------------------------------------------------
def _circle(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def shape(d: ImageDraw.ImageDraw, name: str, cx: float, cy: float, r: float, fill: RGB, hole: RGB) -> None:
    """One symbol centred at (cx, cy) within radius r; ``hole`` is the card colour behind it."""
    if name == "circle":
        _circle(d, cx, cy, r * 0.82, fill)
    elif name == "diamond":
        d.polygon([(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)], fill=fill)
    elif name == "heart":
        h = r * 0.5
        _circle(d, cx - h, cy - r * 0.3, h * 1.02, fill)
        _circle(d, cx + h, cy - r * 0.3, h * 1.02, fill)
        d.polygon([(cx - r * 0.97, cy - r * 0.15), (cx + r * 0.97, cy - r * 0.15), (cx, cy + r * 0.95)], fill=fill)
    elif name == "spade":
        h = r * 0.45
        _circle(d, cx - h, cy + r * 0.12, h * 1.02, fill)
        _circle(d, cx + h, cy + r * 0.12, h * 1.02, fill)
        d.polygon([(cx - r * 0.9, cy + r * 0.02), (cx + r * 0.9, cy + r * 0.02), (cx, cy - r * 0.95)], fill=fill)
        d.polygon([(cx, cy + r * 0.2), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], fill=fill)
    elif name in ("shamrock", "club"):
        h = r * 0.4
        for ax, ay in ((0, -0.5), (-0.48, 0.12), (0.48, 0.12)):
            _circle(d, cx + ax * r, cy + ay * r, h, fill)
        _circle(d, cx, cy - r * 0.05, h * 0.7, fill)
        d.polygon([(cx, cy), (cx - r * 0.3, cy + r), (cx + r * 0.3, cy + r)], fill=fill)
    elif name == "star":
        points = []
        for i in range(10):
            radius = r if i % 2 == 0 else r * 0.45
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((cx + radius * math.cos(angle), cy + r * 0.08 + radius * math.sin(angle)))
        d.polygon(points, fill=fill)
    elif name == "flower":
        for i in range(5):
            angle = -math.pi / 2 + i * 2 * math.pi / 5
            _circle(d, cx + r * 0.52 * math.cos(angle), cy + r * 0.52 * math.sin(angle), r * 0.42, fill)
        _circle(d, cx, cy, r * 0.26, hole)
    else:
        raise ValueError(f"no such symbol: {name}")


# -- card faces -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Face:
    """What one card shows. ``label`` is its number or letter (may be empty), ``mark`` its symbol."""

    label: str
    fill: RGB
    ink: RGB  # text and symbol colour
    mark: str | None = None
    triangles: int = 0  # Mü's scoring triangles
    slash: bool = False  # a ban card: the number crossed out
    back: bool = False  # face down: the label is a count drawn on the back
    pips: int = 0  # a plain number card (Da Capo!): its value as dots under the number
    trump: bool = False  # Mü: a trump, marked by a small hexagon


#: The room a card leaves its number on each side, so two digits never touch the card's edges.
LABEL_INSET = 9


def _label(img: Image.Image, s: str, fill: RGB, centre_x: float, y: float, anchor: str) -> None:
    """A number on a card at full height, condensed sideways when it is wider than the card allows
    (two-digit numbers): narrower digits keep it readable where a smaller size would not."""
    mask = _label_mask(s, img.width - 2 * LABEL_INSET * SS)
    if mask is None:
        return
    x = round(centre_x - mask.width / 2)
    top_y = round(y if anchor == "top" else y - mask.height / 2)
    img.paste(fill, (x, top_y, x + mask.width, top_y + mask.height), mask)


@cache
def _label_mask(s: str, room: int) -> Image.Image | None:
    """The ink of ``s`` at the text size, at most ``room`` wide: drawn once per number, whatever its colour."""
    f = font(TEXT_SIZE * SS)
    left, top, right, bottom = _baseline_box(f, s)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor="ls")
    ink = mask.getbbox()
    if ink is None:
        return None
    mask = mask.crop(ink)
    if mask.width > room:
        mask = mask.resize((room, mask.height), Image.Resampling.LANCZOS)
    return mask


@cache
def _blank(fill: RGB, size: tuple[int, int], back: bool) -> Image.Image:
    """A card's outline filled with its colour (a back's with its stripes), supersampled: the cards
    of one colour start from one drawing."""
    w, h = size[0] * SS, size[1] * SS
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    radius, line = 9 * SS, 3 * SS
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius, fill=fill, outline=DARK, width=line)
    if back:
        for x in range(-h, w, 14 * SS):
            d.line((x, h - line, x + h, line), fill=BACK_LINE, width=3 * SS)
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius, outline=DARK, width=line)
    return img


#: A symbol's radius under a number: 34 px tall, 19 px on a phone (the rule is 14 px).
SYMBOL_R = 17
#: Mü's scoring triangles: 16 px tall, 9 px on a phone (the rule is 8 px).
TRIANGLE = (18, 16)


def _symbol_place(face: Face, w: int, h: int, foot: int = 0) -> tuple[float, float]:
    """Where a card's symbol goes (centre y, radius): under the number, above the triangles and the
    ``foot`` a count chip covers."""
    full = h > 80 * SS
    if not face.label:
        return (30 * SS, 24 * SS) if full and face.pips else (h / 2, w * 0.36)
    if not full:
        return h / 2, 15 * SS
    top, bottom = 55 * SS, h - foot - (TRIANGLE[1] + 12 if face.triangles else 3 if foot else 7) * SS
    return (top + bottom) / 2, min(SYMBOL_R * SS, (bottom - top) / 2)


def _pips(d: ImageDraw.ImageDraw, n: int, w: int, h: int, ink: RGB) -> None:
    """A number card's value as dots under its number, five to a row, as on a domino."""
    rows = [min(5, n), n - 5] if n > 5 else [n]
    top, bottom = 58 * SS, h - 8 * SS
    r = min(5 * SS, (bottom - top) / (2 * len(rows)) - SS)
    if r < 2 * SS:  # a count chip leaves no room: specks would read as dirt, and the number says it all
        return
    for i, count in enumerate(rows):
        cy = top + (bottom - top) * (2 * i + 1) / (2 * len(rows))
        for j in range(count):
            _circle(d, w / 2 + (j - (count - 1) / 2) * 13 * SS, cy, r, ink)


def _trump_mark(d: ImageDraw.ImageDraw, w: int) -> None:
    """Mü: a trump card carries the trumps' hexagon, white in a dark outline, in its top right corner."""
    cx, cy, r = w - 12 * SS, 13 * SS, 10 * SS
    corners = [(cx + r * math.cos(math.pi / 6 + i * math.pi / 3), cy + r * math.sin(math.pi / 6 + i * math.pi / 3))
               for i in range(6)]
    d.polygon(corners, fill=WHITE, outline=DARK, width=3 * SS)


def _card_rgb(face: Face, size: tuple[int, int], foot: int = 0) -> Image.Image:
    """The card drawn supersampled; ``foot`` pixels at its bottom are kept free (a count chip covers them)."""
    w, h = size[0] * SS, size[1] * SS
    if face.back:
        img = _blank(BACK, size, True).copy()
        if face.label:
            label = _chip_rgb(face.label)
            img.paste(label, ((w - label.width) // 2, (h - label.height) // 2), label)
        return img
    img = _blank(face.fill, size, False).copy()
    d = ImageDraw.Draw(img)
    full = h > 80 * SS  # full cards carry their number on top, so a cascade still shows it
    if face.label:
        _label(img, face.label, face.ink, w / 2, 7 * SS if full else h / 2, "top" if full else "middle")
    if face.slash:
        d.line((10 * SS, 60 * SS, w - 10 * SS, 8 * SS), fill=WHITE, width=11 * SS)
        d.line((10 * SS, 60 * SS, w - 10 * SS, 8 * SS), fill=INKS["red"].rgb, width=7 * SS)
    if face.mark:
        cy, r = _symbol_place(face, w, h, foot * SS)
        shape(d, face.mark, w / 2, cy, r, face.ink, face.fill)
    elif face.pips and full:
        _pips(d, face.pips, w, h - foot * SS, face.ink)
    tw, th = TRIANGLE
    for i in range(face.triangles):
        x = w / 2 + (i - (face.triangles - 1) / 2) * (tw + 4) * SS
        y = h - 7 * SS
        d.polygon([(x - tw / 2 * SS, y), (x + tw / 2 * SS, y), (x, y - th * SS)], fill=face.ink)
    if face.trump:
        _trump_mark(d, w)
    return img


def card(face: Face, size: tuple[int, int] = CARD, state: str = "plain") -> Image.Image:
    """A card sprite; ``state`` "dim" fades it into the table (not playable now, out of play), "last"
    frames it (the last move placed or took it)."""
    return _card(face, size, state)  # one cache key however the arguments were passed


#: The frame of a card the last move placed or took: a band of dark and white stripes along its
#: edge, like a marking tape, which stands out on the table and on a card of any colour.
FRAME = 7


@cache
def _card(face: Face, size: tuple[int, int], state: str) -> Image.Image:
    if state == "dim" and not face.back:
        return to_palette(_card_shown(dimmed(face), size))
    rgb = _card_shown(face, size)
    if state == "dim":  # a face-down card has no writing: its back fades as a whole
        rgb = Image.blend(rgb, Image.new("RGB", size, BG), DIM)
    elif state == "last":
        rgb = _framed(rgb)
    return to_palette(rgb)


def _framed(rgb: Image.Image) -> Image.Image:
    w, h = rgb.size[0] * SS, rgb.size[1] * SS
    frame = FRAME if rgb.size[0] >= CARD[0] else FRAME * 4 // 7  # a small card keeps room for its number
    framed = rgb.resize((w, h), Image.Resampling.NEAREST)
    stripes = Image.new("RGB", (w, h), WHITE)
    d = ImageDraw.Draw(stripes)
    for x in range(-h, w, 12 * SS):
        d.line((x, h, x + h, 0), fill=DARK, width=6 * SS)
    band = Image.new("L", (w, h), 0)
    md = ImageDraw.Draw(band)
    md.rounded_rectangle((0, 0, w - 1, h - 1), 9 * SS, fill=255)
    md.rounded_rectangle((frame * SS, frame * SS, w - 1 - frame * SS, h - 1 - frame * SS), 4 * SS, fill=0)
    framed.paste(stripes, (0, 0), band)
    line = ImageDraw.Draw(framed)
    line.rounded_rectangle((0, 0, w - 1, h - 1), 9 * SS, outline=DARK, width=2 * SS)
    line.rounded_rectangle((frame * SS, frame * SS, w - 1 - frame * SS, h - 1 - frame * SS), 4 * SS, outline=DARK,
                           width=SS)
    return shrink(framed, rgb.size)


@cache
def _card_shown(face: Face, size: tuple[int, int]) -> Image.Image:
    """The card at its shown size in full colour: its plain and framed sprites are made from it."""
    return shrink(_card_rgb(face, size), size)


#: How far a count chip under a card reaches below it (the rest of the chip covers the card's foot).
CHIP_BELOW = 16
#: A locked or dead Kapado stack: a padlock on its top, or its top faded and crossed out.
STACK_MARKS = ("open", "locked", "dead")


def counted(face: Face, size: tuple[int, int], n: int, mark: str = "open", state: str = "plain") -> Image.Image:
    """A pile's top with how many cards lie there: its count chip straddles the card's foot, so a
    crowded table spends no row on it. ``mark`` "locked" puts a padlock on it, "dead" fades it and
    crosses it out; ``state`` "last" frames it."""
    return _counted(face, size, n, mark, state)  # one cache key however the arguments were passed


#: Count sprites kept (about 19 KB each): a pile's count changes with nearly every move and Rummü's
#: discard pile pairs every top card with every count and frame, so over hours of play an unbounded
#: cache would grow towards 13,000 of them (about 250 MB); putting one together again takes 0.1 ms.
COUNTED_KEPT = 512


@lru_cache(maxsize=COUNTED_KEPT)
def _counted(face: Face, size: tuple[int, int], n: int, mark: str, state: str) -> Image.Image:
    # Put together at the shown size from two cached parts: a pile's count changes with nearly every
    # move, and drawing the whole sprite supersampled for each new count took 3 ms.
    chip = _chip_shown(str(n))
    img = Image.new("RGB", (size[0], size[1] + CHIP_BELOW), BG)
    img.paste(_pile_top(face, size, _chip_foot(str(n)), mark, state), (0, 0))
    img.paste(chip, ((size[0] - chip.width) // 2, img.height - chip.height), chip)
    return to_palette(img)


def _chip_foot(s: str) -> int:
    """How far a count chip reaches up into the card it sits under."""
    return _chip_rgb(s).height // SS - CHIP_BELOW


@cache
def _chip_shown(s: str) -> Image.Image:
    """A count chip at its shown size, with its shape as the alpha (see ``_chip_rgb``)."""
    rgba = _chip_rgb(s)
    return shrink(rgba, (round(rgba.width / SS), round(rgba.height / SS)))


@cache
def _pile_top(face: Face, size: tuple[int, int], foot: int, mark: str, state: str) -> Image.Image:
    """A pile's top card at its shown size, its ``foot`` left free for the count chip, with its mark
    (padlock or cross) and the last move's frame."""
    w, h = size[0] * SS, size[1] * SS
    shown = dimmed(face) if mark == "dead" and not face.back else face
    body = _card_rgb(shown, size, foot + 2)
    if mark == "dead" and face.back:
        body = Image.blend(body, Image.new("RGB", body.size, BG), DIM)
    if state == "last":
        body = _framed(shrink(body, size)).resize((w, h), Image.Resampling.NEAREST)
    if mark != "open":
        sign = _lock_rgb(mark)
        body.paste(sign, ((w - sign.width) // 2, round((55 * SS + h - foot * SS) / 2 - sign.height / 2)), sign)
    return shrink(body, size)


def _small_mask(s: str) -> Image.Image:
    """``s`` at the small size (count chips, pile labels), supersampled, as an ink mask."""
    f = font(SMALL_SIZE * SS)
    left, top, right, bottom = _baseline_box(f, s)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), s, font=f, fill=255, anchor="ls")
    box = mask.getbbox()
    return mask.crop(box) if box else mask


@cache
def _chip_rgb(s: str, icon: bool = True) -> Image.Image:
    """A count: the number at 60 % of a value's height beside two small fanned cards (what it
    counts), white in a dark outline: a label, never read as a card's value.
    Without ``icon``, a short note in the same style (Diabolo's doubler)."""
    digits = _small_mask(s)
    pad, icon_w, gap = 5 * SS, (15 * SS if icon else 0), (5 * SS if icon else 0)
    h = digits.height + 2 * pad
    w = pad + icon_w + gap + digits.width + pad + (0 if icon else 3 * SS)
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), h // 2 - SS, fill=WHITE, outline=DARK, width=2 * SS)
    shape_mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shape_mask).rounded_rectangle((0, 0, w - 1, h - 1), h // 2 - SS, fill=255)
    if icon:  # two cards fanned, solid, so the icon never reads as a digit
        x0, y0 = pad + SS, pad - SS
        card_w, card_h = 9 * SS, digits.height + 2 * SS
        d.rounded_rectangle((x0 + 5 * SS, y0, x0 + 5 * SS + card_w, y0 + card_h - 3 * SS), 2 * SS, fill=SLOT)
        d.rounded_rectangle((x0, y0 + 3 * SS, x0 + card_w, y0 + card_h), 2 * SS, fill=DARK)
    x = pad + icon_w + gap + (0 if icon else 2 * SS)
    img.paste(DARK, (x, pad, x + digits.width, pad + digits.height), digits)
    img.putalpha(shape_mask)  # pasted onto a card, only the chip covers it
    return img


@cache
def chip(s: str, icon: bool = True) -> Image.Image:
    """How many cards lie somewhere, as a small labelled chip (see ``_chip_rgb``)."""
    img = Image.new("RGB", (rgba := _chip_rgb(s, icon)).size, BG)
    img.paste(rgba, (0, 0), rgba)
    return to_palette(shrink(img, (round(img.width / SS), round(img.height / SS))))


@cache
def tag(s: str, width: int = 0) -> Image.Image:
    """A pile's letter (``bot.ui.labels.pile_label``): white on a dark square, at the small size;
    centred in ``width`` pixels of table when given (a letter over a column of cards)."""
    letters = _small_mask(s)
    pad = 6 * SS
    side = letters.height + 2 * pad
    w = max(side, letters.width + 2 * pad)
    img = Image.new("RGB", (max(w, width * SS), side), BG)
    x = (img.width - w) // 2
    ImageDraw.Draw(img).rounded_rectangle((x, 0, x + w - 1, side - 1), 6 * SS, fill=DARK)
    img.paste(WHITE, (x + (w - letters.width) // 2, pad, x + (w - letters.width) // 2 + letters.width,
                      pad + letters.height), letters)
    return to_palette(shrink(img, (round(img.width / SS), round(img.height / SS))))


@cache
def slot(size: tuple[int, int] = CARD) -> Image.Image:
    """An empty place for a card (a free build pile, a helper pile not yet started)."""
    w, h = size[0] * SS, size[1] * SS
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), 9 * SS, outline=SLOT, width=4 * SS)
    return to_palette(shrink(img, size))


@cache
def text(s: str, colour: RGB = DARK) -> Image.Image:
    """A number (or short letters) at the picture's one text size, on the table colour."""
    f = font(TEXT_SIZE * SS)
    left, top, right, bottom = _baseline_box(f, s)
    pad = 2 * SS
    img = Image.new("RGB", (right - left + 2 * pad, bottom - top + 2 * pad), BG)
    ImageDraw.Draw(img).text((pad - left, pad - top), s, font=f, fill=colour, anchor="ls")
    size = (max(1, round(img.width / SS)), max(1, round(img.height / SS)))
    return to_palette(shrink(img, size))


@cache
def badge(seat: int, current: bool = False) -> Image.Image:
    """A seat's number (1-based, the table's seat order) in a circle; filled for the seat to act."""
    s = BADGE * SS
    img = Image.new("RGB", (s, s), BG)
    d = ImageDraw.Draw(img)
    fill, ink = (DARK, WHITE) if current else (BG, DARK)
    d.ellipse((SS, SS, s - SS, s - SS), fill=fill, outline=DARK, width=4 * SS)
    d.text((s / 2, s / 2 + SS), str(seat + 1), font=font(TEXT_SIZE * SS), fill=ink, anchor="mm")
    return to_palette(shrink(img, (BADGE, BADGE)))


@cache
def arrow(width: int = 34) -> Image.Image:
    """A right-pointing arrow between cards played in order."""
    w, h = width * SS, 30 * SS
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    d.polygon([(0, h * 0.38), (w * 0.55, h * 0.38), (w * 0.55, 0), (w, h / 2), (w * 0.55, h), (w * 0.55, h * 0.62),
               (0, h * 0.62)], fill=SLOT)
    return to_palette(shrink(img, (width, 30)))


def _lock_rgb(kind: str, side: int = 30) -> Image.Image:
    """A padlock (a locked stack) or a cross (a dead one) on a white disc, supersampled."""
    s = side * SS
    img = Image.new("RGB", (s, s), BG)
    d = ImageDraw.Draw(img)
    d.ellipse((0, 0, s - 1, s - 1), fill=WHITE, outline=DARK, width=2 * SS)
    if kind == "locked":
        d.arc((s * 0.33, s * 0.18, s * 0.67, s * 0.58), 180, 360, fill=DARK, width=3 * SS)
        d.line((s * 0.33, s * 0.38, s * 0.33, s * 0.48), fill=DARK, width=3 * SS)
        d.line((s * 0.67, s * 0.38, s * 0.67, s * 0.48), fill=DARK, width=3 * SS)
        d.rounded_rectangle((s * 0.26, s * 0.45, s * 0.74, s * 0.8), 2 * SS, fill=DARK)
    else:
        d.line((s * 0.28, s * 0.28, s * 0.72, s * 0.72), fill=DARK, width=4 * SS)
        d.line((s * 0.28, s * 0.72, s * 0.72, s * 0.28), fill=DARK, width=4 * SS)
    disc = Image.new("L", (s, s), 0)
    ImageDraw.Draw(disc).ellipse((0, 0, s - 1, s - 1), fill=255)
    img.putalpha(disc)  # pasted onto a card, only the disc covers it
    return img


@cache
def sealed(face: Face, size: tuple[int, int]) -> Image.Image:
    """A card with a padlock over its middle (a closed Diabolo row's colour)."""
    img = _card_rgb(face, size)
    sign = _lock_rgb("locked", min(size) * 2 // 3)
    img.paste(sign, ((img.width - sign.width) // 2, (img.height - sign.height) // 2), sign)
    return to_palette(shrink(img, size))


@cache
def lock_mark(kind: str) -> Image.Image:
    """A padlock (locked) or a cross (dead) on its own, as a Kapado stack carries it."""
    return to_palette(shrink(_lock_rgb(kind).convert("RGB"), (30, 30)))


@cache
def pill(s: str) -> Image.Image:
    """A sum (Diabolo's row sides): white on dark, so it never reads as a card."""
    f = font(TEXT_SIZE * SS)
    left, top, right, bottom = _baseline_box(f, s)
    pad_x, pad_y = 9 * SS, 6 * SS
    img = Image.new("RGB", (right - left + 2 * pad_x, bottom - top + 2 * pad_y), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, img.width - 1, img.height - 1), 10 * SS, fill=DARK)
    d.text((pad_x - left, pad_y - top), s, font=f, fill=WHITE, anchor="ls")
    size = (round(img.width / SS), round(img.height / SS))
    return to_palette(shrink(img, size))


@cache
def token(face: Face) -> Image.Image:
    """A named trump: a hexagon (neither a card nor a seat badge) with the colour's symbol or the digit."""
    size = 76
    s = size * SS
    img = Image.new("RGB", (s, s), BG)
    d = ImageDraw.Draw(img)
    corners = [(s / 2 + (s / 2 - SS) * math.cos(math.pi / 6 + i * math.pi / 3),
                s / 2 + (s / 2 - SS) * math.sin(math.pi / 6 + i * math.pi / 3)) for i in range(6)]
    d.polygon(corners, fill=face.fill, outline=DARK, width=4 * SS)
    if face.label:
        d.text((s / 2, s / 2 + SS), face.label, font=font(TEXT_SIZE * SS), fill=face.ink, anchor="mm")
    elif face.mark:
        shape(d, face.mark, s / 2, s / 2, s * 0.3, face.ink, face.fill)
    return to_palette(shrink(img, (size, size)))


@cache
def side_mark(side: str) -> Image.Image:
    """Diabolo's two sides, drawn rather than written: a horned head for the devils, a haloed head
    for the angels."""
    size = HEAD
    s = size * SS
    img = Image.new("RGB", (s, s), BG)
    d = ImageDraw.Draw(img)
    head = (s * 0.24, s * 0.34, s * 0.76, s * 0.92)
    if side == "devil":
        red = INKS["red"].rgb
        d.polygon([(s * 0.27, s * 0.5), (s * 0.16, s * 0.04), (s * 0.47, s * 0.38)], fill=red, outline=DARK,
                  width=2 * SS)
        d.polygon([(s * 0.73, s * 0.5), (s * 0.84, s * 0.04), (s * 0.53, s * 0.38)], fill=red, outline=DARK,
                  width=2 * SS)
        d.ellipse(head, fill=red, outline=DARK, width=3 * SS)
    elif side == "angel":
        d.ellipse(head, fill=PAPER, outline=DARK, width=3 * SS)
        d.ellipse((s * 0.18, s * 0.02, s * 0.82, s * 0.27), fill=DARK)  # the halo: a yellow ring, outlined
        d.ellipse((s * 0.2, s * 0.04, s * 0.8, s * 0.25), fill=INKS["yellow"].rgb)
        d.ellipse((s * 0.32, s * 0.1, s * 0.68, s * 0.19), fill=BG, outline=DARK, width=2 * SS)
    else:
        raise ValueError(f"no such side: {side}")
    for sign in (-1, 1):
        _circle(d, s / 2 + sign * s * 0.1, s * 0.6, s * 0.045, DARK)
    d.arc((s * 0.36, s * 0.56, s * 0.64, s * 0.8), 20, 160, fill=DARK, width=2 * SS)
    return to_palette(shrink(img, (size, size)))


@cache
def crossed(face: Face) -> Image.Image:
    """A colour that sits out this hand (Mü with three players): a card of it as tall as a trump's
    hexagon, faded and struck out."""
    w, h = OUT_CARD
    img = _card_rgb(face, OUT_CARD)
    img = Image.blend(img, Image.new("RGB", img.size, BG), 0.5)
    d = ImageDraw.Draw(img)
    inset = 4 * SS
    d.line((inset, h * SS - inset, w * SS - inset, inset), fill=BG, width=9 * SS)
    d.line((inset, h * SS - inset, w * SS - inset, inset), fill=DARK, width=4 * SS)
    return to_palette(shrink(img, OUT_CARD))


def forget() -> None:
    """Drop every cached sprite (the benchmark measures a cold start with it)."""
    for cached in (_card, _card_shown, _label_mask, _blank, slot, text, badge, arrow, lock_mark, pill, token, side_mark,
                   crossed, chip, tag, _counted, sealed):
        cached.cache_clear()
