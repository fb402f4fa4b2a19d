"""The ephemeral Mü hand: up to 15 card buttons in three rows of five, and the current choice.

Cards laid out face up carry 👁️ and cannot be clicked. In the auction the buttons are the whole
hand, each card once: a click on a face-down card picks or unpicks it (the in-hand step
``b:<card ids>`` names the picks after the click; blue = picked, at most the bid limit), and
"Lay out N" makes them one action with the ids in deck order (15 three-letter ids still fit a
custom_id). In the tricks every card is a move: the
playable ones are green, the others grey but clickable, so the engine refuses them with its reason.
Trumps are named from a select of the legal names only, the partner by one button per player.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.i18n import t
from bot.storage.status import Status
from bot.tables.mu.picture import PICTURES
from bot.tables.mu.words import (
    TRUMP_MARK,
    grouped,
    led_suit,
    name,
    suits,
    trick_text,
    trump_name,
    trumps_text,
)
from bot.transport import ids
from bot.ui.base import Rendered, Style, button, hand_message, row, rows, select
from bot.ui.cards import colour_name, label, labels
from bot.ui.pictured import hand_picture
from bot.ui.shown import Shown
from games.deck import sort_cards
from games.mu.cards import TRUMP
from games.mu.rules import PASS, bid_action
from games.mu.state import AUCTION, CHEF_TRUMP, OVER, PARTNER, TRICKS, VIZE_TRUMP
from games.mu.views import MuView


def hand(session: Shown, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
    view = session.game.view(session.state, seat)
    playing = session.status == Status.PLAYING and view.phase != OVER
    mine = playing and view.to_act == seat
    lines = [notice] if notice else []
    alt = t(lang, "mu.ui.hand.cards", count=len(view.hand), cards=grouped(view.hand, view))
    if playing and view.phase == AUCTION:  # the buttons show every card
        lines.append(t(lang, "mu.ui.hand.count", count=len(view.hand)))
    else:
        lines.append(alt)
        if TRUMP_MARK in alt:
            lines.append(t(lang, "mu.ui.hand.trump_mark", mark=TRUMP_MARK))
        if view.shown[seat]:
            lines.append(t(lang, "mu.ui.hand.face_up", cards=labels(view.shown[seat], sort=False)))
    if view.chef is not None and playing:
        lines += _role(session, view, lang, seat)
    out: list[dict] = []
    if not playing:
        lines.append(t(lang, "mu.ui.over"))
        out += _card_rows(view, lambda card: _inert(session, view, seat, card))
    elif view.phase == AUCTION:
        _auction(session, view, lang, seat, ui if mine else "", mine, lines, out)
    elif view.phase in (VIZE_TRUMP, CHEF_TRUMP):
        _trump(session, view, lang, seat, mine, lines, out)
    elif view.phase == PARTNER:
        _partner(session, view, lang, seat, mine, lines, out)
    elif view.phase == TRICKS:
        _tricks(session, view, lang, seat, mine, lines, out)
    picture = hand_picture(PICTURES, session, view, lang, playable(session, view, seat), alt)
    return hand_message(session, seat, lines, out, picture)


def playable(session: Shown, view: MuView, seat: int) -> tuple[str, ...]:
    """The cards the hand lets the seat play now, in hand order: in the auction the face-down ones
    (each can be laid out for a bid), in the tricks those that follow suit (the green buttons)."""
    if session.status != Status.PLAYING or view.phase == OVER or view.to_act != seat:
        return ()
    if view.phase == AUCTION:
        return tuple(card for card in view.hand if card not in view.shown[seat])
    return tuple(card for card in view.hand if card in view.playable) if view.phase == TRICKS else ()


def _role(session: Shown, view: MuView, lang: str, seat: int) -> list[str]:
    chef = name(session, view.chef)
    out = []
    if seat == view.chef:
        out.append(t(lang, "mu.ui.hand.role_chef", cards=view.bids[seat], goal=view.goal))
    elif seat == view.vize:
        out.append(t(lang, "mu.ui.hand.role_vize", chef=chef))
    elif seat == view.partner:
        out.append(t(lang, "mu.ui.hand.role_partner", chef=chef, goal=view.goal))
    elif view.partner is not None or view.players == 3:
        out.append(t(lang, "mu.ui.hand.role_opponent", chef=chef))
    trumps = trumps_text(lang, view)
    if trumps:
        out.append(t(lang, "mu.ui.trumps", trumps=trumps))
    return out


def _card_rows(view: MuView, make: Callable[[str], dict]) -> list[dict]:
    """The hand in its order, five cards a row: at most 15 cards, three rows."""
    return rows([make(card) for card in view.hand], 5)


FACE_UP = "👁️"


def _face(view: MuView, seat: int, card: str) -> str:
    """A card's button label: 👁️ in front when the whole table has seen it."""
    return f"{FACE_UP}{label(card)}" if card in view.shown[seat] else label(card)


