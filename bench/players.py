"""Simulated players at one Calcory table, clicking without think time.

They see only what a Discord client shows: the two public table messages and their own ephemeral
hand. When it is their turn they flip a face-down slot, or stop once they have turned the turn's
minimum (two cards while their hand is empty, else one; the scoreboard shows hand counts) and like
the sum; after a hit they open their hand, pick the card to put back and an empty slot. Stopping
on one card is what ends a game (a single marked card nobody beats), so tables do finish and are
opened again. Before each move they wait until both table messages show
the same position (the clicked message is redrawn by the interaction response, the other by the
bot's table writer a moment later), as a person would look at the whole table.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field

from bench.load import BenchError, LoadDouble
from tests.double import components as C
from tests.double.world import Channel, Message, User
from tests.e2e import outside as O

PRIMARY = 1             # a card turned face up this turn
DEFERRED_UPDATE = 6     # the session was busy for a while: the bot answers first, moves after
UPDATE_MESSAGE = 7      # the bot redrew the clicked message: the move was taken


@dataclass
class Stats:
    """What the players measured: per move ``(arrival time, latency)``, and counts."""

    samples: list[tuple[float, float]] = field(default_factory=list)
    moves: int = 0
    refused: int = 0
    deferred: int = 0
    reasons: list[str] = field(default_factory=list)    # what the first refusals said
    interactions: int = 0
    games_started: int = 0
    games_finished: int = 0

    def latencies(self, start: float = 0.0, end: float = float("inf")) -> list[float]:
        return [lat for at, lat in self.samples if start <= at < end]


@dataclass
class _Sight:
    """What a player reads on one message, once per edit (every edit stores a new components list)."""

    components: list | None     # the list it was read from
    custom_ids: list[str]       # every button's, in order
    position: tuple[int, int] | None    # (seat to act, its move counter) from the move buttons
    stop: tuple[str, bool] | None       # (custom_id, disabled)
    hand: tuple[str, bool] | None
    faces: list[int]            # the cards turned face up this turn
    down: list[str]             # the flips a player may click
    texts: list[str]            # the TextDisplays' contents


#: Per message: what was read from its current components (players wake on every edit of their
#: channel and look at both table messages; each is read once per edit, not on every wake).
_sights: dict[Message, _Sight] = {}


def _sight(message: Message) -> _Sight:
    components = message.payload.get("components")
    known = _sights.get(message)
    if known is not None and known.components is components:
        return known
    seen = _Sight(components, [], None, None, None, [], [], [])
    for comp in C.walk(message.payload):
        ctype = comp.get("type")
        if ctype == C.TEXT_DISPLAY:
            seen.texts.append(comp.get("content", ""))
        if ctype != C.BUTTON:
            continue
        custom_id, disabled = comp.get("custom_id", ""), bool(comp.get("disabled"))
        seen.custom_ids.append(custom_id)
        if seen.position is None and custom_id.startswith("st:m:"):
            parts = custom_id.split(":")
            seen.position = int(parts[3]), int(parts[4])
        if custom_id.endswith(":stop"):
            seen.stop = (custom_id, disabled)
        elif custom_id.endswith(":hand"):
            seen.hand = (custom_id, disabled)
        elif ":flip:" in custom_id:
            if comp.get("style") == PRIMARY:
                seen.faces.append(int(comp.get("label", "")))
            elif not disabled:
                # face down, or a failed turn's card still face up (docs/rules-decisions.md D16)
                seen.down.append(custom_id)
    _sights[message] = seen
    return seen


def _position(message: Message) -> tuple[int, int] | None:
    """(seat to act, its move counter) as the message's move buttons carry them."""
    return _sight(message).position


def _custom_id(message: Message, suffix: str) -> str:
    for comp in C.walk(message.payload):
        if comp.get("custom_id", "").endswith(suffix):
            return comp["custom_id"]
    raise BenchError(f"no component ending in {suffix!r} on {message}: {C.describe(message.payload)}")


@dataclass
class _Table:
    down: list[tuple[Message, str]]
    digits: list[int]
    hands: list[int]
    stop: tuple[Message, str, bool]
    hand: tuple[Message, str, bool]


