"""``bot.transport.webhooks`` sends exactly what discord.py's own calls send (route, query, body, files); it only
leaves Discord's answer unparsed. Checked on the Discord double, request by request."""

from __future__ import annotations

import asyncio
import io
import logging

import aiohttp
import aiohttp.http_writer
import discord
import pytest

from bench.load import route
from bot.ops.metrics import Metrics
from bot.transport import compat, webhooks
from bot.ui.base import StaticLayout, StaticView, button, row, text
from tests.double.test_double import env  # noqa: F401  (the double with the sample bot connected)


@pytest.fixture(autouse=True)
async def tokens(env):  # noqa: F811
    """The sample bot sends through discord.py alone; ``bot.transport.webhooks`` needs the bot's ``tokens``."""
    env.bot.tokens = webhooks.Tokens()
    yield env.bot.tokens
    await env.bot.tokens.close()


def _sent(double) -> tuple:
    r = double.requests[-1]
    assert r.status < 400, r.error
    return r.method, r.path, r.query, r.body, r.files


async def _interaction(env) -> discord.Interaction:  # noqa: F811
    """A live interaction of the sample bot (``/slow`` defers, then follows up)."""
    seen: list[discord.Interaction] = []

    async def grab(interaction: discord.Interaction) -> None:
        seen.append(interaction)

    env.bot.add_listener(grab, "on_interaction")
    r = await env.double.slash(env.ann, env.table, "slow")
    await env.double.wait_until(lambda: r.message.content == "done")
    return seen[0]


def _png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG\r\n\x1a\nnot really"), filename="hand-0123.png", description="alt")


async def test_an_edit_of_the_original_response_is_the_same_request(env):  # noqa: F811
    d, interaction = env.double, await _interaction(env)
    legacy = StaticView([row(button("Play", "st:1:0:0:m:x"))])
    await interaction.edit_original_response(content="a hand", view=legacy, attachments=[_png()])
    theirs = _sent(d)
    data = await webhooks.edit_original(interaction, content="a hand", view=legacy, attachments=[_png()])
    assert _sent(d) == theirs and [a["filename"] for a in data["attachments"]] == ["hand-0123.png"]

    layout = StaticLayout([{"type": 17, "components": [text("Your hand")]}])
    await interaction.edit_original_response(content=None, view=layout, attachments=[])
    theirs = _sent(d)
    data = await webhooks.edit_original(interaction, content=None, view=layout, attachments=[])
    assert _sent(d) == theirs and data["attachments"] == []


async def test_a_follow_up_and_its_edit_are_the_same_requests(env):  # noqa: F811
    d, interaction = env.double, await _interaction(env)
    view = StaticView([row(button("Hand", "st:1:t:hand"))])
    mentions = discord.AllowedMentions(users=[discord.Object(int(env.bob.id))])
    theirs_msg = await interaction.followup.send("your turn", allowed_mentions=mentions, view=view, wait=True)
    theirs = _sent(d)
    data = await webhooks.send_followup(interaction, content="your turn", allowed_mentions=mentions, view=view)
    assert _sent(d) == theirs and int(data["id"]) != theirs_msg.id

    await interaction.followup.send(view=view, files=[_png()], ephemeral=True, wait=True)
    theirs = _sent(d)
    data = await webhooks.send_followup(interaction, view=view, files=[_png()], ephemeral=True)
    assert _sent(d) == theirs and data["flags"] & discord.MessageFlags.ephemeral.flag

    await interaction.followup.edit_message(theirs_msg.id, content="edited", view=view)
    theirs = _sent(d)
    data = await webhooks.edit_followup(interaction, theirs_msg.id, content="edited", view=view)
    assert _sent(d) == theirs and data["content"] == "edited"


async def test_a_click_answered_by_redrawing_its_message_is_the_same_request(env):  # noqa: F811
    d = env.double
    seen: list[discord.Interaction] = []
    both = asyncio.Event()

    async def grab(interaction: discord.Interaction) -> None:
        if interaction.type is discord.InteractionType.component:
            seen.append(interaction)
            if len(seen) == 2:
                both.set()

    env.bot.add_listener(grab, "on_interaction")
    message = d.world.store_message(env.table, {"content": "a table", "components": [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "Flip", "custom_id": "st:1:m:0:0:flip:A1"}]}]})
    mine, theirs_click = (await d.click(env.ann, message, "st:1:m:0:0:flip:A1", expect_ack=False),
                          await d.click(env.ann, message, "st:1:m:0:0:flip:A1", expect_ack=False))
    await asyncio.wait_for(both.wait(), 5)
    layout = StaticLayout([{"type": 17, "components": [text("The table")]}])

    def sent(record) -> tuple:
        r = next(r for r in d.requests if r.path.endswith(f"/{record.token}/callback"))
        assert r.status < 400, r.error
        return r.method, route(r.path), r.query, r.body, r.files

    ours, theirs = seen
    await theirs.response.edit_message(content=None, view=layout, attachments=[_png()])
    data = await webhooks.update_message(ours, content=None, view=layout, attachments=[_png()])
    assert sent(mine) == sent(theirs_click)
    shown = data["resource"]["message"]["attachments"]
    assert ours.response.is_done() and [a["filename"] for a in shown] == ["hand-0123.png"]
    assert theirs_click.callback is not None and mine.callback == theirs_click.callback


