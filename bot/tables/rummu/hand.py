"""Rummü's ephemeral hand: draw, pick cards, then lay them out, add them, swap a joker or discard.

The cards a player has picked live only in the hand step string ``ui``, never in the game:

    ui        := "p<page>" ("/g<cards>")* ["/c<cards>"] [":" <card>("." <card>)*]

``g`` tokens are groups set aside for an opening batch, ``c`` carries picks from the other pages
of a hand of more than 25 cards, and the part after ``:`` is what the pick select just chose (the
platform appends it). Cards run together (``r3y4r5``) split again with ``games.deck.split_cards``.
Anything else (``""``, ``"clear"``, cards no longer in hand) renders the plain hand.

The hand offers any pick freely and lets the engine judge it: an invalid combination comes back
as the engine's reason in the notice line. The verdict line under the pick only previews it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from bot.i18n import t
from bot.storage.status import Status
from bot.tables.rummu.picture import PICTURES
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_message, row, select
from bot.ui.cards import label, labels
from bot.ui.labels import pile_label
from bot.ui.pictured import hand_picture
from bot.ui.shown import Shown
from games.base import IllegalAction
from games.deck import colour, digit, sort_cards, split_cards
from games.keys import number as key_number
from games.rummu.combos import YELLOW, arrange, classify, valid
from games.rummu.state import DRAW, RummuView

PAGE = 25
#: Picks up to this size are cut into combinations when they are not one (bounds the search).
MAX_SPLIT = 15


@dataclass(frozen=True)
class Pick:
    """What the player has picked: groups set aside for an opening, and the current pick."""

    page: int = 0
    groups: tuple[tuple[str, ...], ...] = ()
    chosen: tuple[str, ...] = ()

    @property
    def laid(self) -> tuple[tuple[str, ...], ...]:
        """The combinations a meld of everything picked would lay."""
        return (*self.groups, self.chosen) if self.chosen else self.groups


def ordered(cards: Sequence[str], yellow_is_colour: bool = True) -> tuple[str, ...]:
    """A combination's cards as the engine lays them out (deck order when it is no combination)."""
    kind = valid(cards, yellow_is_colour)
    return arrange(kind, cards) if kind else tuple(sort_cards(cards))


