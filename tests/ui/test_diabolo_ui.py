"""Diabolo's table and hands: the rows and players on the table, the placements a hand offers, the
forced show-and-discard, the secret doubler choice and the round summary."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from bot.i18n import t
from bot.tables.diabolo.presenter import PRESENTER as SHOW
from games.diabolo import GAME, Options, position, score_now
from tests.double import custom_ids, visible_texts
from tests.ui import kit


def rigged(state, players: int | None = None, lang: str = "en"):
    """A kit session (seats P0, P1, …) playing the rigged ``state``."""
    session = kit.make_session("diabolo", players or state.players, lang=lang)
    session.state = state
    return session


def table_text(session, last: str | None = None, lang: str = "en") -> str:
    return "\n".join(visible_texts(kit.body(SHOW.table(session, lang, last)[0])))


def hand(session, seat: int, lang: str = "en"):
    return SHOW.hand(session, seat, lang, "", None)


def seen(rendered) -> tuple:
    body = kit.body(rendered)
    return visible_texts(body), custom_ids(body)


# -- the table ---------------------------------------------------------------------------------------
def test_the_table_shows_both_sides_of_every_row_with_sums_and_closed_rows():
    state = position(3, devil={"r": ["r5a"], "y": ["y3a", "y3b", "y1a"]},
                     angel={"r": ["r4a", "r2a", "r1b"], "y": ["y5a", "y2a"], "b": ["b2a"]}, current=1)
    session = rigged(state)
    text = table_text(session)
    assert "## 😈 Diabolo 😇 · round 1 of 3" in text
    assert "❤️ red: 😈 5 · **5** ┃ **7** · 4 2 1 😇" in text
    assert "⭐ yellow: 😈 3 3 1 · **7** ┃ **7** · 5 2 😇 🔒" in text
    assert "☘️ green: 😈 — · **0** ┃ **0** · — 😇" in text
    assert "🔷 blue: 😈 — · **0** ┃ **2** · 2 😇" in text
    assert "closed rows 1 of 2" in text and f"Draw pile {len(state.pile)}" in text
    assert "▶ **P1** · 7 cards · ✖️2 doubler ready · score **0**" in text
    assert "**P0** · 6 cards" in text and "**P2** · 6 cards" in text
    assert "▶ **P1**'s turn" in text


def test_the_table_offers_only_the_hand_and_rules_buttons_and_speaks_german():
    session = rigged(position(3), lang="de")
    rendered = SHOW.table(session, "de", None)[0]
    assert custom_ids(kit.body(rendered)) == [f"st:t:{session.id}:hand", f"st:t:{session.id}:rules"]
    text = table_text(session, lang="de")
    assert "❤️ Rot: 😈 — · **0** ┃ **0** · — 😇" in text and "Runde 1 von 3" in text
    kit.check_limits(rendered)


# -- placing a card ------------------------------------------------------------------------------------
def test_the_hand_offers_every_legal_placement_in_one_select_per_side():
    state = position(3, hands={0: ["r1a", "y2a", "g5a", "p3a", "b4a", "b1a"]}, next_cards=("r3a",),
                     devil={"y": ["y1a", "y1b", "y1c"], "b": ["b3a", "b2a", "b2b"]},
                     angel={"b": ["b5a", "b5b"]})
    session = rigged(state)
    legal = {a.key for a in GAME.legal_actions(state, 0)}
    assert "devil:y2a" not in legal and not any(key.endswith(("b4a", "b1a")) for key in legal)
    assert kit.reachable(session, 0) == legal
    rendered = hand(session, 0)
    selects = [c for c in kit.controls(rendered) if c["type"] == 3]
    devil, angel = selects
    assert [o["value"] for o in devil["options"]] == ["r1a", "r3a", "g5a", "p3a"]
    assert [o["label"] for o in angel["options"]][:2] == ["❤️1 · 0 → 1", "❤️3 · 0 → 3"]
    assert "y2a" in [o["value"] for o in angel["options"]]
    assert "**Your hand (7):** ❤️1 ❤️3 ⭐2 ☘️5 🟣3 🔷1 🔷4" in rendered.text
    kit.check_limits(rendered, ephemeral=True)


def test_a_player_waiting_for_the_turn_gets_no_controls():
    session = rigged(position(3, current=1))
    rendered = hand(session, 0)
    assert kit.controls(rendered) == [] and "It is P1's turn." in rendered.text


def test_placing_a_card_is_described_and_shown_on_the_table():
    session = rigged(position(3, hands={0: ["g5a", "r1a", "r1b", "y1a", "y1b", "b1a"]}))
    events = kit.play(session, 0, "devil:g5a")
    line = SHOW.describe(session, events, "en")
    assert line == "P0 laid ☘️5 on the devil side of ☘️ green."
    assert "☘️ green: 😈 5 · **5** ┃ **0** · — 😇" in table_text(session, line)
    assert SHOW.describe(session, events, "de") == "P0 legt ☘️5 auf die Teufelsseite von ☘️ Grün."


# -- nothing fits: show the hand, discard a card ----------------------------------------------------------
def blocked_session():
    """Five players, green and purple closed; P4 lays a red card, then P0 draws and is blocked."""
    state = position(5, hands={0: ["g1a", "g1b", "p1a", "p1b", "g2a", "p2a"]},
                     devil={"g": ["g3a", "g3b", "g3c"], "p": ["p3a", "p3b", "p3c"]},
                     angel={"g": ["g4a", "g4b"], "p": ["p4a", "p4b"]},
                     next_cards=("r1a", "g5a"), current=4)
    return rigged(state)


def test_a_blocked_player_shows_the_hand_to_everyone_and_must_discard():
    session = blocked_session()
    events = kit.play(session, 4, "angel:r1a")
    line = SHOW.describe(session, events, "en")
    assert "P0 cannot lay any card and shows the hand: ☘️1 ☘️1 ☘️2 ☘️5 🟣1 🟣1 🟣2." in line
    text = table_text(session, line)
    assert "▶ **P0** cannot lay any card" in text
    assert "▶ **P0** · 7 cards · ✖️2 doubler ready · score **0** · shown: ☘️1 ☘️1 ☘️2 ☘️5 🟣1 🟣1 🟣2" in text
    rendered = hand(session, 0)
    assert "your hand is shown to the table" in rendered.text
    assert kit.reachable(session, 0) == {a.key for a in GAME.legal_actions(session.state, 0)}
    assert all(key.startswith("discard:") for key in kit.reachable(session, 0))


def test_the_discarded_card_is_public_and_out_of_the_round():
    session = blocked_session()
    kit.play(session, 4, "angel:r1a")
    events = kit.play(session, 0, "discard:g5a")
    line = SHOW.describe(session, events, "en")
    assert line.startswith("P0 discarded ☘️5 out of the round.")
    text = table_text(session, line)
    assert "🗑️ Out of this round: ☘️5" in text
    assert "**P0** · 6 cards · ✖️2 doubler ready · score **0** · shown: ☘️1 ☘️1 ☘️2 🟣1 🟣1 🟣2" in text
    assert "▶ **P1**'s turn" in text


# -- the secret doubler ------------------------------------------------------------------------------------
def scoring_session():
    """Red is paid (angels 3 > devils 0), green tied, purple charged; every seat holds a doubler."""
    state = position(3, hands={0: ["r5a", "y1a"], 1: ["r4a", "r1a"], 2: ["p1a", "g1a"]},
                     angel={"r": ["r3a"], "g": ["g2a"]}, devil={"p": ["p5a"], "g": ["g1c", "g1d"]}, draw=False)
    events = score_now(state)
    session = rigged(state)
    return session, events


def test_every_doubler_holder_is_asked_in_the_hand_and_the_table_says_who_is_choosing():
    session, events = scoring_session()
    assert session.to_act() == {0, 1, 2}
    text = table_text(session, SHOW.describe(session, events, "en"))
    assert "⚖️ Scoring ❤️ red: angels 3, devils 0. Waiting for the secret doubler choices of P0, P1, P2." in text
    assert text.count("⏳ choosing") == 3
    for seat in range(3):
        assert kit.reachable(session, seat) == {"doubler:r", "doubler:none"}
    rendered = hand(session, 1)
    assert "Your cards of this colour: ❤️1 ❤️4 (sum 5)." in rendered.text
    assert [b["label"] for b in kit.controls(rendered) if b["type"] == 2] == ["Double ❤️ red",
                                                                                  "Keep my doubler"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_one_else_can_tell_a_doubler_choice_before_the_reveal(lang):
    used, kept = scoring_session()[0], scoring_session()[0]
    line_used = SHOW.describe(used, kit.play(used, 0, "doubler:r"), lang)
    line_kept = SHOW.describe(kept, kit.play(kept, 0, "doubler:none"), lang)
    assert line_used == line_kept == t(lang, "diabolo.ui.has_chosen", name="P0")
    assert seen(SHOW.table(used, lang, line_used)[0]) == seen(SHOW.table(kept, lang, line_kept)[0])
    for seat in (1, 2):
        assert seen(SHOW.hand(used, seat, lang, "", None)) == seen(SHOW.hand(kept, seat, lang, "", None))
    assert "✅" in table_text(used, line_used, lang)
    # The chooser sees the own choice, and has no buttons left.
    mine = hand(used, 0, lang)
    assert kit.controls(mine) == []
    assert t(lang, "diabolo.ui.doubler_you_use", colour="❤️ " + t(lang, "diabolo.colour.r")) in mine.text
    assert t(lang, "diabolo.ui.doubler_you_keep") in hand(kept, 0, lang).text
    # A second choice keeps the secret too.
    kit.play(used, 1, "doubler:none")
    kit.play(kept, 1, "doubler:r")
    assert seen(SHOW.table(used, lang, None)[0]) == seen(SHOW.table(kept, lang, None)[0])
    assert seen(SHOW.hand(used, 2, lang, "", None)) == seen(SHOW.hand(kept, 2, lang, "", None))


def test_the_choices_are_revealed_together_with_the_hands_of_the_colour():
    session, _ = scoring_session()
    kit.play(session, 0, "doubler:r")
    kit.play(session, 1, "doubler:none")
    events = kit.play(session, 2, "doubler:none")
    line = SHOW.describe(session, events, "en")
    assert "P2 has made a doubler choice. Doublers on ❤️ red: P0." in line
    assert "❤️ red in hand: P0 ❤️5 · P1 ❤️1 ❤️4 · P2 —." in line
    assert "☘️ green: 2 against 2, nobody scores. 🟣 purple in hand: P0 — · P1 — · P2 🟣1." in line
    assert "Round 2 begins; P0 deals." in line and "yellow" not in line


# -- the round summary ---------------------------------------------------------------------------------------
def test_the_round_summary_names_each_colour_and_the_totals():
    session, _ = scoring_session()
    assert SHOW.summary(session, kit.play(session, 0, "doubler:r"), "en") is None
    kit.play(session, 1, "doubler:none")
    events = kit.play(session, 2, "doubler:none")
    text = SHOW.summary(session, events, "en")
    assert text.splitlines() == [
        "📋 **Diabolo**: round 1 is scored.",
        "• P0: ❤️ red: angels win, highest hand sum 5, doubled (+10)",
        "• P1: ❤️ red: angels win, highest hand sum 5 (+5)",
        "• P2: 🟣 purple: devils win, highest hand sum 1 is lost (-1)",
        "Totals: P0 10 · P1 5 · P2 -1",
    ]
    assert "❤️ Rot: Engel gewinnen, höchste Handsumme 5, verdoppelt (+10)" in SHOW.summary(session, events, "de")
    assert "score **10**" in table_text(session)


def test_a_wasted_doubler_and_a_round_without_doublers_are_summarised():
    state = position(3, hands={0: ["r1a"], 1: ["r4a"], 2: ["y1a"]}, angel={"r": ["r3a"]},
                     doublers=(True, False, False), draw=False)
    score_now(state)
    session = rigged(state)
    events = kit.play(session, 0, "doubler:r")
    assert "P0: ❤️ red: doubler spent without the highest sum (+0)" in SHOW.summary(session, events, "en")


# -- texts -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de"])
def test_rules_and_house_rule_labels_fit_discord(lang):
    texts = tomllib.loads((Path("bot/locales") / lang / "diabolo.ui.toml").read_text())
    assert len(texts["rules"]) <= 1900
    for field in Options.model_fields:
        option = texts["option"][field]
        assert 0 < len(option["label"]) <= 45 and 0 < len(option["help"]) <= 100


# -- the closing summary ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "unit", "wrong"), [("en", "Round", "Hand"), ("de", "Runde", "Spiel")])
def test_the_closing_summary_counts_rounds_not_hands(lang, unit, wrong):
    import random

    from bot.ui.summary import render_summary

    session = kit.make_session("diabolo", 3, seed="summary", options={"rounds": 2}, lang=lang)
    rng = random.Random(3)
    while session.status == "playing":
        kit.random_walk(session, rng, 50)
    text = render_summary(session, lang, SHOW)
    assert f"__{unit} 2__" in text       # the last round's steps: the picture shows every round's totals
    assert f"__{wrong} " not in text
