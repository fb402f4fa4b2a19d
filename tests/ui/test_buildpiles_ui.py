"""Da Capo!'s and Skippo's table and hand on rigged positions: what the table shows, that the hand
offers exactly the legal moves (one click per play where they fit), the games' special moves, and
the public lines about a move, a won game and a stalled one."""

from __future__ import annotations

import random

import games
from bot import i18n
from bot.play.writer import move_log
from bot.registry import presenter
from bot.tables.buildpiles import presenter as buildpiles
from bot.transport import ids
from bot.ui import movelog
from games.buildpiles import rig
from tests.ui import kit


def at(key: str, players: int = 2, options: dict | None = None, lang: str = "en", **rigging):
    game = games.REGISTRY[key]
    opts = game.parse_options(options or {})
    session = kit.make_session(key, players, options=opts, lang=lang)
    session.state = rig(game, players, options=opts, **rigging)
    session.opening = []  # a rigged position had no deal
    return session


def table_text(session, lang: str = "en", last: str | None = None) -> str:
    (rendered,) = presenter(session.game.key).table(session, lang, last)
    return "\n".join(c["content"] for c in kit.components(rendered) if c["type"] == 10)


def hand(session, seat: int = 0, ui: str = "", lang: str = "en"):
    return presenter(session.game.key).hand(session, seat, lang, ui, None)


def controls(rendered) -> list[dict]:
    return kit.controls(rendered)


def buttons(rendered, kind: str = "m") -> dict[str, dict]:
    """Buttons by their move's action key (``kind="m"``) or hand step (``"h"``)."""
    out = {}
    for comp in controls(rendered):
        click = ids.parse(comp["custom_id"])
        if comp["type"] == 2 and click.kind == kind:
            out[click.arg] = comp
    return out


def labels(rendered, kind: str = "m") -> dict[str, str]:
    return {key: comp["label"] for key, comp in buttons(rendered, kind).items()}


def discard_options(rendered) -> dict[str, str]:
    """The discard select's options: action key → label."""
    for comp in controls(rendered):
        click = ids.parse(comp["custom_id"])
        if comp["type"] == 3 and click.kind == "s":
            return {click.arg + o["value"]: o["label"] for o in comp["options"]}
    return {}


def legal(session, seat: int = 0) -> set[str]:
    return {a.key for a in session.game.legal_actions(session.state, seat)}


def card_id(session, seat: int, face: str, where: str = "hand") -> str:
    cards = session.state.seats[seat].hand if where == "hand" else session.state.seats[seat].pile
    return next(c for c in cards if session.game.face(c) == face)


# -- the table ----------------------------------------------------------------------------------
def test_dacapo_table_shows_build_piles_piles_helpers_hands_supply_turn_and_scores():
    session = at("dacapo", 3, current=1, build=[6, ["1", "X"]],
                 piles={0: ["4", "9"], 1: ["2", "2", "7"], 2: ["X"]},
                 hands={0: ["3"], 1: ["5", "6"], 2: ["1", "1", "1", "1"]},
                 helpers={0: [["5", "8"], [], ["10"]]}, draw=["3"] * 4, rest="box", scores=[12, 0, 30])
    text = table_text(session, last="P0 played pile 7 → A.")
    lines = text.splitlines()
    assert lines[0] == "## 🎼 Da Capo! · game 1" and "First to 50 points" in text
    assert "**Build piles:** A **6** · B **2**🃏 · C free" in text
    assert "Draw pile: **4**" in lines and "set aside" not in text
    assert "① **P0** · 📚 **9** (2 left) · ✋ 1 · H1 **8** (2) · H2 — · H3 **10** · **12** pts" in lines
    assert "② ▶ **P1** · 📚 **7** (3 left) · ✋ 2 · H1 — · H2 — · H3 — · **0** pts" in lines
    assert "③ **P2** · 📚 **🃏** (1 left) · ✋ 4 · H1 — · H2 — · H3 — · **30** pts" in lines
    assert lines[-2:] == ["P0 played pile 7 → A.", "▶ It is **P1**'s turn."]


