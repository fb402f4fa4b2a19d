"""Safarü's table and hand: what the table tells everyone, how catches read, the forced catch, paging."""

from __future__ import annotations

import random

from bot.tables.safaru.presenter import MOST_TAKEN, PRESENTER
from bot.transport import ids
from games.base import Action
from games.deck import sort_cards
from games.safaru.catches import LISTED, catches, parse_catch
from tests.ui import kit

ADDING_TABLE = ("g3", "b4", "k6")  # S1: a 7 takes 3 + 4 by adding or 4 + 6 by seventeen
MANY_TABLE = ("r1a", "y1a", "g2", "b3", "k4", "r5", "y6", "b8")  # an 8 catches in 71 ways
BIG_TABLE = ("r1a", "y1a", "g1a", "b1a", "r2", "y2", "g3", "b3", "k4", "r5")  # a 9 catches in 703 ways
#: Twenty small cards: nobody caught for a while. Every card catches in far more than a hundred ways.
LOW_TABLE = ("r0", "y0", "r1a", "y1a", "g1a", "b1a", "k1a", "r1b", "r2", "y2", "g2", "b2", "k2", "r3",
             "y3", "g3", "b3", "k3", "r4", "y4")


def arrange(session, seat: int, hand: tuple[str, ...], table: tuple[str, ...]) -> None:
    """Give ``seat`` this hand and the table these free cards; the cards they replace go to the deck."""
    state = session.state
    wanted = set(hand) | set(table)
    spare = [c for h in state.hands for c in h if c not in wanted] + [c for c in state.table if c not in wanted]
    state.deck = [c for c in state.deck if c not in wanted] + spare
    state.hands = [tuple(c for c in h if c not in wanted) for h in state.hands]
    state.hands[seat] = tuple(sort_cards(hand))
    state.table = table
    state.turn = seat
    for other in range(state.players):
        if other != seat and not state.hands[other]:
            state.hands[other] = (state.deck.pop(0),)


components = kit.components
table_text = kit.table_text


def labels_of(rendered, kind: int) -> list[str]:
    return [c["label"] for c in components(rendered) if c["type"] == kind]


def select_labels(rendered) -> list[str]:
    return [o["label"] for c in components(rendered) if c["type"] == 3 for o in c["options"]]


def legal(session, seat: int) -> set[str]:
    return {a.key for a in session.game.legal_actions(session.state, seat)}


# -- the table -------------------------------------------------------------------------------------

def test_table_shows_free_cards_catch_counts_deck_and_turn() -> None:
    session = kit.make_session("safaru", 2, seed="table")
    arrange(session, 1, ("r7a", "y8"), ADDING_TABLE)
    session.state.piles[0] = ("r5", "b5")
    text = table_text(session, last="🕊️ something happened")
    assert "**Free cards (3):** ☘️3 🔷4 ⚫6" in text
    assert f"① **P0**: {len(session.state.hands[0])} in hand · 2 caught" in text
    assert "② **P1**: 2 in hand · 0 caught" in text
    assert f"**Deck:** {len(session.state.deck)} cards" in text
    assert "▶ **P1** plays a card." in text and "🕊️ something happened" in text
    assert "❤️ 🦄 unicorns" in text and "🔷 🐟 fish" in text
    assert "Match" not in text and "🦄 1" not in text  # one game, closed piles: no scores, no contents
    (rendered,) = PRESENTER.table(session, "en", None)
    hand = next(c for c in components(rendered) if c.get("custom_id") == ids.table(session.id, "hand"))
    assert hand["label"] == "Hand" and not hand["disabled"]


def test_table_shows_teams_match_scores_and_open_piles() -> None:
    session = kit.make_session("safaru", 4, seed="teams", options={"match_target": 100, "open_piles": True})
    session.state.piles[1] = ("r5", "b0", "k7a")
    session.state.totals = [27, 15]
    text = table_text(session, "de")
    assert "①③ **P0 & P2**: 4 + 4 auf der Hand · 0 gefangen" in text
    assert "②④ **P1 & P3**: 4 + 4 auf der Hand · 3 gefangen (🦄 1 · 🐟 1 · 🍼 1 · ▲ 4)" in text
    assert "🏆 **Partie bis 100:** P0 & P2 27 · P1 & P3 15" in text


