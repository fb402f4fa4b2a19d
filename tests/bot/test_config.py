"""Settings: the environment wins, and every mistake is one clear sentence naming the setting."""

from pathlib import Path

import pytest

from bot.ops.config import ConfigError, load_settings
from bot.storage.shards import Shards, shard_of


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_token_from_file(tmp_path):
    settings = load_settings(write(tmp_path, 'token = "abc"\nlobby_timeout_minutes = 5\n'), env={})
    assert settings.token.get_secret_value() == "abc"
    assert settings.lobby_timeout_minutes == 5
    assert settings.database == Path("spieltisch.sqlite3")


def test_environment_token_wins(tmp_path):
    settings = load_settings(write(tmp_path, 'token = "from-file"\n'), env={"DISCORD_TOKEN": "from-env"})
    assert settings.token.get_secret_value() == "from-env"


def test_missing_token_names_both_places(tmp_path):
    with pytest.raises(ConfigError, match="DISCORD_TOKEN") as err:
        load_settings(write(tmp_path, "lobby_timeout_minutes = 5\n"), env={})
    assert "config.toml" in str(err.value)
    assert load_settings(write(tmp_path, ""), env={}, need_token=False).token is None


def test_a_config_file_named_on_the_command_line_must_exist(tmp_path):
    with pytest.raises(ConfigError) as err:
        load_settings(tmp_path / "absent.toml", env={"DISCORD_TOKEN": "x"})
    assert str(err.value) == f"The config file {tmp_path / 'absent.toml'} named by --config does not exist."


def test_every_setting_can_come_from_the_environment(tmp_path):
    from bot.ops.config import ENV_NAMES, Settings

    env = {
        "SPIELTISCH_TOKEN": "env-token", "SPIELTISCH_DATABASE_URL": "sqlite:////data/db.sqlite3",
        "SPIELTISCH_LOBBY_TIMEOUT_MINUTES": "7", "SPIELTISCH_COMPUTER_DELAY_SECONDS": "0.5",
        "SPIELTISCH_COMPUTER_SHOW_SECONDS": "3",
        "SPIELTISCH_SYNC_COMMANDS": "false", "SPIELTISCH_COMMAND_GUILD_ID": "123456789012345678",
        "SPIELTISCH_LOG_LEVEL": "WARNING", "SPIELTISCH_LOG_FORMAT": "json", "SPIELTISCH_METRICS_PORT": "9108",
        "SPIELTISCH_METRICS_HOST": "0.0.0.0", "SPIELTISCH_TESTING_API_BASE_URL": "http://127.0.0.1:1/api/v10",
        "SPIELTISCH_TESTING_GATEWAY_URL": "ws://127.0.0.1:1/gateway", "SPIELTISCH_COMPUTER_PROCESSES": "1",
        "SPIELTISCH_SHARD_COUNT": "4", "SPIELTISCH_SHARD_IDS": "2, 0", "SPIELTISCH_TESTING_SEED": "env-seed",
        "SPIELTISCH_REPLAY_DAYS": "0",
    }
    # one variable per setting, none forgotten (SPIELTISCH_DATABASE, the older name: see below)
    assert set(env) | {"SPIELTISCH_DATABASE"} == set(ENV_NAMES)
    assert {name for (name, *_) in ENV_NAMES.values()} == set(Settings.model_fields)
    settings = load_settings(write(tmp_path, 'token = "file"\nlobby_timeout_minutes = 30\n'), env=env)
    assert settings.token.get_secret_value() == "env-token"
    assert (settings.database, settings.lobby_timeout_minutes, settings.computer_delay_seconds,
            settings.computer_show_seconds) == (Path("/data/db.sqlite3"), 7, 0.5, 3.0)
    assert settings.sync_commands is False and settings.command_guild_id == 123456789012345678
    assert (settings.log_level, settings.log_format, settings.metrics_port, settings.metrics_host) == (
        "WARNING", "json", 9108, "0.0.0.0")
    assert settings.testing.gateway_url == "ws://127.0.0.1:1/gateway" and settings.computer_processes == 1
    assert settings.testing.seed == "env-seed" and settings.replay_days == 0
    assert (settings.shard_count, settings.shard_ids) == (4, [2, 0]) and settings.shards == Shards(4, (0, 2))
    # DISCORD_TOKEN keeps working and wins; an empty variable is as good as unset.
    both = load_settings(write(tmp_path, ""), env={"SPIELTISCH_TOKEN": "a", "DISCORD_TOKEN": "b",
                                                   "SPIELTISCH_METRICS_PORT": ""})
    assert both.token.get_secret_value() == "b" and both.metrics_port is None


