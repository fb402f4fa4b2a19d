"""Self-tests of the Discord double, driven by the unmodified sample bot (tests/double/sample_bot.py)."""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import discord
import discord.gateway
import discord.http
import jsonschema
import pytest
import referencing
import yarl
from referencing.jsonschema import DRAFT202012

from tests.conftest import BotErrors
from tests.double import DiscordDouble, InvalidBody, NoBotConnected, validate_message_body, view_body
from tests.double import payloads as P
from tests.double import validate as V
from tests.double.sample_bot import Board, CounterView, SampleBot
from tests.double.world import Channel, User

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Env:
    double: DiscordDouble
    guild: object
    table: Channel
    thread: Channel
    ann: User            # German
    bob: User            # English
    mia: User            # may manage the server
    bot: SampleBot | None = None
    task: asyncio.Task | None = None


async def start_bot(env: Env, monkeypatch, tag: str = "first") -> SampleBot:
    monkeypatch.setattr(discord.http.Route, "BASE", env.double.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(env.double.gateway_url))
    env.bot = SampleBot(tag=tag, guild_id=int(env.guild.id), guild_ready_timeout=0.01)
    env.task = asyncio.create_task(env.bot.start("sample-token"))
    await env.double.wait_for_bot()
    await asyncio.wait_for(env.bot.wait_until_ready(), 5)
    return env.bot


async def stop_bot(env: Env) -> None:
    if env.bot is not None:
        await env.bot.close()
        await asyncio.wait_for(env.task, 5)
        env.bot = env.task = None


@pytest.fixture
async def env(monkeypatch, bot_errors):
    d = DiscordDouble()
    guild = d.add_guild("Testserver", locale="de")
    table = d.add_text_channel(guild, "spiele")
    thread = d.add_thread(table, "calcory-1")
    ann, bob, mia = d.add_user("ann", locale="de"), d.add_user("bob"), d.add_user("mia")
    for u in (ann, bob):
        d.add_member(guild, u)
    d.add_member(guild, mia, permissions=P.MANAGE_GUILD)
    await d.start()
    e = Env(d, guild, table, thread, ann, bob, mia)
    await start_bot(e, monkeypatch)
    yield e
    await stop_bot(e)
    await d.stop()
    assert not d.unknown_routes, f"the bot called routes the double does not know: {d.unknown_routes}"
    assert not d.internal_errors, d.internal_errors[0]


# ---------------------------------------------------------------- start-up and commands


async def test_startup_flow_and_command_sync(env):
    d = env.double
    app = d.app_id
    assert [(r.method, r.path) for r in d.requests[:4]] == [
        ("GET", "/users/@me"), ("GET", "/oauth2/applications/@me"), ("PUT", f"/applications/{app}/commands"),
        ("PUT", f"/applications/{app}/guilds/{env.guild.id}/commands")]
    assert d.gateway.identifies[0]["token"] == "sample-token"
    assert d.gateway.identifies[0]["intents"] == discord.Intents.default().value
    guild = env.bot.get_guild(int(env.guild.id))
    assert guild.get_channel(int(env.table.id)).name == "spiele"
    thread = guild.get_thread(int(env.thread.id))
    assert thread.parent_id == int(env.table.id) and thread.type is discord.ChannelType.public_thread
    assert guild.preferred_locale is discord.Locale.german
    assert env.bot.application_id == int(app)

    start = d.command("start")
    game, seats = start["options"]
    assert start["name_localizations"] == {"de": "starten"}
    assert start["description_localizations"] == {"de": "Ein Spiel starten"}
    assert [c["value"] for c in game["choices"]] == ["calcory", "mue"]
    assert game["choices"][0]["name_localizations"] == {"de": "Calcory (Karten)"}
    assert (seats["min_value"], seats["max_value"], seats["required"]) == (2, 6, False)
    assert d.command("settings")["default_member_permissions"] == str(P.MANAGE_GUILD)
    assert "local" in d.commands[env.guild.id] and "local" not in d.commands[None]