def test_a_finished_or_stopped_table_says_so_and_closes_the_hand_button() -> None:
    session = kit.make_session("safaru", 2)
    session.status = "stopped"
    (rendered,) = PRESENTER.table(session, "en", None)
    assert "⏹️ Stopped without a result." in table_text(session)
    assert all(c["disabled"] for c in components(rendered) if c["type"] == 2)


# -- describing catches ----------------------------------------------------------------------------

def test_the_chosen_card_lists_adding_and_seventeen_in_plain_words() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("r7a", "y8"), ADDING_TABLE)
    hand = PRESENTER.hand(session, 0, "en", "r7a", None)
    assert sorted(select_labels(hand)) == ["take ☘️3 + 🔷4 by adding", "take 🔷4 + ⚫6 by seventeen"]
    assert "❤️7 can catch in 2 ways" in hand.text
    german = PRESENTER.hand(session, 0, "de", "r7a", None)
    assert sorted(select_labels(german)) == ["nimm ☘️3 + 🔷4 durch Addieren", "nimm 🔷4 + ⚫6 durch die 17"]
    details = [o["description"] for c in components(hand) if c["type"] == 3 for o in c["options"]]
    assert "2 cards: 🦄 0 · 🐟 1 · 🍼 0 · ▲ 2; your ❤️7 goes free" in details


def test_a_single_catch_is_one_button_and_a_combination_names_every_method() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k5", "y8"), ("r5", "g3", "b9"))  # S2: pairing the 5 and 3 + 9 to seventeen
    found = {c.arg for c in catches("k5", session.state.table)}
    assert "k5/sev=g3b9/pair=r5" in found
    hand = PRESENTER.hand(session, 0, "en", "k5", None)
    assert "take ☘️3 + 🔷9 by seventeen, ❤️5 by pairing" in select_labels(hand)
    assert "take ❤️5 by pairing" in select_labels(hand)
    arrange(session, 0, ("k5", "y8"), ("r5", "g8"))
    hand = PRESENTER.hand(session, 0, "en", "k5", None)
    (catch,) = [c for c in components(hand) if c.get("custom_id", "").endswith(":play:k5/pair=r5")]
    assert catch["label"] == "take ❤️5 by pairing" and catch["style"] == 3
    assert "2 cards with your ⚫5: 🦄 1 · 🐟 0 · 🍼 0 · ▲ 2" in hand.text


def test_describe_tells_the_play_the_catch_and_the_deal() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k5",), ("r5", "g3", "b9"))
    session.state.hands[1] = ()
    events = kit.play(session, 0, "play:k5/sev=g3b9/pair=r5")
    line = PRESENTER.describe(session, events, "en")
    assert line.startswith("🎯 **P0** plays ⚫5 and takes ☘️3 + 🔷9 by seventeen, ❤️5 by pairing, together with ⚫5.")
    assert "🃏 **P1** deals round 2: new free cards" in line
    kit.check_public_lines(session, events)
    arrange(session, 1, ("y2", "g8"), ("r8", "k9"))
    events = kit.play(session, 1, "play:y2")
    assert PRESENTER.describe(session, events, "de") == "🕊️ **P1** lässt ⭐2 frei."


# -- the forced catch ------------------------------------------------------------------------------

def test_a_card_that_can_catch_is_never_offered_as_a_release() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("r7a", "y2"), ADDING_TABLE)  # the 7 catches; the 2 cannot (as in worked case S5)
    hand = PRESENTER.hand(session, 0, "en", "", None)
    moves = [ids.parse(c["custom_id"]).arg for c in components(hand) if c.get("custom_id", "").startswith("st:m:")]
    assert moves == ["play:y2"]
    assert labels_of(hand, 2) == ["❤️7 · 2 catches", "⭐2 · release"]
    assert "❤️7 can only be played with a catch" in hand.text
    assert kit.reachable(session, 0) == legal(session, 0)


