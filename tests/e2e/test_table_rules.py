"""Issue 25: every table has a Rules button beside Hand; a click shows the game's rules summary only to
the clicker, in the clicker's language, with what the clicker may do right now in one line."""

from __future__ import annotations

import pytest

import games
from bot.i18n import language, t
from bot.transport import ids
from bot.ui.rules import move_phrase
from tests.e2e.game_driver import GameDriver


@pytest.mark.parametrize("key", sorted(games.REGISTRY))
async def test_the_rules_button_shows_the_rules_and_the_readers_moves_privately(env, key):
    drive = GameDriver(env, key)
    game = games.REGISTRY[key]
    session = await drive.start(["ann", "bob"], computers=max(game.min_players - 2, 0))
    await drive.let_computers_move()
    rules = ids.table(session.id, "rules")
    tables = env.table_messages()
    table = next(m for m in tables if rules in m.custom_ids)
    if key != "calcory":        # Calcory's second message is full: its Rules button is on the first
        assert table.custom_ids[-2:] == [ids.table(session.id, "hand"), rules]
    before = len(env.public())
    for name in ("ann", "bob", "cem"):
        user = env.users[name]
        lang = language(user.locale)
        record = await env.double.click(user, table, rules)
        assert record.ephemeral and record.message.ephemeral
        text = record.message.text
        assert text.startswith(t(lang, f"{key}.ui.rules"))
        seat = session.seat_of(int(user.id))
        if seat is not None and seat in session.to_act():
            kinds = dict.fromkeys(a.kind for a in game.legal_actions(session.state, seat))
            assert t(lang, "table.rules_yours", moves="").split(":")[0] in text
            assert all(move_phrase(key, kind, lang) in text for kind in kinds)
        else:
            names = ", ".join(session.seats[s].name for s in sorted(session.to_act()))
            assert text.endswith(t(lang, "table.rules_waiting", names=names))
    assert len(env.public()) == before, "the rules went to the clicker only"


async def test_after_the_match_hand_is_off_and_the_final_table_offers_a_rematch(env):
    """The finished table's button beside Hand is no longer Rules (a finished table answers no click)
    but Rematch, the closing message's button: clicked on the table, it opens the same lobby."""
    drive = GameDriver(env, "safaru")
    session = await drive.start(["ann"], computers=1)
    await drive.let_computers_move()
    while session.status.value == "playing":
        seat = next(iter(session.to_act()))
        await drive.play(seat, session.game.legal_actions(session.state, seat)[0].key)
        await drive.let_computers_move()
    await env.settle()
    (table,) = env.table_messages()
    buttons = {c["custom_id"]: c for row in table.components[0]["components"] if row["type"] == 1
               for c in row["components"]}
    assert buttons[ids.table(session.id, "hand")]["disabled"] and ids.table(session.id, "rules") not in buttons
    rematch = buttons[ids.rematch(session.id)]
    assert rematch["label"] == "Rematch" and not rematch.get("disabled")
    opened = await env.double.click(env.ann, table, ids.rematch(session.id))
    await env.settle()
    lobby = env.session()
    assert lobby is not session and lobby.status.value == "lobby" and lobby.host_id == int(env.ann.id)
    assert opened.message is not None and lobby.messages["lobby"] == int(opened.message.id)
