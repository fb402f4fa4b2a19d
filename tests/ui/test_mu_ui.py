"""Mü's table and hand: what each phase shows, the bid picker and its limit, trump and partner
choices, legal cards in the tricks, and the hand summaries (won, lost, Patt)."""

from __future__ import annotations

import random
import typing

from bot.i18n import LANGUAGES, catalogue, t
from bot.tables.mu import words
from bot.tables.mu.presenter import PRESENTER
from bot.transport import ids
from bot.ui.cards import label
from games.base import Action, IllegalAction
from games.mu import GAME, MuOptions, bid_action, position
from tests.ui import kit

A, B, C, D = range(4)

# The rulebook's first example (worked case M1): its auction ends with A as Chef with 4
# cards and B as Vize, B showing blue 9, green 8, green 7 and A red 6, red 2, yellow 3, yellow 4.
EX1_HANDS = {A: ["r6", "r2", "y3", "y4"], B: ["b9", "g8", "g7a"], C: ["y9", "g6", "r5"], D: ["g1a", "b1a", "r9"]}
EX1_LOG = [(A, "bid:r6"), (B, "pass"), (C, "bid:y9"), (D, "bid:b1a.g1a"), (A, "bid:r2"), (B, "bid:b9"),
           (C, "bid:r5.g6"), (D, "bid:r9"), (A, "bid:y3.y4"), (B, "bid:g7a.g8"),
           (C, "pass"), (D, "pass"), (A, "pass"), (B, "pass")]
#: Seven 1s and 7s per colour pair: the longest card ids, for the worst-case custom_id.
LONG_IDS = ["r1a", "r1b", "r7a", "r7b", "y1a", "y1b", "y7a", "y7b", "g1a", "g1b", "g7a", "g7b", "b1a", "b1b", "b7a"]


def session_at(state, lang: str = "en"):
    session = kit.make_session("mu", state.players, lang=lang)
    session.state = state
    return session


def example_1(steps: int | None = None):
    session = session_at(position(4, EX1_HANDS, dealer=A))
    for seat, key in EX1_LOG[:steps]:
        kit.play(session, seat, key)
    return session


components = kit.components
table_text = kit.table_text


def hand(session, seat: int, ui: str = "", lang: str = "en"):
    rendered = PRESENTER.hand(session, seat, lang, ui, None)
    kit.check_limits(rendered, ephemeral=True)
    return rendered


def buttons(rendered) -> list[dict]:
    return [c for c in components(rendered) if c["type"] == 2]


def selects(rendered) -> list[dict]:
    return [c for c in components(rendered) if c["type"] == 3]


def arg(comp: dict) -> str:
    return ids.parse(comp["custom_id"]).arg


def card_buttons(rendered) -> dict[str, dict]:
    """The card buttons by card id (moves ``play:<id>`` or inert ``x:<id>``)."""
    out = {}
    for comp in buttons(rendered):
        kind, _, card = arg(comp).partition(":")
        if kind in ("play", "x"):
            out[card] = comp
    return out


# -- the auction -----------------------------------------------------------------------------------
def test_the_auction_table_shows_dealer_turn_and_every_laid_out_card():
    session = example_1(4)  # A red 6; B passed; C yellow 9; D green 1 and blue 1
    text = table_text(session, last="P3 lays out …")
    assert "## 🎴 Mü · hand 1" in text and "🃏 Dealer **P0**" in text
    assert "▶ **P0** · 15 cards · score **0** · laid out 1: ❤️6" in text
    assert "② **P1** · 15 cards · score **0**" in text and "laid out" not in text.split("\n")[3]
    assert "④ **P3** · 15 cards · score **0** · laid out 2: ☘️1 🔷1" in text
    assert "**Auction**: highest bid 2 · 0 of 4 passed in a row (when all have, it ends)." in text
    assert text.endswith("P3 lays out …\n▶ **P0** bids: lay out up to 2 cards, or pass.")
    assert "Chef" not in text and "Trumps" not in text


def toggles(rendered, chosen=()) -> dict[str, dict]:
    """The face-down cards a click picks or unpicks, by card id: each step names the picks after it."""
    out = {}
    for comp in buttons(rendered):
        kind, _, rest = arg(comp).partition(":")
        if kind == "b":
            (card,) = set(filter(None, rest.split("."))) ^ set(chosen)
            out[card] = comp
    return out


def click(session, seat: int, comp: dict):
    return hand(session, seat, ui=arg(comp))


