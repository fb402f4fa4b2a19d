"""What the table writer keeps of a handled click for its token: not the message it was on."""

from __future__ import annotations

import gc

import discord

from bot.transport.clicked import ClickedMessage
from tests.e2e.calcory_driver import CalcoryDriver, start_calcory


def _interactions(kept: object) -> list[discord.Interaction]:
    if isinstance(kept, discord.Interaction):
        return [kept]
    return [i for part in kept for i in _interactions(part)] if isinstance(kept, tuple) else []


def _holds_a_message(interaction: discord.Interaction) -> bool:
    held = [*gc.get_referents(interaction), *interaction.extras.values()]
    return any(isinstance(r, discord.Message | ClickedMessage) for r in held)


async def test_the_clicks_kept_for_their_tokens_hold_no_clicked_message(env):
    """The writer keeps about four clicks a table for up to 15 minutes (the newest on each table
    message, each open hand's, the ping's); each held the message clicked, parsed into an object per
    component, some 20 MB at a thousand tables. The tokens still edit the table and the hand."""
    session, _ = await start_calcory(env, ("ann", "bob"))
    drive = CalcoryDriver(env)
    first = drive.active
    nine = drive.face_down(9)
    await drive.flip(nine)
    await drive.flip(drive.face_down(8, avoid=(nine,)))
    await drive.open_hand(drive.active)
    await env.settle()
    table = env.bot.tables._tables[session.id]
    assert table.token is not None and table.editors and table.hands
    kept = _interactions((table.token, *table.editors.values(), *(hand.token for hand in table.hands.values())))
    assert len(kept) >= 3 and not [i for i in kept if _holds_a_message(i)]

    start = len(env.double.requests)
    nine = drive.face_down(9)
    await drive.flip(nine)
    await drive.flip(drive.face_down(8, avoid=(nine,)))
    await env.settle()
    assert drive.active == first
    sent = [f"{r.method} {r.path.rsplit('/', 1)[-1]}" for r in list(env.double.requests)[start:]
            if r.path.startswith("/webhooks/")]
    assert "PATCH @original" in sent, "the table was not edited through the kept click's token"
    assert any(s.startswith("PATCH ") and not s.endswith("@original") for s in sent), "nor the open hand"
