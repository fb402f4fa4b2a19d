"""What ``bot.transport.compat`` relies on in the pinned discord.py: a new discord.py that renames, removes or
changes one of these fails here, before a game notices."""

from __future__ import annotations

import gc
import inspect
import os
import re
from types import SimpleNamespace

import aiohttp.payload
import discord
import discord.http
import discord.interactions
import pytest
from discord.enums import InteractionResponseType
from discord.interactions import InteractionResponse
from discord.webhook.async_ import AsyncWebhookAdapter

from bot.app import Spieltisch
from bot.ops.config import Settings
from bot.transport import compat, media
from bot.transport.clicked import ClickedMessage
from bot.ui.base import StaticLayout, StaticView, button, row, text


def _params(function) -> set[str]:
    return set(inspect.signature(function).parameters)


def test_the_webhook_adapter_is_the_one_interactions_send_through_and_takes_what_we_pass():
    assert isinstance(compat.webhook_adapter(), AsyncWebhookAdapter)
    sending = {"session", "proxy", "proxy_auth"}
    assert {"interaction_id", "token", "params"} | sending <= _params(AsyncWebhookAdapter.create_interaction_response)
    assert {"application_id", "token", "payload", "multipart", "files"} | sending <= _params(
        AsyncWebhookAdapter.edit_original_interaction_response)
    assert {"webhook_id", "token", "message_id", "payload", "multipart", "files", "with_components"} | sending <= (
        _params(AsyncWebhookAdapter.edit_webhook_message))
    assert {"webhook_id", "token", "payload", "multipart", "files", "wait", "with_components"} | sending <= _params(
        AsyncWebhookAdapter.execute_webhook)
    assert {"webhook_id", "token", "message_id"} | sending <= _params(AsyncWebhookAdapter.delete_webhook_message)


async def test_an_error_raised_by_the_session_leaves_the_adapter_at_once():
    """``bot.transport.webhooks.Tokens`` ends a request on a spent token by raising from the session: the
    adapter must not retry it (it retries only some OSErrors)."""
    calls = []

    class Session:
        def request(self, *args, **kwargs):
            calls.append(args)
            raise discord.DiscordServerError(SimpleNamespace(status=503, reason="Service Unavailable"), "down")

    with pytest.raises(discord.DiscordServerError):
        await compat.webhook_adapter().delete_webhook_message(1, "token", 2, session=Session())
    assert len(calls) == 1


def test_responded_makes_the_response_done_with_its_type():
    response = InteractionResponse(SimpleNamespace())
    assert not response.is_done()
    compat.responded(SimpleNamespace(response=response), InteractionResponseType.deferred_message_update)
    assert response.is_done() and response.type is InteractionResponseType.deferred_message_update


def test_the_api_base_is_where_every_route_goes(monkeypatch):
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    compat.point_api_at("http://127.0.0.1:9/api/v10/")
    assert discord.http.Route("GET", "/gateway").url == "http://127.0.0.1:9/api/v10/gateway"


def test_discord_py_is_the_pinned_version():
    """The checks above are of this version; a new pin re-reads ``bot.transport.compat`` against it."""
    with open("pyproject.toml", encoding="utf-8") as pyproject:
        assert f'"discord.py=={discord.__version__}"' in pyproject.read()


def test_a_settled_interaction_and_its_response_no_longer_refer_to_each_other():
    """A cycle here outlived every click the writer kept a token of (``bot.play.heap``)."""
    interaction = SimpleNamespace()
    interaction.response = InteractionResponse(interaction)
    compat.responded(interaction, InteractionResponseType.message_update)
    assert interaction in gc.get_referents(interaction.response)
    compat.settled(interaction)
    assert interaction not in gc.get_referents(interaction.response)
    assert interaction.response.is_done() and interaction.response.type is InteractionResponseType.message_update


def test_an_uploaded_picture_leaves_nothing_for_the_cyclic_collector():
    """discord.py stubs a file's ``close`` while sending it and puts the file's own bound ``close``
    back after: kept on a ``BytesIO``, a cycle with the PNG in it, one per picture uploaded, that only
    a full collection frees (the bot's collector freezes what lives for two seconds)."""
    picture = media.Picture(b"\x89PNG picture bytes", "alt")
    gc.disable()
    try:
        gc.collect()
        file = picture.file()
        file.fp.close()                 # the stub: sending does not close it
        assert file.fp.read() == picture.png
        file.reset()
        file.close()                    # discord.py after the request
        assert file.fp.read() == picture.png and "close" not in vars(file.fp)
        del file
        assert gc.collect() == 0
    finally:
        gc.enable()


