"""Skippo on Discord: the shared build-pile table and hand (``bot/tables/buildpiles/presenter.py``), plus what
only Skippo has: a joker on a helper pile shows the highest value it may still stand for, and a
match scored by games won counts wins instead of points.

Joker runs, setting a joker aside and held aces need nothing here: runs come from the engine as
moves of their own (a button each, or one step listing them), "set aside" is a button, and aces go
out by themselves.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.tables.buildpiles.presenter import JOKER, BuildPilePresenter, game_of
from bot.tables.skippo.picture import PICTURES
from bot.ui.shown import Shown
from games.buildpiles import BuildPileGame
from games.buildpiles.state import TableView
from games.skippo import helper_value


class SkippoPresenter(BuildPilePresenter):
    def helper_top(self, pile: tuple[str, ...], game: BuildPileGame[Any]) -> str:
        """``🃏≤9``: a joker on a helper pile counts at most as the natural card beneath it."""
        top = self.card(game, pile[-1])
        return f"{JOKER}≤{game.face_of_value(helper_value(list(pile)))}" if top == JOKER else top

    def table_notes(self, session: Shown, view: TableView, lang: str) -> list[str]:
        """What ``🃏≤9`` means, once, while a joker lies on top of a helper pile."""
        game = game_of(session)
        capped = any(pile and self.card(game, pile[-1]) == JOKER for seat in view.seats for pile in seat.helpers)
        return [t(lang, "skippo.ui.capped_joker")] if capped else []

    def score(self, session: Shown, lang: str, points: int) -> str:
        if session.options.scoring == "wins":
            return t(lang, "skippo.ui.wins", points=points)
        return super().score(session, lang, points)


PRESENTER = SkippoPresenter("skippo", PICTURES)
