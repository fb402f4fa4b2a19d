"""A whole Da Capo! match through Discord by ann and bob: every move is clicked in a hand, the
channel never shows a hidden card, each game of the match is scored in public, and the result
reaches the leaderboard.

Piles of 5 cards and a target of 12 points (the lowest the lobby offers) keep the match to seven
short games, about 260 moves; with 20-card piles one game takes about 200 moves, and a match to 50
points a few thousand.
"""

from __future__ import annotations

import random

import pytest

from bot.ui.labels import seat_badge
from tests.e2e.game_driver import GameDriver


def greedy(session, seat: int) -> str:
    """Plays like a beginner: own pile first, then any build-pile play (never another player's pile),
    draws four when the hand ran empty, else lays the last offered card on a helper pile."""
    legal = session.game.legal_actions(session.state, seat)
    source = {a.key: a.arg.partition("@")[2].partition(">")[0] for a in legal if a.kind == "play"}
    own = [a for a in legal if source.get(a.key) == "pile"]
    plays = [a for a in legal if a.key in source and not source[a.key].startswith("pile:")]
    draws = [a for a in legal if a.kind == "draw"]
    discards = [a for a in legal if a.kind == "discard"]
    for group in (own, plays, draws, discards[-1:]):
        if group:
            return group[0].key
    return legal[0].key


@pytest.mark.long(seconds=5)
async def test_a_whole_match_two_players_nothing_hidden_goes_public(env):
    drive = GameDriver(env, "dacapo")
    session = await drive.start(["ann", "bob"], options={"pile_size": 5, "target": 12})
    bob = next(seat for seat in range(2) if drive.user_of(seat) is env.bob)
    hand = await drive.open_hand(bob)
    assert "**Deine Hand (4):**" in hand.text and "**Dein Stapel:**" in hand.text  # bob's client is German
    table = env.table_messages()[0].text
    assert "Da Capo! · game 1" in table and "First to 12 points" in table and "(5 left)" in table

    rng = random.Random(1)
    kinds: set[str] = set()
    while session.status == "playing":
        (seat,) = session.to_act()
        key = greedy(session, seat)
        await drive.play(seat, key)
        kinds.add(key.partition(":")[0])
        drive.check_channel_private(rng)
    assert kinds == {"play", "discard", "draw"}
    assert session.state.game_no == 7 and len(session.history) > 200

    texts = drive.public_texts()
    assert any("🏆" in text and "wins game 1!" in text for text in texts)
    scored = [m.text for m in env.public() if m.text.startswith("📋 **Da Capo!**: game")]
    assert len(scored) == 6 and "cards left in an opponent's pile" in scored[0]  # the 7th ends the match
    names = [seat.name for seat in session.seats]
    result = session.result()
    seat = next(iter(result.winners))
    winner = names[seat]
    assert f"🏁 The match is over. Winner: **{winner}**" in env.table_messages()[0].text
    summary = env.public()[-1].text
    assert summary.startswith(f"🏁 **Da Capo!** is over. Winner: **{seat_badge(seat)} {winner}**")
    board = (await env.double.slash(env.ann, env.channel, "leaderboard", game="dacapo")).message
    assert all(name in board.text for name in names)
