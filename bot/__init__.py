"""Spieltisch: the Discord side (config, sessions, storage, the click path, the table writer)."""
