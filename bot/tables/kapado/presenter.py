"""Kapado on Discord: everyone's stacks as text on one table message, each turn played in the hand.

The table is one Components V2 message: a header (draw pile, bans), one block per player (the
seat's badge as the picture draws it) with their stacks (letters A, B … as printed under them in the
picture, top card, 🔒 locked, 💀 dead, card count) and the turn line. A stack never shows
more than its top: that is all a player sees across a real table too. The key to the emoji sits in
small print under each hand rather than on every redraw of the table.

The drawn card is dealt to the drawer automatically and shown only in their hand; the hand offers
every legal placement as a button (face up, marked ✨ where it fits doubly; face down; an unlock
attempt, which asks for confirmation because a wrong one kills the stack), the wish card's targets
in a select, and the extra draw after a double fit. Which moves the hand offers comes from the
engine's ``legal_actions`` for the hand's own seat: that list depends only on what the seat sees
(its drawn card and the open tops), so the presenter need not restate the rules.
"""

from __future__ import annotations

from functools import cache

from bot.i18n import t
from bot.pictures.palette import KAPADO, emoji
from bot.storage.status import Status
from bot.tables.kapado.picture import PICTURES
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_button, hand_message, row, select, text
from bot.ui.labels import pile_label, seat_badge
from bot.ui.pictured import framed, hand_picture, table_picture
from bot.ui.presenters import Voice, voiced
from bot.ui.rules import rules_or_rematch
from bot.ui.shown import Shown
from bot.ui.summary import render_hand
from games.base import Action, Event
from games.kapado.cards import BAN, COLOUR, DECK, DOUBLE, KIND, SYMBOL, VALUE, WISH, fit
from games.kapado.state import KapadoView, StackView

#: One emoji per colour of the deck, each a different shape so colour vision is never needed (the
#: shapes its card pictures draw).
EMOJI: dict[str, str] = {letter: emoji(name) for letter, name in KAPADO.items()}
JOKER, WISH_MARK, BAN_MARK, FACE_DOWN = "🃏", "🌠", "🚫", "🎴"
LOCK_MARK = {"open": "", "locked": "🔒", "dead": "💀"}


@cache
def label(card: str) -> str:
    """``🌸12`` for pink 12, ``🌸1🃏`` for the pink joker, ``🌠`` for a wish card, ``🚫2`` for a 2-ban
    (made once per card)."""
    kind = KIND[card]
    if kind == WISH:
        return WISH_MARK
    if kind == BAN:
        return f"{BAN_MARK}{VALUE[card]}"
    colour = COLOUR[card]
    mark = EMOJI.get(colour, SYMBOL[colour])
    return f"{mark}1{JOKER}" if VALUE[card] == 1 else f"{mark}{VALUE[card]}"


def _index(stack_id: str) -> int:
    return int(stack_id.partition(":")[2])


def stack_name(stack_id: str) -> str:
    """A stack (``s1:2``: seat 1's third stack) as the table and picture letter it (C)."""
    return pile_label(_index(stack_id))


def _top(stack: StackView) -> str:
    """The stack's top as a viewer sees it: a card, 🎴 face down (with the card if they may peek), or —."""
    if not stack.cards:
        return "—"
    card = stack.cards[-1]
    if stack.face_down[-1]:
        return FACE_DOWN if card is None else f"{FACE_DOWN}({label(card)})"
    return label(card)


def _marked_top(stack: StackView) -> str:
    return f"{LOCK_MARK[stack.lock]}{_top(stack)}"


def stack_text(stack: StackView) -> str:
    """``B 🔒🎴 (3)``: the stack's letter, its state and top, and how many cards it holds."""
    return f"{stack_name(stack.id)} {_marked_top(stack)} ({stack.count})"


def _name(session: Shown, seat: int | None) -> str:
    return session.seats[seat].name if seat is not None else "?"


def _playing(session: Shown) -> bool:
    return session.status == Status.PLAYING


@cache
def _legend(lang: str) -> str:
    colours = " · ".join(f"{EMOJI.get(c, s)} {t(lang, f'kapado.colour.{c}')}" for c, s in zip(
        DECK.colours, DECK.symbols, strict=True))
    return t(lang, "kapado.ui.legend", colours=colours)


