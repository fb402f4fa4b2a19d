"""Whole Kapado games through Discord by ann, bob and cem: every move is clicked, the drawn card
stays with its drawer until it is placed, and a face-down card never reaches the channel (with the
peek house rule it shows in its owner's hand, and nowhere else)."""

from __future__ import annotations

import random
import re

import pytest

from bot.tables.kapado.presenter import label
from games.kapado.cards import KIND, NUMBER
from tests.double import visible_texts
from tests.e2e.game_driver import GameDriver


def shows(texts: list[str], card: str) -> bool:
    """Whether a card's label occurs in the texts (``🌸2`` must not match ``🌸24``)."""
    pattern = re.compile(re.escape(label(card)) + r"(?!\d)")
    return any(pattern.search(text) for text in texts)


def now_public(drive: GameDriver) -> list[str]:
    return [text for message in drive.env.public(drive.channel) for text in visible_texts(message.payload)]


def secrets(session) -> tuple[str | None, set[str]]:
    """The number card only its drawer may see (if any), and every face-down card. (A drawn wish card
    looks like every other one; ``check_channel_private`` proves the table does not tell it apart.)"""
    state = session.state
    drawn = state.drawn if state.drawn is not None and not state.from_wish else None
    return (drawn if drawn is not None and KIND[drawn] == NUMBER else None), set(state.face_down)


def player(rng: random.Random):
    """Plays like a person: builds face up when it can, tries an unlock now and then, mostly draws again."""
    def choose(session, seat: int):
        legal = session.game.legal_actions(session.state, seat)
        kinds = {action.kind for action in legal}
        if "unlock" in kinds and rng.random() < 0.15:
            kinds = {"unlock"}
        elif "draw" in kinds:
            kinds = {"draw" if rng.random() < 0.8 else "stop"}
        elif "take" in kinds and rng.random() < 0.7:
            kinds = {"take"}
        else:
            kinds = {"up"} if "up" in kinds else kinds - {"unlock"} or kinds
        return rng.choice([action for action in legal if action.kind in kinds])
    return choose


async def play_checked(drive: GameDriver, rng: random.Random, hands: bool = False) -> tuple[set[str], set[str]]:
    """Random legal moves by clicks to the end; after each, nothing secret is public. Returns the
    kinds of moves made and every card that was ever face down."""
    session = drive.session
    kinds: set[str] = set()
    choose, check_rng = player(rng), random.Random(0)
    ever_down: set[str] = set()
    shown_down: set[str] = set()
    while session.status == "playing":
        (seat,) = session.to_act()
        action = choose(session, seat)
        placed = session.state.drawn if action.kind in ("up", "unlock") else None
        await drive.play(seat, action.key)
        kinds.add(action.kind)
        public = now_public(drive)
        if placed is not None:
            assert shows(public, placed), f"{placed} was placed face up but the table does not say so"
        drawn, down = secrets(session)
        ever_down |= down
        assert drawn is None or not shows(public, drawn), f"the drawn card {drawn} is public"
        assert not any(shows(public, card) for card in down), "a face-down card is public"
        if hands and down != shown_down:
            await check_hands(drive, down)
            shown_down = down
        drive.check_channel_private(check_rng)
    return kinds, ever_down


async def check_hands(drive: GameDriver, down: set[str]) -> None:
    """With the peek rule a face-down top card shows in its owner's hand; no face-down card ever
    shows in another player's hand (a buried one shows nowhere: stacks show their tops)."""
    session, per = drive.session, drive.session.state.per_seat
    where = {card: (k // per, card == stack[-1])
             for k, stack in enumerate(session.state.stacks) for card in stack if card in down}
    for seat in range(len(session.seats)):
        texts = visible_texts((await drive.open_hand(seat)).payload)
        for card, (owner, top) in where.items():
            assert shows(texts, card) == (owner == seat and top), f"face-down {card} of {owner} in {seat}'s hand"


async def test_a_whole_game_three_players_nothing_hidden_goes_public(env):
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"])
    rng = random.Random(13)  # a game that leaves cards face down at the end
    kinds, ever_down = await play_checked(drive, rng)

    assert session.status == "finished"
    assert kinds >= {"up", "down", "unlock", "draw", "stop"} and kinds & {"take", "keep"}
    # Over the whole history of every public message: cards still face down were never shown.
    still_down = set(session.state.face_down)
    assert still_down and still_down <= ever_down
    assert not any(shows(drive.public_texts(), card) for card in still_down)
    drive.check_channel_private(rng)

    summary = env.public()[-1].text
    names = {seat.name for seat in session.seats}
    assert "🏁 **Kapado** is over." in summary and all(name in summary for name in names)
    board = (await env.double.slash(env.cem, env.channel, "leaderboard", game="kapado")).message
    assert all(name in board.text for name in names)


@pytest.mark.long(seconds=5)
async def test_peeking_two_games_each_with_its_breakdown(env):
    drive = GameDriver(env, "kapado")
    session = await drive.start(["ann", "bob", "cem"], options={"owner_may_peek": True, "games": 2, "stacks": 3})
    bob = next(seat for seat in range(3) if drive.user_of(seat) is env.bob)
    hand = await drive.open_hand(bob)
    assert "Deine Stapel" in hand.text                      # bob's hand follows his German locale
    rng = random.Random(2)
    kinds, ever_down = await play_checked(drive, rng, hands=True)

    assert session.status == "finished" and ever_down and "down" in kinds
    breakdowns = [m.text for m in env.public() if m.text.startswith("📋 **Kapado**")]
    assert len(breakdowns) == 1                              # game 1; game 2 is in the closing summary
    assert "Game 2 of 2" not in breakdowns[0] and "cards on their stacks" in breakdowns[0]
