"""Connecting the pictures: alt text without markdown, a cache that spares repainting an unchanged view,
an empty table without a picture, a hand answered before its new picture is painted, and a
table picture encoded ahead in a thread."""

from __future__ import annotations

import pytest

from bot.pictures import Pictures, sheet
from bot.registry import pictures, presenter
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


async def test_the_writer_encodes_a_table_picture_in_a_thread_and_the_rendering_uses_it(monkeypatch):
    """A table's picture is compressed off the event loop (a computer's move at one table must not hold
    up clicks at others); the rendering after it paints nothing and shows the same picture."""
    import threading

    session = kit.make_session("skippo", 2, seed="ahead")
    pictured._drawn.clear()
    [expected] = presenter("skippo").table(session, "en", None)      # painted here, the usual way
    pictured._drawn.clear()
    sheet.forget()      # no band drawn lately: every band is compressed anew
    real, encoded_in = pictured.deflate, []
    monkeypatch.setattr(pictured, "deflate", lambda rows: encoded_in.append(threading.get_ident()) or real(rows))
    monkeypatch.setattr(Pictures, "table_png", lambda *args: pytest.fail("painted on the event loop"))
    await pictured.paint_table(session, pictures(session.game.key))
    assert len(encoded_in) == 1 and encoded_in[0] != threading.get_ident()
    [table] = presenter("skippo").table(session, "en", None)
    assert table.pictures == expected.pictures
    await pictured.paint_table(session, pictures(session.game.key))     # already painted: nothing to do
    assert len(encoded_in) == 1


async def test_no_picture_is_painted_ahead_for_a_table_without_one(monkeypatch):
    painted = []
    monkeypatch.setattr(Pictures, "table_plan", lambda *args: painted.append(args))
    pictured._drawn.clear()
    await pictured.paint_table(kit.make_session("calcory", 2, seed="ahead"), None)      # no pictures in Calcory
    off = kit.make_session("skippo", 2, seed="ahead")
    off.pictures = False        # the lobby's setting
    await pictured.paint_table(off, pictures(off.game.key))
    assert painted == []


async def test_a_table_whose_bands_were_all_drawn_lately_is_painted_without_compressing_or_a_thread(monkeypatch):
    import threading

    session = kit.make_session("skippo", 2, seed="ahead")
    pictured._drawn.clear()
    [expected] = presenter("skippo").table(session, "en", None)      # every band drawn and kept
    pictured._drawn.clear()
    real, compressed = pictured.deflate, []
    monkeypatch.setattr(pictured, "deflate", lambda rows: compressed.append((rows, threading.get_ident())) or real(rows))
    await pictured.paint_table(session, pictures(session.game.key))
    assert compressed == [([], threading.get_ident())]
    [table] = presenter("skippo").table(session, "en", None)
    assert table.pictures == expected.pictures


async def test_a_few_changed_bands_are_compressed_on_the_event_loop(monkeypatch):
    """Handing a few kilobytes to a thread and back costs more than compressing them."""
    import threading

    session = kit.make_session("skippo", 2, seed="ahead")
    pictured._drawn.clear()
    sheet.forget()
    monkeypatch.setattr(pictured, "INLINE_BYTES", 10**9)
    real, compressed = pictured.deflate, []
    monkeypatch.setattr(pictured, "deflate", lambda rows: compressed.append((len(rows), threading.get_ident())) or real(rows))
    await pictured.paint_table(session, pictures(session.game.key))
    assert len(compressed) == 1 and compressed[0][0] > 0 and compressed[0][1] == threading.get_ident()


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
