"""What the click path reads of the clicked message (``bot.transport.clicked``, built from the payload in
place of discord.py's ``Message``) is what discord.py's parse of the same payload says, pictures'
attachment ids included, and it still refuses what a tampered client sends (``test_forged_input`` and
``test_bad_input`` go through this path too). Every interaction is discord.py's own."""

from __future__ import annotations

import asyncio

import discord

from bot.transport import clicked, ids, media
from bot.transport.clicked import clicked_message
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_bad_input import refused


class _Seen(list):
    """The interactions the bot's ``on_interaction`` listeners get, as they get them, and each one's
    clicked message with the click path's reading of it, taken then: a handled click lets go of its
    message (``clicked.let_go``)."""

    def __init__(self, env) -> None:
        super().__init__()
        self.more = asyncio.Event()
        self.messages: dict[int, object] = {}
        self.reads: dict[int, clicked.ClickedMessage | None] = {}
        env.bot.add_listener(self._grab, "on_interaction")

    async def _grab(self, interaction: discord.Interaction) -> None:
        self.messages[interaction.id] = interaction.message
        self.reads[interaction.id] = clicked_message(interaction)
        self.append(interaction)
        self.more.set()

    async def until(self, count: int) -> None:
        while len(self) < count:
            self.more.clear()
            await asyncio.wait_for(self.more.wait(), 5)


def _payload(env, interaction: discord.Interaction) -> dict:
    return env.double.world.interactions[interaction.token].payload


def _on(components) -> set[str]:
    """Every custom_id on discord.py's parsed components (rows, containers, sections' accessories)."""
    out: set[str] = set()
    for component in components:
        if getattr(component, "custom_id", None) is not None:
            out.add(component.custom_id)
        nested = list(getattr(component, "children", ()))
        if getattr(component, "accessory", None) is not None:
            nested.append(component.accessory)
        out |= _on(nested)
    return out


def _pictures(env, message) -> dict:
    """What discord.py's parse of the clicked message says it shows: per gallery item or thumbnail
    unfurled from an upload, its description and ``attachment_id``, named after the bytes the double
    holds for that id (a picture's name is its content hash), and the attachments it lists."""
    blobs = env.double.world.messages[str(message.id)].blobs
    kind = "hand" if message.flags.ephemeral else "table"
    out = {(a.filename, a.description or ""): a.id for a in message.attachments}
    todo = list(message.components)
    while todo:
        component = todo.pop()
        items = getattr(component, "items", None) or ([component] if hasattr(component, "media") else [])
        for item in items:
            if item.media.attachment_id is not None:
                name = media.Picture(blobs[str(item.media.attachment_id)], "", kind).name
                out[name, item.description or ""] = item.media.attachment_id
        todo.extend(getattr(component, "children", ()))
        if getattr(component, "accessory", None) is not None:
            todo.append(component.accessory)
    return out


def _as_discord_py_reads(env, interaction: discord.Interaction) -> discord.Message:
    """discord.py's own parse of the clicked message in the same gateway payload."""
    return discord.Message(state=env.bot._connection, channel=interaction.channel,
                           data=_payload(env, interaction)["message"])


async def test_a_click_reads_the_clicked_message_as_discord_py_parses_it(env):
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])         # pictures on: tables and hands carry PNGs
    seen = _Seen(env)
    seat = min(session.to_act())
    await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
    clicks = [i for i in seen if i.type is discord.InteractionType.component]
    assert clicks and all(type(i) is discord.Interaction and isinstance(seen.messages[i.id], clicked.ClickedMessage)
                          and seen.reads[i.id] is seen.messages[i.id] for i in clicks)

    ephemeral = set()
    for click in clicks:
        read, parsed = seen.reads[click.id], _as_discord_py_reads(env, click)
        assert read is not None and read.id == parsed.id and read.flags == parsed.flags
        assert read.custom_ids == _on(parsed.components) and read.carries(click.data["custom_id"])
        assert not read.carries(click.data["custom_id"] + "x")
        assert media.shown_on(read) == _pictures(env, parsed)
        ephemeral.add(read.flags.ephemeral)
    # the Hand button on the public table, then the move in the private hand
    assert ephemeral == {False, True}
    assert any(media.shown_on(seen.reads[c.id]) for c in clicks), "no click came from a message with pictures"
    assert all(c.message is None and clicked_message(c) is None for c in clicks), "a handled click kept its message"


