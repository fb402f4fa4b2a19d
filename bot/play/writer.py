"""Public messages of a session: the table, the turn ping, and the closing summary.

One writer task per session redraws the table after the interaction was answered. Redraw requests
merge (the latest state wins), messages whose rendering did not change are not edited, and the
message that was clicked is already up to date from the interaction response. Discord's channel
PATCH routes are rate limited per channel, so fewer edits means a faster table.

An open hand follows the table while its token lasts (``webhooks.TOKEN_USABLE``); in the token's
last minute the writer edits it one last time into a note that it stopped following, with a button
that shows the hand afresh (a click comes with a fresh token). Tokens live in memory only: after a
restart, hands opened before it are neither refreshed nor given that note.

No table stays stuck: a redraw that Discord refused (a 5xx, a lost connection) is tried again a
little later, backing off, until it goes through; a running game without a complete stored table
(a kill before its post or before its ids were stored, a refused post) gets a fresh one. Before a
post the writer stores a "posting" mark, so after a kill mid-post the table is posted afresh and
any half-posted messages are older than it: their buttons are refused as an old message.

A refusal for want of a permission (403) is not tried again: it would be refused again. Without
Attach Files the table goes on without pictures (a click whose ``app_permissions`` lack it turns
them off before anything is refused; one that has it again turns them back on); without View
Channel or Send Messages the channel is told once where a click's token still can, the log says
so once, and the table is drawn again with the next move.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Mapping
from typing import Any, NamedTuple

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot.i18n import t
from bot.play.autoplay import Autoplay
from bot.play.changes import Change, Changes
from bot.play.clock import Alarm, Clock
from bot.play.sessions import EndedSession, Refusal, Session, SessionManager
from bot.registry import find_presenter, hand_summary, pictures, presenter
from bot.replays.share import archive_buttons
from bot.storage.status import Status
from bot.storage.store import StorageFault
from bot.transport import media, webhooks
from bot.transport.permissions import PICTURES, missing_permissions, needed
from bot.transport.reply import Reply
from bot.ui import lobby as lobby_ui
from bot.ui import pictured
from bot.ui.autoplay import deadline_line
from bot.ui.base import Rendered, StaticView, hand_button, relative_time, row, unfollowed_hand
from bot.ui.movelog import MoveLog
from bot.ui.summary import closing
from games.base import Event

log = logging.getLogger("spieltisch.tables")

#: Seconds before a refused redraw is tried again; the wait doubles up to the longest.
RETRY_FIRST = 5.0
RETRY_LONGEST = 300.0
#: Discord's codes for a message that cannot be edited any more: too many edits to a message older
#: than an hour (30046), an archived thread (50083).
UNEDITABLE = frozenset({30046, 50083})
UNKNOWN_CHANNEL = 10003
#: Seconds before a table may be posted again with ``/table``: each repost is a post and a delete on
#: the bot's global rate limit, which every table shares.
REPOST_EVERY = 60.0
#: Discord's code for a permission missing in a channel the bot can see (50001: one it cannot see).
MISSING_PERMISSIONS = 50013
INVALID_FORM_BODY = 50035


class FilesRefused(Exception):
    """Discord refused a table message because it uploads pictures (403: Attach Files is missing)."""


class OpenHand(NamedTuple):
    """A seat's open hand, which the writer keeps current through the token that drew it last."""

    token: tuple[discord.Interaction, float]    # the interaction and when it came (bot clock)
    lang: str
    ui: str                                     # the in-hand step it shows
    drawn: bytes                                # the fingerprint of what it shows (b"": draw it again)
    shown: media.Shown | None                   # its pictures
    followup: int | None                        # its message id when it is a follow-up, not @original
    message: int | None                         # the message the player sees it in, where known


class _Table:
    """What the writer remembers of one session's table (memory only; ids live in storage)."""

    def __init__(self) -> None:
        self.dirty = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.task: asyncio.Task | None = None
        self.drawn: dict[int, bytes] = {}
        self.log = MoveLog()
        self.pinged: tuple[frozenset[int], float | None, str] | None = None
        #: The newest click in the session and when it came (bot clock): public messages go as its
        #: follow-ups while its token lasts. The token the current ping went through, to delete it.
        self.token: tuple[discord.Interaction, float] | None = None
        self.ping_via: tuple[discord.Interaction, float] | None = None
        self.rendered: tuple[tuple, list[Rendered]] | None = None
        #: Per table message, the newest click acknowledged on it, when (bot clock) and the message's
        #: id: its token edits that message through the interaction's webhook route while it lasts.
        self.editors: dict[int, tuple[tuple[discord.Interaction, float], int]] = {}
        #: Each seat's newest open hand. Interaction tokens are credentials: memory only, usable for
        #: 15 minutes.
        self.hands: dict[int, OpenHand] = {}
        #: Hands a newer one of the same seat replaced, to be told so (``_refresh_hands``).
        self.superseded: list[tuple[int, OpenHand]] = []
        #: Per seat, the alarm that wakes the writer for the open hand's last edit before its token ends.
        self.farewells: dict[int, Alarm] = {}
        #: Per seat, held while its hand is redrawn by the writer or answered by a click in it:
        #: two edits of one message must not cross on the way (the older would win).
        self.hand_turns: dict[int, asyncio.Lock] = {}
        self.post = False
        #: The next try after a refused redraw: its alarm and the wait after that one.
        self.retry: Alarm | None = None
        self.backoff = RETRY_FIRST
        #: Public messages owed after the table redraw (a hand's score breakdown), oldest first.
        self.announcements: list[str] = []
        #: When ``/table`` last posted this table again (bot clock).
        self.reposted: float | None = None
        #: The writer turned the session's pictures off because the channel refuses files.
        self.files_refused = False
        #: Discord refused a redraw for want of a permission; told and logged, not tried again
        #: before the next change.
        self.forbidden = False


