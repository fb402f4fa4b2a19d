"""Every game's pictures on its messages: the table's in a media gallery inside the table's container,
the hand's likewise inside the hand's (under its text, above its buttons: ``base.hand_message``).

Both are pure functions of a view, so the PNG of a view drawn lately is taken from a small cache:
redrawing an unchanged view (a step inside a hand, a table whose only news is its text line) paints
nothing, and the content hash then finds the picture already on the message, so nothing is uploaded.
A table keeps its hands' pictures itself, however many tables are busy: every move redraws each open
hand for the news around it, and most hands' cards did not change.
The table writer paints ahead, in one thread of its own (``PAINTER``): a table's picture, laid out and
compressed (``paint_table``), and the pictures of the open hands whose cards changed (``ahead``), so
a click at another table does not wait in the event loop's queue behind a layout. The drawing kit
may be called from any thread (``bot.pictures``); the two caches here are read and filled on the
event loop only, the thread gets a frozen view and hands back the PNG with its hash.
The alt text is the text that says the same, without its markdown (a screen reader would read the
asterisks).
"""

from __future__ import annotations

import asyncio
import re
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any, TypeVar

from bot.i18n import t
from bot.pictures import Pictures
from bot.transport import media
from bot.transport.media import Painted, Picture
from bot.ui.base import Rendered, StaticLayout
from bot.ui.cards import label
from bot.ui.shown import Shown

#: Table PNGs kept by (kind, game, lang, what is drawn): a table's picture changes with nearly every
#: move, so this spares the redraws of an unchanged table (its text alone changed) and the rendering
#: after ``paint_table``. 512 PNGs of 5-50 KB: about 8 MB. Both caches keep each PNG with its content
#: hash (``media.Painted``), hashed where it was painted.
CACHE_SIZE = 512
_drawn: OrderedDict[tuple, Painted | None] = OrderedDict()
#: Each live table's hand PNGs, by (lang, playable, cards), the newest last; gone with the session.
#: A move changes one or two hands' cards or standing, and every open hand is redrawn for the news
#: around it: a cache shared by all tables held none of the unchanged ones once more hands were open
#: than it had room for (1,000 tables, three open hands each), so each was painted again.
_hands: weakref.WeakKeyDictionary[object, OrderedDict[tuple, Painted | None]] = weakref.WeakKeyDictionary()
#: Hand pictures a table keeps per seat: its hand now, and one it was shown lately (another language,
#: or the step before a move that was not made).
HANDS_PER_SEAT = 2
_MARKUP = re.compile(r"\*\*|__|^#+ |^-# |^> ", re.MULTILINE)


def _png(key: tuple, paint: Callable[[], Painted | None]) -> Painted | None:
    if key in _drawn:
        _drawn.move_to_end(key)
        return _drawn[key]
    return _remember(key, paint())


def _remember(key: tuple, png: Painted | None) -> Painted | None:
    _drawn[key] = png
    if len(_drawn) > CACHE_SIZE:
        _drawn.popitem(last=False)
    return png


def _table_key(game: str, lang: str, view: Any) -> tuple[str, str, str, str]:
    return ("table", game, lang, repr(view))


#: Tries to paint ahead a table that keeps changing meanwhile (then the rendering paints it).
PAINT_AHEAD_TRIES = 2
#: The thread that paints ahead: one, so two layouts never compete with each other for the GIL, and
#: a burst of moves queues there rather than in the event loop.
PAINTER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
#: While a rendering is drawn ahead (``ahead``): the hand pictures it found missing, to be painted in
#: ``PAINTER``; None otherwise (a hand picture missing then is painted where it is asked for).
_wanted: ContextVar[list[tuple[Shown, tuple, Callable[[], Painted | None]]] | None] = ContextVar("wanted", default=None)
_R = TypeVar("_R")


async def _painted(paint: Callable[..., _R], *args: Any) -> _R:
    return await asyncio.get_running_loop().run_in_executor(PAINTER, paint, *args)


async def paint_table(session: Shown, pictures: Pictures | None) -> None:
    """Paint the picture of the table as it stands (in the table's language) in ``PAINTER``, laid out
    and compressed there, so the rendering that follows finds it drawn. ``pictures`` are the game's
    (None: a game without pictures)."""
    game = session.game.key
    if not session.pictures or session.state is None or pictures is None:
        return
    for _ in range(PAINT_AHEAD_TRIES):
        view = session.game.view(session.state, None)
        key = _table_key(game, session.lang, view)
        if key in _drawn:
            return
        _remember(key, await _painted(_hashed, pictures.table_png, view))


async def ahead(renders: list[Callable[[], _R]]) -> list[_R]:
    """Each of ``renders`` (hands' renderings) with the hand pictures they lack painted in ``PAINTER``
    first, in one trip: each is rendered once to find them (nothing is painted then) and, where some
    were missing, again once they are kept. A hand whose cards changed meanwhile is painted where it
    is rendered."""
    made, missing = [], []
    for render in renders:
        wanted: list[tuple[Shown, tuple, Callable[[], Painted | None]]] = []
        asked = _wanted.set(wanted)
        try:
            made.append(render())
        finally:
            _wanted.reset(asked)
        missing += [(len(made) - 1, *want) for want in wanted]
    if not missing:
        return made
    pngs = await _painted(_paint_all, [paint for _, _, _, paint in missing])
    for (_, session, key, _), png in zip(missing, pngs, strict=True):
        _keep_hand(session, key, png)
    for index in sorted({index for index, *_ in missing}):
        made[index] = renders[index]()
    return made


def _paint_all(paints: list[Callable[[], Painted | None]]) -> list[Painted | None]:
    return [paint() for paint in paints]


def _hashed(paint: Callable[..., bytes | None], *args: Any) -> Painted | None:
    """What ``paint(*args)`` painted, with its content hash."""
    return media.painted(paint(*args))


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
    return media.draw(session, lambda: _png(_table_key(game, lang, view), lambda: _hashed(pictures.table_png, view)),
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
    return media.draw(session, lambda: _hand_png(session, key, lambda: _hashed(pictures.hand_png, view, playable)),
                      plain("\n".join(said)), "hand")


def _hand_png(session: Shown, key: tuple, paint: Callable[[], Painted | None]) -> Painted | None:
    kept = _hands.get(session)
    if kept is not None and key in kept:
        kept.move_to_end(key)
        return kept[key]
    wanted = _wanted.get()
    if wanted is not None:      # drawn ahead: painted in ``PAINTER``, then rendered again
        wanted.append((session, key, paint))
        return None
    return _keep_hand(session, key, paint())


def _keep_hand(session: Shown, key: tuple, png: Painted | None) -> Painted | None:
    kept = _hands.get(session)
    if kept is None:
        kept = _hands[session] = OrderedDict()
    kept[key] = png
    kept.move_to_end(key)
    while len(kept) > HANDS_PER_SEAT * len(session.seats):
        kept.popitem(last=False)
    return png


def framed(parts: list[dict], picture: Picture | None, at: int = 1) -> Rendered:
    """A Components V2 table: one container holding ``parts`` with the picture's gallery after the
    first ``at`` of them (the heading), so the picture sits under the title and above the details."""
    inner = [*parts[:at], *media.galleries(picture), *parts[at:]]
    return Rendered(StaticLayout([{"type": 17, "components": inner}]), pictures=media.pictures(picture))
