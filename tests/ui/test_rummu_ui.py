"""Rummü's table and hand: displays and piles in public, then drawing, picking and confirming a
combination, setting groups aside, adding, swapping a joker, discarding, and the engine's refusals."""

from __future__ import annotations

import pytest

from bot.i18n import t
from bot.tables.rummu.presenter import PRESENTER
from bot.transport import ids
from bot.ui.cards import label
from games.base import IllegalAction
from games.deck import DECK, sort_cards
from games.rummu import Combo
from games.rummu.combos import arrange, classify
from tests.ui import kit


def rig(session, hands: dict[int, tuple[str, ...]], combos=(), discard=("k9",), turn=0, phase="play",
        totals=None) -> None:
    """Give the seats these hands and the table these displays (``(owner, cards)``, named m1, m2 …)
    and discards (bottom to top); every other card goes to the draw pile."""
    state = session.state
    state.hands = [tuple(sort_cards(hands.get(seat, ()))) for seat in range(state.players)]
    state.combos = []
    for owner, cards in combos:
        kind = classify(cards)
        state.combos.append(Combo(len(state.combos) + 1, owner, kind, arrange(kind, cards)))
    state.next_id = len(state.combos) + 1
    state.discard = list(discard)
    placed = {c for h in state.hands for c in h} | set(discard) | {c for m in state.combos for c in m.cards}
    state.stock = [c for c in DECK if c not in placed]
    state.origin = {c: 0 for h in state.hands for c in h}
    state.known = [frozenset()] * state.players
    state.turn, state.phase = turn, phase
    if totals is not None:
        state.totals = list(totals)


def session_of(players: int = 3, **options):
    return kit.make_session("rummu", players, seed="ui", options=options or None)


components = kit.components
table_text = kit.table_text


def hand(session, seat: int = 0, ui: str = "", notice: str | None = None, lang: str = "en"):
    return PRESENTER.hand(session, seat, lang, ui, notice)


def by_label(rendered, text: str) -> dict:
    return next(c for c in components(rendered) if c.get("label") == text)


def select_with(rendered, prefix: str) -> dict:
    """The (first) select whose custom_id argument starts with ``prefix``."""
    return next(c for c in components(rendered) if c["type"] == 3 and ids.parse(c["custom_id"]).arg.startswith(prefix))


def selects(rendered) -> list[str]:
    return [ids.parse(c["custom_id"]).arg for c in components(rendered) if c["type"] == 3]


def pick(session, seat: int, cards: list[str], ui: str = "") -> str:
    """Choose ``cards`` in the hand's pick select: the next ``ui``, as the platform builds it."""
    menu = select_with(hand(session, seat, ui), "p")
    assert ids.parse(menu["custom_id"]).kind == "h"
    return f"{ids.parse(menu['custom_id']).arg}:{'.'.join(cards)}"


def press(rendered, text: str) -> str:
    """A hand-step button's next ``ui``."""
    return ids.parse(by_label(rendered, text)["custom_id"]).arg


def move_of(rendered, text: str) -> str | None:
    """The action key of a move button, or None while it is disabled."""
    comp = by_label(rendered, text)
    return None if comp["disabled"] else ids.parse(comp["custom_id"]).arg


def option_values(menu: dict) -> list[str]:
    return [o["value"] for o in menu["options"]]


# -- the table -------------------------------------------------------------------------------------

def test_the_table_shows_displays_with_owners_piles_hand_counts_turn_and_scores() -> None:
    session = session_of()
    rig(session, {0: ("r7a", "g6"), 1: ("b1a", "b2", "b3"), 2: ("g8",)},
        combos=((0, ("r4", "r5", "y6")), (2, ("g5", "b5", "k5")), (0, ("r9", "g9", "b9"))),
        discard=("k9", "k8", "b7a"), turn=1, phase="draw", totals=(30, -15, 0))
    text = table_text(session, last="P0 discarded 🔷7.")
    assert "## 🃏 Rummü · hand 1" in text
    assert "🏆 Scores (match to 200): ① P0 30 · ② P1 -15 · ③ P2 0" in text
    assert f"Draw pile: {len(session.state.stock)} · discard pile: 3 cards, top 🔷7" in text
    assert "🟫8" not in text and "⚫8" not in text      # only the top discard shows
    assert "① **P0** · ✋ 2 · A: ❤️4 ❤️5 ⭐6 · C: ❤️9 ☘️9 🔷9" in text
    assert "③ **P2** · ✋ 1 · B: ☘️5 🔷5 ⚫5" in text
    assert "② **P1** · ✋ 3 · none yet (opens with 3 cards or more)" in text   # a minus score opens with 3
    assert "P0 discarded 🔷7.\n▶ **P1**: take the top card of the draw pile" in text
    (rendered,) = PRESENTER.table(session, "en", None)
    hand_button = by_label(rendered, "Hand")
    assert hand_button["custom_id"] == ids.table(session.id, "hand") and not hand_button["disabled"]
    kit.check_limits(rendered)