def _bans(view: KapadoView, lang: str) -> str:
    if not view.banned:
        return t(lang, "kapado.ui.no_bans")
    return t(lang, "kapado.ui.bans", bans=", ".join(f"{BAN_MARK}{d}" for d in view.banned))


def _header(view: KapadoView, lang: str) -> str:
    title = t(lang, "kapado.ui.title")
    if view.games > 1:
        title += t(lang, "kapado.ui.game_of", game=view.game, games=view.games)
    pile = t(lang, "kapado.ui.pile", count=view.deck, middle=len(view.middle))
    return f"{title}\n{pile} · {_bans(view, lang)}"


def _player(session: Shown, view: KapadoView, seat: int, lang: str) -> str:
    head = t(lang, "kapado.ui.player", name=_name(session, seat), count=view.counts[seat])
    if view.wishes[seat]:
        head += t(lang, "kapado.ui.player_wishes", count=len(view.wishes[seat]))
    if view.games > 1:
        head += t(lang, "kapado.ui.player_total", total=view.totals[seat])
    marker = "▶ " if seat == view.current and _playing(session) else ""
    return f"{seat_badge(seat)} {marker}{head}\n" + "  ".join(stack_text(stack) for stack in view.stacks[seat])


def _turn(session: Shown, view: KapadoView, lang: str) -> str:
    if session.status == Status.STOPPED:
        return t(lang, "table.stopped")
    if view.phase == "over" or view.current is None:
        return t(lang, "kapado.ui.over")
    name = _name(session, view.current)
    if view.phase == "extra":
        return t(lang, "kapado.ui.turn_extra", name=name)
    if view.drawn is not None and view.drawn_from_wish:
        return t(lang, "kapado.ui.turn_taken", name=name, card=label(view.drawn))
    return t(lang, "kapado.ui.turn_resolve", name=name)


