"""The bot in channels whose permissions Discord computes from roles and overwrites: with exactly the
README's invite a table shows its pictures; without Attach Files `/start` opens the lobby with
pictures off and says why; a permission taken away during a game is told once, logged once and
never tried again in a loop, and the table works again on the next move once it is back."""

from __future__ import annotations

import logging
import random
import re
from pathlib import Path

from bot.i18n import t
from bot.transport import ids
from tests.double import payloads as P
from tests.e2e.game_driver import GameDriver

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
GAME = "skippo"


def readme_invite() -> int:
    """The permissions integer the README's invite link asks for."""
    (link,) = re.findall(r"https://discord\.com/oauth2/authorize\?\S+permissions=(\d+)`", README)
    return int(link)


def refused(double) -> list:
    """The bot's requests the double refused for want of a permission."""
    return [r for r in double.requests if r.status == 403]


def claim(caplog, fragment: str) -> list[logging.LogRecord]:
    """The warnings whose text has ``fragment``, taken off the log (``quiet_logs`` checks the rest)."""
    mine = [r for r in caplog.records if fragment in r.getMessage() and r.levelno == logging.WARNING]
    for record in mine:
        caplog.handler.records.remove(record)
    return mine


async def test_a_game_with_exactly_the_readmes_permissions_shows_its_pictures(env):
    """A moderated server: @everyone may do nothing, players have a role; the bot has only its invite."""
    d = env.double
    await d.add_role(env.guild, "players", P.MEMBER_PERMISSIONS, members=list(env.users.values()))
    await d.set_role_permissions(env.guild, env.guild, 0)
    await d.set_role_permissions(env.guild, d.bot, readme_invite())
    assert d.world.app_permissions(env.channel) == readme_invite()
    session = await GameDriver(env, GAME).start(["ann", "cem"])
    [table] = env.table_messages()
    assert session.pictures and [a["filename"].startswith("table-") for a in table.shown] == [True]
    assert refused(d) == []


async def test_start_without_attach_files_opens_the_lobby_with_pictures_off_and_says_why(env):
    d = env.double
    await d.set_overwrite(env.channel, env.guild, deny=P.ATTACH_FILES)     # no uploads in this channel
    record = await d.slash(env.ann, env.channel, "start", game=GAME)
    await d.wait_until(lambda: record.followups, what="the host's notice")
    [notice] = record.followups
    assert notice.ephemeral and notice.text == ("I am missing the permission Attach Files in this channel, "
                                                "so the table is shown without pictures.")
    lobby = record.message
    session = env.session()
    assert "Pictures: **off** (text only)" in lobby.text and not session.pictures
    await d.click(env.cem, lobby, ids.lobby(session.id, "join"))
    await d.click(env.ann, lobby, ids.lobby(session.id, "start"))
    await env.settle()
    [table] = env.table_messages()
    assert session.status == "playing" and table.shown == []
    assert refused(d) == [] and not any(r.files for r in d.requests)

    # in a thread the parent's overwrites count; the German host reads it in German
    await d.slash(env.ann, env.channel, "stop")
    german = await d.slash(env.bob, env.thread, "starten", spiel=GAME)
    await d.wait_until(lambda: german.followups, what="the host's notice")
    assert german.followups[0].text == ("Mir fehlt in diesem Kanal die Berechtigung Dateien anhängen, "
                                        "daher zeigt der Tisch keine Bilder.")
    assert not env.session(env.thread).pictures


async def test_attach_files_taken_away_during_a_game_the_table_goes_on_without_pictures(env, caplog):
    d = env.double
    drive = GameDriver(env, GAME)
    session = await drive.start(["ann", "cem"])
    assert env.table_messages()[0].shown
    await d.set_overwrite(env.channel, env.guild, deny=P.ATTACH_FILES)
    await d.slash(env.ann, env.channel, "table")            # a repost, not a click: the upload is refused
    await env.settle()
    [table] = env.table_messages()
    assert table.shown == [] and not session.pictures
    told = t("en", "table.pictures_refused", name="Attach Files")
    assert [m.text for m in env.public()].count(told) == 1
    assert len(refused(d)) == 1 and refused(d)[0].files
    assert len(claim(caplog, "may not attach files")) == 1

    await drive.play_out(random.Random(1), max_moves=2)     # clicks without Attach Files: nothing refused
    assert len(refused(d)) == 1 and [m.text for m in env.public()].count(told) == 1
    assert env.table_messages()[0].shown == []

    await d.set_overwrite(env.channel, env.guild)           # back: the next move shows the pictures again
    await drive.play_out(random.Random(2), max_moves=1)
    assert session.pictures and env.table_messages()[0].shown
    assert len(refused(d)) == 1 and claim(caplog, "") == []


async def test_a_channel_the_bot_may_no_longer_see_is_told_once_and_not_tried_in_a_loop(env, caplog):
    d = env.double
    drive = GameDriver(env, GAME)
    session = await drive.start(["ann", "cem"])
    await drive.play_out(random.Random(3), max_moves=1)     # a click: its token can still speak
    await d.set_overwrite(env.channel, d.bot, deny=P.VIEW_CHANNEL)
    await d.slash(env.ann, env.channel, "table")
    await env.settle()
    assert [(r.method, r.code) for r in refused(d)] == [("POST", 50001)]
    told = [m for m in env.public() if m.text.startswith("⚠️ I can no longer draw the table")]
    assert [m.text for m in told] == [t("en", "table.forbidden", names="View Channel, Send Messages")]
    assert told[0].interaction is not None                  # the click's follow-up: no channel permission needed
    assert len(claim(caplog, "a permission is missing")) == 1

    async def wait() -> int:
        for _ in range(3):
            env.clock.advance(600)
            await env.settle()
        return len(refused(d))

    # no retry, however long it waits (the open hand's last edit before its token ends wakes the
    # writer once more)
    waited = await wait()
    assert waited <= 2 and await wait() == waited

    await drive.play_out(random.Random(4), max_moves=1)     # the next move tries once more, quietly
    assert waited < len(refused(d)) <= waited + 3 and len([m for m in env.public() if m.text.startswith("⚠️")]) == 1
    assert claim(caplog, "") == []

    await d.set_overwrite(env.channel, d.bot)               # back: the next move draws the table again
    old = session.messages["table"]
    before = len(refused(d))
    await drive.play_out(random.Random(5), max_moves=1)
    assert session.messages["table"] != old and env.table_messages()[0].shown
    assert len(refused(d)) == before