def test_the_auction_hand_shows_each_card_once_and_marks_the_face_up_ones():
    session = example_1(4)  # A has laid out the red 6
    plain = hand(session, A)
    view = GAME.view(session.state, A)
    assert plain.text.startswith("**Your hand** (15) · 👁️ = face up on the table\n")
    assert not any(label(card) in plain.text for card in view.hand)  # no card list in the text
    assert not selects(plain)
    cards = [b for b in buttons(plain) if arg(b).startswith(("b:", "x:"))]
    assert len(cards) == 15 == len(view.hand)
    (shown,) = [b for b in cards if arg(b) == "x:r6"]
    assert shown["label"] == "👁️❤️6" and shown["disabled"]
    face_down = toggles(plain)
    assert sorted(face_down) == sorted(c for c in view.hand if c != "r6")
    assert not any(b["disabled"] or b["label"].startswith("👁️") for b in face_down.values())
    # Waiting players see their hand once too, disabled, with their own face-up cards marked.
    waiting = hand(session, D)
    assert not toggles(waiting) and all(b["disabled"] for b in buttons(waiting))
    assert sorted(b["label"] for b in buttons(waiting) if b["label"].startswith("👁️")) == ["👁️☘️1", "👁️🔷1"]


def test_the_bidder_picks_face_down_cards_up_to_the_limit_and_confirms_them_in_deck_order():
    session = example_1(4)
    plain = hand(session, A)
    face_down = sorted(toggles(plain))
    assert GAME.view(session.state, A).bid_limit == 2 and "up to 2" in plain.text
    lay_out = next(b for b in buttons(plain) if arg(b) == "bid")
    assert lay_out["disabled"]

    # Clicks pick in any order; the bid lists the cards in deck order.
    one = click(session, A, toggles(plain)[face_down[5]])
    picked = click(session, A, toggles(one, [face_down[5]])[face_down[1]])
    chosen = [face_down[1], face_down[5]]
    lay_out = next(b for b in buttons(picked) if arg(b).startswith("bid:"))
    assert arg(lay_out) == bid_action(chosen).key == f"bid:{face_down[1]}.{face_down[5]}"
    assert lay_out["label"] == "Lay out 2" and not lay_out["disabled"]
    now = toggles(picked, chosen)
    assert sorted(card for card, b in now.items() if b["style"] == 1) == sorted(chosen)
    # At the limit the other face-down cards wait; a blue one unpicks.
    assert all(b["disabled"] for card, b in now.items() if card not in chosen)
    back = click(session, A, now[face_down[5]])
    assert [card for card, b in toggles(back, [face_down[1]]).items() if b["style"] == 1] == [face_down[1]]
    kit.play(session, A, arg(lay_out))
    assert GAME.view(session.state, None).bids[A] == 3


def test_picks_beyond_the_limit_or_no_longer_face_down_are_dropped():
    session = example_1(4)
    face_down = sorted(toggles(hand(session, A)))
    rendered = hand(session, A, ui=f"b:r6.{'.'.join(face_down[:4])}")
    (lay_out,) = [b for b in buttons(rendered) if arg(b).startswith("bid")]
    assert arg(lay_out) == bid_action(face_down[:2]).key


def test_only_the_bidder_gets_the_picker_and_a_stale_step_shows_the_plain_hand():
    session = example_1(4)
    waiting = hand(session, B, ui="b:b9")
    assert not toggles(waiting) and all(b["disabled"] for b in buttons(waiting))
    assert "Auction: **P0** is to bid." in waiting.text
    for ui in ("nonsense", "b:", "b:zz.r6", "clear", "x:r6"):
        assert kit.body(hand(session, A, ui=ui)) == kit.body(hand(session, A))


def test_the_dealer_may_lay_out_one_card_and_the_limit_is_the_most_shown_plus_one():
    session = session_at(position(4, EX1_HANDS, dealer=A))
    first = next(iter(toggles(hand(session, A))))
    after = toggles(click(session, A, toggles(hand(session, A))[first]), [first])
    assert [card for card, b in after.items() if not b["disabled"]] == [first]  # one card is the limit
    assert "▶ **P0** bids: lay out up to 1 card, or pass." in table_text(session)
    session = example_1(8)  # A 2, B 1, C 3, D 3: A may reach 4, so lay out 2 more (M1, action 9)
    face_down = sorted(toggles(hand(session, A)))
    assert GAME.view(session.state, A).bid_limit == 2
    try:
        GAME.check(session.state, A, bid_action(face_down[:3]))
    except IllegalAction as refusal:
        assert refusal.reason == "mu.bid_too_many"
        assert "at most 2 cards" in t("en", refusal.reason, **refusal.params)
    else:
        raise AssertionError("three cards over a limit of two were accepted")


