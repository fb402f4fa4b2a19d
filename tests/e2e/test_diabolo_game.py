"""A whole Diabolo round through Discord by ann, bob and cem: hidden cards never reach the channel,
and nobody learns another player's doubler choice before all choices are revealed together."""

from __future__ import annotations

import random

from bot.tables.diabolo.presenter import PRESENTER as SHOW
from bot.tables.diabolo.presenter import colour as colour_name
from bot.transport import ids
from bot.ui.movelog import move_log
from games.diabolo.state import DOUBLER
from tests.double import custom_ids, visible_texts
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


def angels_first(rng: random.Random):
    """Mostly angel-side placements, so that some colour pays and the doublers are asked for."""
    def policy(session, seat: int) -> str:
        keys = [a.key for a in session.game.legal_actions(session.state, seat)]
        angel = [key for key in keys if key.startswith("angel:")]
        return rng.choice(angel if angel and rng.random() < 0.8 else keys)
    return policy


def shown(message) -> tuple:
    return visible_texts(message.payload), custom_ids(message.payload)


def rendered(rendering) -> tuple:
    body = kit.body(rendering)
    return visible_texts(body), custom_ids(body)


async def choose_in_secret(drive: GameDriver, seat: int, key: str, other_key: str) -> None:
    """``seat`` chooses ``key``; the channel and every other open hand then look exactly as they
    would after ``other_key``, the opposite choice."""
    session = drive.session
    alternative = kit.snapshot(session)
    kit.play(alternative, seat, other_key)
    await drive.play(seat, key)
    [table] = drive.env.table_messages()
    line = "\n".join(move_log(alternative, session.lang, SHOW))      # the whole move log reads the same
    assert shown(table) == rendered(SHOW.table(alternative, session.lang, line)[0])
    assert "Doublers on" not in "\n".join(drive.public_texts())
    for other in range(3):
        if other != seat:
            hand = drive.hand_message(other)
            assert hand is not None
            assert shown(hand) == rendered(SHOW.hand(alternative, other, drive.lang_of(other), "", None))
    drive.check_channel_private()


async def test_a_round_with_a_secret_doubler_choice_three_players(env):
    drive = GameDriver(env, "diabolo")
    session = await drive.start(["ann", "bob", "cem"], options={"rounds": 1})
    rng = random.Random(6)
    policy = angels_first(rng)

    # The placing phase: random legal moves by clicks, the channel checked as it goes.
    await drive.play_out(rng, until=lambda s: s.state.phase == DOUBLER, policy=policy, check_every=4)
    assert session.state.phase == DOUBLER and session.to_act() == {0, 1, 2}
    drive.check_channel_private()
    colour = session.game.view(session.state, None).deciding
    for seat in range(3):
        hand = await drive.open_hand(seat)
        assert {ids.parse(cid).arg for cid in hand.custom_ids} == {f"doubler:{colour}", "doubler:none"}

    # Two secret choices: nothing public or in another hand tells them apart from the opposite ones.
    await choose_in_secret(drive, 0, f"doubler:{colour}", "doubler:none")
    assert "✅" in env.table_messages()[0].text
    await choose_in_secret(drive, 1, "doubler:none", f"doubler:{colour}")
    assert not drive.hand_message(1).custom_ids

    # The last choice reveals all of them at once.
    await drive.play(2, "doubler:none")
    names = [seat.name for seat in session.seats]
    assert f"Doublers on {colour_name('en', colour)}: {names[0]}." in env.table_messages()[0].text

    # The rest of the round (further doubler choices included), then its breakdown and the result.
    await drive.play_out(rng, check_every=3)
    assert session.status == "finished"
    texts = [message.text for message in env.public()]
    assert any(text.startswith("📋 **Diabolo**: round 1 is scored.") for text in texts)
    assert texts[-1].startswith("🏁 **Diabolo** is over.")
    board = (await env.double.slash(env.ann, env.channel, "leaderboard", game="diabolo")).message
    assert all(name in board.text for name in names)

