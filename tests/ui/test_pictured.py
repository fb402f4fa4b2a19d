"""Connecting the pictures: alt text without markdown, a cache that spares repainting an unchanged view,
an empty table without a picture, and the table's and the open hands' pictures painted ahead in the
painter's thread."""

from __future__ import annotations

import functools
import hashlib
import threading
from types import SimpleNamespace

from bot.pictures import Pictures, sheet
from bot.registry import pictures, presenter
from bot.transport import media
from bot.ui import pictured
from tests.ui import kit


def test_alt_text_reads_without_markdown():
    assert pictured.plain("## 🎴 Mü\n**Cem** · __3__\n-# small print") == "🎴 Mü\nCem · 3\nsmall print"


def test_an_unchanged_view_is_not_painted_again(monkeypatch):
    session = kit.make_session("safaru", 2, seed="cache")
    view = session.game.view(session.state, None)
    painted = []
    monkeypatch.setattr(Pictures, "table_png", lambda *args: painted.append(args) or b"\x89PNG-fake")
    pictured._drawn.clear()
    first = pictured.table_picture(pictures("safaru"), session, view, "en", "alt")
    second = pictured.table_picture(pictures("safaru"), session, session.game.view(session.state, None), "en", "alt")
    assert first == second and len(painted) == 1
    assert pictured.table_picture(pictures("safaru"), session, view, "de", "alt") is not None and len(painted) == 2


def test_nothing_on_the_table_means_no_picture():
    session = kit.make_session("mu", 3, seed="empty")  # the auction's start: no card lies face up
    [table] = presenter("mu").table(session, "en", None)
    assert table.pictures == () and not any(c["type"] == 12 for c in kit.components(table))


async def test_the_writer_lays_out_a_table_picture_in_the_painters_thread_and_the_rendering_uses_it(monkeypatch):
    """A table's picture is laid out and compressed off the event loop (a computer's move at one table
    must not queue clicks at others behind its layout); the rendering after it paints nothing and
    shows the same picture as one painted the usual way."""
    session = kit.make_session("skippo", 2, seed="ahead")
    pictured._drawn.clear()
    [expected] = presenter("skippo").table(session, "en", None)      # painted here, the usual way
    pictured._drawn.clear()
    sheet.forget()      # no band drawn lately: every band is laid out and compressed anew
    laid_out_in = _threads_of(monkeypatch, "table_plan")
    await pictured.paint_table(session, pictures(session.game.key))
    assert len(laid_out_in) == 1 and laid_out_in[0] != threading.get_ident()
    assert laid_out_in == [_painters_thread()]
    [table] = presenter("skippo").table(session, "en", None)
    assert table.pictures == expected.pictures and table.fingerprint() == expected.fingerprint()
    await pictured.paint_table(session, pictures(session.game.key))     # already painted: nothing to do
    assert len(laid_out_in) == 1


async def test_no_picture_is_painted_ahead_for_a_table_without_one(monkeypatch):
    painted = []
    monkeypatch.setattr(Pictures, "table_plan", lambda *args: painted.append(args))
    pictured._drawn.clear()
    await pictured.paint_table(kit.make_session("calcory", 2, seed="ahead"), None)      # no pictures in Calcory
    off = kit.make_session("skippo", 2, seed="ahead")
    off.pictures = False        # the lobby's setting
    await pictured.paint_table(off, pictures(off.game.key))
    assert painted == []


async def test_hands_rendered_ahead_are_painted_in_the_painters_thread_and_show_the_same_pictures(monkeypatch):
    """The writer's redraw of the open hands paints the pictures of those whose cards changed off the
    event loop, all in one trip, and each hand shows what a hand painted the usual way shows."""
    session = kit.make_session("mu", 3, seed="ahead")
    hands = presenter("mu")
    expected = [hands.hand(session, seat, "en", "", None) for seat in range(3)]
    pictured._hands.pop(session)
    painted_in = _threads_of(monkeypatch, "hand_png")
    renders: list[int] = []

    def render(seat: int):
        renders.append(seat)
        return hands.hand(session, seat, "en", "", None)

    drawn = await pictured.ahead([functools.partial(render, seat) for seat in range(3)])
    assert len(painted_in) == 3 and threading.get_ident() not in painted_in
    assert painted_in == [_painters_thread()] * 3
    assert [r.pictures for r in drawn] == [r.pictures for r in expected]
    assert [r.fingerprint() for r in drawn] == [r.fingerprint() for r in expected]
    assert renders == [0, 1, 2, 0, 1, 2]        # rendered once to find the missing pictures, then with them
    renders.clear()
    again = await pictured.ahead([functools.partial(render, 1)])       # its picture kept: rendered once
    assert renders == [1] and len(painted_in) == 3 and again[0].fingerprint() == expected[1].fingerprint()


