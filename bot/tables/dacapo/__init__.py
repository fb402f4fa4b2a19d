"""Da Capo! on Discord: its table and hand messages (``presenter``) and its pictures (``picture``)."""

from bot.tables import GameTable
from bot.tables.dacapo.picture import PICTURES
from bot.tables.dacapo.presenter import PRESENTER

TABLE = GameTable(PRESENTER, PICTURES)
