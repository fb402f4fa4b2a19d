"""The table tells one story (issue 25): every player line starts with the seat's badge as the picture
draws it, piles, stacks and displays are letters in text and buttons alike, no mark means two things,
and a finished table says each thing once, in words a newcomer can follow, in both languages."""

from __future__ import annotations

import random
import re

import pytest

import games
from bot import i18n
from bot.play.sessions import Status
from bot.registry import presenter
from bot.tables.mu.words import TRUMP_MARK
from bot.ui.base import YOUR_TURN
from bot.ui.cards import SYMBOLS
from bot.ui.labels import BADGES, pile_label, seat_badge
from bot.ui.movelog import move_log
from bot.ui.rules import moves_line, rules_message
from tests.ui import kit

#: House rules that end a match within a few hundred random moves.
SHORT = {"rummu": {"target": 1, "team_target": 1}, "mu": {"target": 10}, "skippo": {"games": 1}}
LANGS = ("en", "de")
#: A clause that only says that the game or match ended; a final table says so once.
ENDED = re.compile(r"^(game|match|partie)( \d+)? (is|ist) (over|vorbei|beendet|zu ende)$")
ARTICLES = {"the", "a", "an", "der", "die", "das", "ein", "eine"}


def seat_counts(key: str) -> list[int]:
    game = games.REGISTRY[key]
    return sorted({game.min_players, min(4, game.max_players), game.max_players})


CASES = [(key, players) for key in sorted(games.REGISTRY) for players in seat_counts(key)]


def walked(key: str, players: int, moves: int | None = None) -> kit.Session:
    """A seeded game after ``moves`` random moves (None: to its end)."""
    session = kit.make_session(key, players, seed=f"story-{key}-{players}", options=SHORT.get(key))
    rng = random.Random(f"story:{key}:{players}")
    while session.status is Status.PLAYING and (moves is None or len(session.history) < moves) \
            and len(session.history) < 5000:
        kit.random_walk(session, rng, 1)
    return session


def log_and_rest(session, lang: str) -> tuple[list[str], str]:
    """The move log's lines and the rest of the table's text as the writer draws it."""
    log = move_log(session, lang, presenter(session.game.key))
    text = kit.table_text(session, lang, "\n".join(log) or None)
    return log, "\n".join(line for line in text.splitlines() if line not in log)


def fragments(text: str) -> list[str]:
    """The sentences and clauses of a table text, each reduced to its words (case, emoji, markdown,
    punctuation and articles dropped); a player's line (it starts with a badge) is one. Equal lines
    count once: the move log may tell two moves alike ("P1 went over 13")."""
    out = []
    for line in dict.fromkeys(text.splitlines()):
        parts = [line] if line[:1] in BADGES else re.split(r"(?<=[.!?…])\s+|\s·\s|:\s", line)
        for part in parts:
            words = [w for w in re.findall(r"\w+", part.lower()) if w not in ARTICLES]
            if len(words) >= 3:
                out.append(" ".join(words))
    return out


@pytest.mark.parametrize("key, players", CASES)
@pytest.mark.parametrize("lang", LANGS)
def test_a_final_table_says_nothing_twice(key, players, lang):
    """The log may tell two moves alike (two players passed); the rest of the table says each thing
    once and repeats no part of the log."""
    session = walked(key, players)
    assert session.status is Status.FINISHED
    log, rest = log_and_rest(session, lang)
    said, logged = fragments(rest), fragments("\n".join(log))
    assert [f for f in said if said.count(f) > 1 or f in logged] == []
    assert len([f for f in said + logged if ENDED.match(f)]) <= 1, "the end is said once"


@pytest.mark.parametrize("key, players", CASES)
@pytest.mark.parametrize("moves", [0, 17, None])
def test_every_player_line_starts_with_the_seat_badge_and_no_badge_means_anything_else(key, players, moves):
    session = walked(key, players, moves)
    for lang in LANGS:
        text = kit.table_text(session, lang)
        for seat in range(players):
            name = session.seats[seat].name
            if key == "calcory":  # no player lines: the hand counts name each seat with its badge
                assert f"{seat_badge(seat)} {name} " in text
                continue
            assert any(line[:players] and seat_badge(seat) in re.match(rf"[{BADGES}]*", line).group()
                       and name in line for line in text.splitlines()), (seat, text)
        # A badge is followed by (more badges, the turn mark and) the name of its own seat.
        for found in re.finditer(rf"([{BADGES}])", text):
            seat = BADGES.index(found.group(1))
            rest = text[found.end():].lstrip(f"{BADGES} ▶*")
            assert seat < players and re.match(r"P\d", rest), text
        labels = [c.get("label", "") for message in presenter(key).table(session, lang, None)
                  for c in kit.components(message)]
        for seat in range(players):
            labels += [c.get("label", "") for c in kit.components(presenter(key).hand(session, seat, lang, "", None))]
        assert not any(set(label) & set(BADGES) for label in labels), "a button uses a seat badge"


