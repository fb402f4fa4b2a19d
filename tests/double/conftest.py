"""Fixtures of the double's own tests."""

from __future__ import annotations

import aiohttp
import pytest

from tests.double import DiscordDouble


@pytest.fixture
async def wire():
    """A started double with one guild and channel, and an HTTP session that speaks to its REST API
    as the bot: (double, guild, channel, session). No request may end in an error of the double's own."""
    d = DiscordDouble()
    guild = d.add_guild("Testserver")
    channel = d.add_text_channel(guild, "spiele")
    await d.start()
    async with aiohttp.ClientSession(d.api_base + "/", headers={"Authorization": "Bot t"}) as s:
        yield d, guild, channel, s
    await d.stop()
    assert not d.internal_errors, d.internal_errors[0]
