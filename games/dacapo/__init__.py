"""Da Capo! (2–6 players): empty your pile onto shared build piles 1 → 10; first empty pile wins."""

from games.dacapo.cards import DECK, VALUE, face
from games.dacapo.computer import BRAIN
from games.dacapo.rules import GAME, DaCapo, Options

__all__ = ["BRAIN", "DECK", "GAME", "VALUE", "DaCapo", "Options", "face"]
