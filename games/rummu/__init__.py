"""Rummü: lay Linge and sequences, with yellow jokers and a first-meld minimum (mu-and-more §4)."""

from games.rummu.game import GAME, Rummu
from games.rummu.state import Combo, Options, RummuState, RummuView

__all__ = ["GAME", "Combo", "Options", "Rummu", "RummuState", "RummuView"]
