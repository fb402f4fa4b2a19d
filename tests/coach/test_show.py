"""The review as its reader reads it (bot/coach/show.py): each decision says where it was (the hand,
or in Calcory's one hand the turn), what was played and what the strong player prefers in the game's
words (never an action key, never an outcome the reader could not know), and the cost with the range
it most likely lies in; Calcory, whose table is buttons, shows its grid in words."""

from __future__ import annotations

import random
import string
from dataclasses import replace

import games
from bot.coach.review import Decision, Review
from bot.coach.show import described, render
from bot.i18n import catalogue
from bot.registry import presenter
from bot.replays.steps import Walked
from bot.storage.status import Status
from games.base import Action
from games.computer import choose
from tests.ui import kit
from tests.ui.kit import make_session, play


def finished(key: str, seed: str, players: int = 4, limit: int = 400):
    """A match of easy computer players (``limit`` moves at most): the session the review reads, and
    its log walked as the review walks it."""
    game = games.get(key)
    session = make_session(key, players, seed)
    rng = random.Random(seed)
    while not game.is_over(session.state) and len(session.history) < limit:
        seat = min(game.to_act(session.state))
        play(session, seat, choose(game, session.state, seat, "easy", rng).key)
    actions = [(seat, action) for seat, action, _ in session.history]
    return session, Walked(game, players, session.options, seed, actions)


def decisions_of(walked: Walked, seat: int):
    """``(index, state before it, legal moves)`` of each of ``seat``'s moves with a choice."""
    for index, (mover, _) in enumerate(walked.actions):
        state = walked.state(index)
        legal = walked.game.legal_actions(state, seat) if mover == seat else []
        if len(legal) > 1:
            yield index, state, legal


def test_a_decision_says_its_hand_and_the_range_its_cost_most_likely_lies_in() -> None:
    session, walked = finished("mu", "show-mu")
    second = walked.starts[1].step
    index, _, legal = next(d for d in decisions_of(walked, 0) if d[0] > second)
    played = walked.actions[index][1]
    best = next(a for a in legal if a != played)
    review = Review(0, (Decision(index, played.key, best.key, 12.34, 2.0),), 40)
    english = render(session, review, walked, "en").text.splitlines()
    assert f"**1.** Hand 2 · move {index + 1} of {walked.steps}" in english
    assert "That cost you about **12.3** points, most likely between 8.3 and 16.3." in english
    german = render(session, review, walked, "de").text.splitlines()
    assert f"**1.** Spiel 2 · Schritt {index + 1} von {walked.steps}" in german
    assert "Das hat dich etwa **12,3** Punkte gekostet, sehr wahrscheinlich zwischen 8,3 und 16,3." in german


def test_a_cost_every_world_agreed_on_is_said_without_a_range() -> None:
    session, walked = finished("mu", "show-mu")
    index, _, legal = next(decisions_of(walked, 0))
    played = walked.actions[index][1]
    best = next(a for a in legal if a != played)
    review = Review(0, (Decision(index, played.key, best.key, 3.0, 0.0),), 40)
    assert "That cost you **3.0** points in every game played on from there." in render(session, review, walked, "en").text
    assert "Das hat dich in jeder von dort weitergespielten Partie **3,0** Punkte gekostet." in \
        render(session, review, walked, "de").text


def test_calcory_flips_in_words_the_better_one_without_its_outcome_and_the_grid_shown() -> None:
    session, walked = finished("calcory", "show-calcory", players=3)
    game = walked.game
    # A flip of seat 0 that did not end its turn, where another flip would have ended it (over 13 or a hit).
    for index, state, legal in decisions_of(walked, 0):
        played = walked.actions[index][1]
        if played.kind != "flip" or any(e.kind in ("bust", "hit") for e in walked.history[index][2]):
            continue
        ending = [a for a in legal if a.kind == "flip" and a != played and
                  any(e.kind in ("bust", "hit") for e in game.apply(game.clone(state), 0, a))]
        if ending:
            best = ending[0]
            break
    else:
        raise AssertionError("no such flip in this match")
    review = Review(0, (Decision(index, played.key, best.key, 2.5, 0.5),), 30)
    text = render(session, review, walked, "en").text
    lines = text.splitlines()
    assert f"You flipped the card at {played.arg}." in lines
    assert f"The strong player would have flipped the card at {best.arg}." in lines
    assert "flip:" not in text and "13" not in text.split("The strong player would have")[1].splitlines()[0]
    turn = next(label for label in lines if label.startswith("**1.** Turn "))
    assert turn.endswith(f" · ① P0 · move {index + 1} of {walked.steps}")
    assert "    A  B  C  D  E " in lines and "    F  G  H  I  J " in lines     # the grid in words, both halves
    german = render(session, review, walked, "de").text
    assert f"Der starke Spieler hätte die Karte auf {best.arg} aufgedeckt." in german.splitlines()
    three = Review(0, (review.decisions[0],) * 3, 30)      # three grids still fit one message
    kit.check_limits(render(session, three, walked, "de"), ephemeral=True)