def test_teams_share_a_score_at_four_players_unless_the_option_is_off() -> None:
    session = session_of(4)
    session.state.totals = [40, 25]
    assert "🏆 Team scores (match to 500): ① P0 & ③ P2 40 · ② P1 & ④ P3 25" in table_text(session)
    alone = session_of(4, teams=False)
    assert "🏆 Scores (match to 200): ① P0 0 · ② P1 0 · ③ P2 0 · ④ P3 0" in table_text(alone)


def test_the_table_in_german() -> None:
    session = session_of()
    rig(session, {0: ("r7a",), 1: ("b1a",), 2: ("g8",)}, combos=((1, ("r4", "r5", "r6")),), turn=2)
    text = table_text(session, "de")
    assert "**Auslagen**" in text and "② **P1** · ✋ 1 · A: ❤️4 ❤️5 ❤️6" in text
    assert "▶ **P2**: auslegen, anlegen, Joker tauschen, dann eine Karte abwerfen." in text


# -- drawing ---------------------------------------------------------------------------------------

def test_the_draw_offers_the_draw_pile_the_top_discard_and_any_deeper_take() -> None:
    session = session_of()
    discards = tuple(c for c in DECK if c[0] == "g") + tuple(c for c in DECK if c[0] == "b")[:6]  # 18 cards
    rig(session, {0: ("r1a", "r2", "r3"), 1: ("k1a",), 2: ("k2",)}, discard=discards, phase="draw")
    rendered = hand(session)
    assert "Your turn: draw first." in rendered.text
    assert move_of(rendered, f"Draw pile ({len(session.state.stock)})") == "take"
    assert move_of(rendered, "Take 🔷4") == "takediscard:1"
    deeper = select_with(rendered, "takediscard:")
    assert option_values(deeper) == [str(n) for n in range(2, 19)]
    assert deeper["options"][1]["label"] == "Top 3 cards (🔷4 and the ones under it)"
    assert "Pick cards" not in str(components(rendered))      # nothing to pick before drawing
    path = kit.hand_path(session, 0, "takediscard:3")
    assert [(ids.parse(c.custom_id).arg, c.values) for c in path] == [("takediscard:|0", ("3",))]
    events = kit.play(session, 0, "takediscard:3")
    assert PRESENTER.describe(session, events, "en") == "P0 took 3 cards from the discard pile, 🔷4 on top."
    assert session.state.hands[0] == ("r1a", "r2", "r3", "b2", "b3", "b4")


def test_a_discard_pile_longer_than_a_select_is_paged() -> None:
    session = session_of()
    discards = tuple(c for c in DECK if c[0] in "gbk")     # 36 cards
    rig(session, {0: ("r1a", "r2", "r3"), 1: ("y1a",), 2: ("y2",)}, discard=discards, phase="draw")
    assert selects(hand(session)) == ["takediscard:|0", "takediscard:|1"]
    assert kit.hand_path(session, 0, "takediscard:36") is not None


def test_others_see_their_hand_and_whose_turn_it_is() -> None:
    session = session_of()
    rig(session, {0: ("r1a", "r2"), 1: ("k1a", "y5"), 2: ("k2",)})
    rendered = hand(session, 1)
    assert "**Your hand (2):** ⭐5 ⚫1" in rendered.text and "P0 is playing." in rendered.text
    assert kit.controls(rendered) == []


# -- combinations ----------------------------------------------------------------------------------

