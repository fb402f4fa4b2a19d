"""Live sessions: lobby -> playing -> finished, with the click path of docs/architecture.md.

Memory is a cache of the database: every change is committed before it shows in memory, and
``restore`` rebuilds every live session at start-up by replaying its action log. Each change runs
under its session's lock. A refusal is a ``Refusal(key, **params)`` whose key is a message key;
it changes nothing and is not an error. A write the database does not take (``StorageFault``) is
the refusal ``NotSaved``: memory stays as it was, and the player hears that nothing changed. No
Discord object or token is ever kept here.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import secrets
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.i18n import LANGUAGES
from bot.play.clock import Clock, Timers
from bot.play.seats import Seat, SeatKind, computer, human
from bot.storage.shards import Shards
from bot.storage.status import LIVE, Status
from bot.storage.store import ChannelBusy, ResultRow, SessionGone, SessionRow, Storage, StorageFault
from bot.ui.lobby import PACES, computers_offered
from bot.ui.movelog import EVENTS_KEPT
from games import REGISTRY
from games.base import Action, Event, Game, IllegalAction, Result, replay
from games.base import action as shared_action
from games.computer import LEVELS

log = logging.getLogger(__name__)
#: One line per game started and ended, for whoever runs the bot.
games_log = logging.getLogger("spieltisch.games")

LOBBY_EXPIRY = "lobby_expiry"
#: In a rematch lobby's messages: the id of the finished match it repeats.
REMATCH_OF = "rematch_of"


def _logged(key: str) -> Action:
    """The shared ``Action`` of a logged key: a restart replays a million moves, mostly the same few."""
    kind, _, arg = key.partition(":")
    return shared_action(kind, arg)




class Refusal(Exception):
    """A request the host turns down: ``key`` is a message key, ``params`` fill it in."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params

    def __repr__(self) -> str:
        return f"Refusal({self.key!r}, **{self.params!r})"


class NotSaved(Refusal, StorageFault):
    """The database did not take the change, so nothing changed (the storage logged why).

    A ``Refusal`` for whoever clicked, and a ``StorageFault`` for timers and computer players,
    which try again later."""

    def __init__(self) -> None:
        super().__init__("core.not_saved")


