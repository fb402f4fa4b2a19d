"""Drives a Calcory table through the double the way players would: clicks on the table and the hand.

The driver peeks at the engine state only to *choose* which slot to flip (a test needs a planned
game); every move itself goes through Discord.
"""

from __future__ import annotations

from bot.transport import ids
from games.calcory import SLOTS
from games.deck import digit
from tests.e2e.outside import hand_of


class CalcoryDriver:
    def __init__(self, env) -> None:
        self.env = env

    @property
    def session(self):
        return self.env.session()

    def user_of(self, seat: int):
        user_id = self.session.seats[seat].user_id
        return next(u for u in self.env.users.values() if int(u.id) == user_id)

    @property
    def active(self) -> int:
        return self.session.state.active

    def face_down(self, wanted: int, avoid=()) -> str:
        state = self.session.state
        for index, card in enumerate(state.grid):
            if card and digit(card) == wanted and index not in state.flips and index not in state.marks \
                    and SLOTS[index] not in avoid:
                return SLOTS[index]
        raise LookupError(f"no face-down {wanted}")

    def pair_to(self, total: int) -> tuple[str, str]:
        for low in range(1, 10):
            high = total - low
            if not 0 < high <= 9 or high < low:
                continue
            try:
                first = self.face_down(low)
                return first, self.face_down(high, avoid=(first,))
            except LookupError:
                continue
        raise LookupError(f"no two face-down cards make {total}")

    def message_with(self, custom_id: str):
        for message in self.env.table_messages():
            if message.has_component(custom_id):
                return message
        raise AssertionError(f"{custom_id} is on no table message")

    def flip_id(self, slot: str) -> str:
        session, seat = self.session, self.active
        return ids.move(session.id, seat, session.counters[seat], f"flip:{slot}")

    async def flip(self, slot: str):
        custom_id = self.flip_id(slot)
        record = await self.env.double.click(self.user_of(self.active), self.message_with(custom_id), custom_id)
        await self.env.settle()
        return record

    async def stop(self):
        session, seat = self.session, self.active
        custom_id = ids.move(session.id, seat, session.counters[seat], "stop")
        record = await self.env.double.click(self.user_of(seat), self.message_with(custom_id), custom_id)
        await self.env.settle()
        return record

    async def open_hand(self, seat: int):
        session = self.session
        custom_id = ids.table(session.id, "hand")
        record = await self.env.double.click(self.user_of(seat), self.message_with(custom_id), custom_id)
        return await hand_of(self.env.double, record)

    async def put_back(self, wanted_digit: int | None = None, slot: str | None = None):
        """Return a taken card through the hand: pick the card (if asked), then the empty slot."""
        session, seat = self.session, self.active
        user = self.user_of(seat)
        hand = await self.open_hand(seat)
        choices = session.state.choices
        card = next((c for c in choices if wanted_digit is None or digit(c) == wanted_digit), choices[0])
        counter = session.counters[seat]
        card_select = ids.hand_step(session.id, seat, counter, "card")
        if hand.has_component(card_select):
            await self.env.double.select(user, hand, card_select, [card])
        empty = [s for s, c in zip(SLOTS, session.state.grid, strict=True) if not c]
        slot = slot or empty[0]
        part = empty.index(slot) // 25
        slot_select = ids.move_select(session.id, seat, counter, f"ret:{card}-|{part}")
        record = await self.env.double.select(user, hand, slot_select, [slot])
        await self.env.settle()
        return card, slot, record


async def start_calcory(env, players=("ann", "bob", "cem"), channel=None):
    """`/start calcory` by the first player, the others join, the host starts; returns (session, lobby)."""
    channel = channel or env.channel
    host = env.users[players[0]]
    lobby = (await env.double.slash(host, channel, "start", game="calcory")).message
    session = env.session(channel)
    for name in players[1:]:
        await env.double.click(env.users[name], lobby, ids.lobby(session.id, "join"))
    await env.double.click(host, lobby, ids.lobby(session.id, "start"))
    await settled(env, lambda: len(session.messages.get("table") or ()) == 2, "the table to be posted")
    assert session.status == "playing"
    return session, lobby


async def settled(env, condition, what: str) -> None:
    """Until the bot did what an answered interaction set off (it works on after answering), then
    until the table writer is idle. The bot's own work is awaited first: what it records after its
    last request (a posted table's message ids) wakes no waiter on the double, which would then
    sleep out its whole timeout before it looked again."""
    await env.settle()
    await env.double.wait_until(condition, what=what)
    await env.settle()


async def play_two_player_game(env, drive: CalcoryDriver) -> tuple[int, int]:
    """A short planned game of two: returns (winner seat, loser seat)."""
    first, second = drive.active, 1 - drive.active
    for slot in drive.pair_to(13):                  # a hit: the first player holds a card
        await drive.flip(slot)
    await drive.put_back()
    for slot in drive.pair_to(3):                   # the second marks a low pair
        await drive.flip(slot)
    await drive.stop()
    await drive.flip(drive.face_down(9))            # overbid with a single 9
    await drive.stop()
    for slot in drive.pair_to(3):                   # the second cannot beat it
        await drive.flip(slot)
    await drive.stop()                              # the walkover of a single card ends the game
    assert drive.session.status == "finished"
    return first, second


def last_public(env, channel=None):
    return env.public(channel)[-1]


def board_lines(message) -> list[str]:
    return message.text.splitlines()
