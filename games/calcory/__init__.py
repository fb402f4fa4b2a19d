"""Calcory (2–6 players): flip cards from a face-down grid, aim for 13, remember where cards lie."""

from games.calcory.computer import BRAIN
from games.calcory.rules import GAME, Calcory
from games.calcory.state import (
    COLUMNS,
    FLIP,
    OVER,
    RETURN,
    ROWS,
    SLOT_INDEX,
    SLOTS,
    TARGET,
    CalcoryState,
    CalcoryView,
    FailedView,
    MarkedView,
    SlotView,
    position,
)

__all__ = ["BRAIN", "COLUMNS", "FLIP", "GAME", "OVER", "RETURN", "ROWS", "SLOTS", "SLOT_INDEX", "TARGET",
           "Calcory", "CalcoryState", "CalcoryView", "FailedView", "MarkedView", "SlotView", "position"]
