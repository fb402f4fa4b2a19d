"""Everything stored: the SQL of sessions, results and ratings over SQLite or PostgreSQL, the schema
and its migrations, ranked lists and /forget-me (docs/storage.md)."""