async def test_slash_carries_locale_and_permissions_and_refuses_what_a_client_cannot_send(env):
    d = env.double
    r = await d.slash(env.ann, env.table, "starten", game="calcory")      # the German name, as Ann sees it
    assert r.callback_type == 4 and not r.ephemeral
    assert r.message.content == "calcory for 4 in de/de, manage=False send=True"
    assert r.payload["member"]["permissions"] == str(P.MEMBER_PERMISSIONS)
    r = await d.slash(env.mia, env.table, "start", game="mue", seats=2)
    assert r.message.content == "mue for 2 in en-US/de, manage=True send=True"
    assert (await d.slash(env.mia, env.table, "settings")).message.content == "settings"
    assert (await d.slash(env.bob, env.thread, "local")).message.channel is env.thread
    assert d.messages(env.table)[0].content.startswith("calcory")

    refusals = [
        (dict(name="settings"), "does not offer /settings"),
        (dict(name="nope"), "not registered"),
        (dict(name="start"), "required options"),
        (dict(name="start", game="skat"), "not among the choices"),
        (dict(name="start", game="mue", seats=7), "outside"),
        (dict(name="start", game="mue", seats="4"), "cannot send"),
        (dict(name="start", game="mue", colour="red"), "no option"),
    ]
    for kwargs, message in refusals:
        name = kwargs.pop("name")
        with pytest.raises(AssertionError, match=message):
            await d.slash(env.bob, env.table, name, **kwargs)


# ---------------------------------------------------------------- responses


async def test_ephemeral_reply_button_and_select(env):
    d = env.double
    r = await d.slash(env.ann, env.table, "counter", title="Clicks")
    assert r.callback["type"] == 4 and r.ephemeral and r.callback["data"]["flags"] == P.EPHEMERAL
    msg = r.message
    assert msg.content == "Clicks: 0" and d.ephemerals(env.ann) == [msg] and d.messages(env.table) == []
    assert msg.custom_ids == ["counter:inc", "counter:reset", "counter:colour"]
    assert msg.option_values == ["red", "green", "blue"]

    c = await d.click(env.ann, msg, "counter:inc")
    assert c.callback["type"] == 7 and c.message is msg
    assert msg.content == "Count: 1" and msg.component("counter:inc")["label"] == "+1 (1)"
    assert "+1 (1)" in msg.texts and "Pick a colour" in msg.text and len(msg.history) == 1

    with pytest.raises(AssertionError, match="ephemeral to another user"):
        await d.click(env.bob, msg, "counter:inc")
    with pytest.raises(AssertionError, match="not options"):
        await d.select(env.ann, msg, "counter:colour", ["purple"])
    with pytest.raises(AssertionError, match="between 1 and 1"):
        await d.select(env.ann, msg, "counter:colour", ["red", "blue"])
    with pytest.raises(AssertionError, match="no component 'counter:dec'"):
        await d.click(env.ann, msg, "counter:dec")

    reset = await d.click(env.ann, msg, msg.component(label="Reset")["custom_id"])
    assert reset.callback == {"type": 6} and reset.message is msg
    await d.wait_until(lambda: msg.content == "Count: 0")
    assert msg.component("counter:inc")["label"] == "+1" and reset.edits[0]["content"] == "Count: 0"

    s = await d.select(env.ann, msg, "counter:colour", ["green"])
    assert s.message.content == "You picked green" and s.ephemeral and s.message is not msg


async def test_components_v2_message_and_click(env):
    d = env.double
    r = await d.slash(env.bob, env.table, "board")
    msg = r.message
    assert msg.is_v2 and not msg.ephemeral and msg.content == ""
    assert msg.texts == ["Board (0)", "Slot a", "Slot b"]
    assert [c["id"] for c in V.C.walk(msg.payload)] == [1, 2, 3, 4, 5]     # Discord numbers components
    c = await d.click(env.ann, msg, "board:a")
    assert c.callback_type == 7 and msg.texts[0] == "Board, a taken (1)" and msg.is_v2
    await d.click(env.bob, d.messages(env.table)[0], "board:b")
    assert msg.texts[0] == "Board, b taken (2)"


