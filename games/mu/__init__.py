"""Mü: an auction by laying cards face up, Chef and Vize trumps, then tricks for triangles."""

from __future__ import annotations

from games.mu.computer import BRAIN
from games.mu.rules import Mu, bid_action
from games.mu.state import MuOptions, MuState, position
from games.mu.views import MuView

GAME = Mu()

__all__ = ["BRAIN", "GAME", "Mu", "MuOptions", "MuState", "MuView", "bid_action", "position"]