def test_when_no_card_can_catch_every_card_is_a_one_click_release() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("y2", "g3"), ("r8", "k9"))
    hand = PRESENTER.hand(session, 0, "en", "", None)
    assert labels_of(hand, 2) == ["⭐2 · release", "☘️3 · release"]
    assert "None of your cards can catch" in hand.text
    assert kit.reachable(session, 0) == legal(session, 0) == {"play:y2", "play:g3"}


def test_a_hand_out_of_turn_shows_the_cards_and_no_choices() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("r7a",), ADDING_TABLE)
    hand = PRESENTER.hand(session, 1, "de", "", None)
    assert not kit.controls(hand) and "P0 ist am Zug" in hand.text
    assert hand.text.startswith("**Deine Karten:**")


def test_a_stale_step_shows_the_plain_hand() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("r7a", "y2"), ADDING_TABLE)
    plain = kit.body(PRESENTER.hand(session, 0, "en", "", None))
    for ui in ("g9", "y2", "r7a~x", "~3", "r7a~", ":"):
        body = kit.body(PRESENTER.hand(session, 0, "en", ui, None))
        assert body == plain or ui.startswith("r7a"), ui
    assert kit.body(PRESENTER.hand(session, 0, "en", "r7a~99", None)) == \
        kit.body(PRESENTER.hand(session, 0, "en", "r7a", None))  # one page only: the page is clamped


# -- many catches ----------------------------------------------------------------------------------

def test_up_to_a_hundred_catches_share_one_page_of_selects() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k8",), MANY_TABLE)
    hand = PRESENTER.hand(session, 0, "en", "k8", None)
    selects = [c for c in components(hand) if c["type"] == 3]
    assert [len(s["options"]) for s in selects] == [25, 25, 21]
    assert len({s["custom_id"] for s in selects}) == 3
    assert not any("~" in c.get("custom_id", "") for c in components(hand))
    kit.check_limits(hand, ephemeral=True)


def pick(session, seat: int, card: str, cards: tuple[str, ...]):
    """The hand after picking ``cards`` for ``card``: each of the picker's selects clicked once, in
    order, with the values Discord would send (``bot.play.clicks`` builds the next step the same way)."""
    ui = card
    rendered = PRESENTER.hand(session, seat, "en", ui, None)
    for n in range(len([c for c in components(rendered) if c["type"] == 3])):
        menu = [c for c in components(rendered) if c["type"] == 3][n]
        values = [o["value"] for o in menu["options"] if o["value"] in cards]
        arg = ids.parse(menu["custom_id"]).arg
        ui = f"{arg}:{'.'.join(values)}" if values else arg
        rendered = PRESENTER.hand(session, seat, "en", ui, None)
    return rendered


def moves(rendered) -> list[str]:
    return [ids.parse(c["custom_id"]).arg for c in components(rendered) if c.get("custom_id", "").startswith("st:m:")]


