"""Safarü: catch animals from the table by adding, by seventeen and by pairing."""

from games.safaru.game import GAME, Options, Safaru, SafaruState, SafaruView
from games.safaru.rules import ANIMAL_COLOURS, Catch

__all__ = ["ANIMAL_COLOURS", "GAME", "Catch", "Options", "Safaru", "SafaruState", "SafaruView"]
