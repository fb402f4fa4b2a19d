"""A whole Calcory game by three simulated users, from /start to /leaderboard."""

import asyncio
import re

from bot.ui.labels import seat_badge
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory


async def test_whole_game_three_players_then_leaderboard(env):
    session, lobby = await start_calcory(env)
    drive = CalcoryDriver(env)
    first, second = drive.active, (drive.active + 1) % 3
    assert "has started" in lobby.text and not lobby.custom_ids

    # Turn 1: a hit on 13; two simultaneous clicks on the same card apply once.
    a, b = drive.pair_to(13)
    flip_a = drive.flip_id(a)
    message = drive.message_with(flip_a)
    user = drive.user_of(first)
    await asyncio.gather(env.double.click(user, message, flip_a), env.double.click(user, message, flip_a))
    await env.settle()
    assert session.counters[first] == 1 and session.state.flips != []
    await drive.flip(b)
    assert session.state.phase == "return" and len(session.state.hands[first]) == 2
    await drive.put_back()
    assert len(session.state.hands[first]) == 1 and drive.active == second

    # Turn 2: a low pair, stopped and marked.
    for slot in drive.pair_to(3):
        await drive.flip(slot)
    await drive.stop()
    assert session.state.owner == second and len(session.state.marks) == 2

    # Turn 3: another hit clears the marked set.
    for slot in drive.pair_to(13):
        await drive.flip(slot)
    await drive.put_back()
    assert session.state.owner == -1 and drive.active == first

    # Turn 4: the first player marks a single 9; nobody beats it.
    await drive.flip(drive.face_down(9))
    await drive.stop()
    for slot in drive.pair_to(3):
        await drive.flip(slot)
    await drive.stop()
    await drive.flip(drive.face_down(0))
    await drive.stop()

    # The walkover of a single card ends the game: 2 cards beat 1 and 0.
    assert session.status == "finished"
    names = [seat.name for seat in session.seats]
    summary = env.public()[-1]
    assert f"Winner: **{seat_badge(first)} {names[first]}**" in summary.text
    assert all(not m.custom_ids or all("flip" not in c for c in m.custom_ids if not m.component(c).get("disabled"))
               for m in env.table_messages())

    board = (await env.double.slash(env.cem, env.channel, "leaderboard", game="calcory", by="wins")).message
    lines = board.text.splitlines()
    assert f"**1.** {names[first]}: 1 of 1 won (100 %)" in lines
    assert any(f"{names[second]}: 0 of 1 won (0 %)" in line for line in lines)
    rated = (await env.double.slash(env.cem, env.channel, "leaderboard", game="calcory")).message
    lines = rated.text.splitlines()           # one game each: all provisional, the winner on top
    assert lines[1] == "Provisional, fewer than 5 rated games:" and lines[2].startswith(f"· {names[first]}: ")


async def test_an_open_hand_follows_the_game_through_the_newest_token(env):
    """A walkover starts the owner's return while their hand is open: the hand shows it at once."""
    session, _ = await start_calcory(env, ("ann", "cem"))
    drive = CalcoryDriver(env)
    owner = drive.active
    for slot in drive.pair_to(3):
        await drive.flip(slot)
    await drive.stop()
    hand = await drive.open_hand(owner)
    assert "is playing" in hand.text and not hand.custom_ids
    for slot in drive.pair_to(3):               # the same sum from as many cards does not beat the mark
        await drive.flip(slot)
    await drive.stop()
    assert session.state.phase == "return" and drive.active == owner
    await env.double.wait_until(lambda: "Pick the card that goes back" in hand.text, what="the hand to refresh")
    assert hand.custom_ids                      # the return selects are there without a click


async def _bust_with_nines(drive: CalcoryDriver) -> tuple[str, str]:
    """The active player flips two 9s: 18, over 13."""
    x = drive.face_down(9)
    y = drive.face_down(9, avoid=(x,))
    await drive.flip(x)
    await drive.flip(y)
    return x, y


def _button(drive: CalcoryDriver, slot: str) -> dict:
    custom_id = drive.flip_id(slot)
    return drive.message_with(custom_id).component(custom_id)


async def test_a_bust_lies_open_for_everyone_until_the_next_players_first_click(env):
    """D16 (docs/rules-decisions.md): the card that broke the turn shows on the table; the next click turns it
    down and no message of the channel keeps its digit."""
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    buster = drive.active
    x, y = await _bust_with_nines(drive)
    assert drive.active != buster
    text = env.table_messages()[1].text
    assert f"💥 {session.seats[buster].name} went over 13." in text
    assert f"👀 {x} 9 · {y} 9 = **18** 💥 over 13. Face down again at the next move." in text
    for slot in (x, y):  # the busting card and the one before it, face up, and the next player may flip them
        button = _button(drive, slot)
        assert button["label"] == "9" and button["style"] == 4 and not button.get("disabled")

    low = drive.face_down(1, avoid=(x, y))
    await drive.flip(low)
    assert [_button(drive, slot)["label"] for slot in (x, y)] == [x, y]
    assert [label for m in env.public() for label in m.labels if label.isdigit()] == ["1"]
    # (mentions and jump links carry snowflakes, whose digits say nothing about any card)
    shown = [re.sub(r"<@\d+>|https://\S+", "", m.text) for m in env.public()]
    assert all("👀" not in text and f"{y} 9" not in text and "18" not in text for text in shown)
    assert "has flipped 1 = **1**" in env.table_messages()[1].text
