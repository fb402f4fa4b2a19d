"""Numbers inside action keys and custom_ids: ASCII digits, one spelling per number.

``str.isdigit`` says yes to "²" and "٣", and ``int`` reads "٣", "+3", " 3" and "03": a forged
custom_id could then crash a parser or log a second spelling of the same move. Every number read
from a key goes through ``number``, so the action log holds canonical keys only. It lives in
``games`` because the rules parse keys; the host (``bot/``) reads its ids with it too.
"""

from __future__ import annotations

#: Longer numbers name nothing at a card table (session ids included) and are refused unread.
MAX_DIGITS = 18

_DIGITS = frozenset("0123456789")


def number(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """``"12"`` -> 12; ``None`` for anything else: empty, signs, spaces, non-ASCII digits, leading
    zeros (``"012"``), or more than ``max_digits`` digits."""
    if not text or len(text) > max_digits or not _DIGITS.issuperset(text):
        return None
    if text[0] == "0" and len(text) > 1:
        return None
    return int(text)