class KapadoPresenter:
    table_messages = 1

    def table(self, session: Shown, lang: str, last: str | None) -> list[Rendered]:
        view = session.game.view(session.state, None)
        players = "\n\n".join(_player(session, view, seat, lang) for seat in range(view.players))
        turn = f"{last}\n{_turn(session, view, lang)}" if last else _turn(session, view, lang)
        hand = hand_button(session, lang)
        header = _header(view, lang)
        picture = table_picture(PICTURES, session, view, lang, f"{header}\n{players}")
        return [framed([text(header), text(players), text(turn), row(hand, *rules_or_rematch(session, lang))], picture)]

    # -- the hand ------------------------------------------------------------------------------
    def hand(self, session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        view = session.game.view(session.state, seat)
        lines = [notice] if notice else []
        lines.append(t(lang, "kapado.ui.your_stacks", stacks="  ".join(stack_text(s) for s in view.stacks[seat])))
        held = ([view.drawn] if view.drawn else []) + list(view.wishes[seat])
        alt = t(lang, "kapado.ui.hand_cards", cards=" ".join(label(c) for c in held))
        if held:  # the cards the hand picture shows
            lines.append(alt)
        if view.banned:
            lines.append(_bans(view, lang))
        out: list[dict] = []
        if not _playing(session) or view.phase == "over":
            lines.append(t(lang, "kapado.ui.hand_over"))
        elif view.current != seat:
            lines.append(t(lang, "kapado.ui.wait", name=_name(session, view.current), count=view.deck))
        else:
            legal = session.game.legal_actions(session.state, seat)
            counter = session.counters[seat]
            if view.phase == "extra":
                lines.append(t(lang, "kapado.ui.extra"))
                out.append(row(
                    button(t(lang, "kapado.ui.btn_draw"), ids.move(session.id, seat, counter, "draw"),
                           style=Style.success),
                    button(t(lang, "kapado.ui.btn_stop"), ids.move(session.id, seat, counter, "stop")),
                ))
            elif view.phase == "wish":
                self._wish(session, seat, view, lang, legal, lines, out)
            else:
                self._place(session, seat, view, lang, ui, legal, lines, out)
        lines.append(_legend(lang))
        picture = hand_picture(PICTURES, session, view, lang, _playable(session, seat, view), alt, label)
        return hand_message(session, seat, lines, out, picture)

    @staticmethod
    def playable(session: Shown, seat: int) -> tuple[str, ...]:
        """The drawn card (or the wish card), to place or use, on the seat's turn; else none."""
        return _playable(session, seat, session.game.view(session.state, seat))

    @staticmethod
    def _place(session: Shown, seat: int, view: KapadoView, lang: str, ui: str, legal: list[Action], lines: list[str], out: list[dict]) -> None:
        """A number card to place: face-up buttons, unlock attempts (confirmed first), face-down buttons."""
        card, counter = view.drawn, session.counters[seat]
        assert card is not None  # the number card to place
        stacks = {stack.id: stack for stack in view.stacks[seat]}
        by_kind: dict[str, list[str]] = {"up": [], "unlock": [], "down": []}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action.arg)
        key = "kapado.ui.taken" if view.drawn_from_wish else "kapado.ui.drawn"
        lines.append(t(lang, key, card=label(card)))
        trying = ui.removeprefix("try:") if ui.startswith("try:") else None
        if trying in by_kind["unlock"]:
            n = stack_name(trying)
            lines.append(t(lang, "kapado.ui.confirm_unlock", stack=n, card=label(card)))
            out.append(row(
                button(t(lang, "kapado.ui.btn_confirm", stack=n), ids.move(session.id, seat, counter, f"unlock:{trying}"),
                       style=Style.danger),
                button(t(lang, "kapado.ui.btn_back"), ids.hand_step(session.id, seat, counter, "back")),
            ))
            return
        if by_kind["up"]:
            lines.append(t(lang, "kapado.ui.how_up"))
        elif by_kind["down"]:
            dead = all(stacks[s].lock == "dead" for s in by_kind["down"])
            lines.append(t(lang, "kapado.ui.how_down_dead" if dead else "kapado.ui.how_down"))
        if by_kind["unlock"]:
            only = not by_kind["up"] and not by_kind["down"]
            lines.append(t(lang, "kapado.ui.how_unlock_only" if only else "kapado.ui.how_unlock"))
        banned, multiples = frozenset(view.banned), session.options.ban_multiples
        ups = []
        for sid in by_kind["up"]:
            stack, n = stacks[sid], stack_name(sid)
            top = stack.top
            if top is None:
                ups.append(button(t(lang, "kapado.ui.btn_up_empty", stack=n),
                                  ids.move(session.id, seat, counter, f"up:{sid}"), style=Style.primary))
                continue
            double = fit(card, top, banned, multiples) == DOUBLE
            ups.append(button(t(lang, "kapado.ui.btn_up_double" if double else "kapado.ui.btn_up", stack=n,
                                top=label(top)), ids.move(session.id, seat, counter, f"up:{sid}"),
                              style=Style.success if double else Style.primary))
        unlocks = [button(t(lang, "kapado.ui.btn_unlock", stack=stack_name(sid), top=_marked_top(stacks[sid])),
                          ids.hand_step(session.id, seat, counter, f"try:{sid}")) for sid in by_kind["unlock"]]
        downs = [button(t(lang, "kapado.ui.btn_down", stack=stack_name(sid), top=_marked_top(stacks[sid])),
                        ids.move(session.id, seat, counter, f"down:{sid}")) for sid in by_kind["down"]]
        out.extend(row(*group) for group in (ups, unlocks, downs) if group)

    @staticmethod
    def _wish(session: Shown, seat: int, view: KapadoView, lang: str, legal: list[Action], lines: list[str], out: list[dict]) -> None:
        """A wish card: which opponent's top card to take (a select, paged by 25), or keep it."""
        counter = session.counters[seat]
        takeable = {a.arg for a in legal if a.kind == "take"}
        options = []
        for owner, row_ in enumerate(view.stacks):
            for stack in row_:
                if owner != seat and stack.top in takeable:
                    where = t(lang, "kapado.ui.take_where", name=_name(session, owner),
                              stack=stack_name(stack.id), card=label(stack.top))
                    options.append((f"{where} {_best_fit(session, view, seat, stack.top, lang)}", stack.top))
        lines.append(t(lang, "kapado.ui.wish" if options else "kapado.ui.wish_none"))
        pages = [options[start:start + 25] for start in range(0, len(options), 25)]
        for page, chunk in enumerate(pages):
            placeholder = t(lang, "kapado.ui.take_placeholder")
            if len(pages) > 1:
                placeholder += f" ({page + 1}/{len(pages)})"
            out.append(row(select(ids.move_select(session.id, seat, counter, f"take:|{page}"), chunk,
                                  placeholder=placeholder)))
        out.append(row(button(t(lang, "kapado.ui.btn_keep"), ids.move(session.id, seat, counter, "keep"),
                              style=Style.secondary if options else Style.primary)))

    # -- public lines --------------------------------------------------------------------------
    def describe(self, session: Shown, events: list[Event], lang: str, voice: Voice = "") -> str | None:
        """The placements, unlocks, wish cards and bans of a move, in order, as one line."""
        said = [line for event in events if event.to is None
                for line in [_event_line(session, event, lang, voice)] if line]
        return " ".join(said) or None

    def summary(self, session: Shown, events: list[Event], lang: str) -> str | None:
        """Each game's card count once it is scored, unless it ended the match (the closing summary
        shows that one)."""
        ends = [event.data["game"] for event in events if event.to is None and event.kind == "game_end"]
        if not ends or session.game.is_over(session.state):
            return None
        history = session.game.view(session.state, None).history
        return render_hand(session, history[ends[-1] - 1], lang)


