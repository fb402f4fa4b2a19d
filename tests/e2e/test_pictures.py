"""Pictures on Discord, with the toy game: the table and hands carry their picture as an attachment,
a picture is uploaded when it changed and only then, its alt text goes with it, and a table with
pictures off sends none. Every request passes the double, which checks uploads as Discord does."""

from __future__ import annotations

import pytest

import games
from bot import registry
from bot.transport import ids
from bot.ui import options as options_ui
from tests.e2e import outside as O
from tests.e2e import toy_table
from tests.host.toy_game import GAME

SEATS = ("ann", "cem")


@pytest.fixture
async def toy(env, monkeypatch):
    """A running toy game between ann and cem, its table posted; the test plays it."""
    monkeypatch.setitem(games.REGISTRY, "toy", GAME)
    monkeypatch.setitem(registry.ENTRIES, "toy", registry.Entry(GAME, None, toy_table.PRESENTER, None))

    async def start(*, pictures: bool = True):
        bot = env.bot
        host = env.users[SEATS[0]]
        session = await bot.sessions.open_lobby(int(env.guild.id), int(env.channel.id), "toy", int(host.id),
                                                host.name, "en", lobby_ttl=600)
        await bot.sessions.join(session, int(env.users[SEATS[1]].id), SEATS[1])
        await bot.sessions.set_option(session, int(host.id), "rounds", 3)
        if not pictures:
            await bot.sessions.set_pictures(session, int(host.id), "off")
        await bot.sessions.start(session, int(host.id))
        bot.tables.started(session)
        await env.settle()
        env.seen[int(env.channel.id)] = session.id
        return session

    return start


def user_at(env, session, seat: int):
    return next(u for u in env.users.values() if int(u.id) == session.seats[seat].user_id)


def uploads(double, since: int) -> list[str]:
    """File names uploaded by the requests after the first ``since``."""
    return [name.split(" (")[0] for r in list(double.requests)[since:] for name in r.files]


def gallery_items(message) -> list[dict]:
    return [item for c in message.components for part in c.get("components", [c]) if part.get("type") == 12
            for item in part["items"]]


async def click_move(env, session, message, key: str):
    """The player to act clicks ``key`` (pass or swap) on ``message`` (the table or their hand)."""
    seat = next(iter(session.to_act()))
    custom_id = ids.move(session.id, seat, session.counters[seat], key)
    await env.double.click(user_at(env, session, seat), message, custom_id)
    await env.settle()


