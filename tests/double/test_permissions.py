"""The double's permissions: computed from roles and overwrites as permissions.md computes them, and
enforced per channel route with Discord's errors (50001 Missing Access, 50013 Missing Permissions)."""

from __future__ import annotations

from tests.double import DiscordDouble
from tests.double import payloads as P
from tests.double.attachments import png
from tests.double.test_uploads import gallery, send

README_INVITE = P.VIEW_CHANNEL | P.SEND_MESSAGES | P.SEND_MESSAGES_IN_THREADS | P.ATTACH_FILES


def picture(name: str = "table.png") -> dict:
    return {"files[0]": (name, png(4, 3))}


async def test_the_computation_follows_discords_order_and_implicit_rules():
    d = DiscordDouble()
    owner = d.add_user("owner")
    guild = d.add_guild("Testserver", owner=owner, everyone_permissions=P.MEMBER_PERMISSIONS & ~P.ATTACH_FILES)
    channel = d.add_text_channel(guild, "spiele")
    thread = d.add_thread(channel, "t")
    ann, mod = d.add_user("ann"), d.add_user("mod")
    d.add_member(guild, ann)
    d.add_member(guild, mod, permissions=P.ADMINISTRATOR)
    w = d.world
    # @everyone without uploads: the bot's own role (the invite) still brings them
    assert w.permissions(channel, ann) & P.ATTACH_FILES == 0
    assert w.app_permissions(channel) == P.MEMBER_PERMISSIONS | README_INVITE
    # @everyone's overwrite first, then roles' combined (an allow wins over another role's deny), then the member's
    helpers = await d.add_role(guild, "helpers", 0, members=[ann])
    quiet = await d.add_role(guild, "quiet", 0, members=[ann])
    await d.set_overwrite(channel, guild, deny=P.ATTACH_FILES | P.EMBED_LINKS)
    assert w.app_permissions(channel) & (P.ATTACH_FILES | P.EMBED_LINKS) == 0
    await d.set_overwrite(channel, quiet, deny=P.ATTACH_FILES)
    await d.set_overwrite(channel, helpers, allow=P.ATTACH_FILES)
    assert w.permissions(channel, ann) & P.ATTACH_FILES
    await d.set_overwrite(channel, ann, deny=P.ATTACH_FILES)
    assert not w.permissions(channel, ann) & P.ATTACH_FILES
    # the owner and administrators ignore overwrites
    await d.set_overwrite(channel, guild, deny=P.VIEW_CHANNEL)
    assert w.permissions(channel, owner) == w.permissions(channel, mod) == P.ALL_PERMISSIONS
    # no View Channel: nothing at all, in the channel and its threads
    assert w.app_permissions(channel) == w.app_permissions(thread) == w.permissions(thread, ann) == 0
    # no Send Messages: no uploads either; in a thread Send Messages in Threads is what counts
    await d.set_overwrite(channel, guild, deny=P.SEND_MESSAGES)
    assert w.app_permissions(channel) & (P.SEND_MESSAGES | P.ATTACH_FILES) == 0
    assert w.app_permissions(thread) & P.ATTACH_FILES
    await d.set_overwrite(channel, guild, deny=P.SEND_MESSAGES_IN_THREADS)
    assert w.app_permissions(channel) & P.ATTACH_FILES
    assert w.app_permissions(thread) & (P.SEND_MESSAGES_IN_THREADS | P.ATTACH_FILES) == 0
    # the channel payload carries the overwrites, @everyone's first
    types = [(o["id"], o["type"]) for o in w.channel_payload(channel)["permission_overwrites"]]
    assert types == [(guild.id, 0), (quiet.id, 0), (helpers.id, 0), (ann.id, 1)]


