"""Plays any game through the double the way people do: `/start`, the lobby, then clicks in hands.

The driver asks the engine only *which* move to make (a test's plan or a seeded random choice);
how to make it is found on the hand's rendering (``tests.ui.kit.hand_path``), and every click goes
over the wire, so a move that cannot be clicked fails the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from bot.i18n import language
from bot.play.sessions import Status
from bot.registry import presenter
from bot.transport import ids
from bot.ui.options import PICTURES
from tests.double import custom_ids, option_values, visible_texts
from tests.double.components import text_displays
from tests.e2e.calcory_driver import settled
from tests.e2e.outside import hand_of, pings
from tests.ui import kit

Policy = Callable[[object, int], str]



def said(message) -> str:
    """The words of a message on the double (a hand's text displays: hands are Components V2)."""
    return "\n".join(text_displays(message.payload))

class GameDriver:
    def __init__(self, env, key: str, channel=None) -> None:
        self.env = env
        self.key = key
        self.channel = channel or env.channel
        self.hands: dict[int, object] = {}
        #: Where players open their hand: "table" or "ping" (see ``open_hand``).
        self.hand_from = "table"

    @property
    def session(self):
        return self.env.session(self.channel)

    def user_of(self, seat: int):
        user_id = self.session.seats[seat].user_id
        return next(u for u in self.env.users.values() if int(u.id) == user_id)

    def lang_of(self, seat: int) -> str:
        return language(self.user_of(seat).locale)

    # -- lobby ---------------------------------------------------------------------------------
    async def start(self, players: list[str], options: dict | None = None, computers: int = 0,
                    level: str | None = None, pictures: bool = True):
        """`/start` by the first player (with ``computers`` computer players seated, at ``level``),
        the others join, the host sets house rules (and turns pictures off unless ``pictures``) and
        starts."""
        env, double = self.env, self.env.double
        host = env.users[players[0]]
        extra = {"computers": computers} if computers else {}
        if level is not None:
            extra["level"] = level
        lobby = (await double.slash(host, self.channel, "start", game=self.key, **extra)).message
        session = self.session
        for name in players[1:]:
            await double.click(env.users[name], lobby, ids.lobby(session.id, "join"))
        if options:
            await self.set_options(host, lobby, options)
        if not pictures:
            panel = (await double.click(host, lobby, ids.lobby(session.id, "rules"))).message
            await double.select(host, panel, ids.lobby(session.id, "opt"), [PICTURES])
            await double.click(host, panel, ids.lobby(session.id, "pictures:off"))
            assert not session.pictures
        await double.click(host, lobby, ids.lobby(session.id, "start"))
        count = presenter(self.key).table_messages
        await settled(env, lambda: len(session.messages.get("table") or ()) == count, "the table to be posted")
        assert session.status == "playing"
        return session

    async def set_options(self, host, lobby, options: dict) -> None:
        double, sid = self.env.double, self.session.id
        panel = (await double.click(host, lobby, ids.lobby(sid, "rules"))).message
        for name, value in options.items():
            await double.select(host, panel, ids.lobby(sid, "opt"), [name])
            if isinstance(value, bool):
                await double.click(host, panel, ids.lobby(sid, f"set:{name}:{str(value).lower()}"))
            else:
                await double.select(host, panel, ids.lobby(sid, f"set:{name}"), [str(value)])
        assert self.session.options.model_dump() | options == self.session.options.model_dump()

    # -- moves ---------------------------------------------------------------------------------
    def table_message_with(self, custom_id: str):
        for message in self.env.table_messages(self.channel):
            if message.has_component(custom_id):
                return message
        raise AssertionError(f"{custom_id} is on no table message")

    async def open_hand(self, seat: int):
        """Click Hand on the table, or with ``hand_from = "ping"`` on the newest turn ping naming the
        seat (a player coming from the notification: that click's token never edits the table)."""
        custom_id = ids.table(self.session.id, "hand")
        user = self.user_of(seat)
        if self.hand_from == "ping":
            where = next(m for m in reversed(pings(self.env.double, self.channel))
                         if f"<@{user.id}>" in m.content and m.has_component(custom_id))
        else:
            where = self.table_message_with(custom_id)
        record = await self.env.double.click(user, where, custom_id)
        self.hands[seat] = hand = await hand_of(self.env.double, record)
        return hand

    def hand_message(self, seat: int):
        return self.hands.get(seat)

    async def attempt(self, seat: int, clicks: list[kit.Click], *, fresh: bool = True):
        """Make these clicks as the seat's user (in a freshly opened hand); returns the last record."""
        user, double = self.user_of(seat), self.env.double
        hand = await self.open_hand(seat) if fresh or seat not in self.hands else self.hands[seat]
        record = None
        for click in clicks:
            message = self.table_message_with(click.custom_id) if click.where == "table" else hand
            if click.values:
                record = await double.select(user, message, click.custom_id, list(click.values))
            else:
                record = await double.click(user, message, click.custom_id)
            if click.where == "hand" and record.message is not None:
                hand = self.hands[seat] = record.message
        await self.env.settle()
        return record

    async def play(self, seat: int, key: str):
        """Make the move ``key`` for ``seat`` by clicking, and check that the host took it."""
        session = self.session
        path = kit.hand_path(session, seat, key, self.lang_of(seat))
        assert path is not None, f"{self.key}: seat {seat} finds no way to click {key!r}"
        before = session.counters[seat]
        record = await self.attempt(seat, path, fresh=path[0].where == "hand")
        assert session.counters[seat] == before + 1, f"{self.key}: the move {key!r} of seat {seat} was not taken"
        return record

    async def play_out(self, rng: random.Random, until: Callable[[object], bool] | None = None,
                       policy: Policy | None = None, max_moves: int = 5000, check_every: int = 0) -> int:
        """Moves until ``until(session)`` holds or the game ends; returns how many were made."""
        session, game = self.session, self.session.game
        moves = 0
        while session.status is Status.PLAYING and not (until and until(session)) and moves < max_moves:
            seat = rng.choice(sorted(session.to_act()))
            key = policy(session, seat) if policy else rng.choice(game.legal_actions(session.state, seat)).key
            await self.play(seat, key)
            moves += 1
            if check_every and moves % check_every == 0:
                self.check_channel_private(rng)
        return moves

    # -- time ----------------------------------------------------------------------------------
    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` of table time pass: due timers fire (computer moves, deadlines), each
        alarm's work done at its own moment as it would be in real time (a hand's last edit before
        its token runs out happens then, not after the whole wait)."""
        bot, clock = self.env.bot, self.env.clock
        await bot.timers.idle()             # the runner has armed its alarm for the newest timer
        end = clock.now() + seconds
        while (due := clock.next_due) is not None and due <= end:
            clock.advance(max(0.0, due - clock.now()))
            await bot.timers.idle()
            await self.env.settle()
        clock.advance(end - clock.now())
        await bot.timers.idle()
        await self.env.settle()

    def computers_to_act(self) -> list[int]:
        session = self.session
        return [seat for seat in sorted(session.to_act()) if session.seats[seat].played_by_computer]

    async def let_computers_move(self, limit: int = 500) -> int:
        """Until a person is to act (or the game ended); returns how many computer moves were made."""
        session, before = self.session, len(self.session.history)
        for _ in range(limit):
            if not self.computers_to_act():
                break
            await self.wait(self.env.bot.autoplay.delay_for(self.session))
        return len(session.history) - before

    # -- what the channel shows ----------------------------------------------------------------
    def public_texts(self) -> list[str]:
        """Every text any public message of the channel ever showed, edits included."""
        out = []
        for message in self.env.public(self.channel):
            for payload in [*message.history, message.payload]:
                out.extend(visible_texts(payload))
        return out

    def check_channel_private(self, rng: random.Random | None = None) -> None:
        """The table as the channel shows it now is what any deal of the hidden cards would show."""
        session = self.session
        rng = rng or random.Random(0)
        show = presenter(self.key)
        messages = self.env.table_messages(self.channel)
        for seat in range(len(session.seats)):
            other = kit.resampled(session, seat, random.Random(rng.random()))
            drawn = show.table(other, session.lang, self.env.bot.tables.shown_line(session))
            for message, rendered in zip(messages, drawn, strict=True):
                body = kit.body(rendered)
                assert visible_texts(message.payload) == visible_texts(body), (
                    f"the public table shows something that depends on cards hidden from seat {seat}:\n"
                    f"{visible_texts(message.payload)}\n{visible_texts(body)}")
                assert custom_ids(message.payload) == custom_ids(body)
                assert option_values(message.payload) == option_values(body)
                shown = [(message.file(a["filename"]), a.get("description")) for a in message.shown]
                assert shown == [(p.png, p.alt) for p in rendered.pictures], \
                    f"the table picture or its alt text depends on cards hidden from seat {seat}"
