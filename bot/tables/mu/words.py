"""Words the Mü table and hand share: trump names, the trumps line, roles, tricks and hand groups.

Everything here reads a ``MuView`` (public facts, or the seat's own hand), never the raw state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from bot.i18n import t
from bot.ui.cards import colour_name, label, symbol
from bot.ui.shown import Shown
from games.deck import COLOURS
from games.mu.cards import NO_TRUMP, PLAIN, TRUMP, ranking
from games.mu.views import MuView

#: The mark before the trump group of a hand: no suit's symbol (⭐ is the yellow suit's).
TRUMP_MARK = "👑"


def name(session: Shown, seat: int | None) -> str:
    return session.seats[seat].name if seat is not None else "?"


def trump_name(lang: str, trump: str) -> str:
    """``☘️ green``, ``7s`` or ``no trump``."""
    if trump in COLOURS:
        return f"{symbol(trump)} {colour_name(lang, trump)}"
    if trump == NO_TRUMP:
        return t(lang, "mu.trump.none")
    return t(lang, "mu.ui.digit_trump", digit=trump)


def trumps_text(lang: str, view: MuView) -> str | None:
    """What is trump so far, Chef over Vize ("☘️ green over 7s"); None before anyone named one."""
    vize, chef = view.vize_trump, view.chef_trump
    if chef is None:
        return t(lang, "mu.ui.trumps_vize_named", vize=trump_name(lang, vize)) if vize else None
    if chef == NO_TRUMP:
        if vize:
            return t(lang, "mu.ui.trumps_vize_only", vize=trump_name(lang, vize))
        return t(lang, "mu.ui.trumps_none")
    if not vize:
        return trump_name(lang, chef)
    if vize == chef:
        return t(lang, "mu.ui.trumps_same", chef=trump_name(lang, chef))
    return t(lang, "mu.trump.over", chef=trump_name(lang, chef), vize=trump_name(lang, vize))


def team_names(session: Shown, view: MuView) -> str:
    """The Chef team: the Chef, and the partner once chosen."""
    seats = [view.chef] + ([view.partner] if view.partner is not None else [])
    return " + ".join(f"**{name(session, s)}**" for s in seats)


def trick_text(session: Shown, trick: Sequence[tuple[int, str]]) -> str:
    """Cards in play order: ``ann ❤️6 → bob ❤️9``."""
    return " → ".join(f"{name(session, seat)} {label(card)}" for seat, card in trick)


def suits(view: MuView) -> dict[str, tuple[str, int]]:
    """Card -> (effective suit, trump tier), once the Chef's trump settled the trumps."""
    return _ranks(view.vize_trump, view.chef_trump)


def _ranks(vize: str | None, chef: str | None) -> dict[str, tuple[str, int]]:
    return PLAIN if chef is None else ranking(vize or "", chef)


def grouped(cards: Iterable[str], view: MuView) -> str:
    """A hand in its order (already grouped by effective suit), with ``·`` between suits and
    ``TRUMP_MARK`` before the trumps."""
    return _grouped(tuple(cards), view.vize_trump, view.chef_trump)


@lru_cache(maxsize=4096)
def _grouped(cards: tuple[str, ...], vize: str | None, chef: str | None) -> str:
    """``grouped`` by what it reads: every open hand is drawn again after each move at its table, and
    between a seat's own plays its cards and the trumps stay as they were."""
    ranks = _ranks(vize, chef)
    groups: list[list[str]] = []
    last = None
    for card in cards:
        suit = ranks[card][0]
        if suit != last:
            groups.append([TRUMP_MARK] if suit == TRUMP else [])
            last = suit
        groups[-1].append(label(card))
    return " · ".join(" ".join(group) for group in groups) or "—"


def led_suit(view: MuView) -> str | None:
    """The effective suit led to the current trick, or None."""
    return suits(view)[view.trick[0][1]][0] if view.trick else None