def test_a_fifteen_card_bid_fits_a_custom_id_with_a_six_digit_session():
    state = position(4, {A: LONG_IDS}, dealer=A)
    # B shows 14 cards, so A may lay out all 15 face-down cards at once.
    state.shown[B], state.hidden[B] = state.hidden[B][:14], state.hidden[B][14:]
    state.bids[B] = 14
    session = session_at(state)
    session.id, session.counters = 999_999, [99_999] * 4
    assert len(toggles(hand(session, A))) == 15
    rendered = hand(session, A, ui="b:" + ".".join(reversed(LONG_IDS)))
    (lay_out,) = [b for b in buttons(rendered) if arg(b).startswith("bid:")]
    assert len(lay_out["custom_id"]) <= 100 and arg(lay_out) == bid_action(LONG_IDS).key
    assert all(len(b["custom_id"]) <= 100 for b in buttons(rendered))
    assert len(ids.hand_step(session.id, A, 99_999, "b:" + ".".join(LONG_IDS))) <= 100
    session.counters = [0] * 4
    kit.play(session, A, arg(lay_out))
    assert GAME.view(session.state, None).bids[A] == 15


# -- Chef, Vize, trumps, partner ---------------------------------------------------------------------
def test_the_vize_is_offered_exactly_the_legal_trumps_and_the_chef_also_none():
    session = example_1()
    text = table_text(session)
    assert "👑 Chef **P0** with 4 cards · 🥈 Vize **P1**" in text
    assert "▶ Vize **P1** names a trump." in text and "🎯 Team goal: **36** triangles for **P0**" in text
    (names,) = selects(hand(session, B))
    assert arg(names) == "trump:" and [o["value"] for o in names["options"]] == ["green", "blue", "7", "8", "9"]
    assert [o["label"] for o in names["options"]] == ["☘️ green", "🔷 blue", "7s", "8s", "9s"]
    assert not selects(hand(session, A)) and "**P1** is naming a trump." in hand(session, A).text

    kit.play(session, B, "trump:green")
    assert "Trumps: ☘️ green from the Vize; the Chef names next" in table_text(session)
    chef = hand(session, A)
    (names,) = selects(chef)
    assert [o["value"] for o in names["options"]] == ["red", "yellow", "2", "3", "4", "6", "none"]
    assert names["options"][-1]["label"] == "no trump"
    assert "Naming" not in chef.text  # green is not among the Chef's own cards


def test_the_chef_is_warned_that_naming_the_vize_trump_again_gains_nothing():
    session = example_1()
    kit.play(session, B, "trump:9")
    session.state.shown[A] = (*session.state.shown[A], "k9")  # rig a shown 9 for the Chef
    assert "Naming 9s again adds no trumps" in hand(session, A).text


def test_the_partner_buttons_leave_out_the_chef_and_the_vize():
    session = example_1()
    kit.play(session, B, "trump:7")
    kit.play(session, A, "trump:yellow")
    assert "Trumps: ⭐ yellow over 7s" in table_text(session)
    chooser = hand(session, A)
    partners = [(b["label"], arg(b)) for b in buttons(chooser) if arg(b).startswith("partner:")]
    assert partners == [("P2", "partner:2"), ("P3", "partner:3")]
    assert "▶ Chef **P0** chooses a partner." in table_text(session)
    kit.play(session, A, "partner:3")
    text = table_text(session)
    assert "👑 Chef **P0** with 4 cards · 🥈 Vize **P1** · 🤝 Partner **P3**" in text
    assert "🎯 Team goal: **36** triangles for **P0** + **P3**" in text
    assert "① ▶ **P0** (👑 Chef) · 15 cards" in text and "④ **P3** (🤝 Partner)" in text


# -- tricks ----------------------------------------------------------------------------------------
def red_led_position():
    """Vize 7s under Chef green; A led the red 3; B holds red cards, so B must follow red."""
    state = position(4, {A: ["r3", "g6"], B: ["r4", "r8", "g0", "k7a"], C: ["y0"], D: ["k0"]}, chef=A, vize=C,
                     shown={A: ["g6"], C: ["y7a"]}, vize_trump="7", chef_trump="green", partner=D)
    session = session_at(state)
    kit.play(session, A, "play:r3")
    return session


