"""A whole Rummü hand played through the Discord double by three users, with the channel checked for
hidden cards, a combination the engine refuses, and the hand's score breakdown in public."""

from __future__ import annotations

import random
from itertools import combinations

from bot.i18n import t
from bot.tables.rummu.hand import ordered
from bot.transport import ids
from bot.ui.labels import seat_badge
from games.base import IllegalAction
from games.deck import colour, digit
from games.rummu.combos import YELLOW, classify, valid
from tests.e2e.game_driver import GameDriver
from tests.ui.kit import Click


def usefulness(card: str, hand: tuple[str, ...]) -> int:
    """How much ``card`` helps towards a combination: jokers most, then cards with neighbours."""
    if colour(card) == YELLOW:
        return 100
    score = 0
    for other in hand:
        if other == card:
            continue
        if digit(other) == digit(card) and colour(other) != colour(card):
            score += 2
        gap = abs(digit(other) - digit(card))
        if colour(other) in (colour(card), YELLOW) and gap in (1, 2):
            score += 3 - gap
    return score


def steady(session, seat: int) -> str:
    """A plain player: draw, lay the largest combination found, add where it fits, discard the least
    useful card. It goes out within a hand, where random moves may never end one."""
    keys = [action.key for action in session.game.legal_actions(session.state, seat)]
    if "take" in keys:
        return "take"
    melds = [key for key in keys if key.startswith("meld:")]
    if melds:
        return max(melds, key=len)
    adds = [key for key in keys if key.startswith("add:")]
    if adds:
        return adds[0]
    hand = session.state.hands[seat]
    return "discard:" + min(hand, key=lambda card: (usefulness(card, hand), card))


async def test_three_players_play_a_whole_hand_to_its_score_breakdown(env) -> None:
    drive = GameDriver(env, "rummu")
    session = await drive.start(["ann", "bob", "cem"])
    names = [seat.name for seat in session.seats]
    table = env.table_messages()[0]
    assert "## 🃏 Rummü · hand 1" in table.text and "**Displays**" in table.text
    assert all(f"{seat_badge(seat)} **{name}** · ✋ 9 · none yet (opens with 4 cards or more)" in table.text
               for seat, name in enumerate(names))

    # The first player draws, then picks three cards that are no combination: the engine says why.
    seat = session.state.turn
    await drive.play(seat, "take")
    drive.check_channel_private()
    hand = session.state.hands[seat]
    wrong = next(list(cards) for cards in combinations(hand, 3) if not valid(cards))
    try:
        classify(tuple(wrong))
    except IllegalAction as refusal:
        reason = t(drive.lang_of(seat), refusal.reason, **refusal.params)
    counter = session.counters[seat]
    before = len(session.history)
    await drive.attempt(seat, [
        Click(ids.hand_step(session.id, seat, counter, "p0"), tuple(wrong)),
        Click(ids.move(session.id, seat, counter, "meld:" + "".join(ordered(wrong)))),
    ])
    assert len(session.history) == before
    assert drive.hand_message(seat).text.startswith(reason)

    bob = next(s for s in range(3) if drive.user_of(s) is env.bob)
    rng = random.Random(3)
    moves = await drive.play_out(rng, until=lambda s: s.state.hand_no > 1, policy=steady, check_every=4)
    assert 0 < moves < 300 and session.state.hand_no == 2
    drive.check_channel_private(rng)
    bob_hand = await drive.open_hand(bob)
    assert bob_hand.text.startswith("**Deine Hand (")      # bob's client is German, the table English

    texts = drive.public_texts()
    went_out = next(text for text in texts if "went out: hand 1 is over." in text)
    winner = next(name for name in names if f"🎉 {name} went out" in went_out)
    assert any("laid out A:" in text for text in texts)
    scored = next(m.text for m in env.public() if m.text.startswith("📋 **Rummü**: hand 1 is scored."))
    assert f"• {winner}: Went out (+10)" in scored
    totals = session.game.view(session.state, None).totals
    assert scored.splitlines()[-1] == "Totals: " + " · ".join(f"{n} {p}" for n, p in zip(names, totals, strict=True))
    table = env.table_messages()[0].text
    assert "## 🃏 Rummü · hand 2" in table
    assert "🏆 Scores (match to 200): " + " · ".join(f"{seat_badge(s)} {n} {p}" for s, (n, p)
                                                    in enumerate(zip(names, totals, strict=True))) in table


async def test_four_players_in_teams_and_a_house_rule_from_the_lobby(env) -> None:
    drive = GameDriver(env, "rummu")
    session = await drive.start(["ann", "bob", "cem", "dia"], options={"yellow_is_colour": False})
    assert session.options.teams and not session.options.yellow_is_colour
    names = [seat.name for seat in session.seats]
    rng = random.Random(5)
    await drive.play_out(rng, until=lambda s: s.state.hand_no > 1, policy=steady, check_every=6)
    drive.check_channel_private(rng)
    totals = session.game.view(session.state, None).totals
    assert totals[0] == totals[2] and totals[1] == totals[3]
    teams = f"① {names[0]} & ③ {names[2]} {totals[0]} · ② {names[1]} & ④ {names[3]} {totals[1]}"
    assert f"🏆 Team scores (match to 500): {teams}" in env.table_messages()[0].text
    assert any(m.text.startswith("📋 **Rummü**: hand 1 is scored.") for m in env.public())