async def test_the_table_and_hands_carry_pictures_uploaded_only_when_they_change(env, toy):
    d = env.double
    session = await toy()
    [table] = env.table_messages()
    view = session.view(None)
    assert table.attachments == []          # Discord lists only the files nothing on the message shows
    [attachment] = table.shown
    name = attachment["filename"]
    assert name.startswith("table-") and name.endswith(".png") and len(name) == len("table-.png") + 12
    assert table.file(name) == toy_table.table_png(view)
    assert attachment["description"] == toy_table.table_alt(view) and attachment["content_type"] == "image/png"
    [item] = gallery_items(table)
    assert item["description"] == toy_table.table_alt(view) and item["media"]["attachment_id"] == attachment["id"]
    assert toy_table.table_alt(view) in table.text         # the text says the same

    # ann opens her hand: an ephemeral message with her card's picture
    ann = env.users["ann"]
    opened = await d.click(ann, table, ids.table(session.id, "hand"))
    await env.settle()
    hand = await O.hand_of(d, opened)
    seat = session.seat_of(int(ann.id))
    [hand_file] = hand.shown
    assert hand_file["filename"].startswith("hand-") and hand.ephemeral
    assert hand.file(hand_file["filename"]) == toy_table.hand_png(session.view(seat))
    assert hand_file["description"] == toy_table.hand_alt(session.view(seat))

    # A pass changes the table's text but not its picture: edited in place, nothing uploaded.
    before = len(d.requests)
    await click_move(env, session, table, "pass")
    assert "Turn 2" in table.text and table.shown == [attachment]
    assert uploads(d, before) == []
    assert gallery_items(table)[0]["media"]["attachment_id"] == attachment["id"]

    # A swap puts a card on the discard pile: the table's new picture replaces the old one, and
    # ann's open hand (its picture counts the discard pile) is refreshed with its new picture.
    before = len(d.requests)
    await click_move(env, session, table, "swap")
    [new] = table.shown
    assert new["filename"] != name and table.file(new["filename"]) == toy_table.table_png(session.view(None))
    assert hand.shown[0]["filename"] != hand_file["filename"]
    assert hand.file(hand.shown[0]["filename"]) == toy_table.hand_png(session.view(seat))
    assert sorted(uploads(d, before)) == sorted([new["filename"], hand.shown[0]["filename"]])

    # Moves from the hand: the writer redraws the table through the token of the click that
    # opened the hand on it (the interaction's webhook route), again uploading only a picture that
    # changed.
    shown = table.shown
    before = len(d.requests)
    mover = user_at(env, session, next(iter(session.to_act())))
    mover_hand = await O.hand_of(d, await d.click(mover, table, ids.table(session.id, "hand")))
    await env.settle()
    await click_move(env, session, mover_hand, "pass")
    assert table.shown == shown and "Turn 4" in table.text
    assert [r.path.split("/")[-1] for r in list(d.requests)[before:] if r.method == "PATCH"
            and (r.path.startswith("/channels/") or r.path.endswith("/@original"))] == ["@original"]
    assert [u for u in uploads(d, before) if u.startswith("table-")] == []
    before = len(d.requests)
    mover = user_at(env, session, next(iter(session.to_act())))
    mover_hand = await O.hand_of(d, await d.click(mover, table, ids.table(session.id, "hand")))
    await env.settle()
    await click_move(env, session, mover_hand, "swap")
    assert table.shown[0]["filename"] != shown[0]["filename"]
    assert [u for u in uploads(d, before) if u.startswith("table-")] == [table.shown[0]["filename"]]
    assert d.errors == []


async def test_a_table_with_pictures_off_sends_no_file(env, toy):
    d = env.double
    session = await toy(pictures=False)
    [table] = env.table_messages()
    assert table.shown == [] and gallery_items(table) == []
    hand = await O.hand_of(d, await d.click(env.users["ann"], table, ids.table(session.id, "hand")))
    await env.settle()
    assert hand.shown == [] and "Your card" in hand.text
    await click_move(env, session, table, "swap")
    assert all(not r.files for r in d.requests) and d.errors == []


async def test_the_host_turns_pictures_off_in_the_lobby_and_the_table_is_text_only(env):
    d = env.double
    lobby = (await d.slash(env.ann, env.channel, "start", game="calcory")).message
    session = env.session()
    await d.click(env.cem, lobby, ids.lobby(session.id, "join"))
    pick, off = ids.lobby(session.id, "opt"), ids.lobby(session.id, "pictures:off")
    assert "Table settings" in lobby.labels and session.pictures

    theirs = (await d.click(env.cem, lobby, ids.lobby(session.id, "rules"))).message
    await d.select(env.cem, theirs, pick, [options_ui.PICTURES])
    refused = await d.click(env.cem, theirs, off)
    assert refused.message.text == "Only the host can do that." and session.pictures

    panel = (await d.click(env.ann, lobby, ids.lobby(session.id, "rules"))).message
    assert "Pictures of table and hand: **on**" in panel.text
    await d.select(env.ann, panel, pick, [options_ui.PICTURES])
    await d.click(env.ann, panel, off)
    await env.settle()
    assert "Pictures of table and hand: **off**" in panel.text
    assert "Pictures: **off** (text only)" in lobby.text
    assert (await env.bot.storage.session(session.id)).pictures is False

    await d.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    assert env.table_messages() and not any(r.files for r in d.requests) and d.errors == []

