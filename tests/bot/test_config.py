"""Settings: the environment wins, and every mistake is one clear sentence naming the setting."""

from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings


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
        load_settings(tmp_path / "absent.toml", env={})
    assert "config.toml" in str(err.value)


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


def test_example_config_is_valid_apart_from_the_token():
    example = Path(__file__).parents[2] / "config.example.toml"
    settings = load_settings(example, env={"DISCORD_TOKEN": "x"})
    assert settings.sync_commands is True and settings.testing.api_base_url is None


def test_bad_config_stops_start_up_with_one_sentence(tmp_path, capsys):
    from bot.__main__ import main

    code = main([str(write(tmp_path, 'token = ""\n'))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("spieltisch: Setting `token` is invalid") and "Traceback" not in err


def test_debug_logging_is_not_the_default_and_says_that_its_log_holds_credentials(tmp_path, caplog):
    from bot.__main__ import configure_logging

    assert load_settings(write(tmp_path, 'token = "abc"\n'), env={}).log_level == "INFO"
    configure_logging("INFO")
    assert not caplog.records
    configure_logging("DEBUG")
    (warning,) = [r for r in caplog.records if r.name == "spieltisch"]
    assert "interaction tokens" in warning.getMessage() and "credentials" in warning.getMessage()
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert "**A DEBUG log contains\ncredentials**" in readme
    example = (root / "config.example.toml").read_text(encoding="utf-8")
    comment = example[example.index("# How much the bot writes to its log"):example.index('log_level = "INFO"')]
    assert "interaction's token, which is a credential" in " ".join(comment.replace("#", "").split())


def test_computer_processes_default_to_two_and_zero_means_in_the_bots_own_process(tmp_path):
    assert load_settings(write(tmp_path, 'token = "abc"\n'), env={}).computer_processes == 2
    assert load_settings(write(tmp_path, 'token = "abc"\ncomputer_processes = 0\n'), env={}).computer_processes == 0
    with pytest.raises(ConfigError, match="Setting `computer_processes` is invalid"):
        load_settings(write(tmp_path, 'token = "abc"\ncomputer_processes = -1\n'), env={})
