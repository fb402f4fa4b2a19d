"""A Calcory table seen from outside the bot: only the double's messages (and a planned position).

Used where the bot runs in another process, so nothing of its memory is reachable.
"""

from __future__ import annotations

import re

from bot.transport import ids
from games.calcory import SLOTS
from games.deck import digit

PING = re.compile(r"<@(\d+)>")


async def hand_of(double, record, timeout: float = 5.0):
    """The hand a click on Hand opened. A click on a table message is acknowledged on that message
    and the hand comes as an ephemeral follow-up (the click's token can then edit the table); a
    click on the ping is answered with the hand itself. ``timeout`` guards against a hang only."""
    def opened():
        if record.followups:
            return record.followups[-1]
        original = record.original
        return original if original is not None and original.ephemeral else None

    return await double.wait_until(opened, timeout, what=f"the hand opened by {record}")


def session_id(lobby) -> int:
    return next(ids.parse(c).session for c in lobby.custom_ids if c.startswith("st:l:"))


def tables(double, channel) -> list:
    """The table messages of the channel: the public Components V2 messages, oldest first."""
    return [m for m in double.messages(channel) if m.is_v2]


def pings(double, channel) -> list:
    return [m for m in double.messages(channel) if not m.is_v2 and PING.search(m.content)]


def pinged(double, channel) -> set[str]:
    """Who the newest turn ping names (empty when there is none)."""
    found = pings(double, channel)
    return set(PING.findall(found[-1].content)) if found else set()


def move_ids(messages) -> list[str]:
    return [c for m in messages for c in m.custom_ids if c.startswith("st:m:")]


def drawn_for(messages, session: int, seat: int, counter: int) -> bool:
    """Every move button on the table carries this seat's move counter (the writer caught up)."""
    found = move_ids(messages)
    prefix = f"st:m:{session}:{seat}:{counter}:"
    return bool(found) and all(c.startswith(prefix) for c in found)


def holding(messages, custom_id: str):
    return next(m for m in messages if m.has_component(custom_id))


def slot_label(messages, session: int, seat: int, counter: int, slot: str) -> str:
    cid = ids.move(session, seat, counter, f"flip:{slot}")
    return holding(messages, cid).component(cid)["label"]


# ------------------------------------------------------------------------------ planning


def face_down(state, *, avoid=()) -> list[int]:
    return [i for i, c in enumerate(state.grid)
            if c and i not in state.flips and i not in state.marks and SLOTS[i] not in avoid]


def pair(state, fits) -> tuple[str, str]:
    """Two face-down slots whose digits satisfy ``fits(first, second)``."""
    down = face_down(state)
    for i in down:
        for j in down:
            if i != j and fits(digit(state.grid[i]), digit(state.grid[j])):
                return SLOTS[i], SLOTS[j]
    raise LookupError("no such pair")