class TablePlayers:
    """The players of one channel; ``move()`` makes the next move of whoever is to act."""

    def __init__(self, load: LoadDouble, channel: Channel, users: list[User], rng: random.Random,
                 stats: Stats) -> None:
        self.load = load
        self.channel = channel
        self.users = users
        self.rng = rng
        self.stats = stats
        self.tables: tuple[Message, Message] | None = None
        self.seat_users: list[User] = []
        self._counts: list[re.Pattern] = []
        self.over = True

    # -- a new game ----------------------------------------------------------------------------
    async def new_game(self) -> None:
        load, host, guests = self.load, self.users[0], self.users[1:]
        lobby = (await load.slash(host, self.channel, "start", game="calcory")).original
        join = _custom_id(lobby, ":join")
        for guest in guests:
            await load.click(guest, lobby, join)
        await load.click(host, lobby, _custom_id(lobby, ":start"))
        self.stats.interactions += 2 + len(guests)
        prefix = f"st:m:{join.split(':')[2]}:"
        self.tables = await load.until(self.channel, lambda: self._posted_tables(prefix), what="the table")
        first, second = self.tables
        await load.until(self.channel, lambda: _position(first) == _position(second), what="a drawn table")
        counts = {u: re.compile(rf"(?:^|\s){re.escape(u.name.title())} (\d+)") for u in self.users}
        found = self._scoreboard(list(counts.values()))
        order = sorted(zip(self.users, found, strict=True), key=lambda pair: pair[1].start())
        self.seat_users = [u for u, _ in order]
        self._counts = [counts[u] for u in self.seat_users]
        self.over = False
        self.stats.games_started += 1

    def _posted_tables(self, prefix: str) -> tuple[Message, Message] | None:
        first = second = None
        for message in self.load.posted.get(self.channel.id, ()):
            ids = _sight(message).custom_ids
            if not any(i.startswith(prefix) for i in ids):
                continue
            if any(i.endswith(":stop") for i in ids):
                second = message
            else:
                first = message
        return (first, second) if first is not None and second is not None else None

    # -- one move ------------------------------------------------------------------------------
    def _read(self) -> _Table:
        down, digits, stop, hand = [], [], None, None
        for message in self.tables:
            seen = _sight(message)
            down += [(message, custom_id) for custom_id in seen.down]
            digits += seen.faces
            if seen.stop is not None:
                stop = (message, *seen.stop)
            if seen.hand is not None:
                hand = (message, *seen.hand)
        if stop is None or hand is None:
            raise BenchError(f"the table in {self.channel} has no Stop or Hand button")
        return _Table(down, digits, self._hands(), stop, hand)

    def _hands(self) -> list[int]:
        """Cards in each seat's hand."""
        return [int(m.group(1)) for m in self._scoreboard(self._counts)]

    def _scoreboard(self, patterns: list[re.Pattern]) -> list[re.Match]:
        """``patterns`` matched on the line of the table's text with every hand count ("Ann 2 · Bob 0")."""
        for text in _sight(self.tables[0]).texts:
            for line in text.splitlines():
                found = [pattern.search(line) for pattern in patterns]
                if all(found):
                    return found
        raise BenchError(f"no scoreboard with every player's hand count in {self.channel}")

    async def move(self) -> None:
        """The next move at this table (a new game first if the last one is over)."""
        if self.over:
            await self.new_game()
        first, second = self.tables
        position = _position(first)
        seat, _ = position
        user = self.seat_users[seat]
        table = self._read()
        if table.hand[2]:                         # no Hand button: the game is over
            self.over = True
            self.stats.games_finished += 1
            return
        if table.stop[2]:                         # no Stop: a hit, a card goes back
            record = await self._put_back(user, table)
        else:
            record = await self._flip_or_stop(user, table, minimum=1 if table.hands[seat] else 2)
        if record is None:
            return
        await self.load.until(
            self.channel, lambda: (p := _position(first)) == _position(second) and p != position,
            what=f"the table to show the move after {position}")

    async def _flip_or_stop(self, user: User, table: _Table, minimum: int):
        stop = len(table.digits) >= minimum and (sum(table.digits) >= 9 or self.rng.random() < 0.3)
        if stop or not table.down:
            message, custom_id, _ = table.stop
        else:
            message, custom_id = self.rng.choice(table.down)
        record = await self._timed(self.load.click(user, message, custom_id))
        if record.callback_type not in (UPDATE_MESSAGE, DEFERRED_UPDATE):
            self.stats.refused += 1       # an ephemeral explanation: nothing moved
            if len(self.stats.reasons) < 3:
                data = record.callback.get("data") or {}
                self.stats.reasons.append(str(data.get("content", record.callback)))
            return None
        return record

    async def _put_back(self, user: User, table: _Table):
        message, custom_id, _ = table.hand
        hand = await O.hand_of(self.load.double, await self.load.click(user, message, custom_id))
        self.stats.interactions += 1
        card, slots = self._hand_selects(hand)
        if all(s.get("disabled") for s in slots):
            await self.load.select(user, hand, card["custom_id"], [self.rng.choice(card["options"])["value"]])
            self.stats.interactions += 1
            card, slots = self._hand_selects(hand)
        chosen = self.rng.choice([s for s in slots if not s.get("disabled")])
        return await self._timed(self.load.select(
            user, hand, chosen["custom_id"], [self.rng.choice(chosen["options"])["value"]]))

    @staticmethod
    def _hand_selects(hand: Message) -> tuple[dict, list[dict]]:
        selects = [c for c in C.walk(hand.payload) if c.get("type") == C.STRING_SELECT]
        cards = [s for s in selects if s.get("custom_id", "").endswith(":card")]
        slots = [s for s in selects if ":ret:" in s.get("custom_id", "")]
        if not cards or not slots:
            raise BenchError(f"the hand shows no card and slot choice: {C.describe(hand.payload)}")
        return cards[0], slots

    async def _timed(self, click):
        record = await click
        self.stats.interactions += 1
        latency = self.load.latency(record)
        if record.callback_type == UPDATE_MESSAGE:
            self.stats.moves += 1
            self.stats.samples.append((time.time(), latency))
        elif record.callback_type == DEFERRED_UPDATE:
            self.stats.deferred += 1      # answered before the commit: not a click latency
        return record
