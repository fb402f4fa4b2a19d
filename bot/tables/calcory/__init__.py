"""Calcory on Discord: the grid of slots as buttons, no pictures (the buttons are the picture)."""

from bot.tables import GameTable
from bot.tables.calcory.presenter import PRESENTER

TABLE = GameTable(PRESENTER)