def test_build_piles_are_letters_in_the_table_the_buttons_and_the_log():
    session = kit.make_session("dacapo", 3, seed="letters-2")
    seat = next(iter(session.game.to_act(session.state)))
    plays = [a for a in session.game.legal_actions(session.state, seat) if a.kind in ("play", "run")]
    assert plays, "the seed deals a card that starts a build pile"
    hand = presenter("dacapo").hand(session, seat, "en", "", None)
    buttons = [c["label"] for c in kit.components(hand) if c["type"] == 2 and "→" in c["label"]]
    assert buttons and all(label.split(" → ")[1] in ("A (new)", "A") for label in buttons), buttons
    assert not any("📚" in label or "🔖" in label for label in buttons)
    events = kit.play(session, seat, plays[0].key)
    line = presenter("dacapo").describe(session, events, "en")
    assert line.endswith("→ A.") and "**Build piles:** A **" in kit.table_text(session)


def test_kapado_stacks_and_rummu_displays_are_letters():
    kapado = walked("kapado", 3, 12)
    text = kit.table_text(kapado)
    view = kapado.game.view(kapado.state, None)
    for seat, stacks in enumerate(view.stacks):
        block = text.split(f"{seat_badge(seat)} ")[1].split("\n\n")[0]
        assert [f"{pile_label(i)} " in block for i in range(len(stacks))] == [True] * len(stacks)
    assert not re.search("[1-9]\ufe0f\u20e3", text)
    rummu = walked("rummu", 3, 120)
    view = rummu.game.view(rummu.state, None)
    assert view.combos, "the walk laid out displays"
    text = kit.table_text(rummu)
    for index, combo in enumerate(view.combos):
        assert f"{pile_label(index)}: " in text and combo.name == f"m{index + 1}"
    assert not re.search(r"#\d", text)


def test_the_german_and_english_slips_of_the_issue_are_gone():
    english = " ".join(text for entry in i18n.catalogue("en").values() for text in i18n.forms(entry))
    german = " ".join(text for entry in i18n.catalogue("de").values() for text in i18n.forms(entry))
    assert "Stalemate" not in english and "difference" not in english
    for slip in ("Zum Ziehen", "Spiel Karten", "Spiel, was geht", "Gewonnen hat:", "Das Spiel ist vorbei",
                 "Passen nacheinander beenden", "**Mitspieler**"):
        assert slip not in german, slip
    assert "🂠" not in i18n.t("en", "buildpiles.ui.supply", draw=3)
    assert i18n.t("de", "buildpiles.ui.match_won", names="Anna") == "🏁 Die Partie ist vorbei. Gewonnen hat **Anna**."


def test_terms_a_newcomer_meets_are_explained_where_they_appear():
    skippo = walked("skippo", 2, 40)
    view = skippo.game.view(skippo.state, None)
    text = kit.table_text(skippo)
    capped = any(pile and pile[-1].startswith("X") for seat in view.seats for pile in seat.helpers)
    assert ("🃏≤" in text) == capped and ("counts at most as high as the card beneath it" in text) == capped
    aside = kit.table_text(kit.make_session("dacapo", 2, seed="aside"))
    assert "set aside" not in aside and "Draw pile: **" in aside  # nothing set aside: no "set aside: 0"
    assert "completed build piles" in i18n.t("en", "buildpiles.ui.supply_aside", aside=12)
    assert "**Ling** (one digit in different colours" in i18n.t("en", "rummu.ui.terms")
    assert i18n.t("en", "mu.ui.said.patt", cards=3).startswith("Patt: nobody is alone on top")


def test_the_mu_hand_marks_trumps_with_no_suit_symbol():
    assert TRUMP_MARK not in SYMBOLS.values()
    session = walked("mu", 4, 60)
    view = session.game.view(session.state, 0)
    hand = presenter("mu").hand(session, 0, "en", "", None).text
    if view.chef_trump is not None and TRUMP_MARK in hand:
        assert "marks your trumps" in hand and "⭐ " not in hand.split("·")[0]


def test_da_capo_buttons_read_as_words():
    session = kit.make_session("dacapo", 2, seed="words")
    for seat in range(2):
        for comp in kit.offered(session, seat):
            label = comp.get("label", "")
            assert not re.search("[📚🔖🂠①-⑩]", label), label


def test_the_rules_line_reads_only_the_readers_own_moves():
    session = walked("kapado", 3, 5)
    (seat,) = session.game.to_act(session.state)
    other = (seat + 1) % 3
    mine = rules_message(session, seat, "de")
    texts = [c["content"] for c in kit.components(mine) if c["type"] == 10]
    assert texts[0] == i18n.t("de", "kapado.ui.rules") and texts[1].startswith("▶ **Du bist am Zug**: Du kannst ")
    kit.check_limits(mine, ephemeral=True)
    waiting = moves_line(session, other, "en")
    assert waiting == f"Not your turn: the table waits for **{session.seats[seat].name}**."
    assert moves_line(session, None, "en") == waiting         # a spectator reads the same
    session.status = Status.FINISHED
    assert moves_line(session, seat, "en") == "The match is over: nobody moves any more."


@pytest.mark.parametrize("key, players", CASES)
def test_a_hand_takes_the_accent_colour_exactly_on_its_owners_turn(key, players):
    session = walked(key, players, 23)
    acting = session.game.to_act(session.state) if session.status is Status.PLAYING else set()
    for seat in range(players):
        rendered = presenter(key).hand(session, seat, "en", "", None)
        kit.check_limits(rendered, ephemeral=True)
        (container,) = rendered.view.to_components()
        assert container["type"] == 17 and rendered.content is None
        assert container.get("accent_color") == (YOUR_TURN if seat in acting else None), (seat, acting)
    assert acting, "the walk stops at a position where someone is to act"