async def test_defer_then_edit_original_and_defer_then_followup(env):
    d = env.double
    r = await d.slash(env.ann, env.table, "hand")
    assert r.callback == {"type": 5, "data": {"flags": P.EPHEMERAL}}
    await d.wait_until(lambda: not r.message.loading)
    assert r.message.is_v2 and r.message.ephemeral and r.message.texts[0] == "Your hand (0)"
    assert r.edits[0]["flags"] == P.IS_COMPONENTS_V2

    r = await d.slash(env.ann, env.table, "slow")
    await d.wait_until(lambda: r.message.content == "done")
    assert r.message.ephemeral and not r.message.loading and r.followups == []


async def test_followup_edit_and_original_get_and_delete(env):
    d = env.double
    r = await d.slash(env.bob, env.table, "followups")
    await d.wait_until(lambda: r.message.deleted)
    [followup] = r.followups
    assert followup.content == "after first, edited" and followup.ephemeral
    assert d.ephemerals(env.bob) == [followup]
    assert [(x.method, x.path.split("/")[-1]) for x in d.requests[-4:]] == [
        ("GET", "@original"), ("POST", r.token), ("PATCH", followup.id), ("DELETE", "@original")]


async def test_modal(env):
    d = env.double
    opened = await d.slash(env.bob, env.table, "form")
    assert opened.callback_type == 9 and opened.modal["title"] == "Your name"
    with pytest.raises(AssertionError, match="without 'form:name'"):
        await d.submit_modal(env.bob, opened, {})
    r = await d.submit_modal(env.bob, opened, {"form:name": "Bob"})
    assert r.message.content == "Hello Bob" and r.ephemeral


# ---------------------------------------------------------------- Discord's errors


@pytest.mark.parametrize(("case", "path"), [
    ("content_2001", "data.content"),
    ("custom_id_101", "data.components.0.components.0.custom_id"),
    ("duplicate_ids", "data.components.0.components.1.custom_id"),
    ("six_rows", "data.components"),
    ("v2_41", "data.components"),
    ("bad_style", "data.components.0.components.0.style"),        # the OpenAPI schema's enum
    ("unknown_field", "data.components.0.components.0.lable"),
])
async def test_invalid_bodies_are_refused_with_50035(env, bot_errors, case, path):
    d = env.double
    r = await d.slash(env.ann, env.table, "probe", case=case, expect_ack=False)
    err = await bot_errors.wait_for(discord.HTTPException, code=50035)
    assert err.status == 400 and f"In {path}:" in str(err)
    assert r.callback is None and [x.code for x in r.rejected] == [50035]
    with pytest.raises(AssertionError, match=r"This interaction failed.*50035"):
        d.advance(4)
        await d.wait_ack(r)


async def test_components_v2_flag_cannot_be_removed(env, bot_errors):
    d = env.double
    await d.slash(env.ann, env.table, "probe", case="v2_flag_removal")
    err = await bot_errors.wait_for(discord.HTTPException, code=50035)
    assert "In flags:" in str(err)
    [table] = d.messages(env.table)
    assert table.is_v2 and table.texts[0] == "Table (0)"


async def test_double_acknowledgement_is_40060(env, bot_errors):
    r = await env.double.slash(env.ann, env.table, "probe", case="double_response")
    err = await bot_errors.wait_for(discord.HTTPException, code=40060)
    assert err.status == 400 and r.message.content == "one"


async def test_late_response_is_10062_and_the_user_sees_a_failure(env, bot_errors):
    d = env.double
    r = await d.slash(env.ann, env.table, "probe", case="late", expect_ack=False)
    d.advance(3.5)                                        # no sleeping: the double's clock moves
    with pytest.raises(AssertionError, match="This interaction failed"):
        await d.wait_ack(r)
    env.bot.gates["late"].set()
    err = await bot_errors.wait_for(discord.NotFound, code=10062)
    assert err.status == 404 and r.callback is None


async def test_expired_token_is_50027(env, bot_errors):
    d = env.double
    r = await d.slash(env.ann, env.table, "probe", case="expire")
    d.advance(15 * 60 + 1)
    env.bot.gates["expire"].set()
    err = await bot_errors.wait_for(discord.HTTPException, code=50027)
    assert err.status == 401 and r.message.content == "soon stale"


