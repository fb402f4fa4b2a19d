"""Issue 13: the table shows the last five moves (computer moves included, in the table's language,
the same after a restart), and the turn ping links to the table and opens the hand in one tap."""

from __future__ import annotations

import random

import pytest

from bot.registry import presenter
from bot.transport import ids
from bot.ui.movelog import LENGTH
from tests.e2e.game_driver import GameDriver, said
from tests.ui import kit

SHOW = presenter("diabolo")


def _described(session, lang: str) -> list[tuple[int, str]]:
    """(seat, line) of every logged move that has a line, oldest first, described here afresh."""
    seats = [seat for seat, _, _ in session.history]
    return [(seat, line) for seat, events in zip(seats, session.events_from(0), strict=True)
            if (line := SHOW.describe(session, events, lang)) is not None]


def _log_shown(table_text: str, lines: list[str]) -> bool:
    """The lines appear on the table one after the other, in this order."""
    return "\n".join(lines) in table_text


async def _play_until_logged(drive: GameDriver, rng: random.Random, lines: int) -> None:
    """Computers and the one person move until the log holds more than ``lines`` lines."""
    session = drive.session
    while len(_described(session, session.lang)) <= lines:
        await drive.let_computers_move()
        seat = next(s for s in sorted(session.to_act()) if not session.seats[s].played_by_computer)
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        await drive.let_computers_move()


@pytest.mark.parametrize(("host", "lang"), [("ann", "en"), ("bob", "de")])
async def test_the_table_shows_the_last_five_moves_and_keeps_them_over_a_restart(env, host, lang):
    drive = GameDriver(env, "diabolo")
    session = await drive.start([host], computers=3)
    assert session.lang == lang
    await env.settle()
    await _play_until_logged(drive, random.Random(8), LENGTH + 2)
    described = _described(session, lang)
    newest = [line for _, line in described[-LENGTH:]]
    [table] = env.table_messages()
    assert _log_shown(table.text, newest), f"the table does not show the last five moves:\n{table.text}"
    assert not _log_shown(table.text, [line for _, line in described[-LENGTH - 1:]])  # no sixth
    assert any(session.seats[seat].played_by_computer for seat, _ in described[-LENGTH:])
    other = "de" if lang == "en" else "en"
    assert not any(SHOW.describe(session, events, other) in table.text
                   for _, _, events in session.history[-3:] if SHOW.describe(session, events, other))

    # What a player sees: the text and the picture (after a restart the writer no longer knows the
    # attachment's id, so it may upload the same picture again under a new id).
    before = (table.text, table.files)
    await env.stop_bot()
    await env.start_bot()
    await env.settle()
    assert env.session() is not session
    after = env.table_messages()[0]
    assert (after.text, after.files) == before        # the replayed history reads the same


async def test_the_ping_links_to_the_table_and_its_hand_button_opens_the_hand(env):
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["ann", "cem"], computers=2)
    await drive.let_computers_move()
    (seat,) = [s for s in session.to_act() if not session.seats[s].played_by_computer]
    user = drive.user_of(seat)
    (ping,) = [m for m in env.public() if "your turn" in m.text]
    first = session.messages["table"][0]
    assert f"https://discord.com/channels/{env.guild.id}/{env.channel.id}/{first}" in ping.text
    assert f"<@{user.id}>" in ping.text
    hand = ids.table(session.id, "hand")
    assert ping.custom_ids == [hand]           # the table's own Hand button, nothing else

    record = await env.double.click(user, ping, hand)
    assert record.ephemeral
    assert record.message.ephemeral and said(record.message) == SHOW.hand(session, seat, "en", "", None).text
    # The hand opened from the ping plays like any other: a move in it is taken.
    drive.hands[seat] = record.message
    key = random.Random(2).choice(session.game.legal_actions(session.state, seat)).key
    before = session.counters[seat]
    path = kit.hand_path(session, seat, key, "en")
    await drive.attempt(seat, path, fresh=False)
    assert session.counters[seat] == before + 1