def test_a_lead_too_small_to_matter_is_not_named_however_sure() -> None:
    assert not Decision(14, "discard:7db>helper:1", "discard:7db>new", 0.01, 0.0).costly
    assert Decision(14, "discard:7db>helper:1", "discard:7db>new", 0.3, 0.05).costly
    assert not Decision(14, "discard:7db>helper:1", "discard:7db>new", 3.0, 1.1).costly     # within the noise


def test_the_better_move_of_a_played_action_is_never_an_action_key() -> None:
    """Every game's first decisions, each legal alternative described: in words, not ``kind:arg``."""
    for key in sorted(games.REGISTRY):
        players = min(4, games.get(key).max_players)
        session, walked = finished(key, f"keys-{key}", players=players, limit=80)
        for index, _, legal in list(decisions_of(walked, 0))[:3]:
            played = walked.actions[index][1]
            for best in legal[:6]:
                if best == played:
                    continue
                text = render(session, Review(0, (Decision(index, played.key, best.key, 1.0, 0.1),), 9),
                              walked, "en").text
                said = text.split("The strong player would have ")[1].splitlines()[0]
                assert said != best.key and Action.parse(best.key).kind + ":" not in said, (key, best.key, said)


#: How each line of a review starts, after a move's emoji if it has one: the reader's own move, and
#: the strong player's in their place.
OPENINGS = {("en", True): "You ", ("en", False): "The strong player would have ",
            ("de", True): "Du ", ("de", False): "Der starke Spieler hätte "}


def test_every_games_moves_are_said_to_the_reader_as_a_player_would() -> None:
    """The review named its reader in the third person ("You played: Ann passes"): every kind of move
    of every game, played or preferred, is said to them ("You passed." / "Du hast gepasst.", "The
    strong player would have passed." / "Der starke Spieler hätte gepasst."), never with their name,
    never as an action key, and without what the move set off (a trick, a ban drawn, the next deal)."""
    for key in sorted(games.REGISTRY):
        game = games.get(key)
        players = min(4, game.max_players)
        session, walked = finished(key, f"voice-{key}", players=players, limit=300)
        kinds: set[str] = set()
        for index, (seat, _) in enumerate(walked.actions):
            state = walked.state(index)
            at = replace(session, status=Status.PLAYING, state=state, counters=[0] * players)
            for action in game.legal_actions(state, seat)[:12]:
                kinds.add(action.kind)
                for (lang, happened), opening in OPENINGS.items():
                    said = described(at, presenter(key), seat, action.key, lang, happened=happened)
                    words = said.split(" ", 1)[1] if not said[0].isalnum() else said
                    assert words.startswith(opening), (key, action.key, lang, said)
                    assert session.seats[seat].name not in said, (key, action.key, said)
                    assert said != action.key and f"{action.kind}:" not in said, (key, action.key, said)
                    assert "\n" not in said and " · " not in said, (key, action.key, said)
        assert kinds, key


def test_each_move_line_said_to_the_reader_has_both_voices_in_both_languages_with_the_logs_details() -> None:
    """A move kind too rare for a short match (Kapado's unlock, Skippo's set-aside joker) is said to the
    reader too: every ``_you`` line of the catalogue has its ``_best`` twin and its log line, in English
    and German, and names what the log line names but the mover."""
    english, german = catalogue("en"), catalogue("de")
    voiced = {key.rsplit("_", 1)[0] for key in english if key.endswith(("_you", "_best"))}
    assert len(voiced) >= 35
    for base in voiced:
        for lang in (english, german):
            assert f"{base}_you" in lang and f"{base}_best" in lang, base
        log = english.get(base)
        if log is None:
            assert ".coach_" in base, base    # the coach's own words, for a move the log leaves unsaid
            continue
        wanted = _placeholders(log) - {"name"}
        for lang in (english, german):
            for voice in ("_you", "_best"):
                said = _placeholders(lang[base + voice])
                assert said <= wanted and "name" not in said, (base + voice, said, wanted)


def _placeholders(entry) -> set[str]:
    texts = entry.forms.values() if hasattr(entry, "forms") else [entry]
    return {name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name}