async def test_channel_permissions_missing_access_and_threads(env):
    d = env.double
    r = await d.slash(env.ann, env.thread, "probe", case="announce")
    assert r.message.content == "posted" and d.messages(env.thread)[-1].content == "announcement"
    await d.set_app_permissions(env.table, P.BOT_PERMISSIONS & ~P.SEND_MESSAGES)
    r = await d.slash(env.ann, env.table, "probe", case="announce")
    assert r.message.content == "cannot post here: 50013"
    # without Send Messages, Attach Files does not count either (permissions.md, implicit permissions)
    assert r.payload["app_permissions"] == str(P.VIEW_CHANNEL | P.SEND_MESSAGES_IN_THREADS)
    bot_view = env.bot.get_channel(int(env.table.id)).permissions_for(env.bot.get_guild(int(env.guild.id)).me)
    assert not bot_view.send_messages and bot_view.view_channel          # CHANNEL_UPDATE reached the bot
    assert not bot_view.attach_files
    await d.set_app_permissions(env.table, 0)
    r = await d.slash(env.ann, env.table, "probe", case="announce")
    assert r.message.content == "cannot post here: 50001"
    await d.set_permissions(env.table, env.bob, 0)
    with pytest.raises(AssertionError, match="cannot see"):
        await d.slash(env.bob, env.table, "counter")


async def test_discord_py_computes_the_permissions_the_interactions_carry(env):
    """The overwrites and roles the gateway sends say what the double enforces: discord.py's own
    ``permissions_for`` agrees with each interaction's ``app_permissions``."""
    d = env.double
    guild = env.bot.get_guild(int(env.guild.id))

    async def agree() -> int:
        sent = int((await d.slash(env.ann, env.table, "counter")).payload["app_permissions"])
        assert guild.get_channel(int(env.table.id)).permissions_for(guild.me).value == sent
        return sent

    assert await agree() == P.MEMBER_PERMISSIONS | P.BOT_PERMISSIONS
    await d.set_overwrite(env.table, env.guild, deny=P.ATTACH_FILES | P.EMBED_LINKS)
    assert not await agree() & P.ATTACH_FILES
    await d.set_overwrite(env.table, d.bot, allow=P.ATTACH_FILES)
    assert await agree() & P.ATTACH_FILES
    await d.set_role_permissions(env.guild, env.guild, P.MEMBER_PERMISSIONS & ~P.SEND_MESSAGES)
    await d.set_overwrite(env.table, d.bot, deny=P.SEND_MESSAGES)
    assert not await agree() & (P.SEND_MESSAGES | P.ATTACH_FILES)      # no sending: no uploads


