"""Messages made through an interaction's token, as Discord makes them: their type, the
``interaction_metadata`` naming who acted, the mentions their text and ``allowed_mentions`` make
(message.mdx), and the messages the token may edit (webhook.mdx, receiving-and-responding.mdx)."""

from __future__ import annotations

import aiohttp
import pytest

from tests.double import DiscordDouble
from tests.double import payloads as P
from tests.double.world import InteractionRecord

BUTTON = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}


@pytest.fixture
async def wire():
    """A table message posted with the bot token, ann and bob in the server, and an HTTP client."""
    d = DiscordDouble()
    guild = d.add_guild("Testserver")
    channel = d.add_text_channel(guild, "spiele")
    ann, bob, cem = d.add_user("ann"), d.add_user("bob"), d.add_user("cem")
    for user in (ann, bob, cem):
        d.add_member(guild, user)
    await d.start()
    async with aiohttp.ClientSession(d.api_base + "/", headers={"Authorization": "Bot t"}) as s:
        async with s.post(f"channels/{channel.id}/messages", json={"content": "the table", "components": [BUTTON]}) as r:
            table = d.message((await r.json())["id"])
        yield d, channel, table, (ann, bob, cem), s
    await d.stop()
    assert not d.internal_errors, d.internal_errors[0]