def move_log(session: Session, log: MoveLog | None = None) -> str | None:
    """The last moves of the game, newest last (before the first move, what happened at the deal),
    drawn from the history, so it reads the same after a restart; ``log`` remembers the lines
    already described."""
    show = presenter(session.game.key)
    lines = (log or MoveLog()).lines(session, session.lang, lambda events: show.describe(session, events, session.lang))
    return "\n".join(lines) or None


class TableWriter:
    """Draws every table of this process on Discord (``client``), after the changes it follows
    (``follow``); reads the deadline a table shows from ``autoplay``."""

    def __init__(self, client: discord.Client, sessions: SessionManager, autoplay: Autoplay, changes: Changes,
                 clock: Clock, *, lobby_timeout: float) -> None:
        self.client = client
        self.sessions = sessions
        self.autoplay = autoplay
        self.changes = changes
        self.clock = clock
        #: Seconds an unstarted lobby stays open (its message says until when).
        self.lobby_timeout = lobby_timeout
        self._tables: dict[int, _Table] = {}
        #: The pictures each table message shows, by message id: an unchanged picture is not uploaded
        #: again. Stored with the session's message ids too (``shown``), so it outlives a restart.
        self._pictures: dict[int, media.Shown] = {}
        #: Endings of sessions whose channel turned out to be gone (kept so the task is not collected).
        self._gone: set[asyncio.Task] = set()

    # -- what the click path and the commands call ------------------------------------------
    def render(self, session: Session) -> list[Rendered]:
        """The table as it stands; the click's answer and the writer share one rendering per move."""
        table = self._table(session)
        line = self.shown_line(session)
        key = (len(session.history), session.status, session.lang, line, session.pictures)
        if table.rendered is None or table.rendered[0] != key:
            table.rendered = (key, presenter(session.game.key).table(session, session.lang, line))
        return table.rendered[1]

    def shown_line(self, session: Session) -> str | None:
        """What the table shows under the game: the move log, and at a table with a clock the
        current turn's deadline."""
        log = self.move_log(session)
        due = self.autoplay.deadline(session) if session.status == Status.PLAYING else None
        if due is None:
            return log
        clock = deadline_line(session.lang, due)
        return f"{log}\n{clock}" if log else clock

    def move_log(self, session: Session) -> str | None:
        """``move_log``, each move described once while the writer keeps the table."""
        table = self._tables.get(session.id)
        return move_log(session, table.log if table is not None else None)

    def summary(self, session: Session, events: list[Event]) -> str | None:
        return hand_summary(session.game.key, session, events, session.lang)

    def index_of(self, session: Session, message_id: int | None) -> int | None:
        ids = session.messages.get("table", [])
        return ids.index(message_id) if message_id in ids else None

    def drawn(self, session: Session, index: int, rendered: Rendered, answered: dict | None = None) -> None:
        """The interaction response already shows ``rendered`` on table message ``index`` (as
        Discord ``answered`` it, where the answer came with the message)."""
        self._table(session).drawn[index] = rendered.fingerprint()
        self._pictures[session.messages["table"][index]] = (media.shown_on(answered) if answered is not None
                                                            else media.shown_by(rendered.pictures))

    def hand_shown(self, session: Session, seat: int, reply: Reply, ui: str, rendered: Rendered,
                   message_id: int | None = None, *, opened: int | None = None) -> None:
        """Remember the seat's newest hand, so the writer can keep it current while its token lasts
        (``message_id``: the hand is a follow-up of that interaction, not its original response;
        ``opened``: the new message a Hand click showed it in, else it was redrawn in place).

        A hand in another message than the seat's hand before it replaces that one, which the writer
        tells with its next redraw that it no longer follows the table (until then both show the
        same, and a click in the older one makes it the newest again): one current hand, never two."""
        self.clicked(session, reply.interaction)
        table = self._table(session)
        token = self._token(reply.interaction)
        clicked = reply.interaction.message
        message = opened or message_id or (clicked.id if clicked is not None else None)
        before = table.hands.get(seat)
        table.hands[seat] = OpenHand(token, reply.lang, ui, rendered.fingerprint(),
                                     media.shown_by(rendered.pictures), message_id, message)
        if before is not None and before.message is not None and before.message != message:
            table.superseded.append((seat, before))
        alarm = table.farewells.pop(seat, None)
        if alarm is not None:
            alarm.cancel()

        def wake() -> None:
            table.farewells.pop(seat, None)
            if session.is_live and self._tables.get(session.id) is table:
                self._wake(session, table)

        table.farewells[seat] = self.clock.call_at(token[1] + webhooks.TOKEN_USABLE, wake)

    def hand_turn(self, session: Session, seat: int) -> asyncio.Lock:
        """Held while the seat's open hand is being redrawn (``_refresh_hands``) or answered (a click)."""
        turns = self._table(session).hand_turns
        lock = turns.get(seat)
        if lock is None:
            lock = turns[seat] = asyncio.Lock()
        return lock

    def table_clicked(self, session: Session, index: int, interaction: discord.Interaction) -> None:
        """A click on table message ``index`` was acknowledged on that message: its token may edit
        it (the interaction's original response) while it lasts."""
        self._table(session).editors[index] = (self._token(interaction), session.messages["table"][index])

    def clicked(self, session: Session, interaction: discord.Interaction) -> None:
        """A player clicked in this session: the writer's public messages may go through its token
        (once the click was answered: an unanswered interaction takes no follow-ups), and its
        ``app_permissions`` say whether the table's pictures may be uploaded."""
        table = self._table(session)
        self._permitted(session, table, interaction)
        if interaction.response.is_done():
            table.token = self._token(interaction)

    def _token(self, interaction: discord.Interaction) -> tuple[discord.Interaction, float]:
        """The interaction with the moment the bot received it: its token's age counts from there."""
        return interaction, webhooks.received(interaction, self.clock.now())

    async def follow(self, change: Change) -> None:
        """Draw what a change owes the channel: the table of a game that started, a redraw with what
        a move announces, the lobby a click's answer does not show, nothing more where the channel is
        gone."""
        session = change.session
        if change.gone:
            self.forget(session)
            return
        if change.started:
            self.started(session, change.interaction)
        elif change.moved:
            self.moved(session, change.events, change.interaction)
        elif session.state is not None:
            self.changed(session)
        if (change.started or session.state is None) and not change.shown:
            await self.redraw_lobby(session)

    def moved(self, session: Session, events: list[Event], interaction: discord.Interaction | None = None) -> None:
        """A move was made (by a click, or by a computer without ``interaction``): redraw (the log
        takes it from the history) and post what the move owes the channel (a hand's breakdown)."""
        if interaction is not None:
            self.clicked(session, interaction)
        self.changed(session, self.summary(session, events))

    def changed(self, session: Session, announce: str | None = None) -> None:
        table = self._table(session)
        if announce is not None:
            table.announcements.append(announce)
        self._wake(session, table)

    def started(self, session: Session, interaction: discord.Interaction | None = None) -> None:
        """Post the table of a game that just started (``interaction``: the click that started it)."""
        table = self._table(session)
        if interaction is not None:
            self._permitted(session, table, interaction)
        table.post = True
        self._wake(session, table)

    def claim_repost(self, session: Session, user_id: int) -> None:
        """May ``user_id`` post the table again (``/table``) now? The players at the table and its host
        may, once a minute per table; ``Refusal`` otherwise. A granted claim starts the minute."""
        if session.seat_of(user_id) is None and user_id != session.host_id:
            raise Refusal("table.repost_players_only")
        table = self._table(session)
        now = self.clock.now()
        if table.reposted is not None and now < table.reposted + REPOST_EVERY:
            raise Refusal("table.repost_wait", link=self._link(session),
                          when=relative_time(table.reposted + REPOST_EVERY))
        table.reposted = now

    def repost(self, session: Session) -> None:
        """Post the table again at the bottom of the channel (``/table``, after ``claim_repost``)."""
        self.started(session)

    def restored(self, session: Session) -> None:
        """After a restart: redraw, in case the rendering changed with the new version (or a kill
        came between a change and its answer). The move log comes back from the replayed
        history, so the table reads as it did before, and the pictures its messages show come
        back from storage, so an unchanged one is not uploaded again."""
        for message_id, shown in (session.messages.get("shown") or {}).items():
            self._pictures[int(message_id)] = {(name, alt): ident for name, alt, ident in shown}
        if session.status == Status.PLAYING:
            self.changed(session)
        elif session.status == Status.LOBBY:
            self.client.loop.create_task(self._redraw_lobby_quietly(session))

    def ended_on_restore(self, ended: EndedSession) -> None:
        self.client.loop.create_task(self._say(ended.channel_id, t(ended.lang, f"table.ended_{ended.reason}")))

    async def _redraw_lobby_quietly(self, session: Session) -> None:
        try:
            await self.redraw_lobby(session)
        except discord.HTTPException as exc:
            log.warning("could not redraw the lobby of session %s: %s", session.id, exc)

    async def redraw_lobby(self, session: Session) -> None:
        lobby_id = session.messages.get("lobby")
        if lobby_id:
            await self._edit(session.channel_id, lobby_id, lobby_ui.render(session, self.lobby_timeout))

    async def flush(self) -> None:
        """Wait until every table shows the latest state (tests and shutdown)."""
        while True:
            pending = [table for table in self._tables.values() if not table.idle.is_set()]
            if not pending:
                return
            await asyncio.gather(*(table.idle.wait() for table in pending))

    async def end_gone(self, *, reason: str, guild_id: int | None = None, channel_id: int | None = None) -> None:
        """A channel, thread or server is gone for the bot: its games end without a result, their
        timers with them, and nothing more is drawn there."""
        for session in await self.sessions.end_gone(guild_id=guild_id, channel_id=channel_id, reason=reason):
            await self.changes.tell(Change(session, gone=True))

    def forget(self, session: Session) -> None:
        """The table's channel is gone (deleted, or the bot left its server): nothing more to draw."""
        table = self._tables.pop(session.id, None)
        if table is not None:
            if table.retry is not None:
                table.retry.cancel()
            if table.task is not None:
                table.task.cancel()
            self._no_farewells(table)
            table.idle.set()
        for message_id in session.messages.get("table", []):
            self._pictures.pop(message_id, None)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.flush(), 5)
        for table in self._tables.values():
            if table.retry is not None:
                table.retry.cancel()
            if table.task is not None:
                table.task.cancel()
            self._no_farewells(table)
        self._tables.clear()

    @staticmethod
    def _no_farewells(table: _Table) -> None:
        for alarm in table.farewells.values():
            alarm.cancel()
        table.farewells.clear()

    # -- the writer task -----------------------------------------------------------------------
    def _table(self, session: Session) -> _Table:
        table = self._tables.get(session.id)
        if table is None:
            table = self._tables[session.id] = _Table()
        return table

    def _wake(self, session: Session, table: _Table) -> None:
        table.idle.clear()
        table.dirty.set()
        if table.task is None or table.task.done():
            table.task = asyncio.create_task(self._run(session, table), name=f"table-writer-{session.id}")

    async def _run(self, session: Session, table: _Table) -> None:
        await self.client.wait_until_ready()     # after a restart: redraw once connected, not during start-up
        while table.dirty.is_set():
            table.dirty.clear()
            try:
                await self._redraw(session, table)
            except FilesRefused:
                self._pictures_refused(session, table)      # and drawn again at once, without them
            except discord.Forbidden as exc:
                await self._forbidden(session, table, exc)
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_CHANNEL:
                    raise
                # deleted before its CHANNEL_DELETE arrived (or with a thread nobody reported)
                log.info("the channel of session %s is gone: ending it", session.id)
                ending = asyncio.create_task(self.end_gone(channel_id=session.channel_id, reason="deleted"))
                self._gone.add(ending)
                ending.add_done_callback(self._gone.discard)
                break
            except (discord.HTTPException, aiohttp.ClientError, OSError) as exc:
                log.warning("could not redraw the table of session %s (trying again in %g s): %s",
                            session.id, table.backoff, exc)
                self._retry_later(session, table)
            except StorageFault:
                self._retry_later(session, table)     # the storage logs the fault's episode once
            except Refusal:
                pass                                  # the database no longer has the session live
            else:
                table.backoff = RETRY_FIRST
                if table.forbidden:
                    table.forbidden = False
                    log.info("the table of session %s is drawn again in channel %s", session.id, session.channel_id)
        table.rendered = None       # drawn: a thousand idle tables' renderings (with their pictures) cost 8 MB
        table.idle.set()
        if not session.is_live:
            self._no_farewells(table)
            self._tables.pop(session.id, None)
            for message_id in session.messages.get("table", []):
                self._pictures.pop(message_id, None)

    def _permitted(self, session: Session, table: _Table, interaction: discord.Interaction) -> None:
        """What a click's ``app_permissions`` say the bot may do in the table's channel now (no
        request asked it): without Attach Files alone the pictures go, with it again they come back."""
        missing = missing_permissions(interaction.app_permissions,
                                      is_thread=isinstance(interaction.channel, discord.Thread))
        if session.pictures and missing == [PICTURES] and session.status == Status.PLAYING:
            self._pictures_refused(session, table)
        elif table.files_refused and PICTURES not in missing:
            table.files_refused = False
            session.pictures = True
            log.info("the bot may attach files again in channel %s: the table of session %s shows its pictures",
                     session.channel_id, session.id)
            self._wake(session, table)

    def _pictures_refused(self, session: Session, table: _Table) -> None:
        """The channel takes no files: the table goes on without pictures (in memory only: the
        stored setting stays the lobby's), says so once in the channel, and the log once."""
        if not session.pictures:
            return
        session.pictures = False
        table.files_refused = True
        log.warning("the bot may not attach files in channel %s: the table of session %s goes on without pictures",
                    session.channel_id, session.id)
        table.announcements.append(t(session.lang, "table.pictures_refused",
                                     name=t(session.lang, f"permissions.{PICTURES}")))
        self._wake(session, table)

    def _files_refused_by(self, channel_id: int, exc: discord.Forbidden) -> bool:
        """Whether Discord refused a request that uploads files for want of Attach Files: a missing
        permission (not a channel out of sight), while the bot has all the others there as far as
        the gateway told it."""
        if exc.code != MISSING_PERMISSIONS:
            return False
        return [name for name in self._missing(channel_id) if name != PICTURES] == []

    def _missing(self, channel_id: int) -> list[str]:
        """The permissions the bot lacks in the channel as discord.py computes them from what the
        gateway sent (none known for a channel it has not cached)."""
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return []
        return missing_permissions(channel.permissions_for(channel.guild.me),
                                   is_thread=isinstance(channel, discord.Thread))

    async def _forbidden(self, session: Session, table: _Table, exc: discord.Forbidden) -> None:
        """A redraw refused for want of a permission (View Channel, Send Messages): told once in the
        channel where a click's token still can (an interaction's follow-up needs no channel
        permission), logged once, and not tried again before the next change."""
        if table.forbidden:
            return
        table.forbidden = True
        log.warning("Discord refused the table of session %s in channel %s (%s %s): a permission is missing; "
                    "it is drawn again with the next move", session.id, session.channel_id, exc.status, exc.code)
        thread = isinstance(self.client.get_channel(session.channel_id), discord.Thread)
        names = ", ".join(t(session.lang, f"permissions.{name}") for name in needed(is_thread=thread) if name != PICTURES)
        with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
            await self._send(session, table, t(session.lang, "table.forbidden", names=names))

    def _retry_later(self, session: Session, table: _Table) -> None:
        """Wake the writer again after the backoff (on the injectable clock: tests advance it)."""
        if table.retry is not None:
            table.retry.cancel()
        due = self.clock.now() + table.backoff
        table.backoff = min(table.backoff * 2, RETRY_LONGEST)

        def wake() -> None:
            table.retry = None
            if session.is_live and self._tables.get(session.id) is table:
                self._wake(session, table)

        table.retry = self.clock.call_at(due, wake)

    def _needs_post(self, session: Session, table: _Table, rendered: list[Rendered]) -> bool:
        """``/table`` asked for it, or a running game has no complete table: never posted (a kill
        or a refusal before the post), its ids never stored, or a post cut short by a kill."""
        if table.post:
            return True
        messages = session.messages
        return session.status == Status.PLAYING and (
            len(messages.get("table") or ()) != len(rendered) or bool(messages.get("posting")))

    async def _redraw(self, session: Session, table: _Table) -> None:
        """Draw the table, then the hands, announcements, ping and summary. A refused step never
        stops the steps after it; the first refusal is raised at the end, so the whole redraw
        (merged with whatever changed meanwhile) is tried again later."""
        refused: Exception | None = None
        for step in (self._draw_table, self._refresh_hands, self._announce, self._ping, self._keep_pictures,
                     self._close):
            try:
                await step(session, table)
            except Refusal:
                raise
            except (discord.HTTPException, aiohttp.ClientError, OSError, StorageFault, FilesRefused) as exc:
                refused = refused or exc
        if refused is not None:
            raise refused

    async def _draw_table(self, session: Session, table: _Table) -> None:
        """Edit the messages whose rendering changed; post a fresh table when Discord will not
        let them be edited any more (an old message edited too often, an archived thread, a
        deleted message), as ``/table`` does. A post in an archived thread unarchives it."""
        await pictured.paint_table(session, pictures(session.game.key))     # in a thread: the event loop stays free for clicks
        rendered = self.render(session)
        if not self._needs_post(session, table, rendered):
            ids = list(session.messages.get("table", []))
            for index, (message_id, message) in enumerate(zip(ids, rendered, strict=False)):
                fingerprint = message.fingerprint()
                if table.drawn.get(index) == fingerprint:
                    continue
                if not await self._edit_table(session, table, index, message_id, message):
                    table.post = True
                    break
                table.drawn[index] = fingerprint
            if not table.post:
                return
        await self._post(session, table, rendered)
        table.post = False

    def _unsaved_pictures(self, session: Session) -> dict:
        """``{"shown": ...}`` for ``set_messages`` when the pictures the table messages show differ
        from those stored with them (nothing otherwise): per message id, [file name, alt text, id]."""
        shown = {str(message_id): [[name, alt, ident] for (name, alt), ident in self._pictures[message_id].items()]
                 for message_id in session.messages.get("table") or () if message_id in self._pictures}
        return {} if shown == (session.messages.get("shown") or {}) else {"shown": shown}

    async def _keep_pictures(self, session: Session, table: _Table) -> None:
        """Store what the table messages show, unless the ping's write just did."""
        if unsaved := self._unsaved_pictures(session):
            await self.sessions.set_messages(session, **unsaved)

    async def _close(self, session: Session, table: _Table) -> None:
        if not session.is_live and not session.messages.get("summary"):
            await self._summarise(session, table)

    async def _post(self, session: Session, table: _Table, rendered: list[Rendered]) -> None:
        """Post the whole table anew; the old messages go once the new ids are stored."""
        old = list(session.messages.get("table", []))
        if not session.messages.get("posting"):
            await self.sessions.set_messages(session, posting=True)
        new = []
        try:
            for message in rendered:
                try:
                    sent = await self._send_table(session.channel_id, message)
                except discord.Forbidden as exc:
                    if message.pictures and self._files_refused_by(session.channel_id, exc):
                        raise FilesRefused() from exc
                    raise
                new.append(int(sent["id"]))
                self._pictures[new[-1]] = media.shown_on(sent)
        except Exception:
            for message_id in new:          # half a table would keep live buttons: take it back
                self._pictures.pop(message_id, None)
                with contextlib.suppress(discord.HTTPException, aiohttp.ClientError, OSError):
                    await self._delete(session.channel_id, message_id)
            raise
        await self.sessions.set_messages(session, table=new, posting=False)
        table.drawn = {index: message.fingerprint() for index, message in enumerate(rendered)}
        table.editors.clear()
        for message_id in old:
            self._pictures.pop(message_id, None)
            await self._delete(session.channel_id, message_id)

    async def _refresh_hands(self, session: Session, table: _Table) -> None:
        """Redraw open hands that another player's move changed, through each seat's newest token;
        in the token's last minute, edit the hand into a note that it no longer follows the table.

        Each seat's hand is read afresh under its turn: a click may have shown a newer hand (another
        step, another message) while the writer edited the hands before it."""
        while table.superseded:
            seat, older = table.superseded.pop(0)
            async with self.hand_turn(session, seat):
                await self._supersede(session, table, seat, older)
        hands = presenter(session.game.key)
        ahead = await self._hands_ahead(session, table)
        for seat in list(table.hands):
            async with self.hand_turn(session, seat):
                hand = table.hands.get(seat)
                if hand is None:
                    continue
                token, lang, ui, drawn, shown = hand.token, hand.lang, hand.ui, hand.drawn, hand.shown
                interaction, age = token[0], self.clock.now() - token[1]
                if age > webhooks.TOKEN_LIFETIME or session.seat_of(interaction.user.id) != seat:
                    # Too late for any edit, or the seat's player is no longer the one who opened the
                    # hand (replaced by a computer): it stops following the seat's cards.
                    del table.hands[seat]
                    continue
                last = age >= webhooks.TOKEN_USABLE
                if last:
                    rendered = unfollowed_hand(session, seat, lang)
                    kwargs = {**media.edit_kwargs(rendered, shown), "attachments": []}     # no stale picture
                else:
                    made = ahead.get(seat)
                    rendered = (made[1] if made is not None and made[0] == self._ahead_of(session, hand)
                                else hands.hand(session, seat, lang, ui, None))
                    if rendered.fingerprint() == drawn:
                        continue
                    kwargs = media.edit_kwargs(rendered, shown)
                try:
                    edited = await self._edit_hand(hand, kwargs)
                except discord.HTTPException:
                    if table.hands.get(seat) is hand:
                        del table.hands[seat]       # dismissed by the player, or the token ran out
                    continue
                newer = table.hands.get(seat)
                if last and newer is hand:
                    del table.hands[seat]           # the note stays: the hand follows no more
                elif newer is hand:
                    table.hands[seat] = hand._replace(drawn=rendered.fingerprint(), shown=media.shown_on(edited))
                elif newer is not None:
                    # A hand opened anew meanwhile, or a click that could not wait for this edit:
                    # what the newer hand shows is not certain (this edit may land after its
                    # answer), so it is drawn again as the player left it.
                    table.hands[seat] = newer._replace(drawn=b"", shown=None)
                    table.dirty.set()

    async def _hands_ahead(self, session: Session, table: _Table) -> dict[int, tuple[tuple, Rendered]]:
        """The open hands that follow the table, rendered before any seat's turn is taken, with the
        pictures of those whose cards changed painted in the painter's thread (``pictured.ahead``):
        a click in a hand waits for its seat's turn, never for the painter. Each comes with what it
        was rendered from (``_ahead_of``); one whose hand or session changed by its turn is rendered
        again then."""
        now, seats = self.clock.now(), []
        for seat, hand in table.hands.items():
            age = now - hand.token[1]
            if age < webhooks.TOKEN_USABLE and session.seat_of(hand.token[0].user.id) == seat:
                seats.append((seat, hand))
        if not seats:
            return {}
        hands = presenter(session.game.key)
        of = [self._ahead_of(session, hand) for _, hand in seats]       # as rendered: painting takes a while
        made = await pictured.ahead([functools.partial(hands.hand, session, seat, hand.lang, hand.ui, None)
                                     for seat, hand in seats])
        return {seat: (key, rendered) for (seat, _), key, rendered in zip(seats, of, made, strict=True)}

    @staticmethod
    def _ahead_of(session: Session, hand: OpenHand) -> tuple:
        """What a hand rendered ahead was rendered from: the hand (its step and language) and the
        session's moves, status and pictures; anything else that changes a session wakes the writer
        again, which renders every hand afresh."""
        return hand, len(session.history), session.status, session.pictures

    @staticmethod
    async def _edit_hand(hand: OpenHand, kwargs: dict) -> dict:
        """Edit an open hand through the token that drew it last. A hand is a V2 message, which has no
        content: one opened before hands were V2 sheds its text."""
        interaction = hand.token[0]
        kwargs.setdefault("content", None)
        if hand.followup is None:
            return await webhooks.edit_original(interaction, **kwargs)
        return await webhooks.edit_followup(interaction, hand.followup, **kwargs)

    async def _supersede(self, session: Session, table: _Table, seat: int, hand: OpenHand) -> None:
        """Tell a hand that a newer one of its seat replaced it (while its token can), unless a click
        in it made it the seat's newest hand again meanwhile."""
        newest = table.hands.get(seat)
        if newest is not None and newest.message == hand.message:
            return
        if self.clock.now() - hand.token[1] > webhooks.TOKEN_LIFETIME:
            return          # too late for any edit
        rendered = unfollowed_hand(session, seat, hand.lang, "hand_superseded")
        with contextlib.suppress(discord.HTTPException):        # dismissed by the player: nothing to tell
            await self._edit_hand(hand, {**media.edit_kwargs(rendered, hand.shown), "attachments": []})

    async def _announce(self, session: Session, table: _Table) -> None:
        while table.announcements:      # taken off the list once sent: a refused one is sent next time
            await self._send(session, table, table.announcements[0])
            table.announcements.pop(0)

    async def _ping(self, session: Session, table: _Table) -> None:
        """A fresh message mentioning whoever must act now, with a link to the table and the Hand
        button (one tap from the notification to the hand); the previous ping goes away."""
        waiting = session.to_act() if session.status == Status.PLAYING else frozenset()
        waiting = frozenset(seat for seat in waiting if session.seats[seat].is_human)
        due = self.autoplay.deadline(session) if waiting else None
        link = self._link(session)
        if (waiting, due, link) == table.pinged:      # a table posted anew is linked by a fresh ping
            return
        old, old_via = session.messages.get("ping"), table.ping_via
        users = [user for seat in sorted(waiting) if (user := session.seats[seat].user_id)]
        new = via = None
        if users:
            lang = session.lang
            # It comes as a follow-up of whoever clicked last, and a client may show that click above
            # it: the text says on its own which game, whose turn, and where the table is.
            text = t(lang, "table.your_turn" if len(users) == 1 else "table.your_turn_several",
                     mentions=" ".join(f"<@{u}>" for u in users), game=session.game.name, link=link)
            if due:
                text += f"\n{deadline_line(lang, due)}"
            new, via = await self._send(
                session, table, text, view=StaticView([row(hand_button(session, lang))]),
                mentions=discord.AllowedMentions(users=[discord.Object(u) for u in users]))
        table.pinged = (waiting, due, link)     # only once sent: a refused ping is sent again next time
        table.ping_via = via
        await self.sessions.set_messages(session, ping=new, **self._unsaved_pictures(session))
        if old:
            await self._delete(session.channel_id, old, self._valid(old_via))

    @staticmethod
    def _link(session: Session) -> str:
        """The jump link to the table's first message."""
        first = (session.messages.get("table") or [None])[0]
        base = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}"
        return f"{base}/{first}" if first else base

    async def _summarise(self, session: Session, table: _Table) -> None:
        """The closing message: the summary with each player's rating change (left out when the
        database cannot say it now), the result picture, Rematch, Export and Share as GIF. Where the channel
        takes no files (as the newest click says, or as Discord answers) it goes without its picture."""
        await self.autoplay.ended(session)
        ratings = None
        if session.status == Status.FINISHED:
            with contextlib.suppress(StorageFault):
                ratings = await self.sessions.storage.rating_changes(session.id)
        message = closing(session, session.lang, find_presenter(session.game.key), ratings,
                          archive_buttons(session.id, session.lang, session.game.key))
        if message is None:
            return
        text, pictures = message.content or "", message.pictures
        clicked = self._valid(table.token)
        if clicked is not None and PICTURES in missing_permissions(
                clicked.app_permissions, is_thread=isinstance(clicked.channel, discord.Thread)):
            pictures = ()
        try:
            sent, _ = await self._send(session, table, text, view=message.view, pictures=pictures)
        except discord.Forbidden as exc:
            if not (pictures and self._files_refused_by(session.channel_id, exc)):
                raise
            sent, _ = await self._send(session, table, text, view=message.view)
        await self.sessions.set_messages(session, summary=sent)

    # -- Discord calls -----------------------------------------------------------------------
    def _valid(self, token: tuple[discord.Interaction, float] | None) -> discord.Interaction | None:
        """The interaction of ``token`` while the bot may still use it (a minute before Discord's 15)."""
        if token is None or self.clock.now() - token[1] >= webhooks.TOKEN_USABLE:
            return None
        return token[0]

    async def _send(self, session: Session, table: _Table, text: str, *, view: discord.ui.View | discord.ui.LayoutView | None = None,
                    mentions: discord.AllowedMentions | None = None,
                    pictures: tuple[media.Picture, ...] = ()) -> tuple[int, tuple | None]:
        """Post a public message (with ``pictures`` below its text); returns its id and the token it
        went through (or None).

        While a player's newest click in this session has a usable token, the message goes as a
        follow-up of that interaction: a webhook route, outside Discord's global limit of channel
        routes, and an ordinary public message of the channel (its allowed mentions ping). Else, or
        when Discord refuses the token, the channel route.
        """
        mentions = mentions or discord.AllowedMentions.none()
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        token = table.token
        interaction = self._valid(token)
        if interaction is not None:
            try:
                sent = await webhooks.send_followup(interaction, content=text, allowed_mentions=mentions, **kwargs,
                                                    **_files(pictures))
                return int(sent["id"]), token
            except discord.HTTPException as exc:
                log.info("a follow-up in channel %s was refused, posting in the channel: %s", session.channel_id, exc)
                table.token = None
        posted = await self.client.get_partial_messageable(session.channel_id).send(text, allowed_mentions=mentions,
                                                                                **kwargs, **_files(pictures))
        return posted.id, None

    async def _say(self, channel_id: int, text: str) -> None:
        with contextlib.suppress(discord.HTTPException):
            await self.client.get_partial_messageable(channel_id).send(text)

    async def _send_table(self, channel_id: int, message: Rendered) -> Mapping[str, Any]:
        """Post a table message straight to the HTTP route (as ``_edit`` edits): the answer is read
        only for the pictures it shows."""
        content = message.content if message.content is not None else discord.utils.MISSING
        files = [p.file() for p in message.pictures] or discord.utils.MISSING
        with handle_message_parameters(content=content, view=message.view, files=files,
                                       previous_allowed_mentions=self.client.allowed_mentions) as params:
            return await self.client.http.send_message(channel_id, params=params)

    async def _edit(self, channel_id: int, message_id: int, message: Rendered) -> bool:
        """Straight to the HTTP route: ``PartialMessage.edit`` would parse the answer into a
        ``Message`` with every component (a sixth of the bot's time under load), and our views
        are never stored (``bot.ui.base``), so nothing else of it is needed but the pictures it shows.

        ``False`` when the message can no longer be edited (gone, archived, edited too often)."""
        content = message.content if message.content is not None else discord.utils.MISSING
        previous = self.client.allowed_mentions if message.content is not None else None
        attachments = media.edit_attachments(message.pictures, self._pictures.get(message_id))
        try:
            with handle_message_parameters(content=content, view=message.view, previous_allowed_mentions=previous,
                                           attachments=discord.utils.MISSING if attachments is None
                                           else attachments) as params:
                edited = await self.client.http.edit_message(channel_id, message_id, params=params)
            if message.pictures or message_id in self._pictures:
                self._pictures[message_id] = media.shown_on(edited)
        except discord.HTTPException as exc:
            if (isinstance(exc, discord.Forbidden) and any(isinstance(a, discord.File) for a in attachments or ())
                    and self._files_refused_by(channel_id, exc)):
                raise FilesRefused() from exc
            if not (isinstance(exc, discord.NotFound) or exc.code in UNEDITABLE):
                raise
            log.info("table message %s in channel %s cannot be edited any more (%s %s): posting a fresh table",
                     message_id, channel_id, exc.status, exc.code)
            return False
        return True

    async def _edit_table(self, session: Session, table: _Table, index: int, message_id: int, message: Rendered) -> bool:
        """``_edit_table_once``; when Discord refuses the pictures the bot remembered the message
        showing (50035: a kill came between an edit and storing what it showed), once more with
        every picture uploaded."""
        try:
            return await self._edit_table_once(session, table, index, message_id, message)
        except discord.HTTPException as exc:
            if exc.code != INVALID_FORM_BODY or self._pictures.pop(message_id, None) is None:
                raise
            log.info("table message %s does not show the pictures remembered for it: uploading them", message_id)
            return await self._edit_table_once(session, table, index, message_id, message)

    async def _edit_table_once(self, session: Session, table: _Table, index: int, message_id: int, message: Rendered) -> bool:
        """Edit table message ``index`` through the newest click's token on it while that lasts
        (a webhook route, outside the global limit), else through the channel route; ``False`` when
        the message can no longer be edited."""
        token, on = table.editors.get(index, (None, None))
        interaction = self._valid(token)
        if interaction is not None and on == message_id:
            try:
                edited = await webhooks.edit_original(interaction,
                                                      **media.edit_kwargs(message, self._pictures.get(message_id)))
            except discord.HTTPException as exc:
                log.info("editing table message %s through a click's token was refused, using the channel: %s",
                         message_id, exc)
                table.editors.pop(index, None)
            else:
                self._pictures[message_id] = media.shown_on(edited)
                return True
        return await self._edit(session.channel_id, message_id, message)

    async def _delete(self, channel_id: int, message_id: int, via: discord.Interaction | None = None) -> None:
        """Delete a message; one posted as a follow-up through the webhook route of its token."""
        if via is not None:
            try:
                await webhooks.delete_followup(via, message_id)
                return
            except discord.NotFound:
                return
            except discord.HTTPException as exc:
                log.info("deleting follow-up %s through its token was refused, using the channel: %s",
                         message_id, exc)
        partial = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        with contextlib.suppress(discord.NotFound):
            await partial.delete()


def _files(pictures: tuple[media.Picture, ...]) -> dict:
    """The ``files`` of a post showing ``pictures``: fresh uploads for each request (none without)."""
    return {"files": [p.file() for p in pictures]} if pictures else {}