def _threads_of(monkeypatch, method: str) -> list[int]:
    """Where ``Pictures.<method>`` runs from now on: the thread of each call."""
    real, seen = getattr(Pictures, method), []

    def recorded(self, *args):
        seen.append(threading.get_ident())
        return real(self, *args)

    monkeypatch.setattr(Pictures, method, recorded)
    return seen


def _painters_thread() -> int:
    return pictured.PAINTER.submit(threading.get_ident).result()


def _counting_hand_painter(monkeypatch) -> list:
    painted: list = []
    monkeypatch.setattr(Pictures, "hand_png",
                        lambda self, view, playable: painted.append(view) or b"\x89PNG" + repr(view).encode())
    return painted


def test_at_more_tables_than_the_shared_cache_holds_an_unchanged_open_hand_is_not_painted_again(monkeypatch):
    """Every move redraws a table's open hands for the public news around them; the hands whose cards
    did not change keep their pictures however many tables are busy (a shared cache of the pictures
    drawn lately held none of them again once more hands were open than it had room for)."""
    painted = _counting_hand_painter(monkeypatch)
    pictured._drawn.clear()
    tables = [kit.make_session("mu", 3, seed=f"many-{n}") for n in range(pictured.CACHE_SIZE // 3 + 20)]
    hands = presenter("mu")
    first = [hands.hand(session, seat, "en", "", None).pictures for session in tables for seat in range(3)]
    assert len(painted) == 3 * len(tables) > pictured.CACHE_SIZE
    painted.clear()
    again = [hands.hand(session, seat, "en", "", None).pictures for session in tables for seat in range(3)]
    assert painted == [] and again == first


def test_a_hand_kept_by_its_table_is_the_picture_painted_afresh_and_a_table_keeps_a_few(monkeypatch):
    """As the cards change move by move, every hand shows what a fresh painting shows (never a picture
    kept from before), and a table keeps no more than a few hand pictures per seat."""
    import random

    session = kit.make_session("mu", 3, seed="kept")
    hands, rng = presenter("mu"), random.Random(7)
    for _ in range(10):
        kit.random_walk(session, rng, 1)
        kept = [hands.hand(session, seat, "en", "", None).pictures for seat in range(3)]
        assert len(pictured._hands[session]) <= pictured.HANDS_PER_SEAT * len(session.seats)
        pictured._hands.pop(session)
        pictured._drawn.clear()
        assert [hands.hand(session, seat, "en", "", None).pictures for seat in range(3)] == kept


def test_a_tables_hand_pictures_go_with_it(monkeypatch):
    import gc

    _counting_hand_painter(monkeypatch)
    session = kit.make_session("mu", 3, seed="gone")
    presenter("mu").hand(session, 0, "en", "", None)
    assert session in pictured._hands
    before = len(pictured._hands)
    del session
    gc.collect()
    assert len(pictured._hands) == before - 1


async def test_a_kept_picture_is_hashed_once_where_it_was_painted(monkeypatch):
    """Every open hand is drawn again after each move at its table, mostly with the same picture: the
    PNG's content hash (its file name) is kept with it, hashed in the painter's thread with the
    table's picture and the hands painted ahead, never again on a redraw."""
    session = kit.make_session("skippo", 3, seed="hashed")
    hands = presenter("skippo")
    expected = [hands.hand(session, seat, "en", "", None) for seat in range(3)]
    pictured._hands.pop(session, None)
    pictured._drawn.clear()
    hashed_in: list[int | str] = []

    def sha256(png: bytes):
        hashed_in.append(threading.get_ident())
        return hashlib.sha256(png)

    monkeypatch.setattr(media, "hashlib", SimpleNamespace(sha256=sha256))
    monkeypatch.setattr(media, "_digest", lambda png: hashed_in.append("again") or hashlib.sha256(png).hexdigest())
    first = await pictured.ahead([functools.partial(hands.hand, session, seat, "en", "", None) for seat in range(3)])
    await pictured.paint_table(session, pictures("skippo"))
    assert len(hashed_in) == 4 and set(hashed_in) == {_painters_thread()}
    hashed_in.clear()
    again = [hands.hand(session, seat, "en", "", None) for seat in range(3)] + hands.table(session, "en", None)
    assert hashed_in == []
    assert [h.fingerprint() for h in first] == [h.fingerprint() for h in again[:3]] == [
        h.fingerprint() for h in expected]
    assert all(p.digest == hashlib.sha256(p.png).hexdigest() for h in again for p in h.pictures)