async def test_rest_errors_on_the_wire(env):
    d = env.double
    auth = {"Authorization": "Bot sample-token"}
    async with aiohttp.ClientSession(d.api_base + "/", headers=auth) as s:
        async with s.post(f"channels/{env.table.id}/messages", json={"content": ""}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (400, 50006)
            assert resp.headers["Content-Type"] == "application/json"
        async with s.post(f"channels/{env.table.id}/messages", json={"content": "hi"}) as resp:
            mid = (await resp.json())["id"]
        async with s.delete(f"channels/{env.table.id}/messages/{mid}") as resp:
            assert resp.status == 204
        async with s.get(f"channels/{env.table.id}/messages/{mid}") as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10008)
        async with s.post(f"webhooks/{d.app_id}/no-such-token", json={"content": "x"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10015)
        async with s.post("interactions/1/no-such-token/callback", json={"type": 4, "data": {"content": "x"}}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10062)
        async with s.get("guilds/1/emojis") as resp:
            assert resp.status == 404
    assert [r.path for r in d.unknown_routes] == ["/guilds/1/emojis"]
    assert d.messages(env.table) == []
    d.requests.clear()


# ---------------------------------------------------------------- several users, restarts, the gateway


async def test_two_clicks_at_once_interleave_at_the_bot(env):
    d = env.double
    meeting = (await d.slash(env.ann, env.table, "meeting")).message
    a, b = await asyncio.gather(d.click(env.ann, meeting, "meet"), d.click(env.bob, meeting, "meet"))
    # each handler waited for the other: neither could answer before both clicks had arrived
    assert a.message.content == b.message.content == "met 2"
    assert {a.message.ephemeral_to, b.message.ephemeral_to} == {env.ann.id, env.bob.id}


async def test_restart_old_buttons_reach_the_new_bot(env, monkeypatch):
    d = env.double
    msg = (await d.slash(env.ann, env.table, "tally")).message
    await d.click(env.bob, msg, "tally:0")
    assert msg.content == "Tally 1 by first"
    await stop_bot(env)
    await d.wait_until(lambda: not d.gateway.connected)
    with pytest.raises(NoBotConnected, match="This interaction failed"):
        await d.click(env.bob, msg, "tally:1")
    await start_bot(env, monkeypatch, tag="second")
    await d.click(env.ann, msg, "tally:1")
    assert msg.content == "Tally 2 by second" and len(d.gateway.identifies) == 2


async def test_gateway_reconnect_resumes_the_session(env):
    d = env.double
    session = d.gateway.current
    await d.gateway.request_reconnect()
    await d.wait_until(lambda: session.resumed == 1 and d.gateway.connected)
    assert len(d.gateway.identifies) == 1
    assert (await d.slash(env.bob, env.table, "counter")).message.content == "Counter: 0"


def _spawn(d: DiscordDouble, tag: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tests.double.sample_bot", "--api-base", d.api_base,
                             "--gateway", d.gateway_url, "--tag", tag], cwd=ROOT)


async def test_restart_of_a_bot_process():
    """The bot in processes of its own, killed and started again against the same double."""
    d = DiscordDouble()
    guild = d.add_guild()
    table = d.add_text_channel(guild)
    ann = d.add_user("ann")
    d.add_member(guild, ann)
    async with d:
        proc = _spawn(d, "one")
        try:
            await d.wait_for_bot(timeout=20)
            msg = (await d.slash(ann, table, "tally")).message
            assert msg.content == "Tally 0 by one"
            proc.kill()
            proc.wait()
            await d.wait_until(lambda: not d.gateway.connected)
            proc = _spawn(d, "two")
            await d.wait_for_bot(timeout=20)
            await d.click(ann, msg, "tally:0")
            assert msg.content == "Tally 1 by two"
        finally:
            proc.kill()
            proc.wait()
    assert not d.unknown_routes and not d.internal_errors


# ---------------------------------------------------------------- the validator on its own


def _reference_validator(schema_name: str) -> jsonschema.Draft202012Validator:
    spec = json.loads(V.SPEC_PATH.read_text())
    registry = referencing.Registry().with_resource("urn:spec", DRAFT202012.create_resource(spec))
    return jsonschema.Draft202012Validator({"$ref": f"urn:spec#/components/schemas/{schema_name}"},
                                           registry=registry)


def test_rendered_views_pass_and_the_rewritten_spec_agrees_with_jsonschema():
    """discord.py's own output passes; and on bodies without unknown fields the fast validator
    (rewritten spec, fastjsonschema) says what jsonschema says on the untouched 2020-12 spec."""
    legacy = view_body(CounterView(), content="Count: 0", ephemeral=True)
    v2 = view_body(Board())
    validate_message_body(legacy)
    validate_message_body(v2)
    assert v2["flags"] == P.IS_COMPONENTS_V2

    def broken(body, change):
        body = copy.deepcopy(body)
        change(body)
        return body

    button = ("components", 0, "components", 0)
    cases = [legacy, v2,
             broken(legacy, lambda b: b["components"][0]["components"][0].update(style=9)),
             broken(legacy, lambda b: b["components"][0]["components"][0].update(label=7)),
             broken(legacy, lambda b: b["components"][1]["components"][0].update(options=[])),
             broken(legacy, lambda b: b["components"][1]["components"][0]["options"][0].pop("value")),
             broken(legacy, lambda b: b["components"][0].update(type=99)),
             broken(v2, lambda b: b["components"][0]["components"][0].update(content=5)),
             broken(v2, lambda b: b["components"][0].update(accent_color=-1)),
             broken(legacy, lambda b: b.update(content="x" * 2001))]
    reference = _reference_validator("IncomingWebhookInteractionRequest")
    fast = V.schema_validator("IncomingWebhookInteractionRequest")
    for body in cases:
        try:
            fast(body)
            fast_ok = True
        except Exception:
            fast_ok = False
        assert fast_ok == reference.is_valid(body), body

    with pytest.raises(InvalidBody) as info:
        validate_message_body(cases[2])
    assert info.value.paths == [".".join(map(str, (*button, "style")))]
    assert V.message_problems(cases[2], v2=False) == []      # it was the spec, not the extra checks
    with pytest.raises(InvalidBody, match=r"components\.0\.components\.0\.lable"):
        validate_message_body(broken(legacy, lambda b: b["components"][0]["components"][0].update(lable="x")))


