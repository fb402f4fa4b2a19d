"""A whole Mü hand through Discord by ann, bob, cem and dia: a two-card bid picked in the hand, the
Vize and Chef trumps, the partner, a card refused for not following suit with its reason in the
hand, the tricks to the end, and the hand's summary, with no face-down card ever in the channel."""

from __future__ import annotations

import random

from bot.i18n import t
from bot.transport import ids
from bot.ui.cards import label, symbol
from games.base import Action, IllegalAction
from games.deck import colour, digit
from games.mu import bid_action
from tests.e2e.game_driver import GameDriver
from tests.ui import kit


def public_labels(session) -> set[str]:
    """Labels of every card the table has shown this hand: laid out in the auction, or played."""
    out = set()
    for events in session.events_from(0):
        for event in events:
            if event.to is None and event.kind == "bid":
                out |= {label(card) for card in event.data["cards"]}
            elif event.to is None and event.kind == "play":
                out.add(label(event.data["card"]))
    return out


def check_no_hidden_label(drive: GameDriver) -> None:
    """No public text shows the label of a card that lies face down and was never shown or played
    (the two copies of a 1 or 7 share a label, so a label counts as public once either copy was)."""
    session = drive.session
    hidden = {label(card) for cards in session.state.hidden for card in cards} - public_labels(session)
    assert hidden, "the check needs face-down cards whose look was never public"
    texts = "\n".join(drive.public_texts())
    assert not [name for name in hidden if name in texts]


def refusal_of(session, seat: int, key: str) -> IllegalAction:
    try:
        session.game.check(session.state, seat, Action.parse(key))
    except IllegalAction as refusal:
        return refusal
    raise AssertionError(f"{key} was legal")


async def test_a_whole_hand_from_start_to_summary_with_a_refused_card(env) -> None:
    drive = GameDriver(env, "mu")
    session = await drive.start(["ann", "bob", "cem", "dia"])
    names = [seat.name for seat in session.seats]
    dealer = session.state.dealer
    chef, third, fourth = ((dealer + k) % 4 for k in (1, 2, 3))
    table = env.table_messages()[0]
    assert f"🃏 Dealer **{names[dealer]}**" in table.text and f"▶ **{names[dealer]}** bids" in table.text

    # The auction: the dealer lays out one card, the next player two (picked card by card), all pass.
    single = session.state.hidden[dealer][0]
    await drive.play(dealer, f"bid:{single}")
    pair = list(session.state.hidden[chef][3:5])
    record = await drive.play(chef, bid_action(pair).key)
    laid_out = " ".join(label(c) for c in pair)
    # The hand shows them marked face up, each once.
    assert record.message.ephemeral and all(
        record.message.text.count(f"👁️{label(c)}") == laid_out.split().count(label(c)) for c in pair)
    table = env.table_messages()[0]
    assert f"laid out 1: {label(single)}" in table.text and f"laid out 2: {laid_out}" in table.text
    drive.check_channel_private()
    check_no_hidden_label(drive)
    for seat in (third, fourth, dealer, chef):
        await drive.play(seat, "pass")
    view = session.game.view(session.state, None)
    assert (view.chef, view.vize, view.phase) == (chef, dealer, "vize_trump")

    # Vize names the colour of the card laid out, the Chef a digit of its own; then the partner.
    await drive.play(dealer, f"trump:{colour(single)}")
    chef_digit = str(digit(pair[0]))
    await drive.play(chef, f"trump:{chef_digit}")
    await drive.play(chef, f"partner:{third}")
    table = env.table_messages()[0]
    vize_trump = t("en", f"cards.colour.{colour(single)}")
    assert f"Trumps: {chef_digit}s over {symbol(colour(single))} {vize_trump}" in table.text
    assert f"🤝 Partner **{names[third]}**" in table.text and "🎯 Team goal: **32** triangles" in table.text

    # Tricks: the first legal card until a player holds a card that does not follow; that card is refused.
    while True:
        seat = next(iter(session.to_act()))
        view = session.game.view(session.state, seat)
        wrong = [card for card in view.hand if card not in view.playable]
        if view.trick and wrong:
            break
        await drive.play(seat, f"play:{view.playable[0]}")
    refusal = refusal_of(session, seat, f"play:{wrong[0]}")
    before = session.counters[seat]
    click = kit.Click(ids.move(session.id, seat, before, f"play:{wrong[0]}"))
    record = await drive.attempt(seat, [click])
    assert session.counters[seat] == before and refusal.reason.startswith("mu.must_follow.")
    assert t(drive.lang_of(seat), refusal.reason) in record.message.text
    hand = record.message
    assert hand.has_component(ids.move(session.id, seat, before, f"play:{view.playable[0]}"))
    drive.check_channel_private()
    check_no_hidden_label(drive)

    # The rest of the hand by random legal moves, then the summary in the channel.
    rng = random.Random(3)
    await drive.play_out(rng, until=lambda s: s.state.hand_no == 2, check_every=10)
    assert session.status == "playing" and session.state.hand_no == 2
    drive.check_channel_private(rng)
    summary = next(m.text for m in env.public() if m.text.startswith("📋 **Mü**: hand 1 is scored."))
    assert all(f"• {name}: Triangles in " in summary for name in names)
    assert "Team goal" in summary and "Totals: " in summary
    table = env.table_messages()[0]
    assert "## 🎴 Mü · hand 2" in table.text and f"🃏 Dealer **{names[chef]}**" in table.text
