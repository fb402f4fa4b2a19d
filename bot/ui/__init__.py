"""Everything the bot draws: presenters per game, the lobby, summaries."""