def test_limits_the_spec_does_not_state():
    def problems(body, v2=False):
        return [(".".join(map(str, p.path)), p.code) for p in V.message_problems(body, v2=v2)]

    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "a", "custom_id": "a"},
                                     {"type": 3, "custom_id": "s", "options": [{"label": "x", "value": "x"}]}]}
    assert problems({"components": [row]}) == [("components.0.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED")]
    assert problems({"components": [{"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "n"}]}]}) == [
        ("components.0.components.0.label", "BUTTON_COMPONENT_MISSING_LABEL_OR_EMOJI")]
    select = {"type": 3, "custom_id": "s", "max_values": 3,
              "options": [{"label": "x", "value": "v"}, {"label": "y", "value": "v"}]}
    assert problems({"components": [{"type": 1, "components": [select]}]}) == [
        ("components.0.components.0.options.1.value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"),
        ("components.0.components.0.max_values", "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS")]
    texts = [{"type": 10, "content": "x" * 2001}, {"type": 10, "content": "y" * 2000}]
    assert problems({"components": texts, "content": "hi"}, v2=True) == [
        ("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"),
        ("components", "COMPONENT_MAX_TEXT_LENGTH_EXCEEDED")]
    assert problems({"components": texts}) == [
        ("components.0.type", "COMPONENT_LAYOUT_REQUIRES_COMPONENTS_V2"),
        ("components.1.type", "COMPONENT_LAYOUT_REQUIRES_COMPONENTS_V2")]
    callback = "/api/v10/interactions/1/t/callback"
    with pytest.raises(InvalidBody, match=r"In data\.flags"):
        V.validate_request("POST", callback, {"type": 4, "data": {"content": "x", "flags": 3}})
    with pytest.raises(InvalidBody, match=r"In data\.flags"):     # a V2 message comes only by editing @original
        V.validate_request("POST", callback, {"type": 5, "data": {"flags": P.EPHEMERAL | P.IS_COMPONENTS_V2}})
    V.validate_request("POST", callback, {"type": 5, "data": {"flags": P.EPHEMERAL}})


async def test_validation_can_be_switched_off():
    for validate, status in ((True, 400), (False, 200)):
        d = DiscordDouble(validate=validate)
        table = d.add_text_channel(d.add_guild())
        async with d, aiohttp.ClientSession() as s:
            url = f"{d.api_base}/channels/{table.id}/messages"
            async with s.post(url, json={"content": "x" * 2001, "lable": 1}) as resp:
                assert resp.status == status
            async with s.post(url, json={}) as resp:      # Discord's semantics stay: an empty message
                assert (await resp.json())["code"] == 50006


def test_bot_errors_fails_on_a_swallowed_exception():
    handler = BotErrors()
    log = logging.getLogger("discord.ui.view")
    log.addHandler(handler)
    try:
        try:
            raise RuntimeError("a bug in a button callback")
        except RuntimeError:
            log.exception("Ignoring exception in view")
    finally:
        log.removeHandler(handler)
    with pytest.raises(AssertionError, match="swallowed"):
        handler.check()
    assert handler.take(KeyError) is None
    assert isinstance(handler.take(RuntimeError), RuntimeError)
    handler.check()