OPENER = ("r3", "r4", "r5", "r6", "g6", "b6", "k6", "y9", "g1a")


def test_a_picked_combination_is_judged_and_laid_out_with_one_click() -> None:
    session = session_of()
    rig(session, {0: OPENER, 1: ("k1a",), 2: ("k2",)})
    plain = hand(session)
    assert "You have no display yet: your first one needs at least 4 cards" in plain.text
    assert move_of(plain, "Lay out") is None and move_of(plain, "Discard") is None
    ui = pick(session, 0, ["r6", "r3", "r5", "r4"])
    rendered = hand(session, 0, ui)
    assert "Picked: ❤️3 ❤️4 ❤️5 ❤️6 (one-colour sequence)" in rendered.text
    assert "That makes 4 cards; your first display needs 4." in rendered.text
    menu = select_with(rendered, "p")
    assert [o["value"] for o in menu["options"] if o["default"]] == ["r3", "r4", "r5", "r6"]
    assert menu["max_values"] == len(OPENER)
    assert move_of(rendered, "Lay out") == "meld:r3r4r5r6"
    events = kit.play(session, 0, "meld:r3r4r5r6")
    assert PRESENTER.describe(session, events, "en") == "P0 laid out A: ❤️3 ❤️4 ❤️5 ❤️6."
    assert "A: ❤️3 ❤️4 ❤️5 ❤️6" in table_text(session)
    assert "You have a display: you may add cards" in hand(session).text


def test_an_invalid_pick_is_offered_and_the_engine_refuses_it_with_its_reason() -> None:
    session = session_of()
    rig(session, {0: OPENER, 1: ("k1a",), 2: ("k2",)})
    ui = pick(session, 0, ["r3", "g1a", "r5", "y9"])
    rendered = hand(session, 0, ui)
    assert "(not a combination: A sequence needs consecutive digits, each once.)" in rendered.text
    key = move_of(rendered, "Lay out")
    assert key == "meld:r3r5y9g1a"
    with pytest.raises(IllegalAction) as refusal:
        kit.play(session, 0, key)
    assert refusal.value.reason == "rummu.not_consecutive"
    # The host redraws the hand with the engine's reason as its notice line.
    notice = t("en", refusal.value.reason, **refusal.value.params)
    assert hand(session, 0, "", notice).text.splitlines()[0] == "A sequence needs consecutive digits, each once."
    too_few = move_of(hand(session, 0, pick(session, 0, ["g6", "b6", "k6"])), "Lay out")
    with pytest.raises(IllegalAction) as refusal:
        kit.play(session, 0, too_few)
    assert refusal.value.reason == "rummu.opening_minimum" and refusal.value.params == {"need": 4, "have": 3}


def test_two_combinations_picked_at_once_are_cut_for_the_opening() -> None:
    session = session_of()
    rig(session, {0: ("r1a", "r2", "r3", "g6", "b6", "k6", "y9"), 1: ("k1a",), 2: ("k2",)})
    rendered = hand(session, 0, pick(session, 0, ["g6", "r2", "b6", "r1a", "k6", "r3"]))
    assert "(cut into one-colour sequence + Ling)" in rendered.text
    assert move_of(rendered, "Lay out") == "meld:r1ar2r3/g6b6k6"
    kit.play(session, 0, "meld:r1ar2r3/g6b6k6")
    assert "A: ❤️1 ❤️2 ❤️3 · B: ☘️6 🔷6 ⚫6" in table_text(session)


def test_a_pick_that_cuts_several_ways_offers_each_way() -> None:
    session = session_of()
    rig(session, {0: ("r3", "r4", "r5", "r6", "r7a", "r8", "y9"), 1: ("k1a",), 2: ("k2",)})
    ui = pick(session, 0, ["r3", "r4", "r5", "r6", "r7a", "r8"])
    rendered = hand(session, 0, ui)
    assert move_of(rendered, "Lay out") == "meld:r3r4r5r6r7ar8"            # as one, since it is one
    ways = select_with(rendered, "meld:")
    assert [(o["label"], o["value"]) for o in ways["options"]] == [("❤️3 ❤️4 ❤️5 + ❤️6 ❤️7 ❤️8", "r3r4r5/r6r7ar8")]
    assert kit.hand_path(session, 0, "meld:r6r7ar8/r3r4r5") is not None     # the engine's order is found too


