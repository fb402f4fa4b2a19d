"""Issue 14: what a move costs on Discord's routes, counted request by request on a short scripted
Calcory game. Channel routes share Discord's global limit of 50 requests per second; interaction
routes (the callback and the interaction's webhook: follow-ups, @original) do not."""

from __future__ import annotations

from bench.budget import CHANNEL, INTERACTION, route_class
from bench.load import route
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory


def _since(env, start: int) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {CHANNEL: [], INTERACTION: []}
    for record in list(env.double.requests)[start:]:
        out.setdefault(route_class(record.path), []).append(f"{record.method} {route(record.path)}")
    return out


async def test_a_scripted_game_sends_its_moves_through_the_interactions(env):
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    first = drive.active
    steps = {}

    nine = drive.face_down(9)
    start = len(env.double.requests)
    await drive.flip(nine)
    steps["flip"] = _since(env, start)

    start = len(env.double.requests)
    await drive.flip(drive.face_down(8, avoid=(nine,)))
    steps["bust"] = _since(env, start)

    second = drive.active
    assert second != first
    start = len(env.double.requests)
    await drive.open_hand(second)
    await env.settle()
    steps["hand"] = _since(env, start)

    nine = drive.face_down(9)
    start = len(env.double.requests)
    await drive.flip(nine)
    steps["flip2"] = _since(env, start)

    start = len(env.double.requests)
    await drive.flip(drive.face_down(8, avoid=(nine,)))
    steps["bust2"] = _since(env, start)
    assert drive.active == first

    callback, patch, edit = "POST /interactions/*/*/callback", "PATCH /channels/*/messages/*", \
        "PATCH /webhooks/*/*/messages/@original"
    follow_up, deleted = "POST /webhooks/*/*", "DELETE /webhooks/*/*/messages/*"
    # The first flip updates the clicked table message in its answer; the other message (the turn
    # line) has no click's token yet: one channel edit.
    assert steps["flip"] == {CHANNEL: [patch], INTERACTION: [callback]}
    # The bust passes the turn: the ping goes as a follow-up of the click; the previous ping was
    # posted in the channel at the start (no click of the game yet), so it is deleted there.
    assert steps["bust"] == {CHANNEL: [patch, "DELETE /channels/*/messages/*"], INTERACTION: [callback, follow_up]}
    # The Hand click is acknowledged on the table message, the hand comes as a follow-up.
    assert steps["hand"] == {CHANNEL: [], INTERACTION: [callback, follow_up]}
    # From now on the other table message is edited through that click's token, and the ping
    # that went as a follow-up is deleted through its token: no channel route at all.
    assert steps["flip2"] == {CHANNEL: [], INTERACTION: [callback, edit]}
    # (and the open hand, now waiting, is redrawn through its own token)
    assert steps["bust2"] == {CHANNEL: [], INTERACTION: [callback, edit, "PATCH /webhooks/*/*/messages/*",
                                                         follow_up, deleted]}
    moves = len(session.history)
    channel = sum(len(step[CHANNEL]) for step in steps.values())
    assert (moves, channel) == (4, 3)
