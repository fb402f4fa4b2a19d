"""Moves nobody clicks: computer players' turns, and the turn clock that keeps a table moving.

Everything runs on stored timers (``bot.play.clock.Timers``), one of each kind per session, so a turn
that was due while the bot was down is played once at start-up, and nothing is lost in a crash:
a timer row is deleted only after its move was stored.

- ``computer``: a computer player (or the computer standing in for an away player) is to act; it
  moves after a short, natural delay (longer while the table shows cards face up for a moment:
  ``Game.on_show``, a failed Calcory turn).
- ``deadline``: a person is to act at a table with a pace; when the time is up the easy computer
  moves for them, and after three missed turns in a row their seat goes ``away`` until they rejoin.
- ``reminder``: a mention shortly before the deadline.

Every timer carries the length of the history when it was set: a move in between makes it stale.
When the database refuses a write (``StorageFault``), nothing here gives up: the table's timers
are planned afresh from its current position once ``Timers.retry_after`` has passed, and again
until the database takes them, so no computer player and no clock stops for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.play.changes import Change, Changes
from bot.play.clock import Alarm, Clock, Timers
from bot.play.computers import ComputerPool, decide
from bot.play.seats import SeatKind
from bot.play.sessions import PACES, Refusal, Session, SessionManager, Status
from bot.storage.store import StorageFault
from bot.ui.autoplay import away_notice, reminder
from games.computer import LIMITS

log = logging.getLogger("spieltisch.autoplay")

COMPUTER, DEADLINE, REMINDER = "computer", "deadline", "reminder"
#: Turns in a row that may run out before a seat is handed to the computer.
MISSED_LIMIT = 3
#: How long before the deadline the reminder goes out, per pace.
REMIND_BEFORE = {"live": 30.0, "relaxed": 3600.0}


def seed_of(session: Session, seat: int, seq: int) -> str:
    """The computer's rng seed for one move: the session's secret seed and the move number, so a
    replay makes the same choice."""
    return f"{session.seed}:ai:{seq}:{seat}"


def choose_move(session: Session, seat: int, level: str, seq: int) -> str:
    """The computer's move for ``seat``, made in the bot's process (run in a worker thread)."""
    return decide(session.game, session.game.clone(session.state), seat, level, seed_of(session, seat, seq))


class Autoplay:
    """Plans each table's timers after every change, and makes the moves they call for; what it
    changes itself it tells ``changes`` (the table writer follows there)."""

    def __init__(self, sessions: SessionManager, timers: Timers, clock: Clock, changes: Changes,
                 client: discord.Client, *, delay: float, show_delay: float = 0.0,
                 computers: ComputerPool | None = None) -> None:
        self.sessions = sessions
        self.timers = timers
        self.clock = clock
        self.changes = changes
        #: Where notices are posted (the Rejoin notice, the reminder).
        self.client = client
        self.delay = delay
        #: The least wait before a computer's move while the table shows something (``Game.on_show``).
        self.show_delay = show_delay
        #: Where strong and expert moves are made; ``None``: in a thread of the bot's process.
        self.computers = computers
        #: Each session's current deadline (memory cache of the stored timer, for the ping).
        self._deadlines: dict[int, float] = {}
        #: The timer kinds each session may have stored, so a move at a table without computers or
        #: clock costs no database write here.
        self._armed: dict[int, set[str]] = {}
        #: Tables whose timers the database refused: their stored timers are void until planned again.
        self._unplanned: set[int] = set()
        #: The alarm that plans such a table again.
        self._replans: dict[int, Alarm] = {}
        self._replanning: set[asyncio.Task[None]] = set()
        #: Sessions whose channel refused a notice for want of a permission (logged once).
        self._forbidden: set[int] = set()
        timers.register(COMPUTER, self._on_computer)
        timers.register(DEADLINE, self._on_deadline)
        timers.register(REMINDER, self._on_reminder)

    def delay_for(self, session: Session) -> float:
        """How long a computer player waits before acting in this position."""
        if session.game.on_show(session.state):
            return max(self.delay, self.show_delay)
        return self.delay

    def deadline(self, session: Session) -> float | None:
        return self._deadlines.get(session.id)

    async def restored(self) -> None:
        """Learn the stored deadlines after a restart (the timers themselves are already stored)."""
        for row in await self.timers.stored():
            self._armed.setdefault(row.session_id, set()).add(row.kind)
            if row.kind == DEADLINE:
                self._deadlines[row.session_id] = row.due
        for session in self.sessions.live():
            # A kill between a move's commit and its timers, or timers a storage fault kept in
            # memory only: a table whose position needs a timer that is not stored gets its
            # timers now, or a computer's turn would wait for ever.
            if set(self._wanted(session)) - self._armed.get(session.id, set()):
                await self.after_change(session)

    # -- after every change of a table -------------------------------------------------------------
    async def follow(self, change: Change) -> None:
        """Plan the timers a change needs (the autoplay's own changes are planned where they are
        made); a person's own move starts their count of missed turns again."""
        if change.planned:
            return
        if change.person and change.seat is not None:
            await self.moved_by_person(change.session, change.seat)
        await self.after_change(change.session)

    async def after_change(self, session: Session) -> None:
        """Set the timers the position needs now: a computer's move, a person's deadline.

        Never raises ``StorageFault``: the change itself is saved, so its timers follow later."""
        sid = session.id
        before = self._deadlines.get(sid)
        try:
            await self._set_timers(session)
        except StorageFault:
            self._replan_later(session)
            return
        if self._deadlines.get(sid) != before and session.status is Status.PLAYING:
            await self.changes.tell(Change(session, planned=True))       # the table shows the deadline

    def _wanted(self, session: Session) -> dict[str, tuple[float, dict[str, Any]]]:
        """The timers the position needs if they were set now: kind -> (due, payload)."""
        wanted: dict[str, tuple[float, dict[str, Any]]] = {}
        if session.status is Status.PLAYING:
            now, seq = self.clock.now(), len(session.history)
            waiting = session.to_act()
            if any(session.seats[seat].played_by_computer for seat in waiting):
                wanted[COMPUTER] = (now + self.delay_for(session), {"seq": seq})
            seconds = PACES.get(session.pace)
            if seconds and any(session.seats[seat].is_human for seat in waiting):
                deadline = now + seconds
                wanted[DEADLINE] = (deadline, {"seq": seq})
                wanted[REMINDER] = (deadline - REMIND_BEFORE[session.pace], {"seq": seq, "due": deadline})
        return wanted

    async def _set_timers(self, session: Session) -> None:
        sid = session.id
        wanted = self._wanted(session)
        deadline = wanted[DEADLINE][0] if DEADLINE in wanted else None
        armed = self._armed.get(sid, set())
        try:
            for kind in armed - set(wanted):
                await self.timers.cancel(sid, kind)
            for kind, (due, payload) in wanted.items():
                await self.timers.schedule(sid, kind, due, payload)
        except StorageFault:
            self._armed[sid] = armed | set(wanted)      # whatever may be stored by now
            raise
        if wanted:
            self._armed[sid] = set(wanted)
        else:
            self._armed.pop(sid, None)
        if deadline is None:
            self._deadlines.pop(sid, None)
        else:
            self._deadlines[sid] = deadline
        self._unplanned.discard(sid)
        if (alarm := self._replans.pop(sid, None)) is not None:
            alarm.cancel()

    def _replan_later(self, session: Session) -> None:
        """The database refused a timer or a move: plan this table again a little later (its
        stored timers are void meanwhile, so one that fires again does not act twice)."""
        self._unplanned.add(session.id)
        if session.id in self._replans:
            return

        def ring() -> None:
            self._replans.pop(session.id, None)
            task = asyncio.get_running_loop().create_task(self.after_change(session))
            self._replanning.add(task)
            task.add_done_callback(self._replanning.discard)

        due = self.clock.now() + self.timers.retry_after
        self._replans[session.id] = self.clock.call_at(due, ring)

    async def idle(self) -> None:
        """Until every replanning the clock started has run (tests)."""
        while self._replanning:
            await asyncio.gather(*self._replanning)

    def close(self) -> None:
        for alarm in self._replans.values():
            alarm.cancel()
        self._replans.clear()
        self._unplanned.clear()
        for task in self._replanning:
            task.cancel()

    async def moved_by_person(self, session: Session, seat: int) -> None:
        """A person made a move: their count of missed turns starts again."""
        current = session.seats[seat]
        if current.missed and session.status is Status.PLAYING:
            with contextlib.suppress(StorageFault):     # the count starts again at their next move
                await self.sessions.set_seat(session, seat, replace(current, missed=0))

    # -- timers ----------------------------------------------------------------------------------
    def _current(self, session_id: int, payload: dict[str, Any]) -> Session | None:
        session = self.sessions.get(session_id)
        if session is None or session.status is not Status.PLAYING or payload.get("seq") != len(session.history):
            return None
        if session_id in self._unplanned:
            return None
        return session

    async def _on_computer(self, session_id: int, payload: dict[str, Any]) -> None:
        session = self._current(session_id, payload)
        if session is None:
            return
        try:
            for seat in sorted(session.to_act()):
                occupant = session.seats[seat]
                if occupant.played_by_computer and session.status is Status.PLAYING:
                    await self._move_for(session, seat, occupant.level or "easy")
        except StorageFault:
            self._replan_later(session)
            return
        await self.after_change(session)

    async def _on_deadline(self, session_id: int, payload: dict[str, Any]) -> None:
        session = self._current(session_id, payload)
        if session is None:
            return
        self._deadlines.pop(session_id, None)
        try:
            for seat in sorted(session.to_act()):
                occupant = session.seats[seat]
                if not occupant.is_human or session.status is not Status.PLAYING:
                    continue
                missed = occupant.missed + 1
                away = missed >= MISSED_LIMIT
                kind = SeatKind.AWAY if away else occupant.kind
                await self.sessions.set_seat(session, seat, replace(occupant, missed=0 if away else missed, kind=kind))
                if away:
                    notice = await self._post(session, away_notice(session, seat))
                    if notice is not None:
                        await self.sessions.set_messages(session, away=[*session.messages.get("away", []), notice])
                await self._move_for(session, seat, "easy")
        except StorageFault:
            self._replan_later(session)     # a fresh deadline: nobody loses a turn to our fault
            return
        await self.after_change(session)

    async def _on_reminder(self, session_id: int, payload: dict[str, Any]) -> None:
        session = self._current(session_id, payload)
        due = payload.get("due")
        if session is None or due is None or due <= self.clock.now():
            return      # a reminder for a deadline already past says nothing useful (after a restart)
        people = [user for s in sorted(session.to_act())
                  if session.seats[s].is_human and (user := session.seats[s].user_id) is not None]
        if people:
            text = reminder(session, people, due)
            await self._post(session, (text, None), mentions=people)

    # -- moving ----------------------------------------------------------------------------------
    async def _move_for(self, session: Session, seat: int, level: str) -> None:
        seq, counter = len(session.history), session.counters[seat]
        try:
            key = await self._decide(session, seat, level, seq)
            events = await self.sessions.act_for_seat(session, seat, counter, key)
        except StorageFault:
            raise       # NotSaved is a refusal too, but it is no reason to give up the turn
        except Refusal as refusal:
            # Someone else moved while the computer was thinking: the next timer decides anew.
            log.info("computer move for seat %s of session %s refused: %s", seat, session.id, refusal.key)
            return
        await self.changes.tell(Change(session, events, seat=seat, planned=True))

    async def _decide(self, session: Session, seat: int, level: str, seq: int) -> str:
        """The computer's move: a searching one (strong, expert) in the worker pool (if there is one),
        else in a thread."""
        try:
            if level in LIMITS and self.computers is not None:
                game = session.game
                return await self.computers.choose(game.key, game.clone(session.state), seat, level,
                                                   seed_of(session, seat, seq))
            return await asyncio.to_thread(choose_move, session, seat, level, seq)
        except Exception:
            # A fault in a computer player must not freeze the table: log it, and make a legal move.
            log.exception("the %s computer player failed in session %s; it makes a random legal move",
                          level, session.id)
            rng = random.Random(seed_of(session, seat, seq))
            return rng.choice(session.game.legal_actions(session.state, seat)).key

    async def ended(self, session: Session) -> None:
        """The match is over: the Rejoin buttons of its away notices go, the notices stay."""
        notices = session.messages.get("away") or []
        channel = self.client.get_partial_messageable(session.channel_id)
        for message_id in notices:
            try:
                await channel.get_partial_message(message_id).edit(view=None)
            except discord.HTTPException:
                log.info("could not take the Rejoin button off message %s", message_id, exc_info=True)
        if notices:
            await self.sessions.set_messages(session, away=[])

    async def _post(self, session: Session, message: tuple[str, Any], *, mentions: Sequence[int] = ()) -> int | None:
        text, view = message
        channel = self.client.get_partial_messageable(session.channel_id)
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in mentions]) if mentions \
            else discord.AllowedMentions.none()
        kwargs: dict[str, Any] = {"allowed_mentions": allowed}
        if view is not None:
            kwargs["view"] = view
        try:
            posted = (await channel.send(text, **kwargs)).id
        except discord.Forbidden as exc:
            # A permission taken away: said once until a notice goes through again, never per turn.
            if session.id not in self._forbidden:
                self._forbidden.add(session.id)
                log.warning("channel %s refuses the notices of session %s (%s %s): a permission is missing",
                            session.channel_id, session.id, exc.status, exc.code)
            return None
        except discord.HTTPException:
            log.warning("could not post to channel %s", session.channel_id, exc_info=True)
            return None
        self._forbidden.discard(session.id)
        return posted