def seat_order(seed: str, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats shuffled from the secret seed (apart from the game's own shuffles)."""
    order = list(seats)
    random.Random(f"{seed}:seats").shuffle(order)
    return tuple(order)


@dataclass(eq=False)
class Session:
    """One table. ``state``, ``counters`` and ``history`` exist once the game started.

    ``counters[seat]`` is the number of moves that seat has made: a move's button carries it, so a
    double click or an old button of one's own is refused while other players' moves are not.
    ``history`` holds ``(seat, action, events)`` per logged move and ``opening`` what happened before
    the first move (a deal, aces that went out at once): together, the source of observations.
    Only the newest ``EVENTS_KEPT`` moves keep their events in memory (older ones hold ``None``):
    the table shows the last few, and a thousand restored tables would otherwise carry a few hundred
    thousand events nobody reads. ``events_from`` replays the log for the rare reader of older ones.
    """

    id: int
    guild_id: int
    channel_id: int
    game: Game
    host_id: int
    lang: str
    status: Status
    options: BaseModel
    seats: tuple[Seat, ...]
    created_at: float
    seed: str | None = field(default=None, repr=False)
    state: Any = field(default=None, repr=False)
    counters: list[int] = field(default_factory=list)
    history: list[tuple[int, Action, list[Event] | None]] = field(default_factory=list, repr=False)
    opening: list[Event] = field(default_factory=list, repr=False)
    messages: dict[str, Any] = field(default_factory=dict)
    #: How long a player has for a turn: a key of ``PACES``.
    pace: str = "none"
    #: Whether the table and hands carry pictures (the lobby's setting; text says the same either way).
    #: During a game the table writer turns them off in memory while the channel refuses files.
    pictures: bool = True
    started_at: float | None = None
    ended_at: float | None = None
    end_reason: str | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: Players who voted to end the match (memory only: a restart starts the vote afresh).
    votes: set[int] = field(default_factory=set, repr=False)

    @property
    def is_live(self) -> bool:
        return self.status in LIVE

    @property
    def log(self) -> list[tuple[int, str]]:
        """The action log as stored: ``(seat, action key)`` in order."""
        return [(seat, action.key) for seat, action, _ in self.history]

    def events_from(self, start: int) -> list[list[Event]]:
        """The events of each logged move from ``start`` on; those no longer kept are replayed from
        the log (a pure function of seed, options and actions, so they come back the same)."""
        window = self.history[start:]
        kept = [events for _, _, events in window if events is not None]
        if len(kept) == len(window):
            return kept
        assert self.seed is not None
        rebuilt = replay(self.game, len(self.seats), self.options, self.seed,
                         [(seat, action) for seat, action, _ in self.history])
        return [events for _, _, events in rebuilt.events[start:]]

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.kind is not SeatKind.COMPUTER:
                return index
        return None

    def to_act(self) -> frozenset[int]:
        if self.status is not Status.PLAYING:
            return frozenset()
        return self.game.to_act(self.state)

    def view(self, seat: int | None) -> Any:
        """What ``seat`` may see (``None``: the public table); render only from this."""
        return self.game.view(self.state, seat)

    def result(self) -> Result | None:
        return self.game.result(self.state) if self.state is not None and self.game.is_over(self.state) else None


@dataclass(frozen=True, slots=True)
class EndedSession:
    """A live session that ``restore`` had to end, so the Discord layer can say so in its channel."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    lang: str
    status: Status
    reason: str
    messages: dict[str, Any]


Listener = Callable[[str, Session], Awaitable[None]]


class SessionManager:
    """Every live session of this process, by id and by channel, behind one async API."""

    def __init__(
        self, storage: Storage, clock: Clock, *, seed_source: Callable[[], str] = secrets.token_hex,
        games: Mapping[str, Game] | None = None, timers: Timers | None = None, keep_ended: int = 256,
        shards: Shards | None = None,
    ) -> None:
        if games is None:
            games = REGISTRY
        self.storage = storage
        self.clock = clock
        self.games = games
        #: The guilds this process owns (``None``: all): it restores and times only their tables.
        self.shards = shards
        self.timers = timers if timers is not None else Timers(storage, clock, shards=shards)
        self.timers.register(LOBBY_EXPIRY, self._on_lobby_expiry)
        self._seed_source = seed_source
        self._by_id: dict[int, Session] = {}
        self._by_channel: dict[int, Session] = {}
        self._ended: OrderedDict[int, Session] = OrderedDict()
        self._keep_ended = keep_ended
        self._listeners: list[Listener] = []
        #: Since this process started, for the metrics: moves per game, games started per game, and
        #: sessions ended per ``(game, status)``.
        self.moves: Counter[str] = Counter()
        self.started: Counter[str] = Counter()
        self.ended: Counter[tuple[str, str]] = Counter()

    # -- lookups ---------------------------------------------------------------------------------
    def by_channel(self, channel_id: int | None) -> Session | None:
        """The live session of a channel (``None`` for none, or for no channel at all)."""
        return self._by_channel.get(channel_id) if channel_id is not None else None

    def get(self, session_id: int) -> Session | None:
        """A live session, or one that ended recently (so late clicks hear "game over")."""
        return self._by_id.get(session_id) or self._ended.get(session_id)

    def require(self, session_id: int) -> Session:
        session = self.get(session_id)
        if session is None:
            raise Refusal("core.session_gone")
        return session

    def live(self) -> list[Session]:
        return list(self._by_id.values())

    def observations(self, session: Session, seat: int) -> list[Event]:
        """Every event ``seat`` was allowed to see, in order: its memory of the match."""
        moves = [event for events in session.events_from(0) for event in events]
        return [event for event in session.opening + moves if event.visible_to(seat)]

    def add_listener(self, listener: Listener) -> None:
        """Called with ``("lobby_expired", session)`` for changes no interaction caused."""
        self._listeners.append(listener)

    # -- lobby -----------------------------------------------------------------------------------
    async def open_lobby(
        self, guild_id: int, channel_id: int, game_key: str, host_id: int, host_name: str, lang: str,
        *, lobby_ttl: float | None, like: Session | None = None,
    ) -> Session:
        """A lobby with its host seated; ``like``: set as that finished match (a rematch), with its
        computer players, house rules, clock and pictures, in one write."""
        game = self.games.get(game_key)
        if game is None:
            raise Refusal("core.unknown_game", game=game_key)
        if channel_id in self._by_channel:
            raise Refusal("core.channel_busy")
        now = self.clock.now()
        seats, options, pace, pictures, messages = _lobby_like(like, human(host_id, host_name), game)
        expiry = None if lobby_ttl is None else (LOBBY_EXPIRY, now + lobby_ttl)
        try:
            session_id = await self.storage.create_session(
                guild_id=guild_id, channel_id=channel_id, game=game.key, host_id=host_id, lang=lang,
                options=options.model_dump(mode="json"), seats=[s.to_json() for s in seats],
                rules_version=game.rules_version, created_at=now, timer=expiry, messages=messages, pace=pace,
                pictures=pictures,
            )
        except ChannelBusy:
            raise Refusal("core.channel_busy") from None
        except StorageFault as fault:
            raise NotSaved() from fault
        session = Session(session_id, guild_id, channel_id, game, host_id, lang, Status.LOBBY, options, seats, now,
                          messages=messages, pace=pace, pictures=pictures)
        self._by_id[session_id] = session
        self._by_channel[channel_id] = session
        if expiry is not None:
            self.timers.wake(expiry[1])
        return session

    async def join(self, session: Session, user_id: int, name: str) -> None:
        async with session.lock:
            self._require_lobby(session)
            if session.seat_of(user_id) is not None:
                raise Refusal("core.already_seated")
            self._require_room(session)
            seats = (*session.seats, human(user_id, name))
            await self._store(session, self.storage.update_session(session.id, seats=_seats_json(seats)))
            session.seats = seats

    async def add_computer(self, session: Session, user_id: int, name: str, level: str) -> None:
        """The host seats a computer player (``level`` names its strength)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            if level not in LEVELS:
                raise Refusal("core.bad_option", option="level")
            if not computers_offered(session.game.key):
                raise Refusal("core.no_computers", game=session.game.name)
            self._require_room(session)
            seats = (*session.seats, computer(name, level))
            await self._store(session, self.storage.update_session(session.id, seats=_seats_json(seats)))
            session.seats = seats

    async def set_pace(self, session: Session, user_id: int, pace: str) -> None:
        """Choose the table's clock before the start (host only)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            if pace not in PACES:
                raise Refusal("core.bad_option", option="pace")
            if PACES[pace] and not computers_offered(session.game.key):
                raise Refusal("core.no_computers", game=session.game.name)
            await self._store(session, self.storage.update_session(session.id, pace=pace))
            session.pace = pace

    async def set_pictures(self, session: Session, user_id: int, value: str) -> None:
        """Turn the table's pictures on or off before the start (host only): ``on`` or ``off``."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            if value not in ("on", "off"):
                raise Refusal("core.bad_option", option="pictures")
            pictures = value == "on"
            await self._store(session, self.storage.update_session(session.id, pictures=pictures))
            session.pictures = pictures

    async def set_seat(self, session: Session, index: int, seat: Seat) -> None:
        """Change one seat of a running game (a missed turn counted, away, back, replaced)."""
        async with session.lock:
            self._require_playing(session)
            seats = (*session.seats[:index], seat, *session.seats[index + 1:])
            await self._store(session, self.storage.update_session(session.id, seats=_seats_json(seats)))
            session.seats = seats

    async def replace_with_computer(self, session: Session, user_id: int, index: int, level: str) -> Seat:
        """The host hands a player's seat to a computer player for the rest of the match."""
        self._require_playing(session)
        self._require_host(session, user_id)
        if not 0 <= index < len(session.seats) or not session.seats[index].user_id:
            raise Refusal("core.no_such_seat")
        if level not in LEVELS:
            raise Refusal("core.bad_option", option="level")
        if not computers_offered(session.game.key):
            raise Refusal("core.no_computers", game=session.game.name)
        old = session.seats[index]
        seat = replace(computer(f"🤖 {old.name}", level), team=old.team, replaced=old.user_id)
        await self.set_seat(session, index, seat)
        return seat

    async def remove_seat(self, session: Session, user_id: int, index: int) -> None:
        """The host removes another seat (a computer player, or someone who wandered off)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            if not 0 <= index < len(session.seats):
                raise Refusal("core.no_such_seat")
            if session.seats[index].user_id == session.host_id:
                raise Refusal("core.cannot_remove_host")
            seats = session.seats[:index] + session.seats[index + 1:]
            await self._store(session, self.storage.update_session(session.id, seats=_seats_json(seats)))
            session.seats = seats

    async def leave(self, session: Session, user_id: int) -> None:
        """Leave a lobby. A leaving host hands over to the next seated human; the last one cancels."""
        async with session.lock:
            if session.status is Status.PLAYING:
                raise Refusal("core.leave_running")
            self._require_lobby(session)
            index = session.seat_of(user_id)
            if index is None:
                raise Refusal("core.not_seated")
            seats = session.seats[:index] + session.seats[index + 1:]
            humans = [s.user_id for s in seats if s.kind is SeatKind.HUMAN and s.user_id is not None]
            if not humans:
                await self._end(session, Status.CANCELLED, "empty")
                return
            host_id = session.host_id if session.host_id in humans else humans[0]
            await self._store(session, self.storage.update_session(
                session.id, seats=_seats_json(seats), host_id=host_id,
            ))
            session.seats = seats
            session.host_id = host_id

    async def set_option(self, session: Session, user_id: int, name: str, value: Any) -> None:
        """Set one house rule, validated by the game's Options model (host only, lobby only)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            model = session.game.options_model
            if name not in model.model_fields:
                raise Refusal("core.unknown_option", option=name)
            try:
                options = model.model_validate({**session.options.model_dump(), name: value})
            except ValidationError:
                raise Refusal("core.bad_option", option=name) from None
            await self._store(session, self.storage.update_session(
                session.id, options=options.model_dump(mode="json"),
            ))
            session.options = options

    async def set_lang(self, session: Session, user_id: int, lang: str) -> None:
        """Change the table's language before the start (host only)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            if lang not in LANGUAGES:
                raise Refusal("core.bad_option", option="lang")
            await self._store(session, self.storage.update_session(session.id, lang=lang))
            session.lang = lang

    async def set_messages(self, session: Session, **ids: Any) -> None:
        """Remember the Discord message ids of the lobby or table (merged into what is stored)."""
        async with session.lock:
            messages = {**session.messages, **ids}
            await self._store(session, self.storage.update_session(session.id, messages=messages))
            session.messages = messages

    async def start(self, session: Session, user_id: int, *, shuffle: bool = True) -> None:
        """Draw the secret seed, shuffle the seats from it, deal (host only, enough players)."""
        async with session.lock:
            self._require_lobby(session)
            self._require_host(session, user_id)
            game = session.game
            if len(session.seats) < game.min_players:
                raise Refusal("core.not_enough_players", min=game.min_players)
            seed = self._seed_source()
            seats = seat_order(seed, session.seats) if shuffle else session.seats
            state, opening = game.begin(len(seats), session.options, seed)
            now = self.clock.now()
            await self._store(session, self.storage.start_session(
                session.id, seats=_seats_json(seats), seed=seed, started_at=now,
            ))
            session.seats, session.seed, session.state = seats, seed, state
            session.counters = [0] * len(seats)
            session.history, session.opening = [], opening
            session.started_at = now
            session.status = Status.PLAYING
        self.started[game.key] += 1
        games_log.info("session %s: %s started with %d seats in guild %s", session.id, game.key, len(seats),
                 session.guild_id)
        with contextlib.suppress(StorageFault):     # left behind, it fires and finds no lobby
            await self.timers.cancel(session.id, LOBBY_EXPIRY)

    async def cancel(self, session: Session, user_id: int, *, can_manage: bool) -> None:
        """Close a lobby (host or Manage Server); on a running game this is ``stop``."""
        async with session.lock:
            self._require_live(session)
            if user_id != session.host_id and not can_manage:
                raise Refusal("core.host_or_manager")
            if session.status is Status.LOBBY:
                await self._end(session, Status.CANCELLED, "cancelled")
            else:
                await self._end(session, Status.STOPPED, "stopped", results=self._stopped_rows(session))

    async def stop(self, session: Session, user_id: int, *, can_manage: bool) -> None:
        """End a game without a result (its result rows are flagged stopped and never count)."""
        await self.cancel(session, user_id, can_manage=can_manage)

    async def vote_to_end(self, session: Session, user_id: int) -> tuple[int, int]:
        """A seated player votes to end the running match without a result; a majority of the
        people still at the table ends it. Returns (votes, votes needed)."""
        async with session.lock:
            self._require_playing(session)
            people = {seat.user_id for seat in session.seats if seat.user_id and seat.kind is not SeatKind.COMPUTER}
            if user_id not in people:
                raise Refusal("core.not_seated")
            votes = (session.votes & people) | {user_id}
            needed = len(people) // 2 + 1
            if len(votes) >= needed:
                await self._end(session, Status.STOPPED, "vote", results=self._stopped_rows(session))
            session.votes = votes
            return len(votes), needed

    async def end_gone(self, *, guild_id: int | None = None, channel_id: int | None = None,
                       reason: str) -> list[Session]:
        """The bot left a server, or a table's channel or thread was deleted: every live session
        there ends without a result (a game stopped, a lobby cancelled), and its timers with it.
        Returns the sessions it ended; one the storage refused stays live and is logged."""
        ended = []
        for session in self.live():
            if session.guild_id != guild_id and session.channel_id != channel_id:
                continue
            async with session.lock:
                if not session.is_live:
                    continue
                try:
                    if session.status is Status.LOBBY:
                        await self._end(session, Status.CANCELLED, reason)
                    else:
                        await self._end(session, Status.STOPPED, reason, results=self._stopped_rows(session))
                except NotSaved:
                    log.warning("could not end session %s (%s): the storage refused", session.id, reason)
                    continue
                except Refusal:
                    continue                    # the database had already ended it
            ended.append(session)
        return ended

    async def expire_lobby(self, session: Session) -> bool:
        """Close a lobby nobody started in time; ``False`` if it is no longer a lobby."""
        async with session.lock:
            if session.status is not Status.LOBBY:
                return False
            await self._end(session, Status.EXPIRED, "expired")
            return True

    # -- rematch ---------------------------------------------------------------------------------
    async def finished_match(self, session_id: int) -> Session | None:
        """A finished match as its Rematch button needs it (seats, house rules, language, clock,
        pictures): from memory while it is kept there, else from the database. None for anything
        that is not a finished match of a game still offered."""
        session = self.get(session_id)
        if session is not None:
            return session if session.status is Status.FINISHED else None
        try:
            row = await self.storage.session(session_id)
        except StorageFault as fault:
            raise NotSaved() from fault
        game = self.games.get(row.game) if row is not None else None
        if row is None or game is None or row.status != Status.FINISHED:
            return None
        try:
            options = game.parse_options(row.options)
        except ValidationError:
            options = game.default_options()        # house rules of an older version of the game
        return Session(row.id, row.guild_id, row.channel_id, game, row.host_id, row.lang, Status.FINISHED, options,
                       tuple(Seat.from_json(raw) for raw in row.seats), row.created_at, messages=row.messages,
                       pace=row.pace, pictures=row.pictures, started_at=row.started_at)

    async def rematch(self, old: Session, user_id: int, name: str, *, lobby_ttl: float | None) -> tuple[Session, bool]:
        """Seat a player of the finished match ``old`` for a rematch: the first click opens a lobby like
        ``old`` (its computer players, house rules, language, clock and pictures) hosted by the clicker
        (``True``), each later one joins it (``False``). Refused to anyone who did not play ``old``, to
        someone seated there already, and while the channel holds another table (or the rematch
        started)."""
        if user_id not in players(old):
            raise Refusal("table.end.rematch_not_player")
        live = self.by_channel(old.channel_id)
        if live is None:
            return await self.open_lobby(old.guild_id, old.channel_id, old.game.key, user_id, name, old.lang,
                                         lobby_ttl=lobby_ttl, like=old), True
        if live.messages.get(REMATCH_OF) != old.id:
            raise Refusal("table.end.rematch_busy")
        if live.status is not Status.LOBBY:
            raise Refusal("table.end.rematch_started")
        if live.seat_of(user_id) is not None:
            raise Refusal("table.end.rematch_seated")
        await self.join(live, user_id, name)
        return live, False

    # -- the click path --------------------------------------------------------------------------
    async def act(self, session: Session, user_id: int, counter: int, action_key: str) -> list[Event]:
        """A player's move: checked, applied to a copy, logged and committed, then swapped in."""
        async with session.lock:
            self._require_playing(session)
            seat = session.seat_of(user_id)
            if seat is None:
                raise Refusal("core.not_seated")
            return await self._act(session, seat, counter, action_key)

    async def act_for_seat(self, session: Session, seat: int, counter: int, action_key: str) -> list[Event]:
        """A move made by the computer for ``seat`` (a computer player, or a human who is away)."""
        async with session.lock:
            self._require_playing(session)
            if not 0 <= seat < len(session.seats):
                raise Refusal("core.no_such_seat")
            return await self._act(session, seat, counter, action_key)

    async def _act(self, session: Session, seat: int, counter: int, action_key: str) -> list[Event]:
        game, state = session.game, session.state
        if game.is_over(state):
            raise Refusal("core.game_over")
        if counter != session.counters[seat]:
            raise Refusal("core.stale_button")
        if seat not in game.to_act(state):
            raise Refusal("core.not_your_turn")
        action = Action.parse(action_key)
        if action.key != action_key:        # "stop:" spells "stop" twice; the log keeps one spelling
            raise Refusal("core.illegal_action")
        try:
            game.check(state, seat, action)
            new = game.clone(state)
            events = game.apply(new, seat, action)
        except IllegalAction as exc:
            raise Refusal(exc.reason, **exc.params) from None
        now = self.clock.now()
        seq = len(session.history)
        over = game.is_over(new)
        if over:
            rows = self._result_rows(session, game.result(new), now)
            await self._store(session, self.storage.end_session(
                session.id, Status.FINISHED, ended_at=now, reason="over", results=rows,
                action=(seq, seat, action.key, now),
            ))
        else:
            await self._store(session, self.storage.append_action(session.id, seq, seat, action.key, now))
        session.state = new
        session.counters[seat] += 1
        session.history.append((seat, action, events))
        _forget_old_events(session.history, len(session.history) - 1)
        self.moves[game.key] += 1
        if over:
            self._ended_now(session, Status.FINISHED, "over", now)
        return events

    # -- restart ---------------------------------------------------------------------------------
    async def restore(self) -> list[EndedSession]:
        """Rebuild every live session from the database; end those that cannot be replayed.

        The replay makes about a million long-lived objects; the cyclic garbage collector would walk
        them again and again while they are being made (more than half of the time), so it pauses
        during the rebuild, and ``gc.freeze`` then keeps the rebuilt objects out of every later
        collection (they are still freed as usual when a session ends).
        """
        collecting = gc.isenabled()
        gc.disable()
        try:
            return await self._restore()
        finally:
            if collecting:
                gc.freeze()
                gc.enable()

    async def _restore(self) -> list[EndedSession]:
        ended: list[EndedSession] = []
        async for row in self.storage.iter_live_sessions(shards=self.shards):
            if row.id in self._by_id:
                continue
            game = self.games.get(row.game)
            if game is None:
                reason = "unknown_game"
            elif row.rules_version != game.rules_version:
                reason = "rules_changed"
            else:
                try:
                    session = self._rebuild(row, game)
                except Exception:
                    log.exception("session %s (%s) could not be replayed", row.id, row.game)
                    reason = "replay_failed"
                else:
                    self._by_id[session.id] = session
                    self._by_channel[session.channel_id] = session
                    if session.status is Status.PLAYING and game.is_over(session.state):
                        await self._finish_restored(session)
                    continue
            ended.append(await self._end_unrestorable(row, reason))
        return ended

    def _rebuild(self, row: SessionRow, game: Game) -> Session:
        options = game.parse_options(row.options)
        seats = tuple(Seat.from_json(raw) for raw in row.seats)
        session = Session(
            row.id, row.guild_id, row.channel_id, game, row.host_id, row.lang, Status(row.status), options,
            seats, row.created_at, messages=row.messages, pace=row.pace, pictures=row.pictures,
            started_at=row.started_at,
        )
        if session.status is Status.PLAYING:
            assert row.seed is not None
            actions = [(seat, _logged(key)) for seat, key in row.actions]
            rebuilt = replay(game, len(seats), options, row.seed, actions)
            session.seed, session.state, session.history = row.seed, rebuilt.state, list(rebuilt.events)
            _forget_old_events(session.history, 0)
            session.opening = rebuilt.opening
            session.counters = [0] * len(seats)
            for seat, _ in actions:
                session.counters[seat] += 1
        return session

    async def _finish_restored(self, session: Session) -> None:
        # Only reachable if a game's end was logged without its result (an older schema, say).
        now = self.clock.now()
        rows = self._result_rows(session, session.game.result(session.state), now)
        await self.storage.end_session(session.id, Status.FINISHED, ended_at=now, reason="over", results=rows)
        self._ended_now(session, Status.FINISHED, "over", now)

    async def _end_unrestorable(self, row: SessionRow, reason: str) -> EndedSession:
        now = self.clock.now()
        if row.status == Status.PLAYING:
            status = Status.STOPPED
            seats = tuple(Seat.from_json(raw) for raw in row.seats)
            results = _stopped_rows(row.id, row.guild_id, row.game, seats, now)
        else:
            status, results = Status.CANCELLED, []
        await self.storage.end_session(row.id, status, ended_at=now, reason=reason, results=results)
        self.ended[(row.game, str(status))] += 1
        games_log.info("session %s: %s %s at start-up (%s)", row.id, row.game, status, reason)
        return EndedSession(row.id, row.guild_id, row.channel_id, row.game, row.lang, status, reason, row.messages)

    # -- timers ----------------------------------------------------------------------------------
    async def _on_lobby_expiry(self, session_id: int, payload: dict[str, Any]) -> None:
        session = self._by_id.get(session_id)
        if session is None or not await self.expire_lobby(session):
            return
        for listener in self._listeners:
            try:
                await listener("lobby_expired", session)
            except Exception:
                log.exception("lobby expiry listener failed for session %s", session_id)

    # -- helpers ---------------------------------------------------------------------------------
    def _require_live(self, session: Session) -> None:
        if session.status is Status.FINISHED:
            raise Refusal("core.game_over")
        if session.status not in LIVE:
            raise Refusal("core.session_gone")

    def _require_lobby(self, session: Session) -> None:
        self._require_live(session)
        if session.status is not Status.LOBBY:
            raise Refusal("core.already_started")

    def _require_playing(self, session: Session) -> None:
        self._require_live(session)
        if session.status is not Status.PLAYING:
            raise Refusal("core.not_started")

    def _require_host(self, session: Session, user_id: int) -> None:
        if user_id != session.host_id:
            raise Refusal("core.host_only")

    def _require_room(self, session: Session) -> None:
        if len(session.seats) >= session.game.max_players:
            raise Refusal("core.table_full", max=session.game.max_players)

    async def _store(self, session: Session, write: Awaitable[None]) -> None:
        """Run one storage write; a session the database no longer has live is dropped here, and a
        write the database did not take changes nothing (``NotSaved``)."""
        try:
            await write
        except StorageFault as fault:
            raise NotSaved() from fault
        except SessionGone:
            log.warning("session %s is no longer live in the database; dropping it", session.id)
            self._ended_now(session, Status.STOPPED, "gone", self.clock.now())
            raise Refusal("core.session_gone") from None

    async def _end(
        self, session: Session, status: Status, reason: str, *, results: Sequence[ResultRow] = ()
    ) -> None:
        now = self.clock.now()
        await self._store(session, self.storage.end_session(
            session.id, status, ended_at=now, reason=reason, results=results,
        ))
        self._ended_now(session, status, reason, now)

    def _ended_now(self, session: Session, status: Status, reason: str, now: float) -> None:
        session.status, session.end_reason, session.ended_at = status, reason, now
        self.ended[(session.game.key, str(status))] += 1
        games_log.info("session %s: %s %s (%s) after %d moves", session.id, session.game.key, status, reason,
                 len(session.history))
        self._by_id.pop(session.id, None)
        if self._by_channel.get(session.channel_id) is session:
            del self._by_channel[session.channel_id]
        self._ended[session.id] = session
        while len(self._ended) > self._keep_ended:
            self._ended.popitem(last=False)

    def _result_rows(self, session: Session, result: Result, now: float) -> list[ResultRow]:
        with_computers = any(seat.played_by_computer for seat in session.seats)
        ranks = result.ranks
        return [
            ResultRow(session_id=session.id, guild_id=session.guild_id, game=session.game.key, seat=index,
                      user_id=None if seat.kind is SeatKind.COMPUTER else seat.user_id,
                      name=seat.name, score=result.scores[index], rank=ranks[index],
                      won=index in result.winners,
                      shared=index in result.winners and result.shared,
                      with_computers=with_computers, stopped=False, ended_at=now,
                      team=result.sides[index] if result.sides else None,
                      level=seat.level if seat.kind is SeatKind.COMPUTER else None)
            for index, seat in enumerate(session.seats)
        ]

    def _stopped_rows(self, session: Session) -> list[ResultRow]:
        return _stopped_rows(session.id, session.guild_id, session.game.key, session.seats, self.clock.now())


def _forget_old_events(history: list[tuple[int, Action, list[Event] | None]], since: int) -> None:
    """Drop the events of moves ``since`` on that are no longer among the newest ``EVENTS_KEPT``."""
    for index in range(max(since - EVENTS_KEPT, 0), len(history) - EVENTS_KEPT):
        seat, action, events = history[index]
        if events is not None:
            history[index] = (seat, action, None)


def players(session: Session) -> set[int]:
    """The people who played a match: every seat's person, and whoever a computer player replaced."""
    return ({seat.user_id for seat in session.seats if seat.user_id and seat.kind is not SeatKind.COMPUTER}
            | {seat.replaced for seat in session.seats if seat.replaced})


def _lobby_like(like: Session | None, host: Seat, game: Game) -> tuple[tuple[Seat, ...], BaseModel, str, bool, dict]:
    """A new lobby's seats, house rules, clock, pictures and messages: the host alone with the game's
    defaults, or for a rematch of ``like`` the host and ``like``'s own computer players (not those that
    replaced a person, who may come back) with its settings, marked as its rematch."""
    if like is None:
        return (host,), game.default_options(), "none", True, {}
    computers = [computer(seat.name, seat.level) for seat in like.seats
                 if seat.kind is SeatKind.COMPUTER and seat.replaced is None and seat.level]
    seats = (host, *computers)[:game.max_players]
    return seats, like.options, like.pace, like.pictures, {REMATCH_OF: like.id}


def _seats_json(seats: tuple[Seat, ...]) -> list[dict[str, Any]]:
    return [seat.to_json() for seat in seats]


def _stopped_rows(session_id: int, guild_id: int, game: str, seats: tuple[Seat, ...], now: float) -> list[ResultRow]:
    """A stopped match leaves a trace per seat (no score, no rank) that never counts."""
    with_computers = any(seat.played_by_computer for seat in seats)
    return [
        ResultRow(session_id=session_id, guild_id=guild_id, game=game, seat=index,
                  user_id=None if seat.kind is SeatKind.COMPUTER else seat.user_id, name=seat.name,
                  score=None, rank=None, won=False, shared=False, with_computers=with_computers,
                  stopped=True, ended_at=now,
                  level=seat.level if seat.kind is SeatKind.COMPUTER else None)
        for index, seat in enumerate(seats)
    ]
