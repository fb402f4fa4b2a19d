"""Diabolo on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.diabolo.picture import PICTURES
from bot.tables.diabolo.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