async def call(s: aiohttp.ClientSession, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    async with s.request(method, path, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


def click(d: DiscordDouble, user, table) -> InteractionRecord:
    """``user`` clicks Go on the table: the interaction as the gateway would bring it to a bot."""
    channel, iid = table.channel, d.snowflake()
    payload = P.interaction(
        iid=iid, token=f"token-{iid}", itype=P.MESSAGE_COMPONENT, app_id=d.app_id,
        data={"custom_id": "go", "component_type": 2}, guild_id=channel.guild.id,
        channel=d.world.interaction_channel(channel, user),
        member_payload=d.world.member_payload(channel.guild, user, channel), locale=user.locale,
        guild_locale=channel.guild.locale, app_permissions=d.world.app_permissions(channel),
        message_payload=P.copied(table.payload))
    rec = d.world.interactions[payload["token"]] = InteractionRecord(payload, user, channel, d.clock(), source=table,
                                                                     paced=d.pace.now())
    return rec


async def clicked(d: DiscordDouble, s, user, table, callback: int = 6):
    """``user`` clicks Go on the table and the bot acknowledges with ``callback``."""
    rec = click(d, user, table)
    body = {"type": callback} if callback == 6 else {"type": callback, "data": {"content": "answered"}}
    assert (await call(s, "POST", f"interactions/{rec.id}/{rec.token}/callback", body))[0] == 204
    return rec


async def test_a_followup_is_a_reply_naming_who_clicked_and_notifies_only_whom_it_may_mention(wire):
    d, channel, table, (ann, bob, cem), s = wire
    rec = await clicked(d, s, ann, table)
    status, ping = await call(s, "POST", f"webhooks/{d.app_id}/{rec.token}?wait=1", {
        "content": f"Cards · <@{bob.id}>, it is your turn (after <@{ann.id}> and <@{cem.id}>)",
        "allowed_mentions": {"parse": [], "users": [bob.id]}})
    assert status == 200 and ping["type"] == P.REPLY
    meta = ping["interaction_metadata"]
    assert (meta["id"], meta["type"], meta["user"]["id"]) == (rec.id, P.MESSAGE_COMPONENT, ann.id)
    # after a DEFERRED_UPDATE the original response is the clicked message itself
    assert meta["original_response_message_id"] == meta["interacted_message_id"] == table.id
    assert meta["authorizing_integration_owners"] == {"0": channel.guild.id}
    assert ping["webhook_id"] == ping["application_id"] == d.app_id
    assert [u["id"] for u in ping["mentions"]] == [bob.id] and ping["mention_roles"] == []
    assert d.notified(ping["id"]) == {bob}          # not ann, whose click carried it, nor cem

    # without allowed_mentions an interaction's message parses users only: no @everyone
    status, loud = await call(s, "POST", f"webhooks/{d.app_id}/{rec.token}?wait=1", {
        "content": f"@everyone <@{cem.id}>"})
    assert status == 200 and not loud["mention_everyone"] and d.notified(loud["id"]) == {cem}
    # an ephemeral follow-up notifies nobody; a message sent without notifications neither
    for flags in (P.EPHEMERAL, P.SUPPRESS_NOTIFICATIONS):
        status, quiet = await call(s, "POST", f"webhooks/{d.app_id}/{rec.token}?wait=1", {
            "content": f"<@{bob.id}>", "flags": flags})
        assert status == 200 and quiet["mentions"] and d.notified(quiet["id"]) == set()


async def test_the_response_to_a_click_is_a_reply_and_a_channel_message_parses_every_kind(wire):
    d, channel, table, (ann, bob, _cem), s = wire
    rec = await clicked(d, s, ann, table, callback=4)
    answer = rec.original.payload
    assert answer["type"] == P.REPLY and "original_response_message_id" not in answer["interaction_metadata"]
    assert answer["interaction_metadata"]["interacted_message_id"] == table.id
    assert table.payload["type"] == P.DEFAULT and "interaction_metadata" not in table.payload
    # a channel message without allowed_mentions parses users, roles and everyone; @everyone needs
    # MENTION_EVERYONE, which the bot was not given
    status, posted = await call(s, "POST", f"channels/{channel.id}/messages", {
        "content": f"@here <@!{bob.id}> <@{bob.id}> <@123>"})
    assert status == 200 and [u["id"] for u in posted["mentions"]] == [bob.id] and not posted["mention_everyone"]
    # an edit of the text parses it afresh, with its own allowed_mentions
    status, _edited = await call(s, "PATCH", f"channels/{channel.id}/messages/{posted['id']}", {
        "content": f"<@{ann.id}> <@{bob.id}>", "allowed_mentions": {"users": [ann.id]}})
    assert status == 200 and d.notified(posted["id"]) == {ann}


async def test_a_clicks_token_edits_the_clicked_message_only_as_its_original(wire):
    """The token did not make the clicked message: only ``@original`` reaches it after an UPDATE or
    DEFERRED_UPDATE; by its own id it is unknown to the interaction's webhook (10008). A follow-up
    the token made is edited by its id."""
    d, _channel, table, (ann, _bob, _cem), s = wire
    rec = await clicked(d, s, ann, table)
    hook = f"webhooks/{d.app_id}/{rec.token}/messages"
    status, refused = await call(s, "PATCH", f"{hook}/{table.id}", {"content": "by id"})
    assert (status, refused["code"]) == (404, 10008) and table.content == "the table"
    assert (await call(s, "GET", f"{hook}/{table.id}"))[0] == 404
    assert (await call(s, "DELETE", f"{hook}/{table.id}"))[0] == 404 and not table.deleted
    status, edited = await call(s, "PATCH", f"{hook}/@original", {"content": "by @original"})
    assert status == 200 and edited["id"] == table.id and table.content == "by @original"
    _, followup = await call(s, "POST", f"webhooks/{d.app_id}/{rec.token}?wait=1", {"content": "later"})
    status, _ = await call(s, "PATCH", f"{hook}/{followup['id']}", {"content": "later, edited"})
    assert status == 200 and d.message(followup["id"]).content == "later, edited"


async def test_a_webhook_edit_may_not_set_the_ephemeral_flag(wire):
    """webhook.mdx, Edit Webhook Message: flags may be SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only."""
    d, _channel, table, (ann, _bob, _cem), s = wire
    rec = click(d, ann, table)
    body = {"type": 4, "data": {"content": "just for you", "flags": P.EPHEMERAL}}
    assert (await call(s, "POST", f"interactions/{rec.id}/{rec.token}/callback", body))[0] == 204
    hook = f"webhooks/{d.app_id}/{rec.token}/messages/@original"
    status, refused = await call(s, "PATCH", hook, {"content": "again", "flags": P.EPHEMERAL})
    assert (status, refused["code"]) == (400, 50035) and "flags" in refused["errors"]
    assert rec.original.content == "just for you"
    status, edited = await call(s, "PATCH", hook, {"content": "again", "flags": P.SUPPRESS_EMBEDS})
    assert status == 200 and edited["flags"] & P.EPHEMERAL and rec.original.content == "again"
