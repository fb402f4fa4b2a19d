"""Every game's pictures on its messages: the table's in a media gallery inside the table's container,
the hand's likewise inside the hand's (under its text, above its buttons: ``base.hand_message``).

Both are pure functions of a view, so the PNG of a view drawn lately is taken from a small cache:
redrawing an unchanged view (a step inside a hand, a table whose only news is its text line) paints
nothing, and the content hash then finds the picture already on the message, so nothing is uploaded.
A table keeps its hands' pictures itself, however many tables are busy: every move redraws each open
hand for the news around it, and most hands' cards did not change.
The table writer paints a table's picture ahead (``paint_table``) and leaves the compression of the
bands that changed (``bot.pictures.sheet.Plan``), most of a picture's time, to a thread: zlib-ng
compresses without holding the GIL, so clicks at other tables are not held up meanwhile.
The alt text is the text that says the same, without its markdown (a screen reader would read the
asterisks).
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from bot.i18n import t
from bot.pictures import Pictures
from bot.pictures.sheet import deflate
from bot.transport import media
from bot.transport.media import Picture
from bot.ui.base import Rendered, StaticLayout
from bot.ui.cards import label
from bot.ui.shown import Shown

#: Table PNGs kept by (kind, game, lang, what is drawn): a table's picture changes with nearly every
#: move, so this spares the redraws of an unchanged table (its text alone changed) and the rendering
#: after ``paint_table``. 512 PNGs of 5-50 KB: about 8 MB.
CACHE_SIZE = 512
_drawn: OrderedDict[tuple, bytes | None] = OrderedDict()
#: Each live table's hand PNGs, by (lang, playable, cards), the newest last; gone with the session.
#: A move changes one or two hands' cards or standing, and every open hand is redrawn for the news
#: around it: a cache shared by all tables held none of the unchanged ones once more hands were open
#: than it had room for (1,000 tables, three open hands each), so each was painted again.
_hands: weakref.WeakKeyDictionary[object, OrderedDict[tuple, bytes | None]] = weakref.WeakKeyDictionary()
#: Hand pictures a table keeps per seat: its hand now, and one it was shown lately (another language,
#: or the step before a move that was not made).
HANDS_PER_SEAT = 2
_MARKUP = re.compile(r"\*\*|__|^#+ |^-# |^> ", re.MULTILINE)


def _png(key: tuple, paint: Callable[[], bytes | None]) -> bytes | None:
    if key in _drawn:
        _drawn.move_to_end(key)
        return _drawn[key]
    return _remember(key, paint())


def _remember(key: tuple, png: bytes | None) -> bytes | None:
    _drawn[key] = png
    if len(_drawn) > CACHE_SIZE:
        _drawn.popitem(last=False)
    return png


def _table_key(game: str, lang: str, view: Any) -> tuple[str, str, str, str]:
    return ("table", game, lang, repr(view))


#: Tries to paint ahead a table that keeps changing meanwhile (then the rendering paints it).
PAINT_AHEAD_TRIES = 2
#: Bytes of changed bands compressed on the event loop itself: a few dozen microseconds of zlib-ng,
#: less than handing them to a thread and back costs.
INLINE_BYTES = 64_000


async def paint_table(session: Shown, pictures: Pictures | None) -> None:
    """Paint the picture of the table as it stands (in the table's language), compressing its new
    bands in a worker thread (unless they are few), so the rendering that follows finds it drawn.
    The layout and both caches stay on the event loop; the thread gets only the bands' rows.
    ``pictures`` are the game's (None: a game without pictures)."""
    game = session.game.key
    if not session.pictures or session.state is None or pictures is None:
        return
    for _ in range(PAINT_AHEAD_TRIES):
        view = session.game.view(session.state, None)
        key = _table_key(game, session.lang, view)
        if key in _drawn:
            return
        plan = pictures.table_plan(view)
        if plan is None:
            _remember(key, None)
        elif sum(map(len, plan.rows)) <= INLINE_BYTES:
            _remember(key, plan.finish(deflate(plan.rows)))
        else:
            _remember(key, plan.finish(await asyncio.to_thread(deflate, plan.rows)))


def plain(text: str) -> str:
    """``text`` as a screen reader should read it: no bold, headings or small-print markers."""
    return _MARKUP.sub("", text).strip()


def table_picture(pictures: Pictures, session: Shown, view: Any, lang: str, alt: str) -> Picture | None:
    """The public table's picture by the game's ``pictures`` (``view`` is ``game.view(state, None)``);
    None with pictures off, and None when ``alt`` is empty: nothing lies on the table that a picture
    would show."""
    game = session.game.key
    if not session.pictures or not alt.strip():
        return None
    return media.draw(session, lambda: _png(_table_key(game, lang, view), lambda: pictures.table_png(view)),
                      plain(alt))


def hand_picture(pictures: Pictures, session: Shown, view: Any, lang: str, playable: Iterable[str], alt: str,
                 name: Callable[[str], str] = label) -> Picture | None:
    """The owner's cards by the game's ``pictures`` (``view`` is the owner's view), ``playable`` ones
    standing up; the alt text names those (by ``name``, in the order given) after ``alt``."""
    if not session.pictures:
        return None     # what ``media.draw`` says, without first building the alt text and the key
    order = tuple(dict.fromkeys(playable))
    playable = frozenset(order)
    shown = " ".join(name(card) for card in order)
    said = [alt] + ([t(lang, "table.playable", cards=shown)] if playable else [])
    key = (lang, tuple(sorted(playable)), pictures.hand_key(view))
    return media.draw(session, lambda: _hand_png(session, key, lambda: pictures.hand_png(view, playable)),
                      plain("\n".join(said)), "hand")


def _hand_png(session: Shown, key: tuple, paint: Callable[[], bytes | None]) -> bytes | None:
    kept = _hands.get(session)
    if kept is None:
        kept = _hands[session] = OrderedDict()
    if key in kept:
        kept.move_to_end(key)
        return kept[key]
    png = kept[key] = paint()
    while len(kept) > HANDS_PER_SEAT * len(session.seats):
        kept.popitem(last=False)
    return png


def framed(parts: list[dict], picture: Picture | None, at: int = 1) -> Rendered:
    """A Components V2 table: one container holding ``parts`` with the picture's gallery after the
    first ``at`` of them (the heading), so the picture sits under the title and above the details."""
    inner = [*parts[:at], *media.galleries(picture), *parts[at:]]
    return Rendered(StaticLayout([{"type": 17, "components": inner}]), pictures=media.pictures(picture))
