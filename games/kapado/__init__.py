"""Kapado with the NumNum deck (2–7 players): build your five stacks by colour and divisor."""

from games.kapado.computer import BRAIN
from games.kapado.rules import GAME, Kapado, position
from games.kapado.state import KapadoState, KapadoView, Options, StackView

__all__ = ["BRAIN", "GAME", "Kapado", "KapadoState", "KapadoView", "Options", "StackView", "position"]