def _inert(session: Shown, view: MuView, seat: int, card: str) -> dict:
    """A card that cannot be clicked now (its id only keeps the custom_ids apart)."""
    return button(_face(view, seat, card), ids.hand_step(session.id, seat, session.counters[seat], f"x:{card}"),
                  disabled=True)


def _chosen(ui: str, face_down: list[str], limit: int) -> list[str]:
    """The face-down cards picked for a bid (``b:<ids>`` in any order); stale or malformed picks drop out."""
    if not ui.startswith("b:"):
        return []
    picked = set(ui[2:].split("."))
    return [card for card in face_down if card in picked][:limit]


def _auction(session: Shown, view: MuView, lang: str, seat: int, ui: str, mine: bool, lines: list[str], out: list[dict]) -> None:
    counter = session.counters[seat]
    face_down = sort_cards(c for c in view.hand if c not in view.shown[seat])
    chosen = _chosen(ui, face_down, view.bid_limit)
    full = len(chosen) >= view.bid_limit

    def card_button(card: str) -> dict:
        if not mine or card not in face_down:
            return _inert(session, view, seat, card)
        picked = card in chosen
        after = [c for c in face_down if (c in chosen) != (c == card)]
        return button(label(card), ids.hand_step(session.id, seat, counter, "b:" + ".".join(after)),
                      style=Style.primary if picked else Style.secondary, disabled=full and not picked)

    out += _card_rows(view, card_button)
    if not mine:
        lines.append(t(lang, "mu.ui.hand.wait_bid", name=name(session, view.to_act)))
        return
    if not face_down:
        lines.append(t(lang, "mu.ui.hand.all_shown"))
    else:
        lines.append(t(lang, "mu.ui.hand.bid", limit=view.bid_limit, show=t(lang, "mu.ui.hand.show_none")))
    show = t(lang, "mu.ui.hand.show", count=len(chosen)) if chosen else t(lang, "mu.ui.hand.show_none")
    out.append(row(
        button(show, ids.move(session.id, seat, counter, bid_action(chosen).key), style=Style.success,
               disabled=not chosen),
        button(t(lang, "mu.ui.hand.clear"), ids.hand_step(session.id, seat, counter, "clear"), disabled=not chosen),
        button(t(lang, "mu.ui.hand.pass"), ids.move(session.id, seat, counter, PASS.key), style=Style.danger),
    ))


def _trump(session: Shown, view: MuView, lang: str, seat: int, mine: bool, lines: list[str], out: list[dict]) -> None:
    out += _card_rows(view, lambda card: _inert(session, view, seat, card))
    if not mine:
        lines.append(t(lang, "mu.ui.hand.wait_trump", name=name(session, view.to_act)))
        return
    vize = view.phase == VIZE_TRUMP
    lines.append(t(lang, "mu.ui.hand.name_vize" if vize else "mu.ui.hand.name_chef"))
    if not vize and view.vize_trump in view.trump_options:
        lines.append(t(lang, "mu.ui.hand.same_as_vize", trump=trump_name(lang, view.vize_trump)))
    options = [(trump_name(lang, option), option) for option in view.trump_options]
    custom_id = ids.move_select(session.id, seat, session.counters[seat], "trump:")
    out.append(row(select(custom_id, options, placeholder=t(lang, "mu.ui.hand.pick_trump"))))


def _partner(session: Shown, view: MuView, lang: str, seat: int, mine: bool, lines: list[str], out: list[dict]) -> None:
    out += _card_rows(view, lambda card: _inert(session, view, seat, card))
    if not mine:
        lines.append(t(lang, "mu.ui.hand.wait_partner", name=name(session, view.to_act)))
        return
    lines.append(t(lang, "mu.ui.hand.choose_partner"))
    counter = session.counters[seat]
    out.append(row(*(
        button(name(session, other), ids.move(session.id, seat, counter, f"partner:{other}"), style=Style.primary)
        for other in view.partner_options
    )))


def _tricks(session: Shown, view: MuView, lang: str, seat: int, mine: bool, lines: list[str], out: list[dict]) -> None:
    counter = session.counters[seat]

    def card_button(card: str) -> dict:
        style = Style.success if mine and card in view.playable else Style.secondary
        return button(_face(view, seat, card), ids.move(session.id, seat, counter, f"play:{card}"), style=style,
                      disabled=not mine)

    out += _card_rows(view, card_button)
    if view.trick:
        lines.append(t(lang, "mu.ui.hand.trick", cards=trick_text(session, view.trick)))
    if not mine:
        lines.append(t(lang, "mu.ui.hand.wait_play", name=name(session, view.to_act)))
        return
    lines.append(t(lang, "mu.ui.hand.play"))
    led = led_suit(view)
    if led is not None:
        suit = t(lang, "mu.ui.hand.trumps_word") if led == TRUMP else colour_name(lang, led)
        ranks = suits(view)
        follows = any(ranks[card][0] == led for card in view.hand)
        lines.append(t(lang, "mu.ui.hand.follow" if follows else "mu.ui.hand.cannot_follow", suit=suit))