@pytest.mark.parametrize(("variable", "value"), [
    ("SPIELTISCH_SHARD_IDS", "0,one"), ("SPIELTISCH_SHARD_COUNT", "0"),
    ("SPIELTISCH_LOBBY_TIMEOUT_MINUTES", "soon"), ("SPIELTISCH_SYNC_COMMANDS", "perhaps"),
    ("SPIELTISCH_METRICS_PORT", "70000"), ("SPIELTISCH_LOG_LEVEL", "LOUD"), ("SPIELTISCH_REPLAY_DAYS", "-1"),
])
def test_a_malformed_environment_variable_is_named_in_one_sentence(tmp_path, variable, value):
    with pytest.raises(ConfigError) as err:
        load_settings(write(tmp_path, ""), env={"DISCORD_TOKEN": "x", variable: value})
    text = str(err.value)
    assert text.startswith(f"The environment variable {variable} is invalid: ") and text.endswith(".")
    assert "\n" not in text


def test_malformed_toml(tmp_path):
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(write(tmp_path, "token = \n"), env={})


def test_wrong_type_names_the_setting(tmp_path):
    with pytest.raises(ConfigError, match="`lobby_timeout_minutes`"):
        load_settings(write(tmp_path, 'token = "x"\nlobby_timeout_minutes = "soon"\n'), env={})


def test_unknown_setting_is_named(tmp_path):
    with pytest.raises(ConfigError, match="`colour`"):
        load_settings(write(tmp_path, 'token = "x"\ncolour = "red"\n'), env={})


def test_missing_named_config_file(tmp_path):
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(env={"SPIELTISCH_CONFIG": str(tmp_path / "nope.toml"), "DISCORD_TOKEN": "x"})


def test_example_config_is_valid_apart_from_the_token_and_shows_every_default():
    from bot.ops.config import Settings

    example = Path(__file__).parents[2] / "config.example.toml"
    settings = load_settings(example, env={"DISCORD_TOKEN": "x"})
    assert settings == Settings(token="x")
    text = example.read_text(encoding="utf-8")
    assert "[testing]" not in text and "api_base_url" not in text      # test-only, not for operators
    for name in Settings.model_fields.keys() - {"testing"}:
        assert f"{name} = " in text, name


