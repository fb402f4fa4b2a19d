"""The stricter double: each rule from Discord's documentation, checked on the wire.

Rate limits (docs/topics/rate-limits.md), archived threads (docs/topics/threads.md), old messages
edited too often (30046), command registration (docs/interactions/application-commands.md),
allowed mentions and Components V2 messages (docs/resources/message.md), intents
(docs/events/gateway.md), deleted channels and a removed bot.
"""

from __future__ import annotations

import asyncio
import json

import aiohttp
import discord
import pytest

from tests.double import DiscordDouble
from tests.double import payloads as P
from tests.double.commands import command_problems, command_size
from tests.double.ratelimits import RateLimits, route_of
from tests.double.test_double import env  # noqa: F401  (the fixture)

AUTH = {"Authorization": "Bot sample-token"}


async def _world(**options):
    d = DiscordDouble(**options)
    guild = d.add_guild("Testserver")
    table = d.add_text_channel(guild, "spiele")
    other = d.add_text_channel(guild, "andere")
    await d.start()
    return d, guild, table, other


# ---------------------------------------------------------------- rate limits


def test_buckets_are_keyed_by_route_and_top_level_resource():
    app = "42"
    assert route_of("/channels/123456789012345678/messages/223456789012345678", app) == (
        "/channels/{channel_id}/messages/{id}", "123456789012345678", False)
    assert route_of("/interactions/123456789012345678/tok/callback", app)[1:] == ("123456789012345678/tok", True)
    assert route_of("/webhooks/42/tok/messages/@original", app) == (
        "/webhooks/{webhook_id}/{token}/messages/@original", "42/tok", True)
    assert route_of("/webhooks/77/tok", app)[2] is False        # someone else's webhook is no interaction


async def test_every_answer_carries_its_bucket_and_a_full_bucket_answers_429():
    d, _guild, table, other = await _world(rate_limits=RateLimits(per_route=2, window=10, global_per_second=100))
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        statuses, heads = [], []
        for _ in range(3):
            async with s.post(f"channels/{table.id}/messages", json={"content": "hi"}) as resp:
                statuses.append(resp.status)
                heads.append(dict(resp.headers))
                body = await resp.json()
        assert statuses == [200, 200, 429]
        assert [h["X-RateLimit-Remaining"] for h in heads] == ["1", "0", "0"]
        assert heads[0]["X-RateLimit-Limit"] == "2" and float(heads[0]["X-RateLimit-Reset-After"]) <= 10
        assert len({h["X-RateLimit-Bucket"] for h in heads}) == 1
        assert body["global"] is False and 0 < body["retry_after"] <= 10
        assert heads[2]["X-RateLimit-Scope"] == "user" and heads[2]["Via"] and "X-RateLimit-Global" not in heads[2]
        async with s.post(f"channels/{other.id}/messages", json={"content": "hi"}) as resp:
            assert resp.status == 200, "another channel is another bucket"
            assert resp.headers["X-RateLimit-Bucket"] == heads[0]["X-RateLimit-Bucket"]
        d.advance(10)
        async with s.post(f"channels/{table.id}/messages", json={"content": "hi"}) as resp:
            assert resp.status == 200 and resp.headers["X-RateLimit-Remaining"] == "1"
    assert [m.content for m in d.messages(table)] == ["hi", "hi", "hi"], "a limited request was handled"


async def test_the_global_limit_counts_all_routes_but_interactions():
    d, _guild, table, other = await _world(rate_limits=RateLimits(per_route=100, global_per_second=2))
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        for path in (f"channels/{table.id}/messages", f"channels/{other.id}/messages"):
            async with s.post(path, json={"content": "x"}) as resp:
                assert resp.status == 200
        for _ in range(3):         # interaction routes are exempt (they answer 404 here: no such token)
            async with s.post(f"webhooks/{d.app_id}/gone", json={"content": "x"}) as resp:
                assert resp.status == 404
        async with s.post(f"channels/{table.id}/messages", json={"content": "x"}) as resp:
            body = await resp.json()
            assert resp.status == 429 and body["global"] is True
            assert resp.headers["X-RateLimit-Global"] == "true" and resp.headers["X-RateLimit-Scope"] == "global"
        d.advance(1)
        async with s.post(f"channels/{table.id}/messages", json={"content": "x"}) as resp:
            assert resp.status == 200


