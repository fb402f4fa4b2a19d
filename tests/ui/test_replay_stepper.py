"""The replay stepper of every game at its largest table: within Discord's limits at every kind of step
(the deal, the middle, a hand's start, the end; hands shown or not), with a jump select of at most 25
options that pages through the hands or turns, and the hands found where the games deal them."""

from __future__ import annotations

import random

import pytest

from bot.registry import playable, presenter
from bot.replays.stepper import PAGE, stepper
from bot.replays.steps import Player, Walked, position
from bot.transport import ids
from bot.ui.movelog import log_line
from games import REGISTRY
from tests.ui import kit


def walked(key: str, players: int, seed: int = 7, longest: int = 900) -> Walked:
    game = REGISTRY[key]
    options = game.default_options()
    rng = random.Random(seed)
    state, _ = game.begin(players, options, f"replay-{seed}")
    actions = []
    while not game.is_over(state) and len(actions) < longest:
        seat = rng.choice(sorted(game.to_act(state)))
        move = rng.choice(game.legal_actions(state, seat))
        game.apply(state, seat, move)
        actions.append((seat, move))
    return Walked(game, players, options, f"replay-{seed}", actions)


def at(match: Walked, step: int, lang: str = "en"):
    seats = tuple(Player(f"player with a long name {seat}", 1000 + seat) for seat in range(match.players))
    return position(match, step, match_id=123456789, guild_id=1, channel_id=2, lang=lang, seats=seats, pictures=True)


def jump_options(rendered) -> list[dict]:
    (jump,) = [c for c in kit.components(rendered) if c["type"] == 3]
    return jump["options"]


@pytest.mark.parametrize("key", playable())
def test_every_step_kind_fits_discords_limits(key):
    game = REGISTRY[key]
    match = walked(key, game.max_players)
    for step in sorted({0, 1, match.steps // 2, match.starts[-1].step, match.steps}):
        for hands in (False, True):
            for lang in ("en", "de"):
                rendered = stepper(match, at(match, step, lang), hands, lang, 1_764_350_000.0)
                kit.check_limits(rendered, ephemeral=True)
                assert len(rendered.text) <= 4000
                options = jump_options(rendered)
                assert 1 <= len(options) <= 25
                assert next(o for o in options if o["default"])["value"] == str(match.starts[match.start_of(step)].step)


def test_the_jump_pages_through_many_turns():
    """A Calcory match (one hand) is stepped by turns: more than a page of them pages the select, and a
    page option lands on the first turn of that page."""
    match = walked("calcory", 4, seed=0)
    assert len(match.starts) > 2 * PAGE
    first = stepper(match, at(match, 0), False, "en", None)
    options = jump_options(first)
    assert len(options) == PAGE + 1 and options[-1]["label"] == f"Later: {PAGE + 1}–{2 * PAGE} ▶"
    assert options[-1]["value"] == str(match.starts[PAGE].step)
    assert options[0]["label"].startswith("Turn 1 · ")
    middle = stepper(match, at(match, match.starts[PAGE].step), False, "en", None)
    options = jump_options(middle)
    assert options[0]["label"] == f"◀ Earlier: 1–{PAGE}" and options[0]["value"] == "0"
    assert options[1]["label"].startswith(f"Turn {PAGE + 1} · ") and options[1]["default"]
    assert len({o["value"] for o in options}) == len(options)


def test_hands_start_where_each_game_deals_them():
    """Mü's hands, Diabolo's rounds, Kapado's and Safarü's games begin at their deals (a Safarü game's
    redeals within it begin none); the label is the game's own word."""
    match = walked("diabolo", 3)
    assert [start.number for start in match.starts] == list(range(1, len(match.starts) + 1))
    assert len(match.starts) > 1 and match.starts[0].step == 0
    for start in match.starts[1:]:
        assert any(e.kind == "deal" and e.to is None for e in match.history[start.step - 1][2])
    labels = [o["label"] for o in jump_options(stepper(match, at(match, 0), False, "de", None))]
    assert labels == [f"Runde {n}" for n in range(1, len(match.starts) + 1)]
    safaru = walked("safaru", 2)
    redeals = [step for step, (_, _, events) in enumerate(safaru.history, 1)
               if any(e.kind == "deal" and e.data.get("deal", 1) > 1 for e in events)]
    assert redeals and not {start.step for start in safaru.starts if start.seat is None} & set(redeals)


def test_its_ids_carry_the_whole_state():
    match = walked("mu", 3)
    rendered = stepper(match, at(match, 5), True, "en", None)
    found = {c["custom_id"] for c in kit.components(rendered) if c["type"] in (2, 3)}
    assert found == {ids.replay(123456789, 5, True, op) for op in ("first", "back", "next", "last", "hands", "jump")}
    for custom_id in found:
        parsed = ids.parse_replay(custom_id)
        assert parsed is not None and (parsed.session, parsed.step, parsed.hands) == (123456789, 5, True)
    for junk in ("st:r:1:2:3:next", "st:r:01:2:1:next", "st:r:1:2:1:", "st:r:pick:x", "st:r:1:٣:0:next"):
        assert ids.parse_replay(junk) is None, junk
    assert ids.parse_replay(ids.replay_pick()) == ids.ReplayId(session=None, op=ids.PICK)


@pytest.mark.parametrize("key", playable())
def test_each_step_reads_its_move_once_the_deals_too(key):
    """The deal step of Da Capo! read "Game 1 is dealt" twice, and every step its move twice: quoted
    above a table whose move log ends with it. Now the move is read once, in the table's log as the
    channel showed it, and quoted only where the table does not read it."""
    game = REGISTRY[key]
    match = walked(key, game.min_players)
    for step in sorted({0, 1, 2, match.steps // 2, *(start.step for start in match.starts[:3]), match.steps}):
        for lang in ("en", "de"):
            position = at(match, step, lang)
            events = (position.history[-1][2] or []) if step else position.opening
            told = presenter(key).describe(position, events, lang)
            if not told:
                continue
            lines = stepper(match, position, False, lang, None).text.splitlines()
            line = log_line(told)
            assert (f"> {line}" in lines) != (line in lines), (step, lang, line)