def test_the_hand_marks_the_legal_cards_and_keeps_the_others_clickable_for_the_reason():
    session = red_led_position()
    rendered = hand(session, B)
    cards = card_buttons(rendered)
    view = GAME.view(session.state, B)
    assert set(cards) == set(view.hand) and len(view.hand) == 15
    assert len([c for c in components(rendered) if c["type"] == 1]) == 3  # three rows of five
    green = {card for card, b in cards.items() if b["style"] == 3}
    assert green == set(view.playable) and {"r4", "r8"} <= green and "g0" not in green
    assert not any(b["disabled"] for b in cards.values())
    assert "On the table: P0 ❤️3" in rendered.text and "Led: red. You must follow it." in rendered.text
    # The trumps (green, and the 7s) come last, after a star.
    assert rendered.text.split("\n")[0].split(" · ")[-1].startswith("👑 ⭐")
    with_illegal = Action.parse(arg(cards["g0"]))
    try:
        GAME.check(session.state, B, with_illegal)
    except IllegalAction as refusal:
        assert refusal.reason == "mu.must_follow.red"
        assert all("mu.must_follow.red" in catalogue(lang) for lang in LANGUAGES)
    else:
        raise AssertionError("a card that does not follow red was accepted")
    waiting = hand(session, C)
    assert all(b["disabled"] for b in card_buttons(waiting).values()) and "**P1** is to play." in waiting.text


def test_a_hands_card_line_is_worked_out_once_while_its_cards_and_trumps_stay():
    """Every open hand is drawn again after each move at its table: the line of its cards grouped by
    suit (the alt text and, in the tricks, the first line) is worked out once for the same cards and
    trumps, and afresh once a card left the hand."""
    session = red_led_position()
    words._grouped.cache_clear()
    first = hand(session, B)
    again = hand(session, B)
    assert again.text == first.text and words._grouped.cache_info().misses == 1
    kit.play(session, B, "play:r4")
    after = hand(session, B)
    assert words._grouped.cache_info().misses == 2 and label("r4") not in after.text.split("\n")[0]


def test_a_seat_that_cannot_follow_is_told_any_card_goes():
    yellow = ["y0", "y1a", "y1b", "y2", "y3", "y4", "y5", "y6", "y7a", "y7b", "y8", "y9"]
    state = position(4, {A: ["b5"], B: [*yellow, "g0", "g1a", "g1b"]}, chef=A, vize=C, shown={C: ["g9"]},
                     vize_trump="green", chef_trump="none", partner=D)
    session = session_at(state)
    kit.play(session, A, "play:b5")
    rendered = hand(session, B)
    assert "Led: 🔷" not in rendered.text
    assert "Led: blue. You have none, so any card may be played." in rendered.text
    assert all(b["style"] == 3 and not b["disabled"] for b in card_buttons(rendered).values())


def test_the_trick_table_shows_play_order_tricks_won_trumps_and_scores():
    session = red_led_position()
    for seat in (B, C, D):
        kit.play(session, seat, session.game.legal_actions(session.state, seat)[0].key)
    view = GAME.view(session.state, None)
    winner = view.last_winner
    text = table_text(session)
    assert "Trumps: ☘️ green over 7s" in text
    assert "Last trick: P0 ❤️3 → P1 ❤️4 → P2 " in text and f"→ **P{winner}**" in text
    assert " · 1 trick" in text and text.count(" · 0 tricks") == 3
    assert f"▶ **P{winner}** plays a card." in text
    kit.play(session, winner, session.game.legal_actions(session.state, winner)[0].key)
    assert "Trick 2: P" in table_text(session)


def test_describe_says_what_happened_without_private_events():
    session = example_1(13)
    events = kit.play(session, B, "pass")
    line = PRESENTER.describe(session, events, "en")
    assert line == "P1 passes · 👑 P0 is Chef with 4 cards, 🥈 P1 is Vize"
    events = kit.play(session, B, "trump:8")
    assert PRESENTER.describe(session, events, "en") == "🥈 P1 names 8s as the Vize trump"
    assert PRESENTER.describe(session, kit.play(session, A, "trump:none"), "de") == "👑 P0 spielt ohne Cheftrumpf"
    assert PRESENTER.describe(session, kit.play(session, A, "partner:2"), "en") == "👑 P0 chooses P2 as partner"
    assert PRESENTER.describe(session, kit.play(session, A, "play:r6"), "en") == "P0 plays ❤️6"