def test_hundreds_of_catches_let_the_player_pick_the_free_cards_instead() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k9", "y7a"), BIG_TABLE)
    assert len(catches("k9", BIG_TABLE)) == 703
    assert "⚫9 · 100+ catches" in labels_of(PRESENTER.hand(session, 0, "en", "", None), 2)
    first = PRESENTER.hand(session, 0, "en", "k9", None)
    assert "⚫9 can catch in more than 100 ways: pick the free cards to take" in first.text
    (menu,) = [c for c in components(first) if c["type"] == 3]
    assert ids.parse(menu["custom_id"]).kind == "h" and (menu["min_values"], menu["max_values"]) == (0, 10)
    assert [o["value"] for o in menu["options"]] == ["r1a", "y1a", "g1a", "b1a", "r2", "y2", "g3", "b3", "k4", "r5"]
    assert not moves(first) or moves(first) == ["play:y7a"]

    added = pick(session, 0, "k9", ("r1a", "r2", "g3", "b3"))
    assert "**Picked:** ❤️1 ❤️2 ☘️3 🔷3" in added.text
    assert moves(added) == ["play:k9/add=r1ar2g3b3"]
    assert "Catch: take ❤️1 + ❤️2 + ☘️3 + 🔷3 by adding." in added.text
    assert [o["value"] for c in components(added) if c["type"] == 3 for o in c["options"] if o["default"]] == \
        ["r1a", "r2", "g3", "b3"]
    both = pick(session, 0, "k9", ("r1a", "y1a", "g1a", "r2", "y2", "g3", "b3", "k4"))  # 17: adding + seventeen
    (key,) = moves(both)
    session.game.check(session.state, 0, Action.parse(key))
    wrong = pick(session, 0, "k9", ("r1a", "k4"))
    assert "⚫9 cannot take exactly these cards" in wrong.text and moves(wrong) == []
    for rendered in (first, added, both, wrong):
        kit.check_limits(rendered, ephemeral=True)


def test_every_catch_of_a_picked_card_is_three_clicks_away_listed_or_not() -> None:
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k9", "y7a"), BIG_TABLE)
    listed = sorted(key for key in legal(session, 0) if key.startswith("play:k9/"))
    assert len(listed) == LISTED
    beyond = [f"play:{c.arg}" for c in catches("k9", BIG_TABLE)[LISTED:]]
    for key in [*listed[::17], *beyond[::97]]:
        path = kit.hand_path(session, 0, key)
        assert path is not None and len(path) == 3, key
        made, wanted = (parse_catch(Action.parse(k).arg) for k in (ids.parse(path[-1].custom_id).arg, key))
        session.game.check(session.state, 0, Action("play", made.arg))
        assert sorted(made.taken) == sorted(wanted.taken) and bool(made.pair) == bool(wanted.pair)


def test_a_pick_that_pairs_or_not_offers_both_and_too_many_picks_start_over() -> None:
    session = kit.make_session("safaru", 2)
    table = (*LOW_TABLE, "g5", "b7a")
    arrange(session, 0, ("k5",), table)
    assert len(catches("k5", table, LISTED + 1)) > LISTED
    # 0 + 2 + 3 + 5 + 7 = 17: adding 2 + 3 with seventeen 5 + 7, or pairing the 5 with seventeen
    # 2 + 3 + 7; the 0 goes along either way (the baby rule)
    two = pick(session, 0, "k5", ("r0", "r2", "r3", "g5", "b7a"))
    assert moves(two) == ["play:k5/add=r0r2r3/sev=g5b7a", "play:k5/sev=r0r2r3b7a/pair=g5"]
    assert labels_of(two, 2)[-2:] == ["take ❤️0 + ❤️2 + ❤️3 by adding, ☘️5 + 🔷7 by seventeen",
                                      "take ❤️0 + ❤️2 + ❤️3 + 🔷7 by seventeen, ☘️5 by pairing"]
    assert moves(pick(session, 0, "k5", ("r2", "r3", "g5", "b7a"))) == []  # a 0 lies free
    for key in moves(two):
        session.game.check(session.state, 0, Action.parse(key))
    over = pick(session, 0, "k5", table[:MOST_TAKEN + 1])
    assert "No catch takes more than 19 cards: pick again." in over.text
    assert moves(over) == [] and not any(o["default"] for c in components(over) if c["type"] == 3 for o in c["options"])


