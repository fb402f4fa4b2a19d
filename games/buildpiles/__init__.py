"""Machinery shared by the build-pile games (Da Capo!, Skippo): the table, the supply with its
reshuffle of finished piles, turn passing, stalls, match play, views, resampling and rigging."""

from games.buildpiles.rig import rig
from games.buildpiles.rules import END, HAND, HELPER, PILE, RESERVE, BuildPileGame
from games.buildpiles.state import (
    Seat,
    SeatView,
    Table,
    TableView,
    all_cards,
    draw_card,
    draw_to,
    note_draw,
    push_build,
)

__all__ = [
    "END", "HAND", "HELPER", "PILE", "RESERVE", "BuildPileGame", "Seat", "SeatView", "Table", "TableView",
    "all_cards", "draw_card", "draw_to", "note_draw", "push_build", "rig",
]
