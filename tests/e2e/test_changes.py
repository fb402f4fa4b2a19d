"""Every path that changes a table tells it once, as one ``Change`` (bot/play/changes.py): the
start, a player's click, a computer player's move, the turn clock moving for someone, a vote, a
rejoin, /replace and /stop. Its followers (the autoplay, then the table writer) learn from it what
happened; a recorder following after them hears exactly what they heard."""

from __future__ import annotations

from bot.play.changes import Change
from bot.play.seats import SeatKind
from bot.transport import ids
from tests.e2e.game_driver import GameDriver
from tests.e2e.test_turn_clock import _away_after_three_missed_turns, _live_table


def told(env) -> list[Change]:
    """Every change told from now on, in order."""
    changes: list[Change] = []

    async def note(change: Change) -> None:
        changes.append(change)

    env.bot.changes.follow(note)
    return changes


def first_move(session, seat: int) -> str:
    return session.game.legal_actions(session.state, seat)[0].key


async def test_the_start_and_each_move_are_told_once_with_what_happened(env):
    changes = told(env)
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann"], computers=1)
    [start] = changes
    assert start.session is session and start.started and start.shown and start.interaction is not None
    assert not start.moved and not start.ended and not start.planned
    changes.clear()

    seat = next(iter(session.to_act()))
    person = 0 if session.seats[0].kind is SeatKind.HUMAN else 1
    if seat != person:                              # the computer begins: its move comes first
        await drive.let_computers_move()
        changes.clear()
    await drive.play(person, first_move(session, person))
    [click] = changes
    assert click.seat == person and click.person and click.interaction is not None and not click.planned
    assert click.events == session.history[-1][2] and click.events
    assert not click.started and not click.gone and not click.ended
    changes.clear()

    await drive.let_computers_move()
    computer = 1 - person
    assert changes and all(c.seat == computer and c.planned and not c.person and c.interaction is None
                           for c in changes)
    assert [c.events for c in changes] == [events for _, _, events in session.history[-len(changes):]]


async def test_a_deadline_is_told_as_the_autoplay_s_move_for_the_seat_not_as_the_person_s(env):
    drive, session = await _live_table(env)
    changes = told(env)
    seat = next(iter(session.to_act()))
    await drive.wait(120)
    moves = [c for c in changes if c.moved]
    assert [(c.seat, c.person, c.planned) for c in moves] == [(seat, False, True)]
    assert moves[0].events == session.history[-1][2]
    # the new deadline is shown: the autoplay told that too, as a change without a move
    assert [c for c in changes if not c.moved] and all(c.planned for c in changes)


async def test_a_vote_a_replacement_and_a_stop_are_each_told_once(env):
    _, session = await _live_table(env)
    changes = told(env)
    await env.double.slash(env.bob, env.channel, "stop")            # a vote that does not end the match yet
    await env.settle()
    assert changes == [Change(session)] and session.is_live
    changes.clear()

    await env.double.slash(env.ann, env.channel, "replace", player=env.bob, level="easy")
    await env.settle()
    assert [c for c in changes if not c.planned] == [Change(session)]     # besides the autoplay's own
    changes.clear()

    await env.double.slash(env.ann, env.channel, "stop")            # the host ends it
    await env.settle()
    assert [c for c in changes if not c.planned] == [Change(session)] and changes[-1].ended


async def test_a_rejoin_is_told_once(env):
    drive, session, absent, notice = await _away_after_three_missed_turns(env)
    changes = told(env)
    await env.double.click(drive.user_of(absent), notice, ids.table(session.id, "rejoin"))
    await env.settle()
    assert [c for c in changes if not c.planned] == [Change(session)]
    assert session.seats[absent].kind is SeatKind.HUMAN


async def test_a_lobby_change_the_answer_shows_is_told_without_a_redraw(env):
    changes = told(env)
    lobby = (await env.double.slash(env.ann, env.channel, "start", game="safaru")).message
    session = env.session()
    edits = len([r for r in env.double.requests if r.method == "PATCH"])
    await env.double.click(env.bob, lobby, ids.lobby(session.id, "join"))
    await env.settle()
    [joined] = changes
    assert joined.shown and not joined.started and joined.session.state is None
    assert len([r for r in env.double.requests if r.method == "PATCH"]) == edits    # the answer drew it

    changes.clear()
    await env.double.slash(env.ann, env.channel, "stop")            # the host closes the lobby
    await env.settle()
    [closed] = changes
    assert closed.ended and not closed.shown
    lobby_edits = [r for r in env.double.requests if r.method == "PATCH" and str(session.messages["lobby"]) in r.path]
    assert lobby_edits                                              # the writer redrew the lobby, closed