# -- summaries -------------------------------------------------------------------------------------
def play_out_hand(session) -> list:
    """First legal moves until the hand is scored; returns that move's events."""
    for _ in range(200):
        seat = next(iter(GAME.to_act(session.state)))
        events = kit.play(session, seat, GAME.legal_actions(session.state, seat)[0].key)
        if any(e.kind == "hand_scored" for e in events):
            return events
    raise AssertionError("the hand did not end")


RED = ["r0", "r1a", "r1b", "r2", "r3", "r4", "r5", "r6", "r7a", "r7b", "r8", "r9"]
LOW = ["r0", "r1a", "r1b", "r2", "y0", "y1a", "y1b", "y2", "g0", "g1a", "g1b", "g2"]


def test_a_won_hand_is_summed_up_with_the_bonus():
    # Three players without yellow and black: the Chef holds every red card and names red.
    state = position(3, {A: RED}, chef=A, shown={A: ["r9"]}, chef_trump="red", removed_colours=("yellow", "black"))
    session = session_at(state)
    assert PRESENTER.summary(session, [], "en") is None
    text = PRESENTER.summary(session, play_out_hand(session), "en")
    assert text.startswith("📋 **Mü**: hand 1 is scored.")
    assert "• P0: Triangles in 12 tricks (+36)" in text
    assert "• P0: Team goal reached (36 of 12): bonus for 1 card with a colour trump (+10)" in text
    assert "Totals: P0 46 · P1 0 · P2 0" in text


def test_a_lost_hand_is_summed_up_with_the_penalty():
    # The Chef holds only the lowest cards and plays without trumps: not one trick.
    state = position(3, {A: LOW}, chef=A, shown={A: ["r2"]}, chef_trump="none", removed_colours=("blue", "black"))
    session = session_at(state)
    text = PRESENTER.summary(session, play_out_hand(session), "de")
    assert text.startswith("📋 **Mü**: ")
    assert "• P0: Teamziel verfehlt (0 von 12): Die Punkte decken ein Gebot von 0, nicht die gebotenen 1, also 10 Minuspunkte je fehlende Karte: 1 (-10)" in text
    assert "• P1: Teamziel verfehlt: 5 Punkte je Karte, die dem Chef fehlt: 1 (+5)" in text


def test_a_patt_hand_is_summed_up_with_the_provokateur():
    session = session_at(position(4, EX1_HANDS, dealer=A))
    for seat, key in [(A, "bid:r6"), (B, "bid:b9"), (C, "pass"), (D, "pass"), (A, "pass")]:
        kit.play(session, seat, key)
    events = kit.play(session, B, "pass")
    assert "Patt: nobody is alone on top with 1 card" in PRESENTER.describe(session, events, "en")
    text = PRESENTER.summary(session, events, "en")
    assert "• P0: Patt: tied for the top bid of 1 card, 5 per card (+5)" in text
    assert "• P1: Patt: last to reach the tied top bid of 1, 10 off per card (-10)" in text
    assert "Totals: P0 5 · P1 -10 · P2 0 · P3 0" in text
    text = table_text(session)
    assert "hand 2" in text and "🃏 Dealer **P1**" in text and "score **5**" in text


def test_summary_and_line_use_public_events_only():
    session = kit.make_session("mu", 5, seed="lines")
    rng = random.Random(5)
    for _ in range(40):
        events = kit.random_walk(session, rng, 7)
        kit.check_public_lines(session, events)


# -- texts -----------------------------------------------------------------------------------------
def test_rules_and_house_rule_labels_exist_in_both_languages_within_their_limits():
    for lang, house in zip(LANGUAGES, ("House rules:", "Hausregeln:"), strict=True):
        texts = catalogue(lang)
        assert 200 < len(texts["mu.ui.rules"]) <= 1900 and house in texts["mu.ui.rules"]
        for field, info in MuOptions.model_fields.items():
            assert len(texts[f"mu.ui.option.{field}.label"]) <= 45
            assert len(texts[f"mu.ui.option.{field}.help"]) <= 100
            if typing.get_origin(info.annotation) is typing.Literal:
                assert all(f"mu.ui.option.{field}.{value}" in texts for value in typing.get_args(info.annotation))


def test_the_hand_speaks_the_players_language():
    session = red_led_position()
    rendered = hand(session, B, lang="de")
    assert rendered.text.startswith("**Deine Hand** (15):") and "Ausgespielt: Rot. Du musst bedienen." in rendered.text