def test_more_than_twenty_five_free_cards_split_the_picker_and_a_catch_spans_both() -> None:
    session = kit.make_session("safaru", 3)
    table = (*LOW_TABLE, "g5", "b7a", "y8", "k8", "r9", "g9")
    assert len(table) > 25
    arrange(session, 0, ("b9", "g4", "k5"), table)
    first = PRESENTER.hand(session, 0, "en", "b9", None)
    menus = [c for c in components(first) if c["type"] == 3]
    assert [len(m["options"]) for m in menus] == [25, len(table) - 25]
    key = "play:b9/add=r0r1ay8/pair=g9"  # 0 + 1 + 8 add up to 9 and the other 9 pairs
    session.game.check(session.state, 0, Action.parse(key))
    path = kit.hand_path(session, 0, key)
    assert path is not None and ids.parse(path[-1].custom_id).arg == key
    assert len([click for click in path if click.values]) == 2  # one pick in each select
    rendered = pick(session, 0, "b9", ("r0", "r1a", "y8", "g9"))
    assert moves(rendered)[-1] == key
    kit.check_limits(rendered, ephemeral=True)


def test_the_hand_never_works_out_more_catches_than_a_list_shows(monkeypatch) -> None:
    """With twenty small free cards each card catches in thousands of ways: the hand asks for one
    more than a list holds (to know it does not fit), and the picker makes catches from picks."""
    import bot.tables.safaru.presenter as ui

    asked: list[int | None] = []

    def counted(card, table, limit=None):
        asked.append(limit)
        return catches(card, table, limit)

    monkeypatch.setattr(ui, "catches", counted)
    session = kit.make_session("safaru", 2)
    arrange(session, 0, ("k9", "g7a", "b5", "k1b"), LOW_TABLE)
    assert len(catches("k9", LOW_TABLE, 5 * LISTED)) == 5 * LISTED
    for step in ("", "k9", "g7a", "k1b"):
        PRESENTER.hand(session, 0, "en", step, None)
    pick(session, 0, "k9", ("r0", "r1a", "y1a", "r3", "y4"))
    assert asked and all(limit == LISTED + 1 for limit in asked)


def test_renderings_stay_private_on_a_crowded_table() -> None:
    session = kit.make_session("safaru", 3)
    arrange(session, 0, ("k8", "y7a", "b2"), MANY_TABLE)
    kit.check_private(session, random.Random(4))


# -- scoring ---------------------------------------------------------------------------------------

def test_a_game_of_a_match_posts_its_breakdown_with_team_names() -> None:
    session = kit.make_session("safaru", 4, options={"match_target": 500})
    rng = random.Random(1)
    summary = None
    while summary is None:
        seat = next(iter(session.to_act()))
        events = kit.play(session, seat, rng.choice(sorted(legal(session, seat))))
        summary = PRESENTER.summary(session, events, "en")
        assert PRESENTER.summary(session, [e for e in events if e.to is None], "en") == summary
    assert summary.startswith("📋 **Safarü**: game 1 is scored.")
    assert "• P0 & P2: Baby animals (0s):" in summary and "• P1 & P3: Triangles:" in summary
    assert "Totals: P0 & P2 " in summary and "P3 " not in summary.splitlines()[-1].split("·")[0]
    assert "🏁 Game 1 is scored." in PRESENTER.describe(session, events, "en")


def test_the_last_game_leaves_its_breakdown_to_the_closing_summary() -> None:
    session = kit.make_session("safaru", 2)
    rng = random.Random(2)
    said = []
    while session.status == "playing":
        seat = next(iter(session.to_act()))
        events = kit.play(session, seat, rng.choice(sorted(legal(session, seat))))
        said.append(PRESENTER.summary(session, events, "en"))
    assert said == [None] * len(said) and session.game.is_over(session.state)
    assert "🏁 The match is over." in table_text(session)


def test_rules_and_house_rule_labels_exist_in_both_languages() -> None:
    from bot.i18n import t
    from games.safaru import Options

    for lang in ("en", "de"):
        rules = t(lang, "safaru.ui.rules")
        assert len(rules) <= 1900 and "❤️" in rules and "🔷" in rules  # the table's own animal colours
        for field in Options.model_fields:
            assert 0 < len(t(lang, f"safaru.ui.option.{field}.label")) <= 45
            assert 0 < len(t(lang, f"safaru.ui.option.{field}.help")) <= 100
