"""Discord requests per accepted move, per route class and per game (docs/requests.md).

Channel routes (posting, editing, deleting channel messages) share Discord's global limit of 50
requests per second per bot; interaction responses and follow-ups (the interaction's own webhook
routes) do not. Every game is played here from the start to the end (or a move cap) by two people,
the other seats computer players, against the Discord double with the bot in this process on a
manual clock: the counts depend on what the bot sends per move, not on timing. The people play as
the scenario driver does: a move in the hand opens the hand from the table first, so a click's token
on the table is always fresh (a table whose players keep one hand open for more than 14 minutes
has its table edited over the channel route again). Counting starts once the table is posted, so
the table's own post is not a move's cost.
"""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import games
from bot.play.clock import ManualClock
from bot.play.sessions import Status
from bot.registry import playable
from tests.double import DiscordDouble
from tests.e2e.game_driver import GameDriver
from tests.e2e.harness import Env

#: The seats of a measured game: four, or the game's most if fewer; two of them people.
SEATS, PEOPLE = 4, 2
CHANNEL, INTERACTION, OTHER = "channel", "interaction", "other"


def route_class(path: str) -> str:
    """Which budget a request path counts against (paths without the ``/api/v10`` prefix)."""
    if path.startswith(("/interactions/", "/webhooks/")):
        return INTERACTION
    if path.startswith("/channels/"):
        return CHANNEL
    return OTHER


def tally(requests) -> dict[str, int]:
    counts = {CHANNEL: 0, INTERACTION: 0, OTHER: 0}
    for record in requests:
        counts[route_class(record.path)] += 1
    return counts


@dataclass(frozen=True)
class GameCount:
    game: str
    seats: int
    moves: int              # every accepted move, computer moves included
    computer_moves: int
    channel: int
    interaction: int

    @property
    def channel_per_move(self) -> float:
        return self.channel / self.moves

    @property
    def interaction_per_move(self) -> float:
        return self.interaction / self.moves


async def count_game(key: str, workdir: Path, max_moves: int, seed: int = 1) -> GameCount:
    """One game of ``key`` played through the double; its requests from the posted table on."""
    clock = ManualClock()
    double = DiscordDouble(clock=clock)
    guild = double.add_guild("budget")
    channel = double.add_text_channel(guild, key)
    users = {name: double.add_user(name) for name in ("ann", "cem")}
    for user in users.values():
        double.add_member(guild, user)
    seats = min(SEATS, games.REGISTRY[key].max_players)
    monkeypatch = pytest.MonkeyPatch()
    await double.start()
    env = Env(double, guild, channel, None, users, workdir / f"{key}.sqlite3", clock, monkeypatch)
    try:
        await env.start_bot()
        drive = GameDriver(env, key)
        session = await drive.start(list(users), computers=seats - PEOPLE)
        await env.settle()
        start, moves_before = len(double.requests), len(session.history)
        rng = random.Random(f"budget:{key}:{seed}")
        computer_moves = 0
        while session.status is Status.PLAYING and len(session.history) - moves_before < max_moves:
            computer_moves += await drive.let_computers_move()
            people = [s for s in sorted(session.to_act()) if not session.seats[s].played_by_computer]
            if session.status is not Status.PLAYING or not people:
                continue
            seat = rng.choice(people)
            await drive.play(seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        await env.settle()
        counts = tally(list(double.requests)[start:])
        return GameCount(key, seats, len(session.history) - moves_before, computer_moves,
                         counts[CHANNEL], counts[INTERACTION])
    finally:
        await env.stop_bot()
        await double.stop()
        monkeypatch.undo()


async def count_games(max_moves: int, parent: Path | None = None) -> list[GameCount]:
    with tempfile.TemporaryDirectory(prefix="spieltisch-budget-", dir=parent) as workdir:
        return [await count_game(key, Path(workdir), max_moves) for key in playable()]
