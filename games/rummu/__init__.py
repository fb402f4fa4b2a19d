"""Rummü: lay Linge and sequences, with yellow jokers and a first-meld minimum."""

from games.rummu.computer import BRAIN
from games.rummu.rules import GAME, Rummu
from games.rummu.state import Combo, Options, RummuState, RummuView

__all__ = ["BRAIN", "GAME", "Combo", "Options", "Rummu", "RummuState", "RummuView"]