async def test_the_bots_http_client_walks_its_rate_limit_buckets_once_they_have_doubled(monkeypatch):
    """discord.py walked every bucket at each one it added past 256: a bucket per channel and route,
    thousands at a thousand tables. Unused ones (five minutes) still go, and no more than twice as
    many as are in use are held."""
    walked = 0
    inactive = discord.http.Ratelimit.is_inactive

    def counted(bucket):
        nonlocal walked
        walked += 1
        return inactive(bucket)

    monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)
    bot = Spieltisch(Settings(token="t"))
    http = bot.http
    for n in range(2000):
        http.get_ratelimit(f"DELETE /channels/{{channel_id}}/messages/{{message_id}}:{n}")
    assert len(http._buckets) == 2000
    assert walked < 4 * 2000        # discord.py alone: about two million (each of 256 ... 1,999 walked at every add)

    for bucket in http._buckets.values():
        bucket._last_request -= 301     # unused for over five minutes
    live = [http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{n}") for n in range(2200)]
    assert len(http._buckets) < 2 * len(live)
    assert all(http._buckets[f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{n}"] is bucket
               for n, bucket in enumerate(live))


def test_an_interactions_clicked_message_is_built_by_the_one_name_read_clicked_replaces(monkeypatch):
    """``Interaction._from_data`` builds the clicked message by the module's name ``Message``, and nothing
    else in that module builds one by it. The bot's client reads it as a ``ClickedMessage``; any other
    client in the process (the test double's sample bot) still gets discord.py's ``Message``."""
    source = inspect.getsource(discord.interactions)
    assert "data=data['message'])" in inspect.getsource(discord.Interaction._from_data)
    assert len(re.findall(r"(?<![\w.])Message\(", source)) == 1
    monkeypatch.setattr(discord.interactions, "Message", discord.interactions.Message)
    ours, other = discord.Client(intents=discord.Intents.none()), discord.Client(intents=discord.Intents.none())
    compat.read_clicked(ours, ClickedMessage)
    data = {"id": "7", "channel_id": "3", "flags": 64, "components": [], "attachments": [], "embeds": [],
            "author": {"id": "5", "username": "bot", "discriminator": "0", "avatar": None}, "content": "",
            "timestamp": "2026-11-29T00:00:00+00:00", "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "pinned": False, "type": 0}
    read = discord.interactions.Message(state=ours._connection, channel=None, data=data)
    assert isinstance(read, ClickedMessage) and read.id == 7 and read.flags.ephemeral
    parsed = discord.interactions.Message(state=other._connection, channel=None, data=data)
    assert type(parsed) is discord.Message and parsed.id == 7 and parsed.flags.ephemeral


def test_an_uploads_parts_hold_each_file_as_its_reader_and_lean_files_passes_its_bytes():
    """discord.py gives ``aiohttp.FormData.add_field`` one dict per part, a file's ``value`` its file
    object; ``lean_files`` hands the same bytes as a payload, and leaves a file past its bound alone."""
    png, gif = b"\x89PNG" + bytes(3000), b"GIF89a" + bytes(compat.LEAN_UP_TO)
    files = [discord.File(compat.Upload(png), filename="hand-0123.png"), discord.File(compat.Upload(gif), filename="a.gif")]
    params = discord.http.handle_message_parameters(content="x", files=files)
    assert [part["value"] for part in params.multipart[1:]] == [file.fp for file in files]
    lean = compat.lean_files(params)
    payload_json, picture, big = lean.multipart
    assert payload_json == params.multipart[0] and big == params.multipart[2]
    assert isinstance(picture["value"], aiohttp.payload.BytesPayload)
    assert picture["value"].decode("latin-1").encode("latin-1") == png
    assert {**picture, "value": None} == {**params.multipart[1], "value": None}
    assert lean.files == params.files and lean.payload is None
    plain = discord.http.handle_message_parameters(content="x")
    assert compat.lean_files(plain) is plain


async def test_a_static_views_own_state_is_set_up_when_discord_py_first_reads_it(monkeypatch):
    """Rendering a view draws no random id (``os.urandom``, a system call per rendering) and makes no
    future; sending it reads only what the bot's views override; anything else of discord.py's sets the
    view up as its ``__init__`` would."""
    drawn = []
    real = os.urandom
    monkeypatch.setattr(os, "urandom", lambda n: drawn.append(n) or real(n))
    layout = StaticLayout([{"type": 17, "components": [text("Your hand")]}])
    legacy = StaticView([row(button("Hand", "st:1:t:hand"))])
    for view in (layout, legacy):
        params = discord.http.handle_message_parameters(content="x", view=view)
        assert params.payload["components"] == view.components and not view.is_dispatchable()
    assert drawn == [] and discord.http.handle_message_parameters(view=layout).payload["flags"] == 1 << 15
    assert "flags" not in discord.http.handle_message_parameters(view=legacy).payload
    assert not layout.is_finished() and not legacy.is_finished() and drawn == [16, 16]
    assert layout.timeout is None and len(layout.id) == 32 and layout.children == []
    with pytest.raises(AttributeError):
        layout.not_an_attribute  # noqa: B018
