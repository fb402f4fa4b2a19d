"""The result picture of a finished match: a podium, then the totals after each hand.

The podium stands the top three places (ties share a step) on steps of three heights, each with
its seats' badges (filled for the winners) and its score above it and its place on the step. The
table below has a column per seat (per team where partners share a score: headed by all of the
team's badges) and a row per hand or round with the totals after it, the last row (the final
score) white on dark. A long match shows at most ``ROWS`` of its hands, evenly spread and always
ending with the last, each numbered in the first column: the picture stays under 900 px tall.

Like every picture it holds no words, only badges, digits and symbols, so it is the same in every
language; the names stand in the text beside it. It is drawn with the kit's palette and font, and
laid out by the caller's data alone (``Entrant`` and the rows), not by any game's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from bot.pictures.palette import RGB
from bot.pictures.sheet import MARGIN, WIDTH, Sheet
from bot.pictures.sprites import BACK, BADGE, BG, DARK, SS, TEXT_SIZE, WHITE, badge, font, shrink, to_palette

#: Hands shown in the table at most (evenly spread, the last always among them).
ROWS = 8
#: The table's digits: 33 px high, about 18 px on a 360 px wide phone (smaller than a card value's
#: 25 px, so a column fits seven seats; half as tall again as the digits of Discord's own text there).
CELL_SIZE = 46
ROW_HEIGHT = 46
#: The first column (the hand's number) and the gap between the podium's steps.
NUMBER_COLUMN = 64
STEP_GAP = 10
#: Step heights by place (first, second, third): each holds its place's number.
STEP_HEIGHTS = (112, 84, 62)
BADGE_GAP = 2  # a team's badges stand together
#: Every other row of the table lies on a lighter stripe, so a row reads across seven columns.
#: Both are blends the kit's palette holds (``sprites._palette``), so they come out exact.
STRIPE: RGB = (0xF4, 0xF2, 0xEE)  # the table colour halfway to white
#: The hands' numbers: a grey quieter than the totals that keeps 4 : 1 against the table and the stripe.
NUMBER_INK: RGB = (0x6B, 0x68, 0x62)  # the empty-place grey halfway to the dark ink


@dataclass(frozen=True, slots=True)
class Entrant:
    """One side of the result: a seat, or the seats of a team (0-based), with its final score, its
    place (1 for the winners; equal places share a step) and whether it won."""

    seats: tuple[int, ...]
    score: int
    rank: int
    won: bool


def result_png(entrants: Sequence[Entrant], rows: Sequence[tuple[int, Sequence[int]]]) -> bytes:
    """The picture as a PNG; ``rows`` are (hand number, the totals after it per entrant) in order."""
    return result_sheet(entrants, rows).png()


def result_sheet(entrants: Sequence[Entrant], rows: Sequence[tuple[int, Sequence[int]]]) -> Sheet:
    sheet = Sheet()
    sheet.place(_podium(entrants), gap=0)
    shown = spread(len(rows), ROWS)
    if shown:
        sheet.place(_table(entrants, [rows[i] for i in shown]), gap=28)
    return sheet


def spread(count: int, most: int) -> list[int]:
    """Indexes of at most ``most`` of ``count`` rows, evenly spread, ending with the last."""
    if count <= most:
        return list(range(count))
    return sorted({round((k + 1) * count / most) - 1 for k in range(most)})


# -- the podium ------------------------------------------------------------------------------------
def podium_places(entrants: Sequence[Entrant]) -> list[int]:
    """The places the podium stands, best first: the three best there are (1, 5, 6 when four share
    the first place)."""
    return sorted({e.rank for e in entrants})[:3]


def _podium(entrants: Sequence[Entrant]) -> list[tuple[Image.Image, int, int]]:
    """The steps of the best three places, the best in the middle, second left, third right."""
    places = podium_places(entrants)
    order = {1: [0], 2: [1, 0], 3: [1, 0, 2]}[len(places)]
    width = (WIDTH - 2 * MARGIN - 2 * STEP_GAP) // 3
    used = len(places) * width + (len(places) - 1) * STEP_GAP
    left = (WIDTH - used) // 2
    columns = []
    for slot_no, index in enumerate(order):
        on_step = [e for e in entrants if e.rank == places[index]]
        columns.append((left + slot_no * (width + STEP_GAP), index, on_step))
    tops = [_badges_height(len([s for e in on_step for s in e.seats]), width) + ROW_HEIGHT + 8
            for _, _, on_step in columns]
    top_room = max(tops)
    floor = top_room + STEP_HEIGHTS[0]
    items: list[tuple[Image.Image, int, int]] = []
    for x, index, on_step in columns:
        step = _step(places[index], width, STEP_HEIGHTS[index])
        step_top = floor - step.height
        items.append((step, x, step_top))
        score = _number(str(on_step[0].score), width, TEXT_SIZE, False)
        y = step_top - 6 - score.height
        items.append((score, x + (width - score.width) // 2, y))
        seats = [(s, e.won) for e in on_step for s in e.seats]
        items += _badges(_badge_lines(seats, width), x, width, y - 8 - _badges_height(len(seats), width))
    return items


def _per_line(width: int) -> int:
    return max(1, (width + BADGE_GAP) // (BADGE + BADGE_GAP))


def _badge_lines(seats: list[tuple[int, bool]], width: int) -> list[list[tuple[int, bool]]]:
    per = _per_line(width)
    return [seats[i:i + per] for i in range(0, len(seats), per)]


def _badges(lines: list[list[tuple[int, bool]]], x: int, width: int, top: int) -> list[tuple[Image.Image, int, int]]:
    """Badges laid out in ``lines`` from ``top``, each line centred in the ``width`` from ``x``."""
    placed = []
    y = top
    for line in lines:
        bx = x + (width - (len(line) * BADGE + (len(line) - 1) * BADGE_GAP)) // 2
        for seat, won in line:
            placed.append((badge(seat, won), bx, y))
            bx += BADGE + BADGE_GAP
        y += BADGE + BADGE_GAP
    return placed


def _badges_height(count: int, width: int) -> int:
    lines = -(-count // _per_line(width))
    return lines * BADGE + (lines - 1) * BADGE_GAP


@cache
def _step(place: int, width: int, height: int) -> Image.Image:
    """A podium step: a block in the colour of card backs with its place in white."""
    w, h = width * SS, height * SS
    img = Image.new("RGB", (w, h), BG)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1 + 12 * SS), 10 * SS, fill=BACK, outline=DARK, width=3 * SS)
    d.line((0, h - 2 * SS, w, h - 2 * SS), fill=DARK, width=4 * SS)
    d.text((w / 2, h / 2), str(place), font=font(TEXT_SIZE * SS), fill=WHITE, anchor="mm")
    return to_palette(shrink(img, (width, height)))


# -- the table -------------------------------------------------------------------------------------
def _table(entrants: Sequence[Entrant], rows: Sequence[tuple[int, Sequence[int]]]) -> list[tuple[Image.Image, int, int]]:
    """The header of badges, then a row per hand shown: its number, then each entrant's total."""
    room = WIDTH - 2 * MARGIN - NUMBER_COLUMN
    column = room // len(entrants)
    head = max(_badges_height(len(e.seats), column) if len(e.seats) * (BADGE + BADGE_GAP) > column + BADGE_GAP
               else BADGE for e in entrants)
    items: list[tuple[Image.Image, int, int]] = [(_number("#", NUMBER_COLUMN, CELL_SIZE, False, NUMBER_INK),
                                                  MARGIN, (head - ROW_HEIGHT) // 2 + 4)]
    for n, entrant in enumerate(entrants):
        x = MARGIN + NUMBER_COLUMN + n * column
        seats = [(s, entrant.won) for s in entrant.seats]
        items += _badges(_badge_lines(seats, column), x, column, (head - _badges_height(len(seats), column)) // 2)
    top = head + 10
    for r, (number, totals) in enumerate(rows):
        y = top + r * ROW_HEIGHT
        last = r == len(rows) - 1
        ground = STRIPE if r % 2 == 0 and not last else BG
        if ground != BG:
            items.append((_stripe(WIDTH - 2 * MARGIN, ROW_HEIGHT), MARGIN, y))
        label = _number(str(number), NUMBER_COLUMN, CELL_SIZE, False, NUMBER_INK, ground)
        items.append((label, MARGIN + (NUMBER_COLUMN - label.width) // 2, y + (ROW_HEIGHT - label.height) // 2))
        for n, total in enumerate(totals):
            cell = _number(str(total), column - 8, CELL_SIZE, last, DARK, ground)
            x = MARGIN + NUMBER_COLUMN + n * column + (column - cell.width) // 2
            items.append((cell, x, y + (ROW_HEIGHT - cell.height) // 2))
    return items


@cache
def _stripe(width: int, height: int) -> Image.Image:
    return to_palette(Image.new("RGB", (width, height), STRIPE))


@cache
def _number(s: str, room: int, size: int, final: bool, colour: RGB = DARK, ground: RGB = BG) -> Image.Image:
    """A number at ``size`` in ``colour`` on ``ground``, condensed sideways when wider than ``room``;
    a ``final`` one white on a dark rounded box (the match's last totals)."""
    f = font(size * SS)
    left, top, right, bottom = f.getbbox(s, anchor="ls")
    pad_x, pad_y = (8 * SS, 5 * SS) if final else (2 * SS, 2 * SS)
    ink_w, ink_h = right - left, bottom - top
    img = Image.new("RGB", (round(ink_w) + 2 * pad_x, round(ink_h) + 2 * pad_y), ground)
    d = ImageDraw.Draw(img)
    if final:
        d.rounded_rectangle((0, 0, img.width - 1, img.height - 1), 9 * SS, fill=DARK)
    d.text((pad_x - left, pad_y - top), s, font=f, fill=WHITE if final else colour, anchor="ls")
    width, height = round(img.width / SS), round(img.height / SS)
    return to_palette(shrink(img, (min(width, room), height)))


def forget() -> None:
    """Drop the cached sprites (as ``bot.pictures.sprites.forget`` does for the kit's own)."""
    for cached in (_step, _stripe, _number):
        cached.cache_clear()
