"""Pictures of the table and of a hand, drawn by our own code from views alone.

A game's ``Pictures`` (in its table package, ``bot/tables/<key>/picture.py``) lays its public view
out as a table and its cards as a hand: equal views give byte-equal PNGs, so the host can hash and
skip unchanged uploads, and a picture can never show a card its view hides. Pictures use no words,
only digits, letters and symbols (and Mü's role names Chef and Vize, the same in both languages), so
they are the same in every language.

The kit may be called from several threads at once (the table writer's painter and the event loop,
``bot.ui.pictured``): a sprite cache is a ``functools`` cache, so a sprite two threads draw at once is
drawn twice and one kept (the same pixels, hence the same PNG bytes), the compressed bands are kept
under a lock (``sheet.Plan``), and Pillow holds the GIL while FreeType draws a sprite's text.

Calcory has no pictures: its 60-slot grid *is* its buttons (each slot is clicked), and it has no
hand; a picture beside it would repeat the buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot.pictures.layouts import hand
from bot.pictures.sheet import Plan, Sheet
from bot.pictures.sprites import Face


def held(view: Any) -> tuple[str, ...]:
    """The cards of a hand view: its ``hand``, in order (empty for a seatless view)."""
    return tuple(getattr(view, "hand", None) or ())


def unmarked(view: Any) -> frozenset[str]:
    """No card of a hand carries a trump's mark (every game but Mü)."""
    return frozenset()


@dataclass(frozen=True, slots=True)
class Pictures:
    """One game's pictures: its table's layout, its cards' faces and which cards its hands hold."""

    table: Callable[[Any], Sheet | None]
    face: Callable[[str], Face]
    #: The cards a hand picture of a view shows, in order: with the playable ones, all it depends on
    #: (so a picture cache keyed on them repaints a hand only when its cards or their standing change,
    #: not whenever something public in the view did).
    hand_cards: Callable[[Any], tuple[str, ...]] = held
    #: The cards of a hand view that carry the trumps' mark (Mü): a picture cache keys on them too.
    trumps: Callable[[Any], frozenset[str]] = unmarked

    def hand_key(self, view: Any) -> tuple:
        """All a hand picture of ``view`` depends on, besides which cards are playable."""
        return self.hand_cards(view), self.trumps(view)

    def table_plan(self, view: Any) -> Plan | None:
        """The table laid out in bands, those it shares with a table drawn lately found compressed
        (``table_png`` compresses the rest; the table writer calls it in its painter's thread)."""
        sheet = self.table(view)
        return None if sheet is None else Plan.of(sheet)

    def table_png(self, view: Any) -> bytes | None:
        """The public table as a PNG, or None when there is nothing to draw."""
        plan = self.table_plan(view)
        return None if plan is None else plan.png()

    def hand_png(self, view: Any, playable: frozenset[str]) -> bytes | None:
        """The owner's cards as a PNG, the ``playable`` ones standing up; None without cards to show."""
        trumps = self.trumps(view)
        face = self.face if not trumps else (lambda c: replace(self.face(c), trump=True) if c in trumps
                                             else self.face(c))
        sheet = hand(face, self.hand_cards(view), playable)
        return None if sheet is None else sheet.png()
