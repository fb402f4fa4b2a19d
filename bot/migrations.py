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
    # What the bot remembers about itself between runs (where it registered its slash commands, so a
    # change of `command_guild_id` removes the copies left in the old place).
    (4, "meta", (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    )),
    # Reads that stay fast however long the history grows (issue 14).
    # - The restart reads live sessions through their own small index, never finished ones.
    # - /leaderboard, /stats and "most played" read running totals instead of scanning up to a
    #   million result rows: derived data, kept by triggers in the transaction that inserts the
    #   result rows (so no writer can forget them) and rebuildable from ``results`` with the two
    #   INSERT ... SELECTs below. Result rows are append-only. ``player_totals`` holds what a row
    #   counts towards (not stopped, a human seat), all matches and those without computer
    #   players (``human_*``); its two board indexes hold each ranking's order, so the top rows
    #   are the first entries. ``game_totals`` counts the matches with a result per game.
    # - A player's latest name (any match, stopped ones too) comes from a covering index.
    (5, "result totals", (
        "CREATE INDEX sessions_live ON sessions (id) WHERE status IN ('lobby', 'playing')",
        """
        CREATE TABLE player_totals (
            guild_id    INTEGER NOT NULL,
            game        TEXT    NOT NULL,
            user_id     INTEGER NOT NULL,
            games       INTEGER NOT NULL,
            wins        INTEGER NOT NULL,
            human_games INTEGER NOT NULL,
            human_wins  INTEGER NOT NULL,
            last_ended  REAL    NOT NULL,
            PRIMARY KEY (guild_id, game, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE INDEX player_totals_board ON player_totals
            (guild_id, game, wins DESC, CAST(wins AS REAL) / games DESC, games DESC, user_id)
        """,
        """
        CREATE INDEX player_totals_human_board ON player_totals
            (guild_id, game, human_wins DESC, CAST(human_wins AS REAL) / human_games DESC, human_games DESC,
             user_id)
            WHERE human_games > 0
        """,
        "CREATE INDEX player_totals_user ON player_totals (guild_id, user_id, game, games, wins, last_ended)",
        """
        CREATE TABLE game_totals (
            guild_id   INTEGER NOT NULL,
            game       TEXT    NOT NULL,
            matches    INTEGER NOT NULL,
            last_ended REAL    NOT NULL,
            PRIMARY KEY (guild_id, game)
        ) WITHOUT ROWID
        """,
        """
        INSERT INTO player_totals
        SELECT guild_id, game, user_id, COUNT(*), SUM(won), SUM(with_computers = 0),
               SUM(won AND with_computers = 0), MAX(ended_at)
        FROM results WHERE stopped = 0 AND user_id IS NOT NULL
        GROUP BY guild_id, game, user_id
        """,
        """
        INSERT INTO game_totals
        SELECT guild_id, game, COUNT(DISTINCT session_id), MAX(ended_at)
        FROM results WHERE stopped = 0 GROUP BY guild_id, game
        """,
        """
        CREATE TRIGGER results_player_totals AFTER INSERT ON results
        WHEN NEW.stopped = 0 AND NEW.user_id IS NOT NULL
        BEGIN
            INSERT INTO player_totals (guild_id, game, user_id, games, wins, human_games, human_wins, last_ended)
            VALUES (NEW.guild_id, NEW.game, NEW.user_id, 1, NEW.won, NEW.with_computers = 0,
                    NEW.won AND NEW.with_computers = 0, NEW.ended_at)
            ON CONFLICT (guild_id, game, user_id) DO UPDATE SET
                games = games + 1, wins = wins + excluded.wins,
                human_games = human_games + excluded.human_games, human_wins = human_wins + excluded.human_wins,
                last_ended = MAX(last_ended, excluded.last_ended);
        END
        """,
        # A match counts once: only the first of its rows for this server and game adds to it.
        """
        CREATE TRIGGER results_game_totals AFTER INSERT ON results
        WHEN NEW.stopped = 0
        BEGIN
            INSERT INTO game_totals (guild_id, game, matches, last_ended)
            VALUES (NEW.guild_id, NEW.game,
                    NOT EXISTS (SELECT 1 FROM results r WHERE r.session_id = NEW.session_id
                                AND r.seat <> NEW.seat AND r.guild_id = NEW.guild_id AND r.game = NEW.game
                                AND r.stopped = 0),
                    NEW.ended_at)
            ON CONFLICT (guild_id, game) DO UPDATE SET
                matches = matches + excluded.matches, last_ended = MAX(last_ended, excluded.last_ended);
        END
        """,
        # The per-row indexes the old queries used are replaced by the totals and this one.
        "DROP INDEX results_board",
        "DROP INDEX results_player",
        "CREATE INDEX results_player_name ON results (guild_id, user_id, ended_at, name)",
    )),
    # OpenSkill ratings (bot/ratings.py): derived from the result rows, which now say a seat's team
    # and a computer seat's level; `python -m bot rebuild-ratings` recomputes both rating tables.
    (6, "ratings", (
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
