"""Whole Safarü games played through the Discord double by clicks, with the channel checked for leaks."""

from __future__ import annotations

import random

from bot.ui.labels import seat_badge
from tests.e2e.game_driver import GameDriver


async def test_a_two_player_game_is_played_to_the_end_and_keeps_the_hands_secret(env) -> None:
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob"])
    bob = next(seat for seat in range(2) if drive.user_of(seat) is env.bob)
    hand = await drive.open_hand(bob)
    assert hand.text.startswith("**Deine Karten:**")  # bob's client is German, the table is English
    assert "Free cards" in env.table_messages()[0].text

    rng = random.Random(11)
    moves = await drive.play_out(rng, check_every=3)
    assert session.status == "finished" and moves == len(session.history) == 40  # 2 players: 5 deals of 8
    drive.check_channel_private(rng)

    texts = drive.public_texts()
    assert any("🃏" in text and "round 5" in text for text in texts)  # the deals were announced
    assert any("🎯" in text for text in texts) and "🏁 The match is over." in env.table_messages()[0].text
    summary = env.public()[-1].text
    assert summary.startswith("🏁 **Safarü** is over.")
    names = [seat.name for seat in session.seats]
    assert "Triangles:" in summary and all(f"{seat_badge(seat)} {name}" in summary for seat, name in enumerate(names))
    board = (await env.double.slash(env.ann, env.channel, "leaderboard", game="safaru")).message
    assert all(name in board.text for name in names)


async def test_four_players_in_teams_see_each_game_of_a_match_scored(env) -> None:
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob", "cem", "dia"], options={"match_target": 300})
    rng = random.Random(4)
    await drive.play_out(rng, until=lambda s: s.state.game_no == 2, check_every=8)
    drive.check_channel_private(rng)
    names = [seat.name for seat in session.seats]
    teams = [f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"]
    scored = next(m.text for m in env.public() if m.text.startswith("📋 **Safarü**: game 1 is scored."))
    assert all(f"• {team}: Baby animals (0s):" in scored for team in teams)
    table = env.table_messages()[0].text
    assert "game 2 · round 1 of 3" in table and "🏆 **Match to 300:**" in table
    assert all(f"**{team}**" in table for team in teams)


async def test_partners_of_a_finished_team_game_are_rated_as_a_team(env) -> None:
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann", "bob", "cem", "dia"])
    await drive.play_out(random.Random(6))
    assert session.status == "finished"
    rows = await env.bot.storage.results(session.id)
    assert [row.team for row in rows] == [0, 1, 0, 1]
    board = await env.bot.storage.rating_board(int(env.guild.id), "safaru")
    rating = {row.user_id: row.ordinal for row in board.rows}
    ours, theirs = ([rating[rows[k].user_id] for k in side] for side in ((0, 2), (1, 3)))
    assert ours[0] == ours[1] and theirs[0] == theirs[1]      # partners move together
    assert (ours[0] > theirs[0]) == (rows[0].rank < rows[1].rank) and rows[0].rank != rows[1].rank
