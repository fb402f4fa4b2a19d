"""Rummü on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.rummu.picture import PICTURES
from bot.tables.rummu.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
