"""Running games: sessions and their seats, the click path, the table writer, the clock and timers,
and the computer players' turns."""
