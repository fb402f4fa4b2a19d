"""Accounting for a game played while Discord refuses requests: after every move the table shows
the position, the newest turn ping names whoever must act, open hands show their seat's cards;
at the end the summary is posted once.

What the table should show is the bot's own rendering of the position (the same function that
answers a click); the checks read only what the double holds, as users see it.
"""

from __future__ import annotations

import random

from bot.play.autoplay import DEADLINE
from bot.play.sessions import Status
from bot.play.writer import RETRY_LONGEST
from bot.registry import presenter
from tests.double import visible_text
from tests.e2e import outside as O
from tests.e2e.game_driver import GameDriver


def rendered_text(rendered) -> str:
    return visible_text({"content": rendered.content, "components": rendered.view.to_components()})


def table_shows_now(env, session, channel=None) -> bool:
    want = [rendered_text(r) for r in env.bot.tables.render(session)]
    return [m.text for m in env.table_messages(channel)] == want


def pinged_now(env, session, channel=None) -> bool:
    waiting = {str(session.seats[s].user_id) for s in session.to_act() if session.seats[s].is_human}
    return O.pinged(env.double, channel or env.channel) == waiting


def hands_show_now(drive: GameDriver, mover: int) -> list[int]:
    """The seats (other than the mover) whose open hand does not show their cards now."""
    session, writer = drive.session, drive.env.bot.tables._tables.get(drive.session.id)
    stale = []
    for seat, hand in drive.hands.items():
        if seat == mover or writer is None or seat not in writer.hands:
            continue
        lang, ui = writer.hands[seat].lang, writer.hands[seat].ui
        if hand.text != rendered_text(presenter(session.game.key).hand(session, seat, lang, ui, None)):
            stale.append(seat)
    return stale


async def catch_up(env, condition, rounds: int = 12) -> None:
    """Let the bot's clock pass the writer's backoff until ``condition()`` holds (a refused redraw
    is tried again on that clock)."""
    for _ in range(rounds):
        await env.settle()
        if condition():
            return
        await env.bot.timers.idle()
        env.clock.advance(RETRY_LONGEST)
    await env.settle()
    assert condition(), "the bot never caught up"


async def play_accounted(drive: GameDriver, rng: random.Random, *, moves: int, channel=None,
                         before_move=None) -> int:
    """Random moves by clicks; after each, the table, the ping and the other hands are current.
    ``before_move(n)`` may arm a refusal first. Returns the moves made."""
    env, session = drive.env, drive.session
    made = 0
    while session.status is Status.PLAYING and made < moves:
        if before_move is not None:
            before_move(made)
        seat = rng.choice(sorted(session.to_act()))
        await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        made += 1
        await catch_up(env, lambda: table_shows_now(env, session, channel)
                       and (not session.is_live or pinged_now(env, session, channel)))
        assert table_shows_now(env, session, channel), f"move {made}: the table lags behind"
        if session.is_live:
            assert pinged_now(env, session, channel), f"move {made}: the ping names the wrong players"
        assert not hands_show_now(drive, seat), f"move {made}: an open hand was not refreshed"
    return made


async def no_timers(env, session) -> bool:
    return not [row for row in await env.bot.storage.timers() if row.session_id == session.id]


__all__ = ["DEADLINE", "catch_up", "no_timers", "pinged_now", "play_accounted", "table_shows_now"]