def test_groups_set_aside_make_one_opening_batch() -> None:
    session = session_of()
    rig(session, {0: ("r1a", "r2", "r3", "g6", "b6", "k6", "y9"), 1: ("k1a",), 2: ("k2",)})
    first = hand(session, 0, pick(session, 0, ["g6", "b6", "k6"]))
    aside = press(first, "Set aside")
    assert aside == "p0/gg6b6k6"
    rendered = hand(session, 0, aside)
    assert "Set aside 1: ☘️6 🔷6 ⚫6 (Ling)" in rendered.text
    assert "That makes 3 cards; your first display needs 4." in rendered.text
    assert "g6" not in option_values(select_with(rendered, "p"))
    ui = pick(session, 0, ["r1a", "r2", "r3"], aside)
    assert ui == "p0/gg6b6k6:r1a.r2.r3"
    both = hand(session, 0, ui)
    assert move_of(both, "Lay out") == "meld:g6b6k6/r1ar2r3"
    assert press(both, "Clear") == "clear" and hand(session, 0, "clear").text == hand(session).text
    kit.play(session, 0, "meld:g6b6k6/r1ar2r3")
    assert "A: ☘️6 🔷6 ⚫6 · B: ❤️1 ❤️2 ❤️3" in table_text(session)


def test_adding_and_swapping_wait_for_ones_own_display() -> None:
    session = session_of()
    rig(session, {0: ("r6", "r7a", "g1a"), 1: ("k1a",), 2: ("k2",)}, combos=((1, ("r4", "r5", "y6")),))
    rendered = hand(session, 0, pick(session, 0, ["r7a"]))
    assert selects(rendered) == ["p0"]
    assert "no display yet" in rendered.text


def test_picked_cards_are_added_to_a_chosen_display() -> None:
    session = session_of()
    rig(session, {0: ("r6", "r7a", "k3", "g1a"), 1: ("k1a",), 2: ("k2",)},
        combos=((0, ("g9", "b9", "k9")), (1, ("r3", "r4", "r5"))))
    rendered = hand(session, 0, pick(session, 0, ["r7a", "r6"]))
    add = select_with(rendered, "add:")
    assert [(o["label"], o["value"]) for o in add["options"]] == [
        ("Display A of P0: ☘️9 🔷9 ⚫9", "m1:r6r7a"), ("✓ Display B of P1: ❤️3 ❤️4 ❤️5", "m2:r6r7a")]
    events = kit.play(session, 0, "add:m2:r6r7a")
    assert PRESENTER.describe(session, events, "en") == "P0 added ❤️6 ❤️7 to display B."
    assert "B: ❤️3 ❤️4 ❤️5 ❤️6 ❤️7" in table_text(session)
    with pytest.raises(IllegalAction) as refusal:
        kit.play(session, 0, "add:m1:k3")
    assert refusal.value.reason == "rummu.not_consecutive"


def test_a_joker_is_swapped_for_the_card_it_stands_for() -> None:
    session = session_of()
    rig(session, {0: ("r6", "g6", "k3", "g1a"), 1: ("k1a",), 2: ("k2",)},
        combos=((0, ("g9", "b9", "k9")), (1, ("r4", "r5", "y6"))))
    rendered = hand(session)
    swap = select_with(rendered, "swap:")
    assert [(o["label"], o["value"]) for o in swap["options"]] == [("❤️6 for ⭐6 in display B of P1", "m2:r6")]
    assert kit.hand_path(session, 0, "swap:m2:r6")[-1].values == ("m2:r6",)
    events = kit.play(session, 0, "swap:m2:r6")
    assert PRESENTER.describe(session, events, "en") == "P0 put ❤️6 in place of the joker ⭐6 in display B and took the joker."
    assert "y6" in session.state.hands[0] and "B: ❤️4 ❤️5 ❤️6" in table_text(session)