async def test_a_post_with_a_file_needs_attach_files(wire):
    d, guild, channel, s = wire
    await d.set_overwrite(channel, guild, deny=P.ATTACH_FILES)       # a moderated channel: no uploads
    status, body = await send(s, "POST", f"channels/{channel.id}/messages", gallery("table.png"), picture())
    assert (status, body["code"]) == (403, 50013)
    status, body = await send(s, "POST", f"channels/{channel.id}/messages", {"content": "text only"})
    assert status == 200
    # an edit that uploads needs it too; one that keeps the message's files or has none does not
    status, edited = await send(s, "PATCH", f"channels/{channel.id}/messages/{body['id']}",
                                gallery("table.png"), picture())
    assert (status, edited["code"]) == (403, 50013)
    assert (await send(s, "PATCH", f"channels/{channel.id}/messages/{body['id']}", {"content": "edited"}))[0] == 200
    await d.set_overwrite(channel, d.bot, allow=P.ATTACH_FILES)     # the bot's member overwrite wins
    status, body = await send(s, "POST", f"channels/{channel.id}/messages", gallery("table.png"), picture())
    assert status == 200 and [a["filename"] for a in d.message(body["id"]).shown] == ["table.png"]
    assert [m.content for m in d.messages(channel)] == ["edited", ""]


async def test_a_thread_needs_send_messages_in_threads_and_its_parents_uploads(wire):
    d, guild, channel, s = wire
    thread = d.add_thread(channel, "t")
    await d.set_overwrite(channel, guild, deny=P.SEND_MESSAGES)      # threads only
    assert (await send(s, "POST", f"channels/{channel.id}/messages", {"content": "x"}))[1]["code"] == 50013
    status, _ = await send(s, "POST", f"channels/{thread.id}/messages", gallery("t.png"), picture("t.png"))
    assert status == 200
    await d.set_overwrite(channel, guild, deny=P.ATTACH_FILES)
    status, body = await send(s, "POST", f"channels/{thread.id}/messages", gallery("t.png"), picture("t.png"))
    assert (status, body["code"]) == (403, 50013)
    await d.set_overwrite(channel, guild, deny=P.SEND_MESSAGES_IN_THREADS)
    status, body = await send(s, "POST", f"channels/{thread.id}/messages", {"content": "x"})
    assert (status, body["code"]) == (403, 50013)
    await d.set_overwrite(channel, guild, deny=P.VIEW_CHANNEL)
    status, body = await send(s, "POST", f"channels/{thread.id}/messages", {"content": "x"})
    assert (status, body["code"]) == (403, 50001)


async def test_deleting_another_authors_message_needs_manage_messages(wire):
    d, guild, channel, s = wire
    ann = d.add_user("ann")
    d.add_member(guild, ann)
    theirs = d.post_as(ann, channel, "hello")
    status, body = await send(s, "DELETE", f"channels/{channel.id}/messages/{theirs.id}", None)
    assert (status, body["code"]) == (403, 50013) and not theirs.deleted
    status, body = await send(s, "PATCH", f"channels/{channel.id}/messages/{theirs.id}", {"content": "mine now"})
    assert (status, body["code"]) == (403, 50005) and theirs.content == "hello"
    _, own = await send(s, "POST", f"channels/{channel.id}/messages", {"content": "mine"})
    assert (await send(s, "DELETE", f"channels/{channel.id}/messages/{own['id']}", None))[0] == 204
    await d.set_app_permissions(channel, d.world.app_permissions(channel) | P.MANAGE_MESSAGES)
    assert (await send(s, "DELETE", f"channels/{channel.id}/messages/{theirs.id}", None))[0] == 204
    assert theirs.deleted


async def test_reading_and_replying_need_read_message_history(wire):
    d, guild, channel, s = wire
    _, first = await send(s, "POST", f"channels/{channel.id}/messages", {"content": "first"})
    await d.set_role_permissions(guild, guild, P.MEMBER_PERMISSIONS & ~P.READ_MESSAGE_HISTORY)
    async with s.get(f"channels/{channel.id}/messages") as resp:
        assert resp.status == 200 and await resp.json() == []       # message.md: no messages are returned
    status, body = await send(s, "GET", f"channels/{channel.id}/messages/{first['id']}", None)
    assert (status, body["code"]) == (403, 50013)
    reply = {"content": "re", "message_reference": {"message_id": first["id"]}}
    status, body = await send(s, "POST", f"channels/{channel.id}/messages", reply)
    assert (status, body["code"]) == (403, 50013)
    await d.set_overwrite(channel, guild, deny=P.VIEW_CHANNEL)
    status, body = await send(s, "GET", f"channels/{channel.id}", None)
    assert (status, body["code"]) == (403, 50001)
