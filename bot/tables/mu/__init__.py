"""Mü on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.mu.picture import PICTURES
from bot.tables.mu.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