async def _unanswered(env, monkeypatch, kind: str, n: int = 2) -> list[tuple[discord.Interaction, object]]:  # noqa: F811
    """``n`` interactions the sample bot leaves unanswered, with the double's records: clicks on a
    button nothing of the bot handles, or ``/slow`` commands kept from the bot's command tree."""
    d, seen, done = env.double, [], asyncio.Event()

    async def grab(interaction: discord.Interaction) -> None:
        seen.append(interaction)
        if len(seen) == n:
            done.set()

    env.bot.add_listener(grab, "on_interaction")
    if kind == "command":
        monkeypatch.setattr(env.bot.tree, "_from_interaction", lambda interaction: None)
        records = [await d.slash(env.ann, env.table, "slow", expect_ack=False) for _ in range(n)]
    else:
        message = d.world.store_message(env.table, {"content": "a table", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "Flip", "custom_id": "st:1:m:0:0:x:A1"}]}]})
        records = [await d.click(env.ann, message, "st:1:m:0:0:x:A1", expect_ack=False) for _ in range(n)]
    await asyncio.wait_for(done.wait(), 5)
    by_id = {str(i.id): i for i in seen}
    return [(by_id[record.id], record) for record in records]


def _callback(d, record) -> tuple:
    r = next(r for r in d.requests if r.path.endswith(f"/{record.token}/callback"))
    assert r.status < 400, r.error
    return r.method, route(r.path), r.query, r.body, r.files


def _last(d) -> tuple:
    method, path, query, body, files = _sent(d)
    return method, route(path), query, body, files


async def test_a_deferred_click_and_its_follow_ups_are_the_same_requests(env, monkeypatch):  # noqa: F811
    d = env.double
    (ours, mine), (theirs, their_record) = await _unanswered(env, monkeypatch, "click")
    await theirs.response.defer()
    await webhooks.defer(ours)
    assert _callback(d, mine) == _callback(d, their_record) and mine.callback == {"type": 6}
    assert ours.response.is_done() and ours.response.type is discord.InteractionResponseType.deferred_message_update

    await theirs.followup.send("not your turn", ephemeral=True)
    sent = _last(d)
    data = await webhooks.send_followup(ours, "not your turn", ephemeral=True)
    assert _last(d) == sent and data["content"] == "not your turn"

    await theirs.followup.delete_message((await theirs.followup.send("a", wait=True)).id)
    deleted = _last(d)
    await webhooks.delete_followup(ours, int(data["id"]))
    assert _last(d) == deleted and d.message(data["id"]).deleted


async def test_a_deferred_command_is_the_same_request(env, monkeypatch):  # noqa: F811
    d = env.double
    (ours, mine), (theirs, their_record) = await _unanswered(env, monkeypatch, "command")
    await theirs.response.defer()
    await webhooks.defer(ours)
    assert _callback(d, mine) == _callback(d, their_record) and mine.callback == {"type": 5}


async def test_an_answer_with_a_message_is_the_same_request(env, monkeypatch):  # noqa: F811
    d = env.double
    (ours, mine), (theirs, their_record), (ours_too, mine_too), (theirs_too, their_too) = await _unanswered(
        env, monkeypatch, "click", 4)
    await theirs.response.send_message("the game is over", ephemeral=True)
    await webhooks.send_message(ours, "the game is over", ephemeral=True)
    assert _callback(d, mine) == _callback(d, their_record) and ours.response.is_done()
    assert mine.callback["data"]["flags"] == discord.MessageFlags.ephemeral.flag

    view = StaticView([row(button("Play", "st:1:0:0:m:x"))])
    await theirs_too.response.send_message(view=view, files=[_png()], ephemeral=True)
    await webhooks.send_message(ours_too, view=view, files=[_png()], ephemeral=True)
    assert _callback(d, mine_too) == _callback(d, their_too) and mine_too.callback["data"]["attachments"]
    with_file = next(r for r in d.requests if r.path.endswith(f"/{mine_too.token}/callback"))
    assert with_file.files == ["hand-0123.png (18 bytes)"]


async def test_answers_on_tokens_are_counted_and_a_refusal_logged_without_the_token(env, monkeypatch, caplog):  # noqa: F811
    d = env.double
    metrics = Metrics()
    env.bot.tokens.observe = metrics.answered
    (refused, _), (answered, _) = await _unanswered(env, monkeypatch, "click")
    d.fault("POST", "/interactions/*/callback", status=404, code=10062)
    caplog.set_level(logging.INFO)
    with pytest.raises(discord.NotFound):
        await webhooks.defer(refused)
    await webhooks.defer(answered)
    assert metrics.requests.labels("interaction")._value.get() == 2
    assert metrics.refused.labels("interaction")._value.get() == 1
    logged = [r.getMessage() for r in caplog.records if r.name == "spieltisch.discord"]
    assert logged == [f"Discord refused POST /api/v10/interactions/{refused.id}/[redacted]/callback: 404 Not Found"]
    assert refused.token not in caplog.text
    caplog.clear()


async def test_an_upload_goes_out_in_one_write_with_the_same_files(env, monkeypatch):  # noqa: F811
    """A picture and its message leave as one piece of bytes (aiohttp writes a multipart body part by
    part, eight writes), and the double reads the same message and the same file from it."""
    d, interaction = env.double, await _interaction(env)
    writes: list[int] = []
    write = aiohttp.http_writer.StreamWriter.write

    async def counted(self, chunk, *args, **kwargs):
        writes.append(len(chunk))
        return await write(self, chunk, *args, **kwargs)

    monkeypatch.setattr(aiohttp.http_writer.StreamWriter, "write", counted)
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    layout = StaticLayout([{"type": 17, "components": [text("Your hand")]}])
    upload = discord.File(compat.Upload(png), filename="hand-0123.png", description="alt")
    data = await webhooks.edit_original(interaction, content=None, view=layout, attachments=[upload])
    assert len(writes) == 1 and writes[0] > len(png)
    assert d.message(data["id"]).files == {"hand-0123.png": png}
    assert data["attachments"][0]["description"] == "alt"
