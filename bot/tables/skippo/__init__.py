"""Skippo on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.skippo.picture import PICTURES
from bot.tables.skippo.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