async def test_nested_components_are_found_where_discord_py_finds_them(env):
    """Components V2: a container with a text, a section whose accessory is a button, and rows."""
    await env.double.slash(env.ann, env.channel, "start", game="safaru")
    session = env.session()
    rules, lang, panel_op = (ids.lobby(session.id, op) for op in ("rules", "lang", "opt"))
    v2 = env.double.world.store_message(env.channel, {"components": [
        {"type": 17, "components": [
            {"type": 10, "content": "A table"},
            {"type": 9, "components": [{"type": 10, "content": "The house rules"}],
             "accessory": {"type": 2, "style": 2, "label": "Rules", "custom_id": rules}},
            {"type": 1, "components": [{"type": 3, "custom_id": lang, "options": [
                {"label": "English", "value": "en"}]}]}]},
        {"type": 1, "components": [{"type": 3, "custom_id": panel_op, "options": [
            {"label": "Pictures", "value": "pictures"}]}]}]},
        flags=discord.MessageFlags(components_v2=True).value)
    seen = _Seen(env)
    panel = await env.double.click(env.ann, v2, rules)     # the accessory: answered with the private panel
    await env.settle()
    read = seen.reads[seen[-1].id]
    assert read is not None
    assert read.custom_ids == {rules, lang, panel_op} == _on(_as_discord_py_reads(env, seen[-1]).components)
    assert not read.flags.ephemeral and panel.message.ephemeral_to == env.ann.id

    # What the click path refuses from it: an id that is not on it (a tampered client), and a
    # house-rules panel step from a message everyone sees (its answer would redraw it in public).
    refused(await env.double.forge_click(env.ann, v2, ids.lobby(session.id, "leave")),
            "That button is not on this message, so nothing happened.")
    refused(await env.double.select(env.ann, v2, panel_op, ["pictures"]),
            "That button only works in a message that only you can see, so nothing happened.")


async def test_a_click_on_a_foreign_component_is_left_unanswered(env):
    """Not our custom_id (say, another app's old button on a message): no answer from the bot."""
    seen = _Seen(env)
    started = await env.double.slash(env.ann, env.channel, "start", game="safaru")
    foreign = await env.double.forge_click(env.bob, started.message, "other:button", expect_ack=False)
    await seen.until(2)
    await env.settle()
    assert seen[-1].message.id == int(started.message.id) and foreign.callback is None


async def test_a_click_reads_the_clicked_message_once(env, monkeypatch):
    """Each reading walks every component of the message; a move in the hand asks for it where the
    click's custom_id is checked and again where its answer keeps the hand's pictures: one reading."""
    read = []
    walk = clicked._custom_ids
    monkeypatch.setattr(clicked, "_custom_ids", lambda components: read.append(1) or walk(components))
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])
    seen = _Seen(env)
    seat = min(session.to_act())
    read.clear()
    await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
    clicks = [i for i in seen if i.type is discord.InteractionType.component]
    assert clicks and len(read) == len(clicks), (len(read), len(clicks))
    assert all(clicked_message(c) is clicked_message(c) for c in clicks)


async def test_discord_py_builds_no_message_object_for_a_clicked_message(env, monkeypatch):
    """discord.py's parse of the clicked message, an object per component that the click path turned
    back into dicts, was about 4 % of the event loop at a thousand tables."""
    built = []
    init = discord.Message.__init__

    def counted(self, *, state, channel, data) -> None:
        built.append(int(data["id"]))
        init(self, state=state, channel=channel, data=data)

    monkeypatch.setattr(discord.Message, "__init__", counted)
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])
    seen = _Seen(env)
    seat = min(session.to_act())
    await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
    clicks = [i for i in seen if i.type is discord.InteractionType.component]
    on = {int(_payload(env, click)["message"]["id"]) for click in clicks}
    assert clicks and on and not on & set(built)
