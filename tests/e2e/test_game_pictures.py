"""Every game with pictures, played on the double: the table carries its picture in a media gallery
with the alt text, the picture follows the state (uploaded when it changed, and only then), the hand
carries the player's own cards, and a table with pictures off sends no file at all."""

from __future__ import annotations

import io
import random
import threading
from contextvars import ContextVar

import pytest
from PIL import Image

import games
from bot.i18n import t
from bot.pictures import Pictures
from bot.play.writer import TableWriter
from bot.registry import pictures, presenter, with_pictures
from bot.tables.diabolo.presenter import label as diabolo_label
from bot.tables.kapado.presenter import label as kapado_label
from bot.ui import pictured
from bot.ui.cards import label as card_label
from bot.ui.pictured import plain
from tests.double import visible_texts
from tests.e2e.game_driver import GameDriver

PLAYERS = ("ann", "cem", "dia", "bob", "mod")
#: Moves watched per game; some of them change what lies on the table.
MOVES = 10
_EDGE = ":·,()|┃→*\U0001f441\ufe0f"


def players(key: str) -> list[str]:
    return list(PLAYERS[:games.REGISTRY[key].min_players])


def gallery_items(message) -> list[dict]:
    stack, out = list(message.components), []
    while stack:
        comp = stack.pop(0)
        out += comp.get("items", []) if comp.get("type") == 12 else []
        stack[0:0] = comp.get("components") or []
    return out


def table_uploads(double, since: int) -> list[str]:
    """Table pictures uploaded by the requests after the first ``since``."""
    return [name.split(" (")[0] for r in list(double.requests)[since:] for name in r.files
            if name.startswith("table-")]


def png_ok(data: bytes) -> bool:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.format == "PNG" and image.width > 0 and len(data) <= 200_000


def words(text: str) -> set[str]:
    return {word.strip(_EDGE) for word in plain(text).split()} - {""}


def alt_names(key: str, cards) -> str:
    """The cards as the hand's text names them."""
    name = {"kapado": kapado_label, "diabolo": diabolo_label}.get(key, card_label)
    if key in ("dacapo", "skippo"):
        return " ".join(presenter(key).card(games.REGISTRY[key], c) for c in cards)
    return " ".join(name(c) for c in cards)


def check_table(drive: GameDriver, table) -> dict:
    """The table's one picture is the public view's, shown by the gallery with the alt text that the
    table's own text says too; returns its attachment."""
    session = drive.session
    assert table.attachments == []      # shown by its gallery, so not listed (message.mdx)
    [attachment] = table.shown
    data = table.file(attachment["filename"])
    assert png_ok(data) and data == pictures(session.game.key).table_png(session.game.view(session.state, None))
    [item] = gallery_items(table)
    alt = attachment["description"]
    assert item["description"] == alt and item["media"]["attachment_id"] == attachment["id"]
    [rendered] = presenter(session.game.key).table(session, session.lang, drive.env.bot.tables.shown_line(session))
    assert alt == rendered.pictures[0].alt and 0 < len(alt) <= 1024
    assert words(alt) <= words(table.text), f"the alt text says what the table's text does not: {alt!r}"
    return attachment


@pytest.mark.parametrize("key", sorted(with_pictures()))
async def test_the_table_and_hand_pictures_follow_the_game(env, key: str) -> None:
    d = env.double
    drive = GameDriver(env, key)
    session = await drive.start(players(key))
    [table] = env.table_messages()
    rng = random.Random(key)
    # Mü's table has no picture until a card lies face up on it
    await drive.play_out(rng, until=lambda s: bool(table.shown), max_moves=40)
    shown = check_table(drive, table)

    changed = 0
    for _ in range(MOVES):
        if session.status != "playing":
            break
        before, old = len(d.requests), table.file(shown["filename"])
        seat = rng.choice(sorted(session.to_act()))
        record = await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        if session.status == "playing":  # the move's answer redrew the hand with its new picture
            hand = drive.hand_message(seat)
            drawn = presenter(key).hand(session, seat, drive.lang_of(seat), "", None).pictures
            assert [(hand.file(a["filename"]), a["description"]) for a in hand.shown] == \
                [(p.png, p.alt) for p in drawn]
            answer = (record.callback or {}).get("data") or {}
            if record.message is hand and "attachments" in answer:
                assert [a["filename"] for a in answer["attachments"]] == [p.name for p in drawn]
        if not table.shown:
            continue  # Mü between hands: nothing lies on the table
        now = check_table(drive, table)
        if now["filename"] == shown["filename"]:
            assert table_uploads(d, before) == [], "an unchanged table picture was uploaded again"
        else:
            changed += 1
            assert table.file(now["filename"]) != old and table_uploads(d, before) == [now["filename"]]
        shown = now
    assert changed, f"{key}: no move changed the table picture"
    drive.check_channel_private(rng)

    seat = next(iter(sorted(session.to_act())), 0)
    hand = await drive.open_hand(seat)
    lang = drive.lang_of(seat)
    view = session.game.view(session.state, seat)
    playable = presenter(key).playable(session, seat)
    [attachment] = hand.shown
    data = hand.file(attachment["filename"])
    assert attachment["filename"].startswith("hand-") and hand.ephemeral and png_ok(data)
    assert data == pictures(key).hand_png(view, frozenset(playable))
    alt = attachment["description"].splitlines()
    if playable:  # the last line names the cards standing up in the picture
        assert alt.pop() == t(lang, "table.playable", cards=alt_names(key, playable))
    assert alt and words("\n".join(alt)) <= words(" ".join(visible_texts(hand.payload)))
    assert d.errors == []


