"""Running the bot: settings, logs, metrics, shards, backups and copying a database."""