def parse(ui: str, hand: tuple[str, ...], yellow_is_colour: bool = True) -> Pick:
    """The pick a ``ui`` string names; the empty pick for anything stale or malformed."""
    head, _, tail = ui.partition(":")
    tokens = head.split("/")
    page = key_number(tokens[0][1:]) if tokens[0][:1] == "p" else None
    if page is None:
        return Pick()
    groups: list[tuple[str, ...]] = []
    chosen: list[str] = []
    try:
        for token in tokens[1:]:
            cards = split_cards(token[1:])
            if token[:1] == "g" and cards:
                groups.append(ordered(cards, yellow_is_colour))
            elif token[:1] == "c":
                chosen += cards
            else:
                return Pick()
    except ValueError:
        return Pick()
    chosen += [value for value in tail.split(".") if value]
    used = [c for g in groups for c in g] + chosen
    if any(c not in hand for c in used) or len(set(used)) != len(used):
        return Pick()
    pages = max(1, -(-len(hand) // PAGE))
    return Pick(page % pages, tuple(groups), ordered(chosen, yellow_is_colour) if chosen else ())


def splits(cards: Sequence[str], yellow_is_colour: bool = True, limit: int = 2) -> list[tuple[tuple[str, ...], ...]]:
    """Up to ``limit`` ways to cut ``cards`` into valid combinations, each laid out in order.

    Each combination holds the lowest card still left, so every way is found once."""
    found: list[tuple[tuple[str, ...], ...]] = []

    def cut(rest: tuple[str, ...], done: tuple[tuple[str, ...], ...]) -> None:
        if len(found) >= limit:
            return
        if not rest:
            found.append(done)
            return
        for group in _combinations_with(rest[0], rest[1:], yellow_is_colour):
            cut(tuple(c for c in rest[1:] if c not in group), (*done, group))

    if len(cards) <= MAX_SPLIT:
        cut(tuple(sort_cards(cards)), ())
    return found


def _combinations_with(first: str, others: tuple[str, ...], yellow_is_colour: bool) -> Iterator[tuple[str, ...]]:
    """Every valid combination of ``first`` with some of ``others``: Linge of its digit, and
    sequences with one card per digit over every range of digits around it."""
    low = digit(first)
    same = [c for c in others if digit(c) == low]
    for size in range(2, len(same) + 1):
        for rest in combinations(same, size):
            yield from _if_valid((first, *rest), yellow_is_colour)
    by_digit: dict[int, list[str]] = {}
    for c in others:
        by_digit.setdefault(digit(c), []).append(c)
    bottom = top = low
    while bottom - 1 in by_digit:
        bottom -= 1
    while top + 1 in by_digit:
        top += 1
    for lo in range(bottom, low + 1):
        for hi in range(max(low, lo + 2), top + 1):
            digits = [d for d in range(lo, hi + 1) if d != low]
            for rest in product(*(by_digit[d] for d in digits)):
                yield from _if_valid((first, *rest), yellow_is_colour)


def _if_valid(cards: tuple[str, ...], yellow_is_colour: bool) -> Iterator[tuple[str, ...]]:
    kind = valid(cards, yellow_is_colour)
    if kind:
        yield arrange(kind, cards)


def meld_choices(pick: Pick, yellow_is_colour: bool = True) -> tuple[tuple[tuple[str, ...], ...] | None, list[tuple[tuple[str, ...], ...]]]:
    """What "Lay out" lays, and the other ways to cut the pick into combinations (for a select).

    The pick goes as one combination when it is one, or cannot be cut at all (the engine then
    says why); a pick that is no combination but cuts in one way only is cut so. With several
    ways and no single combination there is no plain "Lay out": the player picks a way."""
    chosen, groups = pick.chosen, pick.groups
    if not chosen:
        return (groups or None), []
    cuts = [(*groups, *way) for way in splits(chosen, yellow_is_colour, PAGE)] if len(chosen) >= 6 else []
    primary: tuple[tuple[str, ...], ...] | None
    if valid(chosen, yellow_is_colour) or not cuts:
        primary = pick.laid
    else:
        primary = cuts[0] if len(cuts) == 1 else None
    return primary, [cut for cut in cuts if cut != primary]


def batch(laid: Iterable[Iterable[str]]) -> str:
    """A meld's argument: combinations of cards run together, separated by ``/``."""
    return "/".join("".join(group) for group in laid)


def head(page: int, groups: Iterable[Iterable[str]], carried: Sequence[str] = ()) -> str:
    """The ``ui`` string of a pick (without the part a select appends)."""
    out = f"p{page}" + "".join(f"/g{''.join(g)}" for g in groups)
    return out + (f"/c{''.join(carried)}" if carried else "")


def verdict(lang: str, cards: Iterable[str], yellow_is_colour: bool) -> str:
    """The engine's word on a pick: its kind, or the rule it breaks."""
    try:
        kind = classify(tuple(cards), yellow_is_colour)
    except IllegalAction as refusal:
        return t(lang, "rummu.ui.not_a_combination", reason=t(lang, refusal.reason, **refusal.params))
    return t(lang, f"rummu.kind.{kind}")


def pick_verdict(lang: str, cards: Sequence[str], yellow_is_colour: bool) -> str:
    """Like ``verdict``, and how "Lay out" would cut a pick that is not one combination."""
    if len(cards) >= 6 and not valid(cards, yellow_is_colour):
        ways = splits(cards, yellow_is_colour)
        if len(ways) == 1:
            kinds = " + ".join(t(lang, f"rummu.kind.{valid(group, yellow_is_colour)}") for group in ways[0])
            return t(lang, "rummu.ui.cut", kinds=kinds)
        if ways:
            return t(lang, "rummu.ui.cut_many")
    return verdict(lang, cards, yellow_is_colour)


def piles(lang: str, view: RummuView) -> str:
    """The draw pile's size and the discard pile's size and visible top card."""
    if not view.discard_top:
        return t(lang, "rummu.ui.piles_no_discard", stock=view.stock_size)
    return t(lang, "rummu.ui.piles", stock=view.stock_size, top=label(view.discard_top), count=view.discard_size)


def combo_number(name: str) -> str:
    """A display as the table and picture letter it: the engine's ``m3`` (the hand's third, the third of
    ``view.combos``) is C."""
    return pile_label(int(name[1:]) - 1)


class HandView:
    """One rendering of one seat's hand."""

    def __init__(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> None:
        self.session, self.seat, self.lang = session, seat, lang
        self.view = session.game.view(session.state, seat)
        self.yellow = getattr(session.options, "yellow_is_colour", True)
        self.counter = session.counters[seat]
        self.ui = ui
        self.notice = notice
        self.lines: list[str] = []
        self.rows: list[dict] = []

    # -- helpers ---------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        return self.session.seats[seat].name

    def step_id(self, arg: str) -> str:
        """A hand step's custom_id, for an ``arg`` short enough to fit (``ids`` refuses any other)."""
        return ids.hand_step(self.session.id, self.seat, self.counter, arg)

    def step_fits(self, arg: str) -> str | None:
        """A hand step's custom_id, or None when ``arg`` would make it longer than Discord allows."""
        try:
            return self.step_id(arg)
        except ValueError:
            return None

    def move_id(self, key: str) -> str:
        return ids.move(self.session.id, self.seat, self.counter, key)

    def move_fits(self, key: str) -> str | None:
        """A move's custom_id, or None when ``key`` (a meld's cards) makes it too long."""
        try:
            return self.move_id(key)
        except ValueError:
            return None

    def select_id(self, prefix: str) -> str:
        return ids.move_select(self.session.id, self.seat, self.counter, prefix)

    # -- the message ------------------------------------------------------------------------------
    def render(self) -> Rendered:
        view = self.view
        if self.notice:
            self.lines.append(self.notice)
        self.lines.append(t(self.lang, "rummu.ui.your_hand", count=len(view.hand), cards=labels(view.hand)))
        self.lines.append(piles(self.lang, view))
        playing = self.session.status == Status.PLAYING and not view.over
        if not playing:
            self.lines.append(t(self.lang, "rummu.ui.hand_over"))
        elif view.turn != self.seat:
            self.lines.append(t(self.lang, "rummu.ui.wait", name=self.name(view.turn)))
        elif view.phase == DRAW:
            self.draw()
        else:
            self.play(parse(self.ui, view.hand, self.yellow))
        alt = t(self.lang, "rummu.ui.your_hand", count=len(view.hand), cards=labels(view.hand))
        picture = hand_picture(PICTURES, self.session, view, self.lang, playable(self.session, view, self.seat), alt)
        return hand_message(self.session, self.seat, self.lines, self.rows, picture)

    def draw(self) -> None:
        view = self.view
        self.lines.append(t(self.lang, "rummu.ui.your_draw"))
        buttons = [button(t(self.lang, "rummu.ui.take", count=view.stock_size), self.move_id("take"),
                          style=Style.primary)]
        if view.discard_top:
            buttons.append(button(t(self.lang, "rummu.ui.take_top", card=label(view.discard_top)),
                                  self.move_id("takediscard:1")))
        self.rows.append(row(*buttons))
        counts = list(range(2, view.discard_size + 1))
        for part, start in enumerate(range(0, len(counts), PAGE)):
            chunk = counts[start:start + PAGE]
            options = [(t(self.lang, "rummu.ui.take_n", count=n, card=label(view.discard_top)), str(n))
                       for n in chunk]
            self.rows.append(row(select(self.select_id(f"takediscard:|{part}"), options,
                                        placeholder=t(self.lang, "rummu.ui.take_more", first=chunk[0],
                                                      last=chunk[-1]))))

    def play(self, pick: Pick) -> None:
        view, lang = self.view, self.lang
        need = view.minimum[self.seat]
        if need:
            self.lines.append(t(lang, "rummu.ui.must_open", need=need))
        else:
            self.lines.append(t(lang, "rummu.ui.opened"))
        for number, group in enumerate(pick.groups, 1):
            self.lines.append(t(lang, "rummu.ui.set_aside", number=number, cards=labels(group, sort=False),
                                verdict=verdict(lang, group, self.yellow)))
        if len(pick.chosen) >= 3:
            self.lines.append(t(lang, "rummu.ui.picked", cards=labels(pick.chosen, sort=False),
                                verdict=pick_verdict(lang, pick.chosen, self.yellow)))
        elif pick.chosen:
            self.lines.append(t(lang, "rummu.ui.picked_few", cards=labels(pick.chosen, sort=False)))
        if need and pick.laid:
            count = sum(map(len, pick.laid))
            self.lines.append(t(lang, "rummu.ui.opening_count", count=count, need=need))
        self.lines.append(t(lang, "rummu.ui.your_play"))
        self.lines.append(t(lang, "rummu.ui.terms"))
        self.pick_select(pick)
        self.action_buttons(pick, need)
        if not need and pick.chosen:
            self.add_select(pick)
        if not need:
            self.swap_select(pick)

    def pick_select(self, pick: Pick) -> None:
        hand = self.view.hand
        pages = max(1, -(-len(hand) // PAGE))
        shown = hand[pick.page * PAGE:(pick.page + 1) * PAGE]
        carried = tuple(c for c in pick.chosen if c not in shown)
        free = set(hand) - {c for g in pick.groups for c in g}
        options = [(label(c), c) for c in shown if c in free]
        if not options:
            return
        custom_id = (self.step_fits(head(pick.page, pick.groups, carried))
                     or self.step_fits(head(pick.page, pick.groups)) or self.step_id(head(pick.page, ())))
        placeholder = t(self.lang, "rummu.ui.pick", page=pick.page + 1, pages=pages) if pages > 1 \
            else t(self.lang, "rummu.ui.pick_one_page")
        menu = select(custom_id, options, placeholder=placeholder, max_values=len(options))
        for option in menu["options"]:
            option["default"] = option["value"] in pick.chosen
        self.rows.append(row(menu))

    def action_buttons(self, pick: Pick, need: int) -> None:
        lang = self.lang
        out = []
        primary, others = meld_choices(pick, self.yellow)
        meld_id = self.move_fits("meld:" + batch(primary) if primary else "meld:")
        if meld_id is None:
            # Too long for a button: the cards ride in a select option's value instead.
            assert primary is not None  # "meld:" alone always fits
            others = [primary, *others]
            primary, meld_id = None, self.move_id("meld:")
        out.append(button(t(lang, "rummu.ui.meld"), meld_id, style=Style.success, disabled=primary is None))
        if need:
            aside = self.step_fits(head(pick.page, (*pick.groups, pick.chosen))) if pick.chosen else None
            out.append(button(t(lang, "rummu.ui.aside"), aside or self.step_id("aside"),
                              disabled=aside is None))
        single = pick.chosen[0] if len(pick.chosen) == 1 else None
        out.append(button(t(lang, "rummu.ui.discard"), self.move_id(f"discard:{single or ''}"),
                          style=Style.danger, disabled=single is None))
        out.append(button(t(lang, "rummu.ui.clear"), self.step_id("clear"), disabled=not pick.laid))
        pages = -(-len(self.view.hand) // PAGE)
        if pages > 1:
            turn = self.step_fits(head((pick.page + 1) % pages, pick.groups, pick.chosen)) or \
                self.step_id(head((pick.page + 1) % pages, ()))
            out.append(button(t(lang, "rummu.ui.next_page", page=(pick.page + 1) % pages + 1, pages=pages), turn))
        self.rows.append(row(*out))
        ways = [(" + ".join(labels(group, sort=False) for group in laid), batch(laid)) for laid in others]
        ways = [(text, value) for text, value in ways if len(value) <= 100][:PAGE]
        if ways:
            self.rows.append(row(select(self.select_id("meld:"), ways, placeholder=t(lang, "rummu.ui.meld_as"))))

    def add_select(self, pick: Pick) -> None:
        cards = "".join(pick.chosen)
        options = []
        for combo in self.view.combos:
            value = f"{combo.name}:{cards}"
            if len(value) > 100:
                continue
            fits = valid((*combo.cards, *pick.chosen), self.yellow) is not None
            text = t(self.lang, "rummu.ui.display_option", number=combo_number(combo.name),
                     name=self.name(combo.owner), cards=labels(combo.cards, sort=False))
            options.append((("✓ " if fits else "") + text, value))
        if options:
            self.rows.append(row(select(self.select_id("add:"), options[:PAGE],
                                        placeholder=t(self.lang, "rummu.ui.add"))))

    def swap_select(self, pick: Pick) -> None:
        """Every joker on the table that a hand card can replace; once cards are picked, only theirs
        (so a table with more than 25 such swaps still offers each one)."""
        candidates = pick.chosen or self.view.hand
        options = []
        for combo in self.view.combos:
            for joker in (c for c in combo.cards if colour(c) == YELLOW):
                for card in candidates:
                    if colour(card) == YELLOW or digit(card) != digit(joker):
                        continue
                    swapped = tuple(card if c == joker else c for c in combo.cards)
                    if valid(swapped, self.yellow):
                        options.append((t(self.lang, "rummu.ui.swap_option", card=label(card), joker=label(joker),
                                          number=combo_number(combo.name), name=self.name(combo.owner)),
                                        f"{combo.name}:{card}"))
        if options and len(self.rows) < 5:
            self.rows.append(row(select(self.select_id("swap:"), options[:PAGE],
                                        placeholder=t(self.lang, "rummu.ui.swap"))))


def playable(session: Shown, view: RummuView, seat: int) -> tuple[str, ...]:
    """After the draw every card of the seat's hand can be picked (for a meld, an addition, a swap
    or the discard); before it none."""
    mine = session.status == Status.PLAYING and not view.over and view.turn == seat and view.phase != DRAW
    return view.hand or () if mine else ()


def render_hand(session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
    return HandView(session, seat, lang, ui, notice).render()