def _playable(session: Shown, seat: int, view: KapadoView) -> tuple[str, ...]:
    """``playable`` from the seat's view, which the hand has already."""
    mine = _playing(session) and view.phase != "over" and view.current == seat
    return (view.drawn,) if mine and view.drawn else ()


def _best_fit(session: Shown, view: KapadoView, seat: int, card: str, lang: str) -> str:
    """How a card taken with the wish card would go on the taker's stacks: the best face-up fit, or
    that only an unlock attempt is possible."""
    banned, multiples = frozenset(view.banned), session.options.ban_multiples
    best, where = 0, None
    for stack in view.stacks[seat]:
        if stack.lock != "open":
            continue
        how = fit(card, stack.top, banned, multiples) if stack.top is not None else 1
        if how > best:
            best, where = how, stack
    if where is None:
        return t(lang, "kapado.ui.take_unlock")
    key = "kapado.ui.take_double" if best == DOUBLE else "kapado.ui.take_single"
    return t(lang, key, stack=stack_name(where.id))


def _event_line(session: Shown, event: Event, lang: str, voice: Voice) -> str | None:
    data = event.data
    name = _name(session, event.seat) if event.seat is not None else ""
    kind = event.kind
    if kind == "ban":
        key = "kapado.ui.ev_ban_on" if data["on"] else "kapado.ui.ev_ban_off"
        return t(lang, key, name=name, divisor=data["divisor"])
    if kind == "up":
        key = "kapado.ui.ev_up_double" if data["fit"] == DOUBLE else "kapado.ui.ev_up"
        return t(lang, voiced(key, voice), name=name, card=label(data["card"]), stack=stack_name(data["stack"]))
    if kind == "unlock":
        key = "kapado.ui.ev_unlock_open" if data["opened"] else "kapado.ui.ev_unlock_dead"
        return t(lang, voiced(key, voice), name=name, card=label(data["card"]), hidden=label(data["key"]),
                 stack=stack_name(data["stack"]))
    if kind == "down":
        return t(lang, voiced("kapado.ui.ev_down", voice), name=name, stack=stack_name(data["stack"]))
    if kind == "take":
        owner = int(data["stack"][1:].partition(":")[0])
        line = t(lang, voiced("kapado.ui.ev_take", voice), name=name, card=label(data["card"]), owner=_name(session, owner),
                 stack=stack_name(data["stack"]))
        return line + (t(lang, "kapado.ui.ev_relocked") if data["relocked"] else "")
    if kind == "extra_draw":
        return t(lang, voiced("kapado.ui.ev_extra_draw", voice), name=name)
    if kind == "wish_kept":
        return t(lang, voiced("kapado.ui.ev_wish_kept", voice), name=name)
    if kind == "game_end":
        return t(lang, "kapado.ui.ev_game_end", game=data["game"])
    if kind == "deal":
        return t(lang, "kapado.ui.ev_deal", game=data["game"])
    return None


PRESENTER = KapadoPresenter()
