"""Calcory's table after a failed turn (docs/rules-decisions.md D16): its cards, sum and reason for everyone,
until the next move turns them face down and leaves no digit of them on the table or in the move line."""

from __future__ import annotations

import random

from bot.tables.calcory.presenter import PRESENTER
from games.calcory import position
from games.deck import digit
from tests.ui import kit

BUST = {"E6": "r7a", "F6": "r4", "C4": "r9"}  # 7 + 4 + 9 = 20


def rigged(slots: dict[str, str], **kwargs):
    session = kit.make_session("calcory", 3)
    session.state = position(3, slots, **kwargs)
    return session


def slot_button(session, slot: str) -> dict:
    for rendered in PRESENTER.table(session, "en", None):
        for comp in kit.components(rendered):
            if comp.get("custom_id", "").endswith(f"flip:{slot}"):
                return comp
    raise AssertionError(f"no button for {slot}")


def after(session, seat: int, *keys: str) -> str | None:
    """Play ``keys`` and return the move line the table would show (the last one said)."""
    line = None
    for key in keys:
        events = kit.play(session, seat, key)
        line = PRESENTER.describe(session, events, "en") or line
    return line


def test_a_bust_shows_its_cards_sum_and_reason_until_the_next_flip() -> None:
    session = rigged({**BUST, "A1": "y2"}, active=0)
    last = after(session, 0, *(f"flip:{slot}" for slot in BUST))
    assert last == "💥 P0 went over 13."
    text = kit.table_text(session, last=last)
    assert "👀 E6 7 · F6 4 · C4 9 = **20** 💥 over 13. Face down again at the next move." in text
    assert "▶ **P1**: flip a face-down card." in text
    for slot, cid in BUST.items():
        button = slot_button(session, slot)
        assert button["label"] == str(digit(cid)) and button["style"] == 4 and not button["disabled"]
    german = kit.table_text(session, "de", PRESENTER.describe(session, session.history[-1][2], "de"))
    assert "💥 P0 ist über 13 gekommen." in german
    assert "👀 E6 7 · F6 4 · C4 9 = **20** 💥 über 13. Beim nächsten Zug wieder verdeckt." in german

    last = after(session, 1, "flip:A1") or last  # a plain flip says nothing: the bust's line stays
    text = kit.table_text(session, last=last)
    assert "👀" not in text and "= **20**" not in text and "7 · " not in text
    assert last == "💥 P0 went over 13."
    for slot in BUST:
        button = slot_button(session, slot)
        assert button["label"] == slot and button.get("style", 2) == 2


def test_a_second_zero_and_an_underbid_say_what_happened() -> None:
    session = rigged({"A1": "r0", "B1": "r4", "C1": "y0"}, active=0)
    last = after(session, 0, "flip:A1", "flip:B1", "flip:C1")
    assert last == "💥 P0 turned a second 0."
    assert "👀 A1 0 · B1 4 · C1 0 = **4** 💥 a second 0." in kit.table_text(session, last=last)

    marked = {"A1": "y4", "B1": "g3", "C1": "b4"}
    session = rigged({**marked, "D1": "r5", "E1": "r6"}, active=1, marked=tuple(marked), owner=0)
    last = after(session, 1, "flip:D1", "flip:E1", "stop")
    assert last == "🙈 P1 did not beat the marked set."
    text = kit.table_text(session, last=last)
    assert "👀 D1 5 · E1 6 = **11** 🙈 does not beat 11 from 3 cards." in text
    after(session, 2, "flip:F1")
    assert "👀" not in kit.table_text(session, last=last)
    assert [slot_button(session, s)["label"] for s in ("D1", "E1")] == ["D1", "E1"]


def test_the_walkover_return_is_the_next_move_that_turns_the_cards_down() -> None:
    marked = {"A1": "y4", "B1": "g3", "C1": "b4"}
    session = rigged({**marked, "D1": "r9", "E1": "r6"}, active=2, marked=tuple(marked), owner=0)
    after(session, 2, "flip:D1", "flip:E1")  # bust, then seat 0's set walks over to seat 0
    assert "👀 D1 9 · E1 6 = **15** 💥 over 13." in kit.table_text(session)
    after(session, 0, "ret:g3-B1")
    assert "👀" not in kit.table_text(session)


def test_a_table_with_a_failed_turn_open_reveals_nothing_else() -> None:
    session = rigged({**BUST, "A1": "y2"}, active=0)
    after(session, 0, *(f"flip:{slot}" for slot in BUST))
    assert session.state.failed is not None
    kit.check_private(session, random.Random(16))
    for rendered in PRESENTER.table(session, "en", None):
        kit.check_limits(rendered)


def test_the_button_that_ends_a_turn_says_it_marks_and_does_not_look_like_ending_the_game() -> None:
    """It shared its name and red colour with /stop, which ends the whole match."""
    session = rigged({"A1": "y2", "B1": "r4"}, active=0)
    kit.play(session, 0, "flip:A1")
    kit.play(session, 0, "flip:B1")
    for lang, label in (("en", "📌 Stop and mark"), ("de", "📌 Aufhören und markieren")):
        (stop,) = [comp for rendered in PRESENTER.table(session, lang, None) for comp in kit.components(rendered)
                   if comp.get("custom_id", "").endswith(":stop")]
        assert stop["label"] == label and stop["style"] != 4 and not stop["disabled"]     # 4: Discord's red
