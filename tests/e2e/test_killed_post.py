"""A bot process killed around the table post of a game that just started: after the restart the
game has a working table, and a half-posted one has no live buttons."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.transport import ids
from games.calcory import SLOTS
from tests.double import DiscordDouble
from tests.e2e import outside as O
from tests.e2e.bot_process import BotProcess, clean_env, stored_session, write_config

TIMEOUT = 30          # only guards a hanging test; every wait ends on an event
V2 = 1 << 15


@pytest.mark.long(seconds=6)
@pytest.mark.parametrize("posted", [False, True], ids=["before-the-post", "before-its-ids-were-stored"])
async def test_a_kill_around_the_table_post_leaves_a_working_table(tmp_path, posted):
    d = DiscordDouble()
    guild = d.add_guild("Testserver")
    channel = d.add_text_channel(guild, "spiele")
    ann, bob = d.add_user("ann"), d.add_user("bob")
    for user in (ann, bob):
        d.add_member(guild, user)
    by_id = {ann.id: ann, bob.id: bob}
    database = tmp_path / "bot.sqlite3"
    procs = []

    async with d:
        config = write_config(tmp_path / "config.toml", d, database)
        procs.append(BotProcess([str(config)], cwd=tmp_path, env=clean_env(), log=tmp_path / "bot-1.log"))
        try:
            await d.wait_for_bot(timeout=TIMEOUT)
            lobby = (await d.slash(ann, channel, "start", game="calcory")).message
            sid = O.session_id(lobby)
            await d.click(bob, lobby, ids.lobby(sid, "join"))
            # The first table message: killed as it arrives (it is never posted), or once it is.
            kill = d.fault("POST", "/channels/*/messages", when=lambda r: (r.body or {}).get("flags", 0) & V2,
                           then=lambda r: procs[-1].kill(), status=None if posted else 503, after=posted)
            await d.click(ann, lobby, ids.lobby(sid, "start"))
            await d.wait_until(lambda: kill.hits and not d.gateway.connected, TIMEOUT, "the kill")
            stored = stored_session(database, sid)
            assert stored.status == "playing" and not stored.messages.get("table")
            orphans = O.tables(d, channel)
            assert len(orphans) == (1 if posted else 0)

            procs.append(BotProcess([str(config)], cwd=tmp_path, env=clean_env(), log=tmp_path / "bot-2.log"))
            await d.wait_for_bot(timeout=TIMEOUT)
            seat = stored.state.active
            user = by_id[stored.user_of(seat)]

            def table():
                ids_ = stored_session(database, sid).messages.get("table") or []
                messages = [d.message(i) for i in ids_ if str(i) in d.world.messages]
                return len(ids_) == 2 and O.drawn_for(messages, sid, seat, 0) and messages

            tables = await d.wait_until(table, TIMEOUT, "a table after the restart")
            slot = SLOTS[O.face_down(stored.state)[0]]
            flip = ids.move(sid, seat, 0, f"flip:{slot}")
            for orphan in orphans:          # its buttons are an old message's: refused, nothing moves
                refused = await d.click(user, orphan, flip)
                assert refused.ephemeral and refused.message.text == t("en", "table.old_message")
            accepted = await d.click(user, O.holding(tables, flip), flip)
            assert accepted.callback["type"] == 7
            assert stored_session(database, sid).log == [(seat, f"flip:{slot}")]
        finally:
            procs[-1].kill()
    assert not d.unknown_routes and not d.internal_errors
    for proc in procs:
        assert "Traceback" not in proc.output(), proc.output()