async def test_the_writer_paints_the_table_and_the_open_hands_in_the_painters_thread(env, monkeypatch) -> None:
    """After a move the writer lays out the table's picture and paints the open hands whose cards
    changed in its painter's thread, so clicks at other tables do not queue behind them in the event
    loop; only the click's own answer (the mover's hand) is painted where the click is answered.
    Every picture shown is the one painted the usual way."""
    key = "skippo"
    pictured._drawn.clear()         # the tables drawn by the tests before (the same seeded game) are painted anew
    drive = GameDriver(env, key)
    session = await drive.start(players(key))
    seats = range(len(session.seats))
    for seat in seats:
        await drive.open_hand(seat)
    refreshing: ContextVar[bool] = ContextVar("refreshing", default=False)
    real_refresh = TableWriter._refresh_hands

    async def refresh(self, *args):
        refreshing.set(True)        # in the writer's task only: its context is its own
        await real_refresh(self, *args)

    monkeypatch.setattr(TableWriter, "_refresh_hands", refresh)
    painted = {method: _painted_where(monkeypatch, method, refreshing) for method in ("table_plan", "hand_png")}

    rng = random.Random(key)
    for _ in range(MOVES):
        seat = rng.choice(sorted(session.to_act()))
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        await drive.open_hand(seat)     # kept open, as the others are, while they play
    loop = threading.get_ident()
    assert [writer for thread, writer in painted["hand_png"] if thread == loop and writer] == []
    assert painted["table_plan"] and loop not in {thread for thread, _ in painted["table_plan"]}
    painter = pictured.PAINTER.submit(threading.get_ident).result()
    assert {thread for thread, _ in painted["table_plan"]} == {painter}
    assert any(thread == painter for thread, _ in painted["hand_png"])
    check_table(drive, env.table_messages()[0])
    for seat in seats:
        hand = drive.hand_message(seat)
        drawn = presenter(key).hand(session, seat, drive.lang_of(seat), "", None).pictures
        assert [(hand.file(a["filename"]), a["description"]) for a in hand.shown] == [(p.png, p.alt) for p in drawn]
    assert env.double.errors == []


def _painted_where(monkeypatch, method: str, refreshing: ContextVar[bool]) -> list[tuple[int, bool]]:
    """Each call of ``Pictures.<method>`` from now on: its thread, and whether the writer's redraw of
    the open hands asked for it."""
    real, seen = getattr(Pictures, method), []

    def recorded(self, *args):
        seen.append((threading.get_ident(), refreshing.get()))
        return real(self, *args)

    monkeypatch.setattr(Pictures, method, recorded)
    return seen


@pytest.mark.parametrize("key", sorted(with_pictures()))
async def test_with_pictures_off_no_file_is_sent(env, key: str) -> None:
    d = env.double
    drive = GameDriver(env, key)
    session = await drive.start(players(key), pictures=False)
    rng = random.Random(key)
    await drive.play_out(rng, max_moves=6)
    hand = await drive.open_hand(next(iter(sorted(session.to_act())), 0))
    [table] = env.table_messages()
    assert table.shown == [] and gallery_items(table) == [] and hand.shown == []
    assert not any(r.files for r in d.requests) and d.errors == []


async def test_an_unchanged_picture_is_not_uploaded_again_after_a_restart(env) -> None:
    """What each table message shows is stored with its id: the first redraw after a restart keeps
    the pictures by it instead of uploading every one again, and so do the moves after it."""
    d = env.double
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])
    rng = random.Random("restart")
    await drive.play_out(rng, max_moves=2)
    tables = env.table_messages()
    shown = [m.shown for m in tables]
    assert any(shown) and env.session().messages["shown"] == {
        m.id: [[a["filename"], a["description"], int(a["id"])] for a in m.shown] for m in tables}

    await env.stop_bot()
    before, edits = len(d.requests), [len(m.history) for m in tables]
    await env.start_bot()
    await env.settle()
    assert [len(m.history) for m in tables] > edits            # redrawn after the restart ...
    assert [m.shown for m in tables] == shown and table_uploads(d, before) == []      # ... keeping its pictures
    session = drive.session          # the restored session
    seat = rng.choice(sorted(session.to_act()))
    await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
    kept = {a["filename"] for m in tables for a in m.shown} & {a["filename"] for s in shown for a in s}
    assert not kept & set(table_uploads(d, before)) and d.errors == []


async def test_a_picture_remembered_wrongly_is_uploaded_again(env, caplog) -> None:
    """A kill between an edit and storing what it showed leaves an id the message no longer has:
    Discord refuses to keep it (50035), and the table is redrawn with its picture uploaded."""
    d = env.double
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])
    [table] = [m for m in env.table_messages() if m.shown]
    [shown] = table.shown
    await env.bot.sessions.set_messages(session, shown={table.id: [[shown["filename"], "older words", 999]]})
    await env.stop_bot()
    before = len(d.requests)
    await env.start_bot()
    await env.settle()
    [refused] = d.errors
    assert (refused.status, refused.code) == (400, 50035) and refused.path.endswith(f"/messages/{table.id}")
    assert [a["filename"] for a in table.shown] == [shown["filename"]] == table_uploads(d, before)
    assert "does not show the pictures remembered for it" in caplog.text