async def test_a_shared_resource_limit_spans_routes_and_says_shared():
    d, _guild, table, _other = await _world(rate_limits=RateLimits(per_route=5, per_resource=2, global_per_second=100))
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        async with s.post(f"channels/{table.id}/messages", json={"content": "x"}) as resp:
            mid = (await resp.json())["id"]
        async with s.patch(f"channels/{table.id}/messages/{mid}", json={"content": "y"}) as resp:
            assert resp.status == 200
        async with s.delete(f"channels/{table.id}/messages/{mid}") as resp:
            assert resp.status == 429 and resp.headers["X-RateLimit-Scope"] == "shared"
            assert (await resp.json())["message"] == "The resource is being rate limited."


async def test_discord_py_waits_out_a_429_on_the_rate_limit_model(env):  # noqa: F811
    d = env.double
    d.rate_limits = RateLimits(per_route=5, window=0.2, per_resource=1, global_per_second=100)
    for _ in range(3):
        r = await d.slash(env.ann, env.table, "probe", case="announce")
        assert r.message.content == "posted"
    assert [m.content for m in d.messages(env.table)] == ["announcement"] * 3
    assert d.rate_limits.limited, "discord.py never met the limit"


# ---------------------------------------------------------------- threads and old messages


async def test_a_thread_archives_after_inactivity_refuses_edits_and_a_post_unarchives_it():
    d, guild, table, _other = await _world()
    thread = d.add_thread(table, "partie", auto_archive_duration=60)
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        async with s.post(f"channels/{thread.id}/messages", json={"content": "a"}) as resp:
            mid = (await resp.json())["id"]
        d.advance(59 * 60)
        async with s.patch(f"channels/{thread.id}/messages/{mid}", json={"content": "b"}) as resp:
            assert resp.status == 200, "a thread active within its hour is not archived"
        d.advance(61 * 60)
        async with s.get(f"channels/{thread.id}") as resp:
            assert (await resp.json())["thread_metadata"]["archived"] is True
        assert thread.id not in [t["id"] for t in d.world.guild_payload(guild)["threads"]]
        async with s.patch(f"channels/{thread.id}/messages/{mid}", json={"content": "c"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (400, 50083)
        async with s.post(f"channels/{thread.id}/messages", json={"content": "d"}) as resp:
            later = (await resp.json())["id"]
        async with s.get(f"channels/{thread.id}") as resp:
            assert (await resp.json())["thread_metadata"]["archived"] is False
        async with s.patch(f"channels/{thread.id}/messages/{mid}", json={"content": "e"}) as resp:
            assert resp.status == 200
        d.archive(thread)
        async with s.delete(f"channels/{thread.id}/messages/{later}") as resp:
            assert resp.status == 204, "deleting is what an archived thread still allows"
    assert [m.content for m in d.messages(thread)] == ["e"]


async def test_an_old_message_takes_a_few_edits_then_30046():
    d, _guild, table, _other = await _world(old_message_edits=2)
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        async with s.post(f"channels/{table.id}/messages", json={"content": "0"}) as resp:
            mid = (await resp.json())["id"]
        codes = []
        for n in range(1, 4):                      # a young message: no such limit
            async with s.patch(f"channels/{table.id}/messages/{mid}", json={"content": str(n)}) as resp:
                codes.append(resp.status)
        d.age(3600, table)
        for n in range(4, 7):
            async with s.patch(f"channels/{table.id}/messages/{mid}", json={"content": str(n)}) as resp:
                codes.append((await resp.json()).get("code", resp.status))
    assert codes == [200, 200, 200, 200, 200, 30046]
    assert d.message(mid).content == "5"


# ---------------------------------------------------------------- command registration


def _cmd(**over):
    cmd = {"type": 1, "name": "start", "description": "Start a game",
           "options": [{"type": 3, "name": "game", "description": "Which game", "required": True,
                        "choices": [{"name": "Calcory", "value": "calcory"}]}]}
    cmd.update(over)
    return cmd


def _codes(cmd) -> list[tuple[str, str]]:
    return [(".".join(map(str, p.path)), p.code) for p in command_problems([cmd])]


def _opt(**over):
    return [{**_cmd()["options"][0], **over}]


@pytest.mark.parametrize("name", ["ñandú", "spiel-start", "it's", "日本語", "हिन्दी", "เกม", "x" * 32, "a_1"])
def test_names_the_documented_regex_allows(name):
    assert _codes(_cmd(name=name)) == []


@pytest.mark.parametrize("cmd, expected", [
    (_cmd(name="Start"), [("0.name", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name="neu starten"), [("0.name", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name="start!"), [("0.name", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name="x" * 33), [("0.name", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name=""), [("0.name", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name_localizations={"de": "Starten"}), [("0.name_localizations.de", "APPLICATION_COMMAND_NAME_INVALID")]),
    (_cmd(name_localizations={"de-DE": "starten"}), [("0.name_localizations.de-DE", "LOCALE_INVALID")]),
    (_cmd(description=""), [("0.description", "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(description="x" * 101), [("0.description", "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(description_localizations={"de": "x" * 101}), [("0.description_localizations.de", "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(description_localizations={"german": "Spiel"}), [("0.description_localizations.german", "LOCALE_INVALID")]),
    (_cmd(options=_opt(name="Game")), [("0.options.0.name", "APPLICATION_COMMAND_OPTION_NAME_INVALID")]),
    (_cmd(options=_opt(name_localizations={"de": "das spiel"})), [("0.options.0.name_localizations.de",
                                                                  "APPLICATION_COMMAND_OPTION_NAME_INVALID")]),
    (_cmd(options=_opt(description="")), [("0.options.0.description", "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(options=_opt(choices=[{"name": "C", "value": "c" * 101}])), [("0.options.0.choices.0.value",
                                                                       "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(options=_opt(choices=[{"name": "", "value": "c"}])), [("0.options.0.choices.0.name", "BASE_TYPE_BAD_LENGTH")]),
    (_cmd(options=_opt(choices=[{"name": "C", "value": "c", "name_localizations": {"xx": "C"}}])),
     [("0.options.0.choices.0.name_localizations.xx", "LOCALE_INVALID")]),
    (_cmd(options=[{"type": 4, "name": "seats", "description": "How many"}, _opt()[0]]),
     [("0.options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID")]),
    (_cmd(options=[_opt()[0], _opt()[0]]), [("0.options.1.name", "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS")]),
    (_cmd(options=[{"type": 5, "name": f"o{i}", "description": "d"} for i in range(26)]),
     [("0.options", "BASE_TYPE_MAX_LENGTH")]),
], ids=["uppercase", "space", "punctuation", "33-chars", "empty", "localized-uppercase", "locale-key", "no-description",
        "long-description", "long-localized-description", "description-locale-key", "option-uppercase",
        "localized-option-space", "option-no-description", "choice-value-101", "choice-name-empty",
        "choice-locale-key", "required-after-optional", "duplicate-option", "26-options"])
def test_each_documented_violation_is_refused(cmd, expected):
    assert _codes(cmd) == expected


def test_8000_characters_count_the_longest_localization_of_each_field():
    choices = [{"name": f"c{i:02}", "value": f"v{i:02}", "name_localizations": {"de": "x" * 100}} for i in range(25)]
    options = [{"type": 3, "name": f"o{j}", "description": "d" * 100, "choices": choices} for j in range(3)]
    cmd = _cmd(options=options)
    assert command_size(cmd) == 5 + 12 + 3 * (2 + 100 + 25 * (100 + 3))
    assert _codes(cmd) == [("0", "APPLICATION_COMMAND_TOO_LARGE")]
    for choice in choices:
        del choice["name_localizations"]
    assert command_size(cmd) < 8000 and _codes(cmd) == []


async def test_command_sync_refuses_a_violation_and_200_creates_a_day():
    d, guild, _table, _other = await _world(command_creates_per_day=200)
    url = f"applications/{d.app_id}/guilds/{guild.id}/commands"
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        async with s.put(url, json=[_cmd(name="Start")]) as resp:
            body = await resp.json()
            assert (resp.status, body["code"]) == (400, 50035) and "name" in json.dumps(body["errors"])
        assert d.commands.get(guild.id) is None
        async with s.put(url, json=[_cmd(name=f"c{i}") for i in range(100)]) as resp:
            assert resp.status == 200
        async with s.put(url, json=[_cmd(name=f"c{i}") for i in range(100)]) as resp:
            assert resp.status == 200, "overwriting existing commands creates nothing"
        async with s.put(url, json=[_cmd(name=f"d{i}") for i in range(100)]) as resp:
            assert resp.status == 200
        async with s.put(url, json=[_cmd(name="e")]) as resp:
            assert (resp.status, (await resp.json())["code"]) == (429, 30034)
            assert "Via" not in resp.headers        # no rate limit to wait out: discord.py raises
        assert sorted(d.commands[guild.id])[:1] == ["d0"], "a refused overwrite changed the commands"
        d.advance(24 * 3600)
        async with s.put(url, json=[_cmd(name="e")]) as resp:
            assert resp.status == 200


# ---------------------------------------------------------------- message bodies


async def test_allowed_mentions_parse_excludes_the_lists_and_v2_excludes_stickers_and_polls():
    d, _guild, table, _other = await _world()
    url = f"channels/{table.id}/messages"
    poll = {"question": {"text": "?"}, "answers": [{"poll_media": {"text": "a"}}]}
    text = [{"type": 10, "content": "hi"}]
    async with d, aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        for body, ok in [
            ({"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, False),
            ({"content": "<@&1>", "allowed_mentions": {"parse": ["roles"], "roles": ["1"]}}, False),
            ({"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": []}}, True),
            ({"content": "<@1>", "allowed_mentions": {"parse": ["roles"], "users": ["1"]}}, True),
            ({"components": text, "flags": P.IS_COMPONENTS_V2, "sticker_ids": ["1"]}, False),
            ({"components": text, "flags": P.IS_COMPONENTS_V2, "poll": poll}, False),
            ({"components": text, "flags": P.IS_COMPONENTS_V2}, True),
        ]:
            async with s.post(url, json=body) as resp:
                answer = await resp.json()
                assert (resp.status == 200) is ok, (body, answer)
                if not ok:
                    assert answer["code"] == 50035


# ---------------------------------------------------------------- the gateway


async def _identify(d: DiscordDouble, intents: int) -> tuple[list[dict], int | None]:
    """A raw gateway client: IDENTIFY with ``intents``; the frames until READY's guilds, or the close code."""
    frames: list[dict] = []
    async with aiohttp.ClientSession() as s, s.ws_connect(d.gateway_url) as ws:
        await ws.receive_json()                                          # HELLO
        await ws.send_json({"op": 2, "d": {"token": "t", "intents": intents, "properties": {}}})
        while True:
            msg = await ws.receive()
            if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                return frames, ws.close_code
            frames.append(json.loads(msg.data))
            if frames[-1].get("t") == "GUILD_CREATE":
                if intents & (1 << 1):
                    await ws.send_json({"op": 8, "d": {"guild_id": frames[-1]["d"]["id"], "query": "", "limit": 0}})
                    frames.append(await ws.receive_json())
                    return frames, None
                await ws.send_json({"op": 8, "d": {"guild_id": frames[-1]["d"]["id"], "query": "", "limit": 0}})
                msg = await ws.receive()
                return frames, ws.close_code


async def test_intents_shape_guild_create_and_member_requests():
    d, guild, _table, _other = await _world(privileged_intents=(1 << 1) | (1 << 8))
    ann = d.add_user("ann")
    d.add_member(guild, ann)
    async with d:
        frames, closed = await _identify(d, 1)                        # GUILDS only
        members = frames[-1]["d"]["members"]
        assert [m["user"]["id"] for m in members] == [d.bot.id], "without GUILD_PRESENCES only the bot"
        assert closed == 4013, "the whole member list needs GUILD_MEMBERS"
        frames, closed = await _identify(d, 1 | (1 << 1) | (1 << 8))
        assert closed is None and len(frames[-2]["d"]["members"]) == 2
        assert frames[-1]["t"] == "GUILD_MEMBERS_CHUNK" and len(frames[-1]["d"]["members"]) == 2


@pytest.mark.parametrize("intents, code", [(1 | (1 << 15), 4014), (1 << 1, 4014), (1 << 30, 4013)])
async def test_privileged_intents_not_enabled_close_with_4014(intents, code):
    d, _guild, _table, _other = await _world()
    async with d:
        frames, closed = await _identify(d, intents)
    assert (frames, closed) == ([], code)


# ---------------------------------------------------------------- the answer deadline, deletions


async def test_the_answer_deadline_is_checked_at_2_5_seconds(env, bot_errors):  # noqa: F811
    d = env.double
    r = await d.slash(env.ann, env.table, "probe", case="late", expect_ack=False)
    d.advance(2.6)                  # within Discord's 3 s, but real Discord adds the network's time
    env.bot.gates["late"].set()
    err = await bot_errors.wait_for(discord.NotFound, code=10062)
    assert err.status == 404 and r.callback is None


async def _handled(done, what: str) -> None:
    """Until the bot in this process has handled a gateway event: handling it sends no request, so
    nothing wakes a waiter on the double (``wait_until`` would sleep out its timeout); the event
    loop's turns (each reads the socket) do."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the bot did not handle {what}")


async def test_deleted_channels_and_a_removed_bot_reach_the_bot_and_the_wire(env):  # noqa: F811
    d, bot = env.double, env.bot
    assert bot.get_guild(int(env.guild.id)).get_thread(int(env.thread.id)) is not None
    await d.delete_channel(env.table)
    await _handled(lambda: bot.get_channel(int(env.table.id)) is None, "CHANNEL_DELETE")
    assert bot.get_guild(int(env.guild.id)).get_thread(int(env.thread.id)) is None, "its thread went with it"
    kept = d.add_text_channel(env.guild, "bleibt")
    async with aiohttp.ClientSession(d.api_base + "/", headers=AUTH) as s:
        async with s.post(f"channels/{env.table.id}/messages", json={"content": "x"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10003)
        await d.remove_bot(env.guild)
        await _handled(lambda: bot.get_guild(int(env.guild.id)) is None, "GUILD_DELETE (the guild removed)")
        async with s.post(f"channels/{kept.id}/messages", json={"content": "x"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (403, 50001)


async def test_a_slash_command_in_direct_messages_carries_user_instead_of_member(env):  # noqa: F811
    d = env.double
    dm = d.open_dm(env.bob)
    r = await d.slash(env.bob, dm, "counter")
    assert r.message.content == "Counter: 0" and r.message.channel is dm
    assert r.payload["user"]["id"] == env.bob.id and "member" not in r.payload and "guild_id" not in r.payload
    assert r.payload["context"] == 1 and r.payload["channel"]["type"] == P.DM
    assert r.payload["authorizing_integration_owners"] == {"0": "0"}
    with pytest.raises(AssertionError, match="someone else's direct messages"):
        await d.slash(env.ann, dm, "counter")
    with pytest.raises(AssertionError, match="not registered"):      # guild commands stay in their guild
        await d.slash(env.bob, dm, "local")
    d.commands[None]["counter"]["contexts"] = [0]
    with pytest.raises(AssertionError, match="does not offer /counter in direct messages"):
        await d.slash(env.bob, dm, "counter")
