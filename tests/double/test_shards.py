"""The double shards as gateway.md "Sharding" says: IDENTIFY's ``[shard_id, shard_count]``, a READY
per shard with only its guilds, each guild's events on its own shard's connection, DMs on shard 0,
4010 for a bad shard, 4011 past 2500 guilds, and ``GET /gateway/bot``'s recommended ``shards``."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from tests.double import DiscordDouble
from tests.double.gateway import shard_of

AUTH = {"Authorization": "Bot sample-token"}


class Connection:
    """A raw gateway client for one shard, keeping every dispatch it was sent."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict]] = []

    async def until(self, event: str) -> dict:
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), 5)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"closed with {self.ws.close_code} before {event}")
            frame = json.loads(msg.data)
            if frame["op"] == 0:
                self.events.append((frame["t"], frame["d"]))
                if frame["t"] == event:
                    return frame["d"]

    def names(self, event: str) -> list[str]:
        return [d.get("name") or d.get("id") for t, d in self.events if t == event]


async def _connect(s: aiohttp.ClientSession, d: DiscordDouble, shard: list | None) -> Connection:
    ws = await s.ws_connect(d.gateway_url)
    await ws.receive_json()                                              # HELLO
    identify = {"token": "sample-token", "intents": 1, "properties": {}}
    if shard is not None:
        identify["shard"] = shard
    await ws.send_json({"op": 2, "d": identify})
    return Connection(ws)


def _world() -> tuple[DiscordDouble, dict]:
    d = DiscordDouble()
    guilds = {name: d.add_guild(name, shard=shard) for name, shard in
              (("zero-a", (0, 2)), ("one-a", (1, 2)), ("zero-b", (0, 2)), ("one-b", (1, 2)))}
    return d, guilds


def test_a_guild_can_be_placed_on_a_shard_by_its_id():
    d, guilds = _world()
    assert [shard_of(g.id, 2) for g in guilds.values()] == [0, 1, 0, 1]
    assert len({g.id for g in guilds.values()}) == 4 and int(d.snowflake()) > max(int(g.id) for g in guilds.values())
    assert [shard_of(d.add_guild(f"g{n}", shard=(n, 3)).id, 3) for n in (2, 0, 1)] == [2, 0, 1]


async def test_each_shard_gets_a_ready_with_its_guilds_and_only_their_events():
    d, guilds = _world()
    ann = d.add_user("ann")
    channels = {name: d.add_text_channel(g, "spiele") for name, g in guilds.items()}
    for g in guilds.values():
        d.add_member(g, ann)
    async with d, aiohttp.ClientSession() as s:
        await s.put(f"{d.api_base}/applications/{d.app_id}/commands", headers=AUTH,
                    json=[{"name": "ping", "description": "ping", "type": 1}])
        zero, one = await _connect(s, d, [0, 2]), await _connect(s, d, [1, 2])
        ready = {0: await zero.until("READY"), 1: await one.until("READY")}
        assert [r["shard"] for r in ready.values()] == [[0, 2], [1, 2]]
        assert [g["id"] for g in ready[0]["guilds"]] == [guilds["zero-a"].id, guilds["zero-b"].id]
        assert [g["id"] for g in ready[1]["guilds"]] == [guilds["one-a"].id, guilds["one-b"].id]
        await zero.until("GUILD_CREATE")
        await zero.until("GUILD_CREATE")
        await one.until("GUILD_CREATE")
        await one.until("GUILD_CREATE")
        assert (zero.names("GUILD_CREATE"), one.names("GUILD_CREATE")) == (["zero-a", "zero-b"], ["one-a", "one-b"])
        assert d.gateway.shards() == [(0, 2), (1, 2)]

        await d.forge_slash(ann, channels["one-b"], "ping", expect_ack=False)
        assert (await one.until("INTERACTION_CREATE"))["guild_id"] == guilds["one-b"].id
        await d.forge_slash(ann, d.open_dm(ann), "ping", expect_ack=False)       # no guild: shard 0
        dm = await zero.until("INTERACTION_CREATE")
        assert "guild_id" not in dm or dm["guild_id"] is None
        await d.delete_channel(channels["zero-a"])
        assert (await zero.until("CHANNEL_DELETE"))["guild_id"] == guilds["zero-a"].id
        await d.remove_bot(guilds["one-a"])
        assert (await one.until("GUILD_DELETE"))["id"] == guilds["one-a"].id
        # Each connection got its own guilds' events and nothing else.
        assert [t for t, _ in zero.events] == ["READY", "GUILD_CREATE", "GUILD_CREATE", "INTERACTION_CREATE",
                                               "CHANNEL_DELETE"]
        assert [t for t, _ in one.events] == ["READY", "GUILD_CREATE", "GUILD_CREATE", "INTERACTION_CREATE",
                                              "GUILD_DELETE"]

        await zero.ws.close()
        await d.wait_until(lambda: d.gateway.shards() == [(1, 2)], what="shard 0 to be gone")
        with pytest.raises(AssertionError, match="for the shard of guild"):
            await d.forge_slash(ann, channels["zero-b"], "ping", expect_ack=False)
        await one.ws.close()


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], ["0", "1"]])
async def test_a_shard_outside_its_count_closes_with_4010(shard):
    d, _guilds = _world()
    async with d, aiohttp.ClientSession() as s:
        conn = await _connect(s, d, shard)
        msg = await asyncio.wait_for(conn.ws.receive(), 5)
        assert msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and conn.ws.close_code == 4010
        assert not d.gateway.connected


async def test_too_many_guilds_for_one_connection_close_with_4011_and_gateway_bot_recommends_shards():
    d, _guilds = _world()
    d.max_guilds_per_shard, d.guilds_per_recommended_shard = 2, 2      # 4 guilds: as 5000 would be
    async with d, aiohttp.ClientSession() as s:
        async with s.get(f"{d.api_base}/gateway/bot", headers=AUTH) as r:
            assert (await r.json())["shards"] == 2
        unsharded = await _connect(s, d, None)
        await asyncio.wait_for(unsharded.ws.receive(), 5)
        assert unsharded.ws.close_code == 4011
        two = await _connect(s, d, [1, 2])                              # two guilds each: allowed
        assert len((await two.until("READY"))["guilds"]) == 2
        d.add_guild("fifth")
        async with s.get(f"{d.api_base}/gateway/bot", headers=AUTH) as r:
            assert (await r.json())["shards"] == 3
        await two.ws.close()
