"""Diabolo (3–5 players): feed the angels or the devils, then hope your hand matches."""

from games.diabolo.computer import BRAIN
from games.diabolo.rules import GAME, Diabolo, position, score_now
from games.diabolo.state import DiaboloState, DiaboloView, Options, RowView

__all__ = ["BRAIN", "GAME", "Diabolo", "DiaboloState", "DiaboloView", "Options", "RowView", "position", "score_now"]
