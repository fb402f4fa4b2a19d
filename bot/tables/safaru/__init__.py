"""Safarü on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.safaru.picture import PICTURES
from bot.tables.safaru.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
