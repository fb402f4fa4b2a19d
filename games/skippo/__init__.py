"""Skippo (2–6 players): Skip-Bo house rules with Rommé cards; empty your stock onto piles A → K."""

from games.skippo.cards import VALUE, deck, face, helper_value
from games.skippo.computer import BRAIN
from games.skippo.rules import GAME, Options, Skippo

__all__ = ["BRAIN", "GAME", "VALUE", "Options", "Skippo", "deck", "face", "helper_value"]