def test_one_picked_card_is_discarded_and_the_turn_passes() -> None:
    session = session_of()
    rig(session, {0: ("r6", "g6", "k3"), 1: ("k1a",), 2: ("k2",)})
    assert move_of(hand(session, 0, pick(session, 0, ["r6", "g6"])), "Discard") is None
    rendered = hand(session, 0, pick(session, 0, ["k3"]))
    assert "Picked: ⚫3" in rendered.text
    assert move_of(rendered, "Discard") == "discard:k3"
    events = kit.play(session, 0, "discard:k3")
    assert PRESENTER.describe(session, events, "en") == "P0 discarded ⚫3."
    assert "▶ **P1**: take the top card" in table_text(session) and "top ⚫3" in table_text(session)


def test_a_stale_or_malformed_step_shows_the_plain_hand() -> None:
    session = session_of()
    rig(session, {0: ("r6", "g6", "k3"), 1: ("k1a",), 2: ("k2",)})
    plain = hand(session).text
    for ui in ("p0:k1a", "p0:zz", "p0/gzz", "p0/xk3", "q0:r6", "p0:r6.r6", "p0/gr6:r6", "clear", "p:", "p0/c"):
        assert hand(session, 0, ui).text == plain, ui


def test_a_hand_of_more_than_25_cards_pages_and_keeps_the_pick() -> None:
    session = session_of()
    big = tuple(c for c in DECK if c[0] in "rgb")[:30]
    rig(session, {0: big, 1: ("k1a",), 2: ("k2",)})
    first = hand(session)
    assert len(select_with(first, "p0")["options"]) == 25
    ui = pick(session, 0, ["r0", "r1a"])
    turned = press(hand(session, 0, ui), "Page 2/2")
    assert turned == "p1/cr0r1a"
    second = hand(session, 0, turned)
    assert option_values(select_with(second, "p1")) == list(sort_cards(big))[25:]
    ui = pick(session, 0, [sort_cards(big)[25]], turned)
    both = hand(session, 0, ui)
    assert "Picked: ❤️0 ❤️1 🔷1 (" in both.text
    assert move_of(both, "Lay out") == f"meld:r0r1a{sort_cards(big)[25]}"
    for rendered in (first, second, both):
        kit.check_limits(rendered, ephemeral=True)


# -- hand end --------------------------------------------------------------------------------------

def test_going_out_is_described_and_the_hand_is_scored_in_public() -> None:
    session = session_of()
    rig(session, {0: ("k3",), 1: ("y1a", "b2"), 2: ("k2",)}, combos=((0, ("r3", "r4", "r5", "r6")),))
    events = kit.play(session, 0, "discard:k3")
    line = PRESENTER.describe(session, events, "en")
    (top,) = session.state.discard
    assert line == (f"P0 discarded ⚫3. 🎉 P0 went out: hand 1 is over. "
                    f"Hand 2: P{session.state.dealer} deals, {label(top)} starts the discard pile.")
    summary = PRESENTER.summary(session, events, "en")
    lines = summary.splitlines()
    assert lines[0] == "📋 **Rummü**: hand 1 is scored."
    assert "• P0: One-colour sequence 3–6, pure (display A) (+20)" in lines
    assert "• P0: Went out (+10)" in lines
    assert "• P1: Jokers left in hand: 1 (-10)" in lines and "• P1: Other cards left in hand: 1 (-5)" in lines
    assert lines[-1] == "Totals: P0 30 · P1 -15 · P2 -5"
    kit.check_public_lines(session, events)
    assert PRESENTER.summary(session, events[:1], "en") is None


def test_the_last_hand_leaves_its_breakdown_to_the_match_summary() -> None:
    session = session_of(target=20)
    rig(session, {0: ("k3",), 1: ("y1a", "b2"), 2: ("k2",)}, combos=((0, ("r3", "r4", "r5", "r6")),))
    events = kit.play(session, 0, "discard:k3")
    assert session.status == "finished"
    assert PRESENTER.summary(session, events, "en") is None
    assert "🏁 The match is over." in table_text(session)
    assert "The match is over." in hand(session, 1).text and kit.controls(hand(session, 1)) == []


def test_every_option_has_a_label_and_help_in_both_languages() -> None:
    from games.rummu import Options

    for lang in ("en", "de"):
        for name in Options.model_fields:
            assert len(t(lang, f"rummu.ui.option.{name}.label")) <= 45
            assert len(t(lang, f"rummu.ui.option.{name}.help")) <= 100
        assert len(t(lang, "rummu.ui.rules")) <= 1900
