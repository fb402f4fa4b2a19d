"""Whole Skippo games through Discord by ann and bob: every move (joker runs included) is clicked in
a hand, the channel never shows a hidden card, a won game reaches the leaderboard, and a stalled
game says so plainly.

The first match is one game with the default stock of ten (about 120 moves); the stalled one uses
stocks of eight, which this deal leaves stuck in its first game.
"""

from __future__ import annotations

import random

from bot.ui.labels import seat_badge
from tests.e2e.game_driver import GameDriver


def greedy(session, seat: int) -> str:
    """Plays like a beginner: stock first, then any build-pile play, then a joker run, then sets a
    stock joker aside; else lays the last offered card on a helper pile, or ends the turn."""
    legal = session.game.legal_actions(session.state, seat)
    own = [a for a in legal if a.kind == "play" and "@stock>" in a.arg]
    for kinds in (("play",), ("run",), ("aside",)):
        group = own or [a for a in legal if a.kind in kinds]
        if group:
            return group[0].key
    discards = [a for a in legal if a.kind == "discard"]
    return (discards[-1] if discards else legal[0]).key


async def play_checked(drive: GameDriver, rng: random.Random) -> set[str]:
    session, kinds = drive.session, set()
    while session.status == "playing":
        (seat,) = session.to_act()
        key = greedy(session, seat)
        await drive.play(seat, key)
        kinds.add(key.partition(":")[0])
        drive.check_channel_private(rng)
    return kinds


async def test_a_whole_game_two_players_nothing_hidden_goes_public(env):
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], options={"games": 1})
    bob = next(seat for seat in range(2) if drive.user_of(seat) is env.bob)
    assert "**Dein Zehnerstapel:**" in (await drive.open_hand(bob)).text
    assert "Skippo · game 1 of 1" in env.table_messages()[0].text

    kinds = await play_checked(drive, random.Random(2))
    assert kinds >= {"play", "run", "discard", "end"}
    result = session.result()
    assert result.winners and len(session.history) > 80
    names = [seat.name for seat in session.seats]
    seat = next(iter(result.winners))
    winner = names[seat]
    assert any(f"{winner}'s stock is empty." in text for text in drive.public_texts())
    summary = env.public()[-1].text
    assert summary.startswith(f"🏁 **Skippo** is over. Winner: **{seat_badge(seat)} {winner}**")
    assert "emptied the stock first" in summary
    board = (await env.double.slash(env.ann, env.channel, "leaderboard", game="skippo")).message
    assert all(name in board.text for name in names)


async def test_a_stalled_game_ends_the_match_without_a_winner(env):
    drive = GameDriver(env, "skippo")
    session = await drive.start(["ann", "bob"], options={"games": 2, "stock_size": 8})
    await play_checked(drive, random.Random(3))
    assert session.status == "finished" and not session.result().winners
    table = env.table_messages()[0].text
    assert "🏁 The match is over without a winner." in table
    assert any("⛔ Game 1 is stuck" in text for text in drive.public_texts())
    assert env.public()[-1].text.startswith("🏁 **Skippo** is over without a winner.")
