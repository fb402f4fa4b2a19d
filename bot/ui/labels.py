"""The marks a table's picture and its text share, so a player matches them at a glance: a seat is
its numbered badge (①, the number the picture draws in the seat's circle), and a pile, stack or
display is a capital letter (A, B, ...) printed under it in the picture and used in text and buttons;
a player's own helper pile is H and its number (H1, H2, ...), in the picture as in the text. A
letter never names a seat and a badge never names a pile, so no symbol means two things."""

from __future__ import annotations

BADGES = "①②③④⑤⑥⑦⑧⑨⑩"


def seat_badge(seat: int) -> str:
    """Seat ``seat`` (0-based) as the picture's badge shows it: ① for the first seat."""
    return BADGES[seat]


def pile_label(index: int) -> str:
    """The ``index``-th (0-based) pile, stack or display of its kind at the table: A, B, ... Z, AA, AB."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def helper_label(index: int) -> str:
    """A seat's ``index``-th (0-based) helper pile in Da Capo! and Skippo: H1, H2, ..."""
    return f"H{index + 1}"
