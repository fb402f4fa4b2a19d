"""What every game's table and hand must do, checked on many seeded random positions of every game
with a presenter: every legal move can be clicked, nothing hidden shows, Discord accepts every
message, and the public line about a move uses only public events."""

from __future__ import annotations

import random

import pytest

import games
from bot.play.sessions import Status
from bot.registry import playable, presenter
from bot.ui.autoplay import deadline_line
from bot.ui.movelog import LENGTH, LINE_CHARS, MoveLog
from tests.ui import kit

#: Positions per (game, player count); each is checked from every seat that may act.
POSITIONS = 6
#: How far apart the checked positions lie (random moves between them).
STRIDE = {"calcory": 3, "mu": 9, "safaru": 4, "rummu": 7, "dacapo": 11, "skippo": 11, "kapado": 9,
          "diabolo": 5}


def _cases():
    for key in playable():
        game = games.REGISTRY[key]
        for players in range(game.min_players, game.max_players + 1):
            yield pytest.param(key, players, id=f"{key}-{players}")


def _positions(key: str, players: int):
    """A seeded random walk through one game, yielding the position and the move that led to it."""
    rng = random.Random(f"{key}:{players}")
    session = kit.make_session(key, players, seed=f"walk-{key}-{players}")
    events: list = []
    for _ in range(POSITIONS):
        yield session, events, rng
        if session.status is not Status.PLAYING:
            return
        events = kit.random_walk(session, rng, STRIDE.get(key, 5))


@pytest.mark.parametrize(("key", "players"), list(_cases()))
def test_every_legal_move_can_be_clicked(key: str, players: int) -> None:
    for session, _, _ in _positions(key, players):
        for seat in sorted(session.to_act()):
            legal = {action.key for action in session.game.legal_actions(session.state, seat)}
            offered = kit.reachable(session, seat)
            missing = sorted(legal - offered)
            for action in missing[:50]:
                assert kit.hand_path(session, seat, action) is not None, \
                    f"{key}: seat {seat} cannot click {action!r}"


@pytest.mark.parametrize(("key", "players"), list(_cases()))
def test_renderings_are_private_and_within_discord_limits(key: str, players: int) -> None:
    show = presenter(key)
    for session, events, rng in _positions(key, players):
        for lang in ("en", "de"):
            log = MoveLog().lines(session, lang, lambda moved, s=session, lang=lang: show.describe(s, moved, lang))
            assert len(log) <= LENGTH and all(len(line) <= LINE_CHARS and "\n" not in line for line in log)
            # The log as it stands, and the longest one the table may ever carry (with a deadline).
            longest = "\n".join(["W" * LINE_CHARS] * LENGTH + [deadline_line(lang, 4e9)])
            for last in ("\n".join(log) or None, longest):
                tables = show.table(session, lang, last)
                assert len(tables) == show.table_messages
                for rendered in tables:
                    kit.check_limits(rendered)
            for seat in range(players):
                for ui in kit.hand_states(session, seat, lang)[:30]:
                    kit.check_limits(show.hand(session, seat, lang, ui, "notice"), ephemeral=True)
        kit.check_private(session, rng)
        kit.check_public_lines(session, events)


@pytest.mark.parametrize("key", playable())
def test_a_stale_or_unknown_hand_step_shows_the_plain_hand(key: str) -> None:
    show = presenter(key)
    session = kit.make_session(key, games.REGISTRY[key].min_players)
    plain = kit.body(show.hand(session, 0, "en", "", None))
    for ui in ("nonsense", "card:zz9", "x:y:z", "|", "card:"):
        assert kit.body(show.hand(session, 0, "en", ui, None))["components"] is not None
    assert kit.body(show.hand(session, 0, "en", "", None)) == plain


@pytest.mark.parametrize("key", playable())
def test_the_table_offers_the_hand_to_everyone(key: str) -> None:
    from bot.transport import ids

    session = kit.make_session(key, games.REGISTRY[key].min_players)
    hand = ids.table(session.id, "hand")
    assert any(hand in kit.body(r).__repr__() for r in presenter(key).table(session, "en", None))
