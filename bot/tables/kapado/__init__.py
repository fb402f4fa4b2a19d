"""Kapado on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.kapado.picture import PICTURES
from bot.tables.kapado.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