def test_skippo_table_shows_set_aside_jokers_helper_caps_and_the_match():
    session = at("skippo", piles={0: ["5", "7"]}, reserves={0: ["X"]}, hands={0: ["9"], 1: ["K"]},
                 helpers={1: [["9", "X"], ["Q"]]}, build=[["A", "2"]], options={"games": 3}, lang="de")
    text = table_text(session, "de")
    assert text.startswith("## ♠️ Skippo · Spiel 1 von 3")
    assert "**Aufbaustapel:** A **2** · B frei · C frei · D frei" in text
    assert "① ▶ **P0** · 📚 **7** (noch 2) · beiseite 🃏 · ✋ 1" in text
    assert "H1 **🃏≤9** (2) · H2 **Q** · H3 — · H4 —" in text


def test_the_table_keeps_every_hand_secret():
    for key in ("dacapo", "skippo"):
        session = kit.make_session(key, 3)
        rng = random.Random(5)
        for _ in range(4):
            kit.random_walk(session, rng, 9)
            kit.check_private(session, rng)


# -- the hand: exactly the legal moves ---------------------------------------------------------
def test_a_play_is_one_click_and_only_legal_targets_are_offered():
    session = at("dacapo", build=[6, 3], piles={0: ["7"]}, hands={0: ["7", "4", "2", "9"]},
                 helpers={0: [["1"]]})
    rendered = hand(session)
    offered = labels(rendered)
    seven = card_id(session, 0, "7")
    assert offered[f"play:{session.state.seats[0].pile[-1]}@pile>b1"] == "pile 7 → A"
    assert offered[f"play:{seven}@hand>b1"] == "7 → A"
    assert offered[f"play:{card_id(session, 0, '4')}@hand>b2"] == "4 → B"
    helper_one = session.state.seats[0].helpers[0][-1]
    assert offered[f"play:{helper_one}@helper:1>new"] == "H1·1 → C (new)"
    assert not any(">b2" in key and "4" not in label for key, label in offered.items())  # 7, 2, 9 fit nowhere else
    assert kit.reachable(session, 0) == legal(session)
    assert len(kit.hand_path(session, 0, f"play:{seven}@hand>b1")) == 1
    assert buttons(rendered)[f"play:{session.state.seats[0].pile[-1]}@pile>b1"]["style"] == 3  # own pile: green


def test_equal_cards_show_once_and_each_copy_is_reachable_by_card():
    session = at("dacapo", build=[6], hands={0: ["7", "7", "2", "9"]})
    first, second = (c for c in session.state.seats[0].hand if session.game.face(c) == "7")
    quick = labels(hand(session))
    assert list(quick.values()).count("7 → A") == 1
    by_card = labels(hand(session, ui="cards"), "h")
    assert f"c:hand/{second}" in by_card and by_card[f"c:hand/{second}"] == "7"
    mine = labels(hand(session, ui=f"c:hand/{second}"))
    assert mine[f"play:{second}@hand>b1"] == "7 → A"
    assert f"discard:{second}>new" in mine and f"play:{first}@hand>b1" not in mine
    assert kit.reachable(session, 0) == legal(session)


def test_dacapo_offers_other_players_pile_tops_but_not_their_helpers():
    session = at("dacapo", 3, build=[2], piles={1: ["6", "3"], 2: ["3"]}, hands={0: ["8"]},
                 helpers={1: [["3"]]})
    offered = labels(hand(session))
    top = session.state.seats[1].pile[-1]
    assert offered[f"play:{top}@pile:seat1>b1"] == "3 from P1's pile → A"
    assert buttons(hand(session))[f"play:{top}@pile:seat1>b1"]["style"] == 4  # it helps P1: red
    assert f"play:{session.state.seats[2].pile[-1]}@pile:seat2>b1" in offered  # P2's last card: P2 would win
    assert not any("helper" in key for key in offered)
    forbidden = at("dacapo", 3, build=[2], piles={1: ["6", "3"], 2: ["3"]}, hands={0: ["8"]},
                   options={"empty_opponent_pile": "forbidden"})
    assert not any("pile:seat2" in key for key in labels(hand(forbidden)))


