"""The one custom_id codec of every button and select the bot sends.

Shapes (``st`` marks our components; every client can read a custom_id, so public ones carry
nothing hidden):

- ``st:l:<session>:<op>``                       lobby buttons and selects (join, leave, start …)
- ``st:t:<session>:<op>``                       table buttons anyone may press (hand, …); ``REMATCH``
                                                and ``COACH`` name a finished match (the closing
                                                message's buttons)
- ``st:m:<session>:<seat>:<counter>:<action>``  a move button: the seat's move counter when drawn
- ``st:s:<session>:<seat>:<counter>:<prefix>``  a move select: action = prefix + chosen value; a
                                                ``|<n>`` after the prefix only keeps ids unique
- ``st:h:<session>:<seat>:<counter>:<ui>``      a step inside a hand that is not a move yet
- ``st:u:<user>:<op>``                          a private button about the clicking user's own data
                                                (``/forget-me``'s confirmation); ``parse_user``, not
                                                ``parse``, reads it, since it names no session
- ``st:r:<session>:<step>:<hands>:<op>``        a replay's stepper (``bot/replays``): the whole state
                                                of a private replay (the match, the step shown, hands
                                                shown 1 or not 0), so a click after a restart just
                                                works; ``parse_replay`` reads it, and ``st:r:pick``,
                                                the select of ``/replay`` whose value is a match

``parse`` never raises: anything malformed comes back as ``None`` and the click is answered with an
explanation instead of Discord's "This interaction failed". Numbers have one spelling only
(``games.keys.number``: ASCII digits, no leading zeros), so ``st:m:07:…`` or a "٣" names nothing.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.keys import number

PREFIX = "st"
MAX_LENGTH = 100

Kind = Literal["l", "t", "m", "s", "h"]
_SEATED = {"m", "s", "h"}
_OPEN = {"l", "t"}


class ClickId(BaseModel):
    """A parsed custom_id."""

    model_config = ConfigDict(frozen=True)

    kind: Kind
    session: int
    seat: int | None = None
    counter: int | None = None
    arg: str = ""


def _checked(text: str) -> str:
    if len(text) > MAX_LENGTH:
        raise ValueError(f"custom_id too long ({len(text)}): {text!r}")
    return text


# The builders format strings directly: a table renders dozens of ids per move, and the model above
# is only needed to parse what comes back.
def lobby(session: int, op: str) -> str:
    return _checked(f"{PREFIX}:l:{session}:{op}")


def table(session: int, op: str) -> str:
    return _checked(f"{PREFIX}:t:{session}:{op}")


#: The table op of the Rematch button: a new lobby for the players of the finished match ``session``.
REMATCH = "rematch"


def rematch(session: int) -> str:
    return table(session, REMATCH)


#: The table op of the How did I play? button: a player's review of the finished match ``session``.
COACH = "coach"


def coach(session: int) -> str:
    return table(session, COACH)


def move(session: int, seat: int, counter: int, action: str) -> str:
    return _checked(f"{PREFIX}:m:{session}:{seat}:{counter}:{action}")


def move_select(session: int, seat: int, counter: int, prefix: str) -> str:
    return _checked(f"{PREFIX}:s:{session}:{seat}:{counter}:{prefix}")


def hand_step(session: int, seat: int, counter: int, ui: str) -> str:
    return _checked(f"{PREFIX}:h:{session}:{seat}:{counter}:{ui}")


#: The table op of the Replay button: a private stepper through the finished match ``session``.
REPLAY = "replay"


def replay_button(session: int) -> str:
    return table(session, REPLAY)


#: The op of ``/replay``'s select of matches: ``st:r:pick``, the chosen value is the match's id.
PICK = "pick"


class ReplayId(BaseModel):
    """A parsed stepper id: ``session`` None for ``/replay``'s select (``op`` is ``PICK``)."""

    model_config = ConfigDict(frozen=True)

    session: int | None
    step: int = 0
    hands: bool = False
    op: str


def replay(session: int, step: int, hands: bool, op: str) -> str:
    return _checked(f"{PREFIX}:r:{session}:{step}:{int(hands)}:{op}")


def replay_pick() -> str:
    return f"{PREFIX}:r:{PICK}"


def parse_replay(custom_id: str) -> ReplayId | None:
    """A stepper id, or None for anything else, malformed ones too (never raises)."""
    if len(custom_id) > MAX_LENGTH or not custom_id.startswith(f"{PREFIX}:r:"):
        return None
    parts = custom_id.split(":", 5)
    if parts[2:] == [PICK]:
        return ReplayId(session=None, op=PICK)
    if len(parts) != 6 or parts[4] not in ("0", "1") or not parts[5]:
        return None
    session, step = number(parts[2]), number(parts[3])
    if session is None or step is None:
        return None
    return ReplayId(session=session, step=step, hands=parts[4] == "1", op=parts[5])


def user(user_id: int, op: str) -> str:
    return _checked(f"{PREFIX}:u:{user_id}:{op}")


def parse_user(custom_id: str) -> tuple[int, str] | None:
    """``(user id, op)`` of a ``st:u:`` id, or None (never raises)."""
    if len(custom_id) > MAX_LENGTH:
        return None
    parts = custom_id.split(":", 3)
    if len(parts) != 4 or parts[:2] != [PREFIX, "u"]:
        return None
    user_id = number(parts[2], max_digits=20)       # a Discord snowflake: up to 20 digits
    return None if user_id is None or not parts[3] else (user_id, parts[3])


def parse(custom_id: str) -> ClickId | None:
    if len(custom_id) > MAX_LENGTH:
        return None
    parts = custom_id.split(":", 5)
    if len(parts) < 4 or parts[0] != PREFIX:
        return None
    kind, session = parts[1], number(parts[2])
    if session is None:
        return None
    if kind in _SEATED:
        if len(parts) != 6:
            return None
        seat, counter = number(parts[3]), number(parts[4])
        if seat is None or counter is None:
            return None
        if kind == "s" and "|" in parts[5] and number(parts[5].partition("|")[2]) is None:
            return None         # a select's discriminator (``|n``) is a number too
        return ClickId(kind=kind, session=session, seat=seat, counter=counter, arg=parts[5])
    if kind not in _OPEN:
        return None
    return ClickId(kind=kind, session=session, arg=custom_id.split(":", 3)[3])