def test_bad_config_stops_start_up_with_one_sentence(tmp_path, capsys):
    from bot.__main__ import main

    code = main([str(write(tmp_path, 'token = ""\n'))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("spieltisch: Setting `token` is invalid") and "Traceback" not in err


def test_debug_logging_is_not_the_default_and_says_that_its_log_is_private(tmp_path, caplog):
    import logging

    from bot.ops import logs

    assert load_settings(write(tmp_path, 'token = "abc"\n'), env={}).log_level == "INFO"
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    try:
        logs.setup("INFO")
        assert not caplog.records
        logs.setup("DEBUG")
    finally:
        root.setLevel(level)
        root.handlers[:] = handlers
    (warning,) = [r for r in caplog.records if r.name == "spieltisch"]
    assert "redacted" in warning.getMessage() and "private" in warning.getMessage()
    root_dir = Path(__file__).resolve().parents[2]
    readme = (root_dir / "README.md").read_text(encoding="utf-8")
    assert "**A DEBUG log is\nprivate**" in readme
    example = (root_dir / "config.example.toml").read_text(encoding="utf-8")
    comment = example[example.index("# How much the bot writes to its log"):example.index('log_level = "INFO"')]
    assert "interaction's token, which is a credential" in " ".join(comment.replace("#", "").split())


def test_computer_processes_default_to_two_and_zero_means_in_the_bots_own_process(tmp_path):
    assert load_settings(write(tmp_path, 'token = "abc"\n'), env={}).computer_processes == 2
    assert load_settings(write(tmp_path, 'token = "abc"\ncomputer_processes = 0\n'), env={}).computer_processes == 0
    with pytest.raises(ConfigError, match="Setting `computer_processes` is invalid"):
        load_settings(write(tmp_path, 'token = "abc"\ncomputer_processes = -1\n'), env={})


def test_no_shards_is_one_process_for_every_guild(tmp_path):
    settings = load_settings(write(tmp_path, ""), env={"DISCORD_TOKEN": "x"})
    assert (settings.shard_count, settings.shard_ids, settings.sharded, settings.shards) == (None, [], False, None)
    # A shard count alone: this process runs all the shards, so it still owns every guild.
    every = load_settings(write(tmp_path, "shard_count = 3\n"), env={"DISCORD_TOKEN": "x"})
    assert every.sharded and every.shards is None


@pytest.mark.parametrize(("toml", "says"), [
    ("shard_ids = [0]\n", "shard_ids needs shard_count"),
    ("shard_count = 2\nshard_ids = [0, 2]\n", "between 0 and shard_count - 1 (1)"),
    ("shard_count = 2\nshard_ids = [1, 1]\n", "names a shard twice"),
])
def test_shards_that_do_not_fit_the_count_stop_start_up_with_one_sentence(tmp_path, toml, says):
    with pytest.raises(ConfigError) as err:
        load_settings(write(tmp_path, toml), env={"DISCORD_TOKEN": "x"})
    assert str(err.value).startswith("The settings do not fit together: ") and says in str(err.value)


def test_a_process_owns_the_guilds_of_its_shards_by_discords_formula():
    shards = Shards(2, (1,))
    assert shards.owns(1 << 22) and shards.owns(3 << 22 | 4095) and not shards.owns(2 << 22)
    assert shard_of(81384788765712384, 4) == 2 and shard_of(81384788765712384, 1) == 0


def test_the_database_is_a_url_or_the_older_sqlite_path_never_both(tmp_path):
    def load(text: str, **env: str):
        return load_settings(write(tmp_path, f'token = "x"\n{text}'), env=env)

    assert load("").database_url == "sqlite:///spieltisch.sqlite3"
    old = load('database = "games.sqlite3"\n')
    assert (old.database_url, old.database) == ("sqlite:///games.sqlite3", Path("games.sqlite3"))
    assert load("", SPIELTISCH_DATABASE="/d/g.sqlite3").database_url == "sqlite:////d/g.sqlite3"
    pg = load("", SPIELTISCH_DATABASE_URL="postgresql://bot:s3cret@db:5432/spieltisch")
    assert pg.database is None and pg.database_shown == "postgresql://bot:***@db:5432/spieltisch"
    with pytest.raises(ConfigError) as err:
        load('database = "games.sqlite3"\ndatabase_url = "sqlite:///other.sqlite3"\n')
    assert str(err.value) == ("The settings do not fit together: database_url and database both name the "
                              "database; keep only database_url.")
    with pytest.raises(ConfigError) as err:
        load("", SPIELTISCH_DATABASE_URL="mysql://bot:s3cret@db/spieltisch")
    assert str(err.value) == ("The environment variable SPIELTISCH_DATABASE_URL is invalid: mysql://bot:***@db/"
                              "spieltisch is neither sqlite:///PATH nor postgresql://USER@HOST/DATABASE.")
    with pytest.raises(ConfigError, match="Setting `database_url` is invalid: postgresql://db names no database"):
        load('database_url = "postgresql://db"\n')


def test_check_config_and_backup_on_postgresql_never_show_the_password(tmp_path, capsys):
    from bot.__main__ import main

    config = write(tmp_path, 'token = "x"\ndatabase_url = "postgresql://bot:s3cret@db:5432/spieltisch"\n')
    assert main(["--config", str(config), "check-config"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("spieltisch: The settings are OK: database postgresql://bot:***@db:5432/spieltisch, ")
    assert main(["--config", str(config), "backup", str(tmp_path / "copy.sqlite3")]) == 2
    err = capsys.readouterr().err
    assert err == ("spieltisch: backup copies SQLite files; postgresql://bot:***@db:5432/spieltisch is PostgreSQL, "
                   "whose own tool pg_dump makes a consistent copy while the bot runs (pg_dump --format=custom).\n")
    assert not (tmp_path / "copy.sqlite3").exists()


def test_replay_days_keeps_moves_half_a_year_by_default_and_refuses_a_negative_count(tmp_path):
    assert load_settings(write(tmp_path, ""), env={}, need_token=False).replay_days == 180
    assert load_settings(write(tmp_path, "replay_days = 0\n"), env={}, need_token=False).replay_days == 0
    with pytest.raises(ConfigError, match="`replay_days`"):
        load_settings(write(tmp_path, "replay_days = -3\n"), env={}, need_token=False)
