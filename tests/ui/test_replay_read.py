"""The replay read as a player reads it: every seat's hand under its owner's name without the label its
owner read ("Bob · Your hand (4): …" said Bob's hand was the reader's), and the step whose move ended
a hand shows how that hand was scored, as the channel saw it, where the table already shows the next
deal."""

from __future__ import annotations

import random

import pytest

from bot.registry import playable
from bot.replays.stepper import stepper
from bot.replays.steps import Player, Walked, position
from bot.ui.labels import seat_badge
from games import REGISTRY
from games.computer import choose

NAMES = ("Ann", "Bob", "Cem", "Dora")


def walked(key: str, seed: str, limit: int) -> Walked:
    game = REGISTRY[key]
    options = game.default_options()
    state, _ = game.begin(4, options, seed)
    rng = random.Random(seed)
    actions = []
    while not game.is_over(state) and len(actions) < limit:
        seat = min(game.to_act(state))
        move = choose(game, state, seat, "easy", rng)
        game.apply(state, seat, move)
        actions.append((seat, move))
    return Walked(game, 4, options, seed, actions)


def shown(match: Walked, step: int, lang: str, hands: bool = True, pictures: bool = True) -> str:
    seats = tuple(Player(name, 1000 + seat) for seat, name in enumerate(NAMES))
    at = position(match, step, match_id=5, guild_id=1, channel_id=2, lang=lang, seats=seats, pictures=pictures)
    return stepper(match, at, hands, lang, None).text


@pytest.mark.parametrize("key", playable())
@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_hand_stands_under_its_owner_without_the_owners_label(key, lang):
    match = walked(key, f"read-{key}", 12)
    heading = "**Everyone's hands**" if lang == "en" else "**Die Karten aller auf der Hand**"
    for pictures in (True, False):
        lines = shown(match, 10, lang, pictures=pictures).split(heading)[1].strip().splitlines()
        for seat, name in enumerate(NAMES):
            line = lines[seat]
            assert line.startswith(f"{seat_badge(seat)} **{name}** · "), line
            assert not any(word in line for word in ("Your", "Deine", ":**", "**:")), line


def test_the_move_that_ends_a_hand_shows_how_it_was_scored():
    match = walked("mu", "replay:mu", 160)
    second = match.starts[1].step
    english = shown(match, second, "en", hands=False)
    assert "📋 **Mü**: hand 1 is scored." in english.splitlines()
    assert english.index("hand 1 is scored") < english.index("## 🎴 Mü · hand 2")
    assert next(line for line in english.splitlines() if line.startswith("Totals: Ann "))
    german = shown(match, second, "de", hands=False)
    assert "Spiel 1" in german and "## 🎴 Mü · Spiel 2" in german
    assert "is scored" not in shown(match, second - 1, "en", hands=False)
    assert "is scored" not in shown(match, second + 1, "en", hands=False)
