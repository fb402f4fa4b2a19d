"""Fault injection in the double, driven by the unmodified sample bot: what discord.py does with it."""

from __future__ import annotations

import asyncio

import discord
import pytest

from tests.double.test_double import env  # noqa: F401  (the fixture)

CALLBACK = "/interactions/*/callback"


def _callbacks(d):
    return [r for r in d.requests if r.method == "POST" and r.path.endswith("/callback")]


async def test_429_on_the_callback_is_waited_out_for_retry_after(env):  # noqa: F811
    d = env.double
    fault = d.fault("POST", CALLBACK, status=429, retry_after=0.3)
    r = await d.slash(env.bob, env.table, "counter")
    assert r.message.content == "Counter: 0"
    limited, answered = _callbacks(d)
    assert (limited.status, answered.status) == (429, 200) and fault.hits == [limited]
    assert limited.error["retry_after"] == 0.3
    assert answered.at - limited.at >= 0.3, "discord.py retried before retry_after had passed"


async def test_10062_on_the_callback_reaches_the_bot_and_the_user_sees_no_answer(env, bot_errors):  # noqa: F811
    d = env.double
    d.fault("POST", CALLBACK, status=404, code=10062)
    r = await d.slash(env.bob, env.table, "counter", expect_ack=False)
    err = await bot_errors.wait_for(discord.NotFound, code=10062)
    assert err.status == 404 and r.callback is None and [x.code for x in r.rejected] == [10062]


async def test_500_is_retried_by_discord_py_and_503_is_not(env, bot_errors):  # noqa: F811
    d = env.double
    d.fault("POST", "/channels/*/messages", status=500)
    r = await d.slash(env.ann, env.table, "probe", case="announce")
    assert r.message.content == "posted"
    assert [x.status for x in d.requests if x.path.endswith("/messages")] == [500, 200]
    assert [m.content for m in d.messages(env.table)] == ["announcement"]

    d.fault("POST", "/channels/*/messages", status=503)
    r = await d.slash(env.ann, env.table, "probe", case="announce", expect_ack=False)
    err = await bot_errors.wait_for(discord.DiscordServerError)
    assert err.status == 503 and r.callback is None
    assert [m.content for m in d.messages(env.table)] == ["announcement"]


async def test_nth_and_times_pick_the_requests(env):  # noqa: F811
    d = env.double
    fault = d.fault("POST", "/channels/*/messages", status=403, code=50013, nth=2, times=2)
    said = [(await d.slash(env.ann, env.table, "probe", case="announce")).message.content for _ in range(4)]
    assert said == ["posted", "cannot post here: 50013", "cannot post here: 50013", "posted"]
    assert fault.seen == 3 and len(fault.hits) == 2 and fault.spent


async def test_an_answer_lost_after_discord_did_the_work(env, bot_errors):  # noqa: F811
    d = env.double
    d.fault("POST", CALLBACK, status=502, after=True)
    r = await d.slash(env.bob, env.table, "counter")
    assert r.message.content == "Counter: 0"      # the user sees the answer ...
    err = await bot_errors.wait_for(discord.HTTPException, code=40060)   # ... the bot's retry is refused
    assert err.status == 400
    assert [x.status for x in _callbacks(d)] == [502, 400]


async def test_a_held_request_waits_and_a_hook_runs(env):  # noqa: F811
    d = env.double
    gate, seen = asyncio.Event(), []
    fault = d.fault("POST", CALLBACK, hold=gate, then=seen.append)
    r = await d.slash(env.bob, env.table, "counter", expect_ack=False)
    await d.wait_until(lambda: fault.hits, what="the held callback")
    assert r.callback is None and not seen
    gate.set()
    await d.wait_ack(r)
    assert r.message.content == "Counter: 0" and seen == fault.hits


async def test_a_dropped_gateway_connection_is_resumed(env):  # noqa: F811
    d = env.double
    session = d.gateway.current
    await d.drop_gateway()
    await d.wait_until(lambda: session.resumed == 1 and d.gateway.connected, what="the bot to resume")
    assert len(d.gateway.identifies) == 1
    assert (await d.slash(env.bob, env.table, "counter")).message.content == "Counter: 0"


async def test_an_expired_token_can_be_answered_with_a_5xx(env, bot_errors):  # noqa: F811
    """Discord sometimes answers a request on an expired token with a 5xx rather than 401 50027:
    a fault with ``when=double.token_expired`` plays that, and leaves live tokens alone."""
    d = env.double
    fault = d.fault("*", "/webhooks/*", status=503, when=d.token_expired)
    r = await d.slash(env.ann, env.table, "probe", case="expire")
    assert r.message.content == "soon stale" and not fault.hits
    d.advance(15 * 60 + 1)
    env.bot.gates["expire"].set()
    err = await bot_errors.wait_for(discord.HTTPException, code=50027)     # discord.py tried once more
    assert err.status == 401 and [x.status for x in r.rejected] == [503, 401] and len(fault.hits) == 1


def test_a_fault_needs_an_effect():
    from tests.double import DiscordDouble

    with pytest.raises(ValueError, match="needs a status"):
        DiscordDouble().fault("GET", "/gateway")
