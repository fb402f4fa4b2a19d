"""The click path: every button and select of the bot lands here.

``handle`` parses the custom_id (never raising), finds the session, and either changes it through
the ``SessionManager`` (which holds the lock, checks, stores and applies) or explains in a short
ephemeral message why nothing happened. The table is redrawn afterwards by the ``TableWriter``;
the message that was clicked is updated in the interaction response itself, which costs no rate
limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable
from dataclasses import replace
from typing import Protocol

import discord

from bot.i18n import t
from bot.play.changes import Change, Changes
from bot.play.clock import Clock
from bot.play.forget import Forget
from bot.play.seats import SeatKind
from bot.play.sessions import Refusal, Session, SessionManager, players
from bot.play.writer import TableWriter
from bot.registry import presenter
from bot.replays import share
from bot.replays.replays import Replays
from bot.replays.share import Share
from bot.storage.status import Status
from bot.transport import compat, ids, media, webhooks
from bot.transport.clicked import ClickedMessage, clicked_message, let_go
from bot.transport.reply import Reply
from bot.ui import lobby as lobby_ui
from bot.ui import options as options_ui
from bot.ui.base import Rendered
from bot.ui.rules import rules_message
from games.keys import number

log = logging.getLogger("spieltisch.clicks")

#: How long a click waits for a busy session before it defers its answer.
LOCK_PATIENCE = 1.0


_PANEL_OPS = ("opt", "set:")


def _misplaced(message: ClickedMessage | None, custom_id: str, click: ids.ClickId) -> str | None:
    """Why a click cannot have come from where it claims (a message key), or None.

    Discord sends the clicked message with the interaction. The id must be on it (only a modified
    client sends one that is not), and a step whose answer redraws the clicked message into
    something private (a hand step, the house-rules panel) must come from a message only the
    clicker sees, or the answer would publish it.
    """
    if message is None or not message.carries(custom_id):
        return "table.not_on_message"
    private = click.kind == "h" or (click.kind == "l" and click.arg.startswith(_PANEL_OPS))
    if private and not message.flags.ephemeral:
        return "table.private_only"
    return None


#: Discord's code for an interaction answered too late (after its 3 s) or twice.
UNKNOWN_INTERACTION = 10062


async def answer(reply: Reply, sending: Awaitable[object]) -> bool:
    """Send the answer to a click whose change is already stored; ``False`` if it failed.

    The change stands either way (the commit came first), so what follows it (the table redraw,
    the timers, the table of a game that just started) must run whatever the answer raised: Discord
    refused it (after its 3 s, 10062, or after retries of a 429 or 5xx), the connection was lost or
    timed out on the way, or anything else went wrong. Then the clicked message and the hand may
    still show what they showed before, and the table writer must not think otherwise.
    """
    try:
        await sending
    except Exception as exc:
        log.warning("could not answer a click in channel %s (the change it made stands): %s",
                    reply.interaction.channel_id, str(exc) or type(exc).__name__)
        return False
    return True


class Reviewer(Protocol):
    """What the click path needs of the coach (``bot.coach.service.Coach``), which sits above it."""

    async def pressed(self, reply: Reply, match_id: int) -> None: ...


def can_manage(interaction: discord.Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and perms.manage_guild)


class Clicks:
    """Every click of the bot, over the services it changes and tells."""

    def __init__(self, sessions: SessionManager, tables: TableWriter, changes: Changes, forget: Forget,
                 replays: Replays, share: Share, clock: Clock, *, lobby_timeout: float,
                 coach: Reviewer | None = None) -> None:
        self.sessions = sessions
        #: An ended match's Export and Share as GIF.
        self.share = share
        #: Answers the How did I play? button of a finished match (``bot.coach``).
        self.coach = coach
        #: Told what each click's answer drew (a hand, a table message), so it is not drawn twice.
        self.tables = tables
        #: Told every change a click made, once it was answered.
        self.changes = changes
        self.forget = forget
        #: Finished matches stepped through privately: the Replay button and the steppers' clicks.
        self.replays = replays
        self.clock = clock
        #: Seconds an unstarted lobby stays open (its message says until when).
        self.lobby_timeout = lobby_timeout
        #: Lobby clicks run one at a time per lobby, answer included, so the lobby message Discord
        #: shows last is always the newest rendering.
        self._lobby_turns: dict[int, asyncio.Lock] = {}
        #: Rematch clicks run one at a time (the first opens the lobby the others join).
        self._rematch_turn = asyncio.Lock()
        self._in_flight = 0
        #: Set while no click is being handled: tests wait for it before waiting for the tables.
        self.quiet = asyncio.Event()
        self.quiet.set()

    async def handle(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        webhooks.received(interaction, self.clock.now())     # its token's 15 minutes count from here
        self._in_flight += 1
        self.quiet.clear()
        try:
            await self._handle(interaction, custom_id, values)
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_INTERACTION:
                raise
            # Only an answer meets this code; every answer after a commit goes through ``answer``.
            log.warning("a click in channel %s was answered after Discord's 3 seconds; it changed nothing",
                        interaction.channel_id)
        finally:
            compat.settled(interaction)     # handled: its token may be kept, its cycle need not be
            let_go(interaction)             # nor the message it was on
            self._in_flight -= 1
            if not self._in_flight:
                self.quiet.set()

    async def _handle(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        reply = Reply(interaction)
        mine = ids.parse_user(custom_id)
        if mine is not None:            # a button about the user's own data, not a table's
            await self.forget.confirmed(reply, custom_id, *mine)
            return
        stepped = ids.parse_replay(custom_id)
        if stepped is not None:         # a private replay: its whole state is in the id, no live session
            await self.replays.click(reply, custom_id, stepped, values)
            return
        click = ids.parse(custom_id)
        if click is None:
            await reply.notice("table.unknown_button")
            return
        refusal = _misplaced(clicked_message(interaction), custom_id, click)
        if refusal is not None:
            await reply.notice(refusal)
            return
        if click.kind == "t" and click.arg == ids.REMATCH:     # a finished match's buttons, not a live table's
            await self._rematch(reply, click.session)
            return
        if click.kind == "t" and click.arg == ids.REPLAY:
            await self.replays.open(reply, click.session)
            return
        if click.kind == "t" and click.arg in share.OPS:       # an ended match's Export and Share as GIF
            await self._archive(reply, click.session, click.arg)
            return
        if click.kind == "t" and click.arg == ids.COACH:
            if self.coach is None:
                await reply.notice("table.unknown_button")
            else:
                await self.coach.pressed(reply, click.session)
            return
        session = self.sessions.get(click.session)
        if session is None or not session.is_live:
            await reply.notice("table.session_gone")
            return
        if session.channel_id != interaction.channel_id:
            # Only a tampered client (or a message from before a database reset) names another table.
            await reply.notice("table.other_channel")
            return
        if click.kind == "l":
            turn = self._lobby_turns.setdefault(session.id, asyncio.Lock())
            async with turn:
                await self._lobby(reply, session, click.arg, values)
            if session.status != Status.LOBBY:
                self._lobby_turns.pop(session.id, None)
        elif click.kind == "t":
            await self._table(reply, session, click.arg)
        elif click.kind == "h":
            await self._hand_step(reply, session, click, values)
        else:
            action = click.arg if click.kind == "m" else click.arg.split("|")[0] + ".".join(values)
            await self._move(reply, session, click, action)

    # -- lobby -----------------------------------------------------------------------------
    async def _lobby(self, reply: Reply, session: Session, op: str, values: list[str]) -> None:
        interaction = reply.interaction
        if session.status != Status.LOBBY:
            await reply.notice("lobby.already_started")
            return
        user = interaction.user
        if op == "rules" or op == "opt":
            picked = values[0] if op == "opt" and values else None
            panel = options_ui.render_panel(session, reply.lang, picked)
            await (reply.send_ephemeral(panel) if op == "rules" else reply.update(panel))
            return
        if op.startswith("set:"):
            await self._set_option(reply, session, op, values)
            return
        if op.startswith("pictures:"):
            await self._set_pictures(reply, session, op.removeprefix("pictures:"))
            return
        try:
            if op == "join":
                await self.sessions.join(session, user.id, user.display_name)
            elif op == "leave":
                await self.sessions.leave(session, user.id)
            elif op == "start":
                await self.sessions.start(session, user.id)
            elif op == "cancel":
                await self.sessions.cancel(session, user.id, can_manage=can_manage(interaction))
            elif op == "lang":
                await self.sessions.set_lang(session, user.id, values[0] if values else "")
            elif op == "pace":
                await self.sessions.set_pace(session, user.id, values[0] if values else "")
            elif op == "cpu":
                level = values[0] if values else ""
                name = lobby_ui.computer_name(session)
                await self.sessions.add_computer(session, user.id, name, level)
            elif op == "remove":
                index = number(values[0]) if values else None
                await self.sessions.remove_seat(session, user.id, -1 if index is None else index)
            else:
                await reply.notice("table.unknown_button")
                return
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        answered = await answer(reply, reply.update(lobby_ui.render(session, self.lobby_timeout)))
        change = Change(session, interaction=interaction, started=session.status == Status.PLAYING, shown=answered)
        with contextlib.suppress(discord.HTTPException):    # a lobby message left as it was: the next click draws it
            await self.changes.tell(change)

    async def _set_option(self, reply: Reply, session: Session, op: str, values: list[str]) -> None:
        """A house rule from the panel: ``set:<field>`` (a select) or ``set:<field>:<value>`` (a button)."""
        _, name, *rest = op.split(":", 2)
        value = rest[0] if rest else (values[0] if values else "")
        offered = options_ui.offered(session, name)
        if offered is not None and value not in offered:     # only what the panel offers, spelled its way
            await reply.notice("core.bad_option", option=name)
            return
        try:
            await self.sessions.set_option(session, reply.interaction.user.id, name, value)
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await answer(reply, reply.update(options_ui.render_panel(session, reply.lang, name)))
        await self.changes.tell(Change(session))

    async def _set_pictures(self, reply: Reply, session: Session, value: str) -> None:
        """The panel's pictures setting: ``pictures:on`` or ``pictures:off``."""
        try:
            await self.sessions.set_pictures(session, reply.interaction.user.id, value)
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await answer(reply, reply.update(options_ui.render_panel(session, reply.lang, options_ui.PICTURES)))
        await self.changes.tell(Change(session))

    # -- table buttons anyone may press --------------------------------------------------------
    async def _table(self, reply: Reply, session: Session, op: str) -> None:
        if op == "rejoin":
            await self._rejoin(reply, session)
            return
        if op == "rules":       # anyone may read them, seated or not: privately, in their own language
            rendered = rules_message(session, session.seat_of(reply.interaction.user.id), reply.lang)
            await answer(reply, reply.send_ephemeral(rendered))
            return
        if op != "hand":
            await reply.notice("table.unknown_button")
            return
        seat = await self._player(reply, session)
        if seat is None:
            return
        rendered = presenter(session.game.key).hand(session, seat, reply.lang, "", None)
        tables = self.tables
        index = tables.index_of(session, reply.interaction.message.id if reply.interaction.message else None)
        if index is None or reply.interaction.response.is_done():
            followup = reply.interaction.response.is_done()     # then edited by its id, not as @original
            sent = await reply.send_ephemeral(rendered)
            tables.hand_shown(session, seat, reply, "", rendered, sent if followup else None, opened=sent)
            return
        # On a table message: acknowledge the click on that message and send the hand as an
        # ephemeral follow-up. The click's token then edits this table message through the
        # interaction's webhook route for 15 minutes, outside Discord's global limit.
        await reply.defer()
        followed = await webhooks.send_followup(reply.interaction, **media.send_kwargs(rendered), ephemeral=True)
        message_id = int(followed["id"])
        tables.hand_shown(session, seat, reply, "", rendered, message_id=message_id, opened=message_id)
        tables.table_clicked(session, index, reply.interaction)

    async def _rejoin(self, reply: Reply, session: Session) -> None:
        """An away player takes their seat back from the computer."""
        seat = await self._player(reply, session)
        if seat is None:
            return
        occupant = session.seats[seat]
        if occupant.kind is not SeatKind.AWAY:
            await reply.notice("table.not_away")
            return
        try:
            await self.sessions.set_seat(session, seat, replace(occupant, kind=SeatKind.HUMAN, missed=0))
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return
        await answer(reply, reply.notice("table.rejoined"))
        await self.changes.tell(Change(session))

    async def _rematch(self, reply: Reply, match_id: int) -> None:
        """The Rematch button under a finished match: the first of its players to click opens a lobby
        like it (posted as the answer), each later one is seated there (told privately). Rematch
        clicks run one at a time, so two first clicks never open two lobbies."""
        interaction = reply.interaction
        old = await self._finished(reply, match_id)
        if old is None:
            return
        if old.channel_id != interaction.channel_id:
            await reply.notice("table.other_channel")
            return
        user = interaction.user
        async with self._rematch_turn:
            live = self.sessions.by_channel(old.channel_id)
            turn = (self._lobby_turns.setdefault(live.id, asyncio.Lock()) if live is not None
                    and live.status == Status.LOBBY else contextlib.nullcontext())
            async with turn:
                try:
                    session, opened = await self.sessions.rematch(old, user.id, user.display_name,
                                                                  lobby_ttl=self.lobby_timeout)
                except Refusal as refusal:
                    await reply.notice(refusal.key, **refusal.params)
                    return
                rendered = lobby_ui.render(session, self.lobby_timeout)
                if opened:
                    await self._post_lobby(reply, session, rendered)
                    return
                lobby = session.messages.get("lobby")
                link = f"https://discord.com/channels/{session.guild_id}/{session.channel_id}" + (f"/{lobby}" if lobby else "")
                await answer(reply, reply.notice("table.end.rematch_joined", link=link))
                with contextlib.suppress(discord.HTTPException):
                    await self.tables.redraw_lobby(session)

    async def _archive(self, reply: Reply, match_id: int, op: str) -> None:
        """Export (anyone who sees the button gets the record privately) or Share as GIF (only a
        player of the finished match, posted in the table's language)."""
        if op == share.EXPORT:
            await self.share.export(reply, match_id)
            return
        match = await self._finished(reply, match_id)
        if match is not None:
            await self.share.gif(reply, match.id, players(match), match.lang)

    async def _finished(self, reply: Reply, match_id: int) -> Session | None:
        """The finished match a button under it names, or None once the clicker was told why not."""
        try:
            match = await self.sessions.finished_match(match_id)
        except Refusal as refusal:
            await reply.notice(refusal.key, **refusal.params)
            return None
        if match is None:
            await reply.notice("table.session_gone")
        return match

    async def _post_lobby(self, reply: Reply, session: Session, rendered: Rendered) -> None:
        """Post a lobby the click opened as the click's answer, and remember its message."""
        sent: dict | None = None

        async def post() -> None:
            nonlocal sent
            answered = await webhooks.send_message(reply.interaction, rendered.content, view=rendered.view)
            sent = ((answered or {}).get("resource") or {}).get("message")

        if await answer(reply, post()) and sent:
            with contextlib.suppress(Refusal):      # unremembered, the lobby still answers its clicks
                await self.sessions.set_messages(session, lobby=int(sent["id"]))

    async def _hand_step(self, reply: Reply, session: Session, click: ids.ClickId, values: list[str]) -> None:
        seat = session.seat_of(reply.interaction.user.id)
        if seat is None or seat != click.seat:
            await reply.notice("table.not_your_button")
            return
        if session.status != Status.PLAYING:
            await reply.notice("table.not_started")
            return
        ui = f"{click.arg}:{'.'.join(values)}" if values else click.arg
        notice = None
        if click.counter != session.counters[seat]:
            ui, notice = "", t(reply.lang, "table.hand_refreshed")
        async with self._hand_turn(session, seat):
            rendered = presenter(session.game.key).hand(session, seat, reply.lang, ui, notice)
            await reply.update(rendered)
            self.tables.hand_shown(session, seat, reply, ui, rendered)

    async def _player(self, reply: Reply, session: Session) -> int | None:
        """The clicking user's seat in a running game, or None after saying why there is none."""
        seat = session.seat_of(reply.interaction.user.id)
        if seat is None:
            await reply.notice("table.not_seated")
        elif session.status != Status.PLAYING:
            await reply.notice("table.not_started")
            seat = None
        return seat

    # -- moves --------------------------------------------------------------------------------
    async def _move(self, reply: Reply, session: Session, click: ids.ClickId, action: str) -> None:
        interaction = reply.interaction
        user_id = interaction.user.id
        in_hand = bool(interaction.message and interaction.message.flags.ephemeral)
        seat = await self._player(reply, session)
        if seat is None:
            return
        if seat != click.seat:
            key = "core.not_your_turn" if seat not in session.to_act() else "table.stale_button"
            await reply.notice(key)
            return
        if session.seats[seat].kind is SeatKind.AWAY:
            await reply.notice("table.away_first")
            return
        if not in_hand and self._replaced(session, clicked_message(interaction)):
            await reply.notice("table.old_message")
            return
        await self._wait_for(session, reply)
        try:
            counter = -1 if click.counter is None else click.counter      # none: refused as an old button
            events = await self.sessions.act(session, user_id, counter, action)
        except Refusal as refusal:
            if in_hand and session.status == Status.PLAYING:
                notice = t(reply.lang, refusal.key, **refusal.params)
                async with self._hand_turn(session, seat):
                    await reply.update(presenter(session.game.key).hand(session, seat, reply.lang, "", notice))
            else:
                await reply.notice(refusal.key, **refusal.params)
            return
        # Committed: from here on everything happens whether or not the answer reaches Discord.
        tables = self.tables
        if in_hand:
            async with self._hand_turn(session, seat):
                # with its new cards' picture: the hand changes once, and the writer finds it drawn
                rendered = presenter(session.game.key).hand(session, seat, reply.lang, "", None)
                if await answer(reply, reply.update(rendered)):
                    tables.hand_shown(session, seat, reply, "", rendered)
        else:
            index = tables.index_of(session, interaction.message.id if interaction.message else None)
            if index is None:
                await answer(reply, reply.defer())
            else:
                rendered = tables.render(session)[index]
                if await answer(reply, reply.update(rendered)):
                    tables.drawn(session, index, rendered, reply.updated)
                    tables.table_clicked(session, index, interaction)
        await self.changes.tell(Change(session, events, seat=seat, person=True, interaction=interaction))

    @staticmethod
    def _replaced(session: Session, message: ClickedMessage | None) -> bool:
        """A public message older than the current table: ``/table`` replaced it (its deletion may
        not have reached the user yet). Newer unknown messages are a table still being posted."""
        current = session.messages.get("table") or []
        return message is not None and bool(current) and message.id not in current and message.id < min(current)

    @contextlib.asynccontextmanager
    async def _hand_turn(self, session: Session, seat: int) -> AsyncIterator[None]:
        """Answer in the seat's hand while the table writer is not editing it (the two edits of one
        message could cross on the way, and the older would stay), but after ``LOCK_PATIENCE`` at the
        latest: a writer's edit retrying a 429 or a 5xx must not cost the click its 3 s."""
        lock = self.tables.hand_turn(session, seat)
        held = True
        if not lock.locked():
            await lock.acquire()
        else:
            try:
                await asyncio.wait_for(lock.acquire(), LOCK_PATIENCE)
            except TimeoutError:
                held = False
        try:
            yield
        finally:
            if held:
                lock.release()

    async def _wait_for(self, session: Session, reply: Reply) -> None:
        """Defer the answer when another click holds the session for longer than a moment."""
        if not session.lock.locked():
            return
        try:
            await asyncio.wait_for(session.lock.acquire(), LOCK_PATIENCE)
        except TimeoutError:
            await reply.defer()
        else:
            session.lock.release()
