"""Rummü: lay Linge and sequences, with yellow jokers and a first-meld minimum."""

from games.rummu.game import GAME, Rummu
from games.rummu.state import Combo, Options, RummuState, RummuView

__all__ = ["GAME", "Combo", "Options", "Rummu", "RummuState", "RummuView"]
