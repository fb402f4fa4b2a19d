"""Safarü on Discord: one public table message and a hand that plays in two clicks.

The table (Components V2) lists the free cards by digit, each side's hand and catch counts, the deck
and whose turn it is. The hand picks a card first: a card that can catch opens the list of its
catches (a button for a single catch, selects of 25 for up to 100), and a card that cannot catch is
released with one click. A card with more catches than that (many free cards) lets the player pick
the free cards to take instead, then offers the catch they make: the hand never works out more
catches than it shows. A card that can catch never gets a release button, so the forced catch is
visible before anyone tries.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from bot.i18n import t
from bot.storage.status import Status
from bot.tables.safaru.picture import PICTURES
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_button, hand_message, row, select, text
from bot.ui.cards import label, labels, symbol
from bot.ui.labels import seat_badge
from bot.ui.pictured import framed, hand_picture, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand
from games.base import Action, Event, HandScore
from games.deck import DECK, ORDER, digit, split_cards
from games.safaru import ANIMAL_COLOURS, Catch
from games.safaru.catches import LISTED, SEVENTEEN, catches, join_cards, parse_catch, splits, tally
from games.safaru.state import SafaruView

#: Catches per select, and free cards per select of the picker.
PER_SELECT = 25
#: No catch takes more than 19 cards: its nonzero digits sum to at most 17 + 9, which ten 1s, two
#: 2s and a 3 (making 17) and a pairing card reach with the most cards, and there are five 0s.
MOST_TAKEN = 19
_PICK = "~"

# -- shared words ----------------------------------------------------------------------------------

def _by_digit(cards: Iterable[str]) -> list[str]:
    """Free cards by digit, the order that helps to spot sums and pairs."""
    return sorted(cards, key=lambda c: (digit(c), ORDER[c]))


def _side_of(view: SafaruView, seat: int) -> int:
    return seat % view.sides


def side_name(session: Shown, view: SafaruView, side: int, lang: str) -> str:
    """A player's name, or both partners' names for a team."""
    names = [seat.name for i, seat in enumerate(session.seats) if _side_of(view, i) == side]
    if len(names) == 1:
        return names[0]
    return t(lang, "safaru.ui.team", first=names[0], second=names[1])


def tally_text(cards: Iterable[str], lang: str) -> str:
    counts = tally(cards)
    return t(lang, "safaru.ui.tally", unicorns=counts.unicorns, fish=counts.fish, babies=counts.babies,
             triangles=counts.triangles)


def catch_parts(catch: Catch, lang: str) -> str:
    """``☘️3 + 🔷4 by adding, ❤️6 by seventeen``: every method of one catch with its cards."""
    parts = []
    if catch.add:
        parts.append(t(lang, "safaru.ui.by_add", cards=labels(catch.add, sep=" + ")))
    if catch.sev:
        parts.append(t(lang, "safaru.ui.by_sev", cards=labels(catch.sev, sep=" + ")))
    if catch.pair:
        parts.append(t(lang, "safaru.ui.by_pair", cards=label(catch.pair)))
    return ", ".join(parts)


def catch_label(catch: Catch, lang: str) -> str:
    """The plain description of a catch the player picks from: ``take ☘️3 + 🔷4 by adding``."""
    return t(lang, "safaru.ui.take", parts=catch_parts(catch, lang))


def catch_detail(catch: Catch, lang: str) -> str:
    """What the catch is worth at a glance, and where the played card goes."""
    caught = (*catch.taken, catch.card) if catch.pair else catch.taken
    key = "safaru.ui.detail_paired" if catch.pair else "safaru.ui.detail_free"
    return t(lang, key, count=len(caught), tally=tally_text(caught, lang), card=label(catch.card))


def _order(found: list[Catch]) -> list[Catch]:
    """Biggest catches first; ties in a fixed order, so the list stays put between renderings."""
    return sorted(found, key=lambda c: (-len(c.taken) - bool(c.pair), c.arg))


def _short(label_text: str, limit: int) -> str:
    return label_text if len(label_text) <= limit else label_text[:limit - 1] + "…"


# -- the table -------------------------------------------------------------------------------------

def _deals(players: int) -> int:
    """Deals in one game: every deal takes four cards a hand and four to the table."""
    return -(-len(DECK) // (4 * players + 4))


def _pictured(session: Shown, view: SafaruView, lang: str) -> list[str]:
    """The free cards and the deck: what the table picture shows, in words."""
    if view.table:
        free = t(lang, "safaru.ui.free", count=len(view.table), cards=labels(_by_digit(view.table), sort=False))
    else:
        free = t(lang, "safaru.ui.free_none")
    return [free, t(lang, "safaru.ui.deck", count=view.deck_size, name=session.seats[view.dealer].name)]


def _table_text(session: Shown, view: SafaruView, lang: str, last: str | None) -> str:
    lines = [t(lang, "safaru.ui.title", game=view.game_no, deal=view.deal_no, deals=_deals(view.players))]
    lines.append(t(lang, "safaru.ui.legend", unicorn=symbol(ANIMAL_COLOURS["unicorn"]),
                   fish=symbol(ANIMAL_COLOURS["fish"])))
    lines += _pictured(session, view, lang)
    for side in range(view.sides):
        hands = " + ".join(str(n) for i, n in enumerate(view.hand_sizes) if _side_of(view, i) == side)
        name = side_name(session, view, side, lang)
        badges = "".join(seat_badge(i) for i in range(view.players) if _side_of(view, i) == side)
        pile = view.piles[side]
        if pile is None:
            lines.append(t(lang, "safaru.ui.side", badges=badges, name=name, hand=hands, caught=view.pile_sizes[side]))
        else:
            lines.append(t(lang, "safaru.ui.side_open", badges=badges, name=name, hand=hands,
                           caught=view.pile_sizes[side], tally=tally_text(pile, lang)))
    target = getattr(session.options, "match_target", 0)
    if target:
        scores = " · ".join(t(lang, "safaru.ui.score", name=side_name(session, view, side, lang), score=score)
                            for side, score in enumerate(view.totals))
        lines.append(t(lang, "safaru.ui.match", target=target, scores=scores))
    if last:
        lines.append(last)
    if session.status == Status.STOPPED:
        lines.append(t(lang, "table.stopped"))
    elif view.over or view.turn is None:
        lines.append(t(lang, "safaru.ui.over"))
    else:
        lines.append(t(lang, "safaru.ui.to_play", name=session.seats[view.turn].name))
    return "\n".join(lines)


# -- the hand --------------------------------------------------------------------------------------

def _parse_ui(ui: str, hand: tuple[str, ...], table: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """The chosen card (``k9``) and the free cards picked for it (``k9~g3b4:k6.y2``: the picks kept
    from the other selects, then this select's values); unknown means none."""
    card, _, picks = ui.partition(_PICK)
    if card not in hand:
        return None, ()
    kept, _, values = picks.partition(":")
    try:
        picked = split_cards(kept) if kept else ()
    except ValueError:
        return card, ()
    picked += tuple(v for v in values.split(".") if v)
    if len(set(picked)) != len(picked) or any(c not in table for c in picked):
        return card, ()
    return card, tuple(sorted(picked, key=ORDER.__getitem__))


def _card_row(session: Shown, seat: int, view: SafaruView, lang: str, chosen: str | None, found: dict[str, list[Catch]]) -> dict:
    counter = session.counters[seat]
    buttons = []
    for card in view.hand or ():  # a seat's own view always holds its hand
        n = len(found[card])
        if n:
            key = "safaru.ui.card_one" if n == 1 else "safaru.ui.card_many" if n <= LISTED else "safaru.ui.card_lots"
            buttons.append(button(t(lang, key, card=label(card), count=min(n, LISTED)),
                                  ids.hand_step(session.id, seat, counter, card),
                                  style=Style.success if card == chosen else Style.primary))
        else:
            buttons.append(button(t(lang, "safaru.ui.release", card=label(card)),
                                  ids.move(session.id, seat, counter, f"play:{Catch(card).arg}")))
    return row(*buttons)


def _catch_rows(session: Shown, seat: int, lang: str, card: str, found: list[Catch], lines: list[str]) -> list[dict]:
    """The chosen card's catches, at most ``LISTED``: one button, or selects of 25."""
    counter = session.counters[seat]
    if len(found) == 1:
        lines.append(t(lang, "safaru.ui.one_catch", card=label(card), catch=catch_label(found[0], lang),
                       detail=catch_detail(found[0], lang)))
        return [row(button(_short(catch_label(found[0], lang), 80),
                           ids.move(session.id, seat, counter, f"play:{found[0].arg}"), style=Style.success))]
    lines.append(t(lang, "safaru.ui.choose", card=label(card), count=len(found)))
    out = []
    prefix = f"play:{card}/"
    for part, at in enumerate(range(0, len(found), PER_SELECT)):
        chunk = found[at:at + PER_SELECT]
        options = [(_short(catch_label(c, lang), 100), c.arg.removeprefix(f"{card}/")) for c in chunk]
        menu = select(ids.move_select(session.id, seat, counter, f"{prefix}|{part}"), options,
                      placeholder=t(lang, "safaru.ui.pick_catch", card=label(card), first=at + 1,
                                    last=at + len(chunk)))
        for option, catch in zip(menu["options"], chunk, strict=True):
            option["description"] = _short(catch_detail(catch, lang), 100)
        out.append(row(menu))
    return out


def _picker_rows(session: Shown, seat: int, view: SafaruView, lang: str, card: str, picked: tuple[str, ...],
                 lines: list[str]) -> list[dict]:
    """More catches than a list holds: the player picks the free cards to take (selects of 25, each
    keeping the picks of the others), then the catch, or the two when pairing is a choice."""
    counter = session.counters[seat]
    d = digit(card)
    lines.append(t(lang, "safaru.ui.pick_free", card=label(card), count=LISTED, digit=d, need=SEVENTEEN - d))
    if len(picked) > MOST_TAKEN:
        lines.append(t(lang, "safaru.ui.too_many", count=MOST_TAKEN))
        picked = ()
    free = _by_digit(view.table)
    out = []
    for at in range(0, len(free), PER_SELECT):
        chunk = free[at:at + PER_SELECT]
        kept = join_cards(c for c in picked if c not in chunk)
        menu = select(ids.hand_step(session.id, seat, counter, f"{card}{_PICK}{kept}"),
                      [(label(c), c) for c in chunk], max_values=len(chunk),
                      placeholder=t(lang, "safaru.ui.pick_cards", first=label(chunk[0]), last=label(chunk[-1])))
        menu["min_values"] = 0
        for option in menu["options"]:
            option["default"] = option["value"] in picked
        out.append(row(menu))
    if not picked:
        return out
    found = splits(card, picked, view.table)
    lines.append(t(lang, "safaru.ui.picked", cards=labels(picked, sort=False)))
    if not found:
        lines.append(t(lang, "safaru.ui.no_catch", card=label(card)))
        return out
    for catch in found:
        lines.append(t(lang, "safaru.ui.one_way", catch=catch_label(catch, lang), detail=catch_detail(catch, lang)))
    out.append(row(*(button(_short(catch_label(c, lang), 80), ids.move(session.id, seat, counter, f"play:{c.arg}"),
                            style=Style.success) for c in found)))
    return out


def _listed(found: list[Catch]) -> bool:
    """Whether a card's catches are few enough to list (``found`` holds one more than that at most)."""
    return len(found) <= LISTED


def _playable(session: Shown, seat: int, view: SafaruView) -> tuple[str, ...]:
    """``SafaruPresenter.playable`` from the seat's view, which the hand has already."""
    return view.hand or () if session.status == Status.PLAYING and view.turn == seat else ()


class SafaruPresenter:
    table_messages = 1

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        hand = hand_button(session, lang)
        picture = table_picture(PICTURES, session, view, lang, "\n".join(_pictured(session, view, lang)))
        return [framed([text(_table_text(session, view, lang, last)), row(hand, *rules_or_rematch(session, lang))], picture)]

    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        view = session.game.view(session.state, seat)
        lines = [notice] if notice else []
        lines.append(t(lang, "safaru.ui.hand", cards=labels(view.hand)))
        lines.append(t(lang, "safaru.ui.hand_free", cards=labels(_by_digit(view.table), sort=False)))
        own = view.piles[_side_of(view, seat)] or ()
        key = "safaru.ui.hand_pile_team" if view.sides < view.players else "safaru.ui.hand_pile"
        lines.append(t(lang, key, count=len(own), tally=tally_text(own, lang)))
        out: list[dict] = []
        if session.status != Status.PLAYING or view.turn is None:
            lines.append(t(lang, "safaru.ui.hand_over"))
        elif view.turn != seat:
            lines.append(t(lang, "safaru.ui.wait", name=session.seats[view.turn].name))
        else:
            found = {card: catches(card, view.table, LISTED + 1) for card in view.hand}
            chosen, picked = _parse_ui(ui, view.hand, view.table)
            if chosen is not None and not found[chosen]:
                chosen = None
            catching = [card for card in view.hand if found[card]]
            if not catching:
                lines.append(t(lang, "safaru.ui.release_any"))
            elif len(catching) == len(view.hand):
                lines.append(t(lang, "safaru.ui.must_catch_all"))
            else:
                lines.append(t(lang, "safaru.ui.must_catch_some", cards=labels(catching)))
            out.append(_card_row(session, seat, view, lang, chosen, found))
            if chosen is not None and _listed(found[chosen]):
                out += _catch_rows(session, seat, lang, chosen, _order(found[chosen]), lines)
            elif chosen is not None:
                out += _picker_rows(session, seat, view, lang, chosen, picked, lines)
            elif catching:
                lines.append(t(lang, "safaru.ui.pick_card"))
        alt = t(lang, "safaru.ui.hand", cards=labels(view.hand))
        picture = hand_picture(PICTURES, session, view, lang, _playable(session, seat, view), alt)
        return hand_message(session, seat, lines, out, picture)

    def playable(self, session: Shown, seat: int) -> tuple[str, ...]:
        """On the seat's turn every card: each either catches or is released."""
        return _playable(session, seat, session.game.view(session.state, seat))

    def canonical(self, session: Shown, seat: int, key: str) -> str:
        """The catch the hand offers for ``key``: itself when its card lists its catches, otherwise
        the one ``splits`` makes of the same free cards with the same pairing."""
        catch = parse_catch(Action.parse(key).arg)
        table = session.game.view(session.state, seat).table
        if catch.released or _listed(catches(catch.card, table, LISTED + 1)):
            return key
        same = [c for c in splits(catch.card, catch.taken, table) if bool(c.pair) == bool(catch.pair)]
        return f"play:{same[0].arg}" if same else key

    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """The play, and any deal or scoring it caused, from public events only."""
        said = []
        for event in events:
            if event.to is not None:
                continue
            if event.kind == "play":
                said.append(self._play_line(session, event, lang, voice))
            elif event.kind == "deal":
                key = "safaru.ui.dealt" if event.data["table"] else "safaru.ui.dealt_last"
                assert event.seat is not None  # the dealer
                said.append(t(lang, key, name=session.seats[event.seat].name, deal=event.data["deal"],
                              cards=labels(event.data["table"]), deck=event.data["deck"]))
            elif event.kind == "game_end":
                said.append(t(lang, "safaru.ui.game_end", game=event.data["game"]))
        return " ".join(said) or None

    @staticmethod
    def _play_line(session: Shown, event: Event, lang: str, voice: Voice) -> str:
        assert event.seat is not None  # a play is a seat's
        name = session.seats[event.seat].name
        card = event.data["card"]
        if event.data["released"]:
            return t(lang, voiced("safaru.ui.released", voice), name=name, card=label(card))
        catch = Catch(card, tuple(event.data["add"]), tuple(event.data["sev"]), event.data["pair"])
        key = "safaru.ui.caught_paired" if catch.pair else "safaru.ui.caught_free"
        return t(lang, voiced(key, voice), name=name, card=label(card), parts=catch_parts(catch, lang))

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """A game's breakdown when the match goes on; the last game's is in the closing summary."""
        if not any(event.kind == "game_end" for event in events):
            return None
        view = session.game.view(session.state, None)
        if view.over or not view.history:
            return None
        return game_breakdown(session, view, view.history[-1], lang)

    def score_names(self, session: Shown, lang: str) -> list[str]:
        """Who each score line's ``seat`` is: the engine scores catch piles, so at four with teams
        line 0 is the first team and line 1 the second."""
        view = session.game.view(session.state, None)
        return [side_name(session, view, side, lang) for side in range(view.sides)]


def game_breakdown(session: Shown, view: SafaruView, score: HandScore, lang: str) -> str:
    """``render_hand`` with one name per catch pile: score lines name sides, which are teams at four."""
    if view.sides == view.players:
        return render_hand(session, score, lang)
    sides = SimpleNamespace(game=session.game, seats=[SimpleNamespace(name=name)
                                                      for name in PRESENTER.score_names(session, lang)])
    return render_hand(sides, HandScore(score.number, score.lines, score.totals[:view.sides]), lang)


PRESENTER = SafaruPresenter()
