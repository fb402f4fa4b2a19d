"""Pictures of the table and of a hand, drawn by our own code from views alone.

``table_png`` takes the public view (``game.view(state, None)``), ``hand_png`` the owner's view:
equal views give byte-equal PNGs, so the host can hash and skip unchanged uploads, and a picture
can never show a card its view hides. Neither uses words, only digits, letters and symbols, so
``lang`` is accepted for the interface and not needed yet.

Calcory has no pictures: its 60-slot grid *is* its buttons (each slot is clicked), and it has no
hand; a picture beside it would repeat the buttons.
"""

from __future__ import annotations

from bot.pictures import faces, layouts
from bot.pictures.sheet import Plan, Sheet

_TABLES = {
    "mu": layouts.mu_table,
    "safaru": layouts.safaru_table,
    "rummu": layouts.rummu_table,
    "dacapo": lambda v: layouts.buildpiles_table("dacapo", v),
    "skippo": lambda v: layouts.buildpiles_table("skippo", v),
    "kapado": layouts.kapado_table,
    "diabolo": layouts.diabolo_table,
}


def hand_cards(game_key: str, view) -> tuple[str, ...]:
    """The cards a hand picture of ``view`` shows, in order: with the playable ones, all it depends on
    (so a picture cache keyed on them repaints a hand only when its cards or their standing change,
    not whenever something public in the view did)."""
    if game_key == "kapado":
        return (*([view.drawn] if view.drawn else []), *(view.wishes[view.seat] if view.seat is not None else ()))
    return tuple(getattr(view, "hand", None) or ())


def table_png(game_key: str, view, lang: str) -> bytes | None:
    """The public table of ``game_key`` as a PNG, or None for a game without a table picture."""
    plan = table_plan(game_key, view, lang)
    return None if plan is None else plan.png()


def table_plan(game_key: str, view, lang: str) -> Plan | None:
    """``table_png`` before the bands it does not share with a table drawn lately are compressed
    (``sheet.deflate(plan.rows)``), which takes most of the time and may go to a thread."""
    layout = _TABLES.get(game_key)
    sheet = None if layout is None else layout(view)
    return None if sheet is None else Plan.of(sheet)


def hand_png(game_key: str, view, lang: str, playable: frozenset[str]) -> bytes | None:
    """The owner's cards as a PNG, the ``playable`` ones standing up; None without cards to show."""
    if game_key not in _TABLES:
        return None
    return _encode(layouts.hand(faces.FACES[game_key], hand_cards(game_key, view), playable))


def _encode(sheet: Sheet | None) -> bytes | None:
    return None if sheet is None else sheet.png()


GAMES_WITH_PICTURES = frozenset(_TABLES)
