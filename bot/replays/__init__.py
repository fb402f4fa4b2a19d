"""After the game: a finished match stepped through privately (the replay stepper), rebuilt from its
stored seed and action log with ``games.base.walk``; its record, export and animated table; and how
long moves are kept."""