def test_dacapo_discards_go_to_any_helper_and_an_empty_hand_may_draw_four():
    session = at("dacapo", hands={0: ["5", "9"]}, helpers={0: [["4"], ["7"]]})
    options = discard_options(hand(session))
    five = card_id(session, 0, "5")
    assert options[f"discard:{five}>helper:1"] == "5 → H1" and options[f"discard:{five}>new"] == "5 → H3 (new)"
    assert len(options) == 6
    empty = at("dacapo", hands={0: []}, build=[3])
    rendered = hand(empty)
    assert labels(rendered) == {"draw": "Draw 4", "end": "End turn"}
    assert "Your hand is empty: draw 4 new cards" in rendered.text and not discard_options(rendered)
    dry = at("dacapo", hands={0: []}, build=[3], rest="box")
    assert labels(hand(dry)) == {"end": "End turn"}
    assert "Your hand is empty: play what you can, then end your turn." in hand(dry).text


def test_skippo_discards_follow_the_helper_order_and_keep_aces():
    session = at("skippo", build=[4, 5, 6, 7], hands={0: ["A", "7", "10", "9"]}, helpers={0: [["9"]]})
    options = discard_options(hand(session))
    seven, nine, ten = (card_id(session, 0, f) for f in ("7", "9", "10"))
    assert f"discard:{seven}>helper:1" in options and f"discard:{nine}>helper:1" in options
    assert f"discard:{ten}>helper:1" not in options and options[f"discard:{ten}>new"] == "10 → H2 (new)"
    assert not any(card_id(session, 0, "A") in key for key in options)
    stuck = at("skippo", build=[12, 12, 12, 12], hands={0: ["9", "10", "J"]},
               helpers={0: [["2"], ["3"], ["4"], ["5"]]})
    rendered = hand(stuck)
    assert labels(rendered) == {"end": "End turn"} and not discard_options(rendered)
    assert "No hand card fits on a helper pile" in rendered.text


def test_skippo_jokers_go_out_only_in_runs_and_a_stock_joker_may_be_set_aside():
    session = at("skippo", build=[4, 6], piles={0: ["8", "X"]}, hands={0: ["X", "6", "K"]},
                 helpers={0: [["9", "X"]]})
    offered = labels(hand(session))
    assert not any(key.startswith("play:X") for key in offered)  # never a joker on its own
    hand_joker, six = card_id(session, 0, "X"), card_id(session, 0, "6")
    assert offered[f"run:{hand_joker}+{six}>b1"] == "🃏+6 → A"
    helper_joker = session.state.seats[0].helpers[0][-1]
    assert offered[f"run:{helper_joker}+{six}>b1"] == "H1·🃏+6 → A"
    assert offered[f"aside:{session.state.seats[0].pile[-1]}"] == "Set the joker aside"
    assert kit.reachable(session, 0) == legal(session)
    kit.play(session, 0, f"aside:{session.state.seats[0].pile[-1]}")
    reserve = session.state.seats[0].reserve[0]
    offered = labels(hand(session))
    assert not any("@stock" in key for key in offered)  # the stock waits for its joker
    assert offered[f"run:{reserve}+{session.state.seats[0].pile[-1]}>b2"] == "set-aside 🃏+stock 8 → B"
    assert "**Your stock:** 📚 **8** (1 left) · set aside 🃏" in hand(session).text


def test_many_plays_become_steps_and_every_move_stays_reachable():
    session = at("dacapo", 6, options={"hand_size": 6, "build_piles": 4, "helper_piles": 4},
                 build=[2, 3, 4], hands={0: ["X", "3", "4", "5", "1", "X"]},
                 helpers={0: [["X"], ["5"], ["3"], ["4"]]}, piles={k: ["5"] for k in range(1, 6)})
    rendered = hand(session)
    steps = labels(rendered, "h")
    assert "c:hand/" + card_id(session, 0, "X") in steps and steps["cards"] == "By card…"
    assert len(controls(rendered)) <= 25 and kit.reachable(session, 0) == legal(session)
    kit.check_limits(rendered, ephemeral=True)
    for ui in kit.hand_states(session, 0):
        kit.check_limits(hand(session, ui=ui), ephemeral=True)


