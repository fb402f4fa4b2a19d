"""Kapado's table and hand on rigged positions: what the table shows, what the hand offers, and that
the drawn card and face-down cards stay with whoever may see them."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bot import i18n
from bot.tables.kapado.presenter import PRESENTER, label
from games.kapado import Options, position
from tests.ui import kit

NO_FIT = [["b8"], ["c9"], ["d10"], ["b4"], ["c6"]]  # KA-12: a 7 of colour a fits none of these


def at(state, lang: str = "en"):
    session = kit.make_session("kapado", state.players, options=state.options, lang=lang)
    session.state = state
    return session


def table_text(session, lang: str = "en") -> str:
    (rendered,) = PRESENTER.table(session, lang, None)
    return "\n".join(c["content"] for c in kit.components(rendered) if c["type"] == 10)


def controls(rendered) -> list[dict]:
    return kit.controls(rendered)


def moves(rendered) -> dict[str, dict]:
    """Move buttons by action key."""
    out = {}
    for comp in controls(rendered):
        click = kit.ids.parse(comp["custom_id"])
        if click.kind == "m":
            out[click.arg] = comp
    return out


def steps(rendered) -> dict[str, dict]:
    return {kit.ids.parse(c["custom_id"]).arg: c for c in controls(rendered)
            if kit.ids.parse(c["custom_id"]).kind == "h"}


def hand(session, seat: int = 0, ui: str = "", lang: str = "en"):
    return PRESENTER.hand(session, seat, lang, ui, None)


# -- the table ----------------------------------------------------------------------------------
def test_table_shows_stacks_locks_counts_bans_pile_and_turn():
    state = position(3, {0: [["b3", "a7"], ["c9"], ["d10", "b5"], ["b4"], ["c6"]],
                         1: [["a12", "b2"], ["c2"], ["d2"], ["b9"], ["c10"]]},
                     face_down=("a7", "b2"), dead=("s1:0",), banned=(2,), wishes={1: ["w1"]},
                     next_cards=("d21",), current=2)
    session = at(state)
    text = table_text(session)
    lines = text.splitlines()
    assert "🚫 Bans in force: **🚫2**" in text
    assert f"Draw pile: **{len(state.pile)}**" in text
    p0 = lines[lines.index("① **P0** · 7 cards") + 1]
    assert p0.startswith("A 🔒🎴 (2)  B ☘️9 (1)  C 🔷5 (2)")
    p1 = lines[lines.index("② **P1** · 7 cards · 🌠 1") + 1]
    assert p1.startswith("A 💀🎴 (2)  B ☘️2 (1)")
    assert "③ ▶ **P2** · 5 cards" in lines
    assert "▶ **P2** has drawn a card and is playing it." in text
    # Face-down cards and the drawn card appear nowhere on the table.
    for hidden in ("a7", "b2", "d21"):
        assert label(hidden) not in text
    assert "Hand" in repr(PRESENTER.table(session, "en", None)[0].view.to_components())


def test_cards_read_as_colour_and_number_and_specials_stand_out():
    assert label("a12") == "🌸12"
    assert label("b7") == "🔷7"
    assert label("c1") == "☘️1🃏"
    assert label("d30") == "⭐30"
    assert label("w2") == "🌠"
    assert label("v2a") == "🚫2" and label("v5c") == "🚫5"


def test_no_ban_and_a_match_of_several_games_on_the_table():
    state = position(2, next_cards=("a7",), options=Options(games=3))
    text = table_text(at(state))
    assert "Kapado · game 1 of 3" in text
    assert "🚫 No ban in force" in text
    assert "match total 0" in text



def test_the_emoji_key_is_one_small_line_in_the_hand_not_on_every_table_redraw():
    state = position(3, next_cards=("d21",), current=2)
    session = at(state)
    header = table_text(session).split("\n① **P0**")[0]
    assert header.splitlines() == ["## 🔢 Kapado", f"🎴 Draw pile: **{len(state.pile)}** (0 ban cards drawn) · 🚫 No ban in force"]
    assert "wish card ·" not in table_text(session)
    for seat in (0, 2):  # waiting and playing
        keys = [line for line in hand(session, seat).text.splitlines() if "🔒 locked" in line]
        assert keys == ["-# 🌸 pink · 🔷 blue · ☘️ green · ⭐ yellow · 🃏 the 1 (joker) · 🌠 wish card · 🔒 locked"
                        " · 💀 dead · 🎴 face down · (4) = 4 cards in the stack"]
    assert "(4) = 4 Karten im Stapel" in hand(session, 0, lang="de").text

# -- placing a drawn card -----------------------------------------------------------------------
def test_drawn_card_offers_face_up_placements_with_double_fits_marked():
    # 8 pink under the 2-ban: 10 blue has only divisor 2 (banned), 12 blue fits via 4, 10 pink by colour.
    state = position(2, {0: [["b10"], ["b12"], ["a10"], ["c3"], ["a16"]]}, next_cards=("a8",), banned=(2,))
    session = at(state)
    rendered = hand(session)
    offered = moves(rendered)
    assert set(offered) == {"up:s0:1", "up:s0:2", "up:s0:4"}
    assert offered["up:s0:1"]["label"] == "B on 🔷12"
    assert offered["up:s0:4"]["label"] == "E on 🌸16 ✨ double"
    assert offered["up:s0:4"]["style"] == 3  # green: the extra draw
    assert "You drew **🌸8**." in rendered.text
    # The other seat sees nothing of the card, neither in its hand nor on the table.
    assert label("a8") not in hand(session, 1).text
    assert "**P0** is playing." in hand(session, 1).text
    assert not controls(hand(session, 1))


def test_a_card_that_fits_nowhere_goes_face_down_on_a_stack_of_choice():
    state = position(2, {0: NO_FIT}, next_cards=("a7",))
    rendered = hand(at(state))
    assert set(moves(rendered)) == {f"down:s0:{i}" for i in range(5)}
    assert moves(rendered)["down:s0:0"]["label"] == "A 🔷8 face down here"
    assert "fits none of your open stacks" in rendered.text


def test_when_every_stack_is_dead_the_card_goes_face_down_on_a_dead_one():
    state = position(2, {0: NO_FIT}, dead=tuple(f"s0:{i}" for i in range(5)), next_cards=("a7",))
    rendered = hand(at(state))
    assert set(moves(rendered)) == {f"down:s0:{i}" for i in range(5)}
    assert "All your stacks are dead" in rendered.text


def test_unlock_asks_for_confirmation_then_moves():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, face_down=("a7",), dead=(), next_cards=("a14",))
    session = at(state)
    rendered = hand(session)
    assert "up:s0:1" not in moves(rendered)  # 14 and 9: no colour, gcd 1
    assert "unlock:s0:0" not in moves(rendered)
    step = steps(rendered)["try:s0:0"]
    assert step["label"] == "A 🔒🎴 try to unlock"
    confirm = hand(session, ui="try:s0:0")
    assert "⚠️ Try to unlock stack A with **🌸14**?" in confirm.text
    assert set(moves(confirm)) == {"unlock:s0:0"} and "back" in steps(confirm)
    path = kit.hand_path(session, 0, "unlock:s0:0")
    assert [kit.ids.parse(c.custom_id).arg for c in path] == ["try:s0:0", "unlock:s0:0"]
    # A stale step (the stack is not locked) shows the plain hand.
    assert kit.body(hand(session, ui="try:s0:3")) == kit.body(rendered)


def test_unlocking_is_offered_beside_face_down_when_nothing_fits():
    own = [["b3", "c5"], ["c9"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, face_down=("c5",), next_cards=("a7",))
    session = at(state)
    assert kit.reachable(session, 0) >= {"unlock:s0:0", "down:s0:0", "down:s0:1"}


def test_dead_stack_offers_nothing():
    own = [["b3", "c5", "a9"], ["c9"], ["d10"], ["b4"], ["c6"]]
    state = position(2, {0: own}, face_down=("c5",), dead=("s0:0",), next_cards=("a3",))
    session = at(state)
    offered = kit.reachable(session, 0)
    assert not any(key.endswith("s0:0") for key in offered)
    assert "💀🌸9 (3)" in table_text(session)


def test_owner_peek_shows_own_face_down_cards_only_in_the_own_hand():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    peek = position(2, {0: own}, face_down=("a7",), next_cards=("b21",), current=1,
                    options=Options(owner_may_peek=True))
    session = at(peek)
    assert "A 🔒🎴(🌸7) (2)" in hand(session, 0).text
    assert label("a7") not in table_text(session)
    assert label("a7") not in hand(session, 1).text
    plain = at(position(2, {0: own}, face_down=("a7",), next_cards=("b21",), current=1))
    assert label("a7") not in hand(plain, 0).text


# -- wish card and extra draw -------------------------------------------------------------------
def test_wish_card_offers_opponents_tops_that_would_go_on_own_stacks():
    own = [["a8"], ["c3"], ["d3"], ["b15"], ["c15"]]
    theirs = [["c5", "a12"], ["b7"], ["d7"], ["c7"], ["b9"]]
    state = position(2, {0: own, 1: theirs}, next_cards=("w1",))
    session = at(state)
    rendered = hand(session)
    (take,) = [c for c in controls(rendered) if c["type"] == 3]
    options = {o["value"]: o["label"] for o in take["options"]}
    assert options["a12"] == "P1 A 🌸12 → ✨ double fit on your A"
    assert options["b9"] == "P1 E 🔷9 → ✨ double fit on your D"
    assert options["d7"] == "P1 C ⭐7 → fits your C"
    assert options["c7"] == "P1 D ☘️7 → fits your B"
    assert set(moves(rendered)) == {"keep"}
    legal = {a.key for a in session.game.legal_actions(state, 0)}
    assert legal <= kit.reachable(session, 0)
    # Taking makes the card public; the taker then places it.
    events = kit.play(session, 0, "take:a12")
    assert "🌠 P0 used a wish card to take 🌸12 from P1's stack A." in PRESENTER.describe(session, events, "en")
    assert "▶ **P0** took 🌸12 with a wish card and is placing it." in table_text(session)
    placing = hand(session)
    assert "You took **🌸12** with your wish card." in placing.text
    assert moves(placing)["up:s0:0"]["label"] == "A on 🌸8 ✨ double"


def test_a_taken_card_that_fits_no_open_stack_can_only_try_an_unlock():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    theirs = [["a25"], ["b7"], ["d7"], ["c7"], ["b9"]]  # 25 and 10 share only the banned 5
    session = at(position(2, {0: own, 1: theirs}, face_down=("a7",), banned=(2, 5), next_cards=("w1",)))
    (take,) = [c for c in controls(hand(session)) if c["type"] == 3]
    assert {o["value"]: o["label"] for o in take["options"]}["a25"] == "P1 A 🌸25 → only for an unlock attempt"
    kit.play(session, 0, "take:a25")
    rendered = hand(session)
    assert "It fits none of your open stacks, so use it to try to unlock" in rendered.text
    assert not moves(rendered) and set(steps(rendered)) == {"try:s0:0"}
    assert kit.reachable(session, 0) == {"unlock:s0:0"}


def test_a_wish_card_with_nothing_to_take_is_kept():
    own = [["b7"], ["c7"], ["d7"], ["b21"], ["c35"]]
    theirs = [["a2"], ["a4"], ["a8"], ["a16"], ["a32"]]  # no colour in common, no divisor in common
    session = at(position(2, {0: own, 1: theirs}, next_cards=("w1",)))
    rendered = hand(session)
    assert "so keep it" in rendered.text
    assert set(moves(rendered)) == {"keep"} and not [c for c in controls(rendered) if c["type"] == 3]
    events = kit.play(session, 0, "keep")
    assert PRESENTER.describe(session, events, "en").startswith("🌠 P0 kept a wish card.")
    assert "**P0** · 6 cards · 🌠 1" in table_text(session)


def test_double_fit_offers_the_extra_draw():
    state = position(2, {0: [["a10"], ["c9"], ["d3"], ["b3"], ["c3"]]}, next_cards=("a8", "b7"))
    session = at(state)
    events = kit.play(session, 0, "up:s0:0")
    assert PRESENTER.describe(session, events, "en") == "✨ P0 put 🌸8 on stack A: a double fit."
    rendered = hand(session)
    assert "Double fit!" in rendered.text
    assert set(moves(rendered)) == {"draw", "stop"}
    assert "▶ **P0** made a double fit and may draw again." in table_text(session)
    events = kit.play(session, 0, "draw")
    assert "P0 draws again." in PRESENTER.describe(session, events, "en")
    assert "You drew **🔷7**." in hand(session).text
    assert label("b7") not in table_text(session)


# -- public lines -------------------------------------------------------------------------------
def test_a_failed_unlock_shows_both_cards_and_kills_the_stack():
    own = [["b3", "a7"], ["c9"], ["d10"], ["b4"], ["c6"]]
    session = at(position(2, {0: own}, face_down=("a7",), next_cards=("b21",)))
    events = kit.play(session, 0, "unlock:s0:0")
    line = PRESENTER.describe(session, events, "en")
    assert line.startswith("💀 P0 tried to unlock stack A with 🔷21, but the hidden card was 🌸7")
    assert "A 💀🔷21 (3)" in table_text(session)


def test_a_ban_card_is_announced_and_shown_in_force():
    session = at(position(2, {0: NO_FIT}, next_cards=("b9", "v5a", "c7")))
    events = kit.play(session, 0, "up:s0:0")
    line = PRESENTER.describe(session, events, "en")
    assert "🚫 P1 drew a 5-ban: 5 no longer counts as a common divisor." in line
    assert "Bans in force: **🚫5**" in table_text(session)
    assert label("c7") not in line + table_text(session)


def test_a_game_of_a_longer_match_gets_its_breakdown_but_the_last_game_does_not():
    session = kit.make_session("kapado", 2, seed="summary", options={"games": 2})
    rng = random.Random(1)
    posted = []
    while session.status == "playing":
        seat = next(iter(session.to_act()))
        events = kit.play(session, seat, rng.choice(session.game.legal_actions(session.state, seat)).key)
        kit.check_public_lines(session, events)
        text = PRESENTER.summary(session, events, "de")
        if text is not None:
            posted.append(text)
    assert len(posted) == 1
    assert posted[0].startswith("📋 **Kapado**") and "Karten auf den eigenen Stapeln" in posted[0]


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_refusal_of_the_engine_has_a_text(lang):
    source = Path("games/kapado/rules.py").read_text(encoding="utf-8")
    keys = {node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalAction"
            and isinstance(node.args[0], ast.Constant)}
    assert "kapado.fits_somewhere" in keys
    assert all(key in i18n.catalogue(lang) for key in keys), sorted(k for k in keys if k not in i18n.catalogue(lang))


def test_every_house_rule_has_a_label_and_help():
    for lang in i18n.LANGUAGES:
        for field in Options.model_fields:
            assert len(i18n.t(lang, f"kapado.ui.option.{field}.label")) <= 45
            assert len(i18n.t(lang, f"kapado.ui.option.{field}.help")) <= 100
        rules = i18n.t(lang, "kapado.ui.rules")
        assert len(rules) <= 1900 and "109" in rules


def test_german_table_and_hand_render():
    state = position(2, {0: NO_FIT}, next_cards=("a7",), banned=(2, 5))
    session = at(state, "de")
    assert "🚫 Verbote in Kraft: **🚫2, 🚫5**" in table_text(session, "de")
    rendered = hand(session, lang="de")
    assert "Du hast **🌸7** gezogen." in rendered.text
    assert moves(rendered)["down:s0:2"]["label"] == "C ⭐10 hier verdeckt ablegen"
    kit.check_limits(rendered, ephemeral=True)
