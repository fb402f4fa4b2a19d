"""The numbered schema migrations of the database, applied in order by ``Storage.open``.

Append new migrations at the end; never edit or drop a released one, and never drop data. Each is
a tuple of statements run in one transaction together with its row in ``schema_migrations``.
Kept as Python rather than ``.sql`` files so packaging needs no data files. A database whose schema
is newer than ``LATEST`` was written by a newer version of the bot; ``Storage.open`` refuses it
rather than let older code write rows the newer schema does not expect.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "init", (
        """
        CREATE TABLE sessions (
            id            INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id      INTEGER NOT NULL,
            channel_id    INTEGER NOT NULL,
            game          TEXT    NOT NULL,
            host_id       INTEGER NOT NULL,
            lang          TEXT    NOT NULL,
            status        TEXT    NOT NULL CHECK (status IN
                              ('lobby', 'playing', 'finished', 'stopped', 'cancelled', 'expired')),
            options       TEXT    NOT NULL DEFAULT '{}',
            seats         TEXT    NOT NULL DEFAULT '[]',
            seed          TEXT,
            rules_version INTEGER NOT NULL,
            created_at    REAL    NOT NULL,
            started_at    REAL,
            ended_at      REAL,
            messages      TEXT    NOT NULL DEFAULT '{}',
            end_reason    TEXT
        )
        """,
        # One live session per channel, even across processes: the database decides.
        """
        CREATE UNIQUE INDEX sessions_live_channel ON sessions (channel_id)
            WHERE status IN ('lobby', 'playing')
        """,
        """
        CREATE TABLE actions (
            session_id INTEGER NOT NULL REFERENCES sessions (id),
            seq        INTEGER NOT NULL,
            seat       INTEGER NOT NULL,
            action     TEXT    NOT NULL,
            at         REAL    NOT NULL,
            PRIMARY KEY (session_id, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE results (
            session_id      INTEGER NOT NULL REFERENCES sessions (id),
            guild_id        INTEGER NOT NULL,
            game            TEXT    NOT NULL,
            seat            INTEGER NOT NULL,
            user_id         INTEGER,
            name            TEXT    NOT NULL,
            score           INTEGER,
            rank            INTEGER,
            won             INTEGER NOT NULL,
            shared          INTEGER NOT NULL,
            with_computers  INTEGER NOT NULL,
            stopped         INTEGER NOT NULL,
            ended_at        REAL    NOT NULL,
            PRIMARY KEY (session_id, seat)
        )
        """,
        "CREATE INDEX results_board ON results (guild_id, game, user_id)",
        "CREATE INDEX results_player ON results (guild_id, user_id)",
        """
        CREATE TABLE timers (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions (id),
            kind       TEXT    NOT NULL,
            due        REAL    NOT NULL,
            payload    TEXT    NOT NULL DEFAULT '{}',
            UNIQUE (session_id, kind)
        )
        """,
        "CREATE INDEX timers_due ON timers (due)",
    )),
    # The pace of a table (bot/autoplay.py): how long a player has for a turn.
    (2, "pace", (
        "ALTER TABLE sessions ADD COLUMN pace TEXT NOT NULL DEFAULT 'none'",
    )),
    # Whether the table and hands carry pictures (a lobby setting; on unless the host turns it off).
    (3, "pictures", (
        "ALTER TABLE sessions ADD COLUMN pictures INTEGER NOT NULL DEFAULT 1",
    )),
    # OpenSkill ratings (bot/ratings.py): derived from the result rows, which now say a seat's team
    # and a computer seat's level; `python -m bot rebuild-ratings` recomputes both rating tables.
    (4, "ratings", (
        "ALTER TABLE results ADD COLUMN team INTEGER",
        "ALTER TABLE results ADD COLUMN level TEXT",
        # Older computer rows learn their level from the seats stored with their session.
        """
        UPDATE results SET level = (
            SELECT json_extract(s.seats, '$[' || results.seat || '].level') FROM sessions s
            WHERE s.id = results.session_id)
        WHERE user_id IS NULL
        """,
        # The current rating of a player (`u<user id>`) or computer level (`c<level>`) per guild and game.
        """
        CREATE TABLE ratings (
            guild_id  INTEGER NOT NULL,
            game      TEXT    NOT NULL,
            player    TEXT    NOT NULL,
            user_id   INTEGER,
            level     TEXT,
            name      TEXT    NOT NULL,
            mu        REAL    NOT NULL,
            sigma     REAL    NOT NULL,
            ordinal   REAL    NOT NULL,
            games     INTEGER NOT NULL,
            PRIMARY KEY (guild_id, game, player)
        ) WITHOUT ROWID
        """,
        # Each rated seat's ordinal before and after its match: the trend /stats shows.
        """
        CREATE TABLE rating_log (
            session_id INTEGER NOT NULL,
            seat       INTEGER NOT NULL,
            guild_id   INTEGER NOT NULL,
            game       TEXT    NOT NULL,
            player     TEXT    NOT NULL,
            user_id    INTEGER,
            ended_at   REAL    NOT NULL,
            before     REAL    NOT NULL,
            after      REAL    NOT NULL,
            PRIMARY KEY (session_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX ratings_board ON ratings (guild_id, game, ordinal, games, user_id)",
        "CREATE INDEX ratings_user ON ratings (user_id)",
        "CREATE INDEX rating_log_player ON rating_log (guild_id, user_id, game, ended_at)",
    )),
)

#: The newest schema this version of the bot knows.
LATEST = max(version for version, _, _ in MIGRATIONS)
