"""Safarü: catch animals from the table by adding, by seventeen and by pairing."""

from games.safaru.catches import ANIMAL_COLOURS, Catch
from games.safaru.computer import BRAIN
from games.safaru.rules import GAME, Safaru
from games.safaru.state import Options, SafaruState, SafaruView

__all__ = ["ANIMAL_COLOURS", "BRAIN", "GAME", "Catch", "Options", "Safaru", "SafaruState", "SafaruView"]