def test_pages_when_even_the_steps_do_not_fit(monkeypatch):
    monkeypatch.setattr(buildpiles, "HAND_ROWS", 3)  # one row of plays left in the quick view
    monkeypatch.setattr(buildpiles, "PAGE", 4)
    session = at("dacapo", 6, options={"hand_size": 6, "build_piles": 4, "helper_piles": 4},
                 build=[2, 3, 4], hands={0: ["X", "3", "4", "5", "1", "X"]},
                 helpers={0: [["X"], ["5"], ["3"], ["4"]]}, piles={k: ["5"] for k in range(1, 6)})
    steps = labels(hand(session), "h")
    assert steps["#1"] == "▶ 2/3" and "#2" not in steps
    assert labels(hand(session, ui="#2"), "h")["#1"] == "◀ 2/3"
    assert labels(hand(session, ui="cards#1"), "h")["cards#2"] == "▶ 3/4"
    assert kit.reachable(session, 0) == legal(session)


def test_a_stale_or_unknown_step_shows_the_quick_view_and_others_only_wait():
    session = at("dacapo", build=[6], hands={0: ["7"], 1: ["2"]})
    plain = kit.body(hand(session))
    for ui in ("c:hand/zz", "c:", "runs", "cards#99", "#7", "x:y"):
        assert kit.body(hand(session, ui=ui))["components"] is not None
    assert kit.body(hand(session, ui="c:hand/zz")) == plain
    waiting = hand(session, 1)
    assert not controls(waiting) and "P0 is playing" in waiting.text


# -- public lines -------------------------------------------------------------------------------
def test_describe_names_plays_with_joker_values_and_the_discard():
    session = at("dacapo", build=[4], piles={0: ["2", "X"]}, hands={0: ["6", "9"]})
    show = presenter("dacapo")
    events = kit.play(session, 0, f"play:{session.state.seats[0].pile[-1]}@pile>b1")
    assert show.describe(session, events, "en") == "P0 played pile 🃏(5) → A."
    events = kit.play(session, 0, f"discard:{card_id(session, 0, '9')}>new")
    assert show.describe(session, events, "de") == "P0 legt 9 auf H1."
    kit.check_public_lines(session, events)


def test_a_won_game_is_announced_and_scored_until_the_match_ends():
    session = at("dacapo", build=[4], piles={0: ["5"], 1: ["3", "3", "3"]}, hands={0: ["9"]},
                 options={"target": 12})
    show = presenter("dacapo")
    events = kit.play(session, 0, f"play:{session.state.seats[0].pile[-1]}@pile>b1")
    line = show.describe(session, events, "en")
    assert "P0's pile is empty. 🏆 P0 wins game 1! Game 2 is dealt" in line
    scored = show.summary(session, events, "en")
    assert scored.startswith("📋 **Da Capo!**: game 1 is scored.")
    assert "• P0: cards left in an opponent's pile: 3 (+3)" in scored
    final = at("dacapo", build=[4], piles={0: ["5"], 1: ["3"] * 12}, hands={0: ["9"]}, options={"target": 12})
    events = kit.play(final, 0, f"play:{final.state.seats[0].pile[-1]}@pile>b1")
    assert show.summary(final, events, "en") is None  # the closing summary shows the last game
    assert "🏁 The match is over. Winner: **P0**." in table_text(final)


