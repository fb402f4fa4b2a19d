"""The table and hand Da Capo! and Skippo share (each game's package adds its cards and hooks)."""