def test_a_stalled_game_is_shown_plainly():
    session = at("dacapo", piles={0: ["9"], 1: ["8"]}, hands={0: ["5", "6"], 1: ["7", "4"]}, rest="box")
    show = presenter("dacapo")
    kit.play(session, 0, f"discard:{card_id(session, 0, '5')}>new")
    assert "⚠️ 1 turn in a row without progress: 1 more like that and the game ends without a winner." \
        in table_text(session)
    events = kit.play(session, 1, f"discard:{card_id(session, 1, '7')}>new")
    assert "⛔ Game 1 is stuck" in show.describe(session, events, "en")
    assert session.status == "finished" and not session.game.result(session.state).winners
    text = table_text(session, "de", last=show.describe(session, events, "de"))
    assert "⛔ Spiel 1 steckt fest" in text and "🏁 Die Partie ist ohne Sieger vorbei." in text
    assert not controls(hand(session))


def test_a_skippo_table_whose_cards_cannot_move_says_why_it_stalled_in_both_languages():
    """D14 (docs/rules-decisions.md): full hands that fit no helper pile, cards left to draw, a round with no
    card moved."""
    stuck = {"helpers": {s: [["2"], ["2"], ["2"], ["2"]] for s in (0, 1)},
             "hands": {s: ["9", "9", "10", "10", "J"] for s in (0, 1)}}
    session = at("skippo", piles={0: ["9", "9"], 1: ["9", "9"]}, **stuck)
    assert session.state.draw
    kit.play(session, 0, "end")
    events = kit.play(session, 1, "end")
    show = presenter("skippo")
    line, zeile = show.describe(session, events, "en"), show.describe(session, events, "de")
    assert "⛔ Game 1 is stuck: for a whole round no card moved (or, with nothing left to draw, none reached a " \
           "build pile), so nobody scores." in line
    assert "⛔ Spiel 1 steckt fest: Einen Durchgang lang bewegte sich keine Karte" in zeile
    assert "also bekommt niemand Punkte" in zeile
    english, german = table_text(session, last=line), table_text(session, "de", last=zeile)
    assert english.endswith("so nobody scores.\n🏁 The match is over without a winner.")
    assert german.endswith("also bekommt niemand Punkte.\n🏁 Die Partie ist ohne Sieger vorbei.")
    assert movelog.log_line(line) == line, "the move log shows the whole line"


def test_the_skippo_rules_summary_explains_stalls_and_aces_at_the_deal_in_both_languages():
    english, german = i18n.t("en", "skippo.ui.rules"), i18n.t("de", "skippo.ui.rules")
    assert "no card moves anywhere (say full hands that fit no helper pile, even with cards left to draw)" in english
    assert "the game is stuck: no winner, nobody scores, the match ends." in english
    assert "dealt aces go out in turn order before the first turn" in english
    assert "Bewegt sich einen ganzen Durchgang lang keine Karte" in german and "auch mit Karten im Nachziehstapel" in german
    assert "steckt das Spiel fest: kein Sieger, niemand bekommt Punkte, die Partie endet." in german
    assert "ausgeteilte Asse kommen reihum schon vor dem ersten Zug hinaus" in german
    assert max(len(english), len(german)) <= 1900


def test_aces_that_go_out_at_the_deal_are_the_first_line_on_the_table():
    """D15 (docs/rules-decisions.md): with aces out of turn the deal's aces are public events; before anyone
    moved the table tells them, and every seat remembers them (drawn cards only their owner)."""
    options = {"aces_out_of_turn": True}
    seed = next(f"aces{n}" for n in range(500) if len({e.seat for e in games.REGISTRY["skippo"].begin(
        3, games.REGISTRY["skippo"].parse_options(options), f"aces{n}")[1] if e.kind == "ace_out"}) > 1)
    session = kit.make_session("skippo", 3, seed, options)
    outs = [e for e in session.opening if e.kind == "ace_out"]
    line = move_log(session)
    first = session.seats[session.state.current].name
    assert line.startswith(f"Game 1 is dealt; {first} begins.")
    for e in outs:
        assert f"{session.seats[e.seat].name}'s ace went out onto" in line
    assert "Ein Ass von" in presenter("skippo").describe(session, session.opening, "de")
    for e in session.opening:
        if e.kind == "drew":
            assert e.to == frozenset({e.seat})
    assert line in table_text(session, last=line)
