"""``python -m bot`` as a real process: start-up mistakes end it with one sentence and exit code 2."""

from concurrent.futures import ThreadPoolExecutor

from tests.e2e.bot_process import clean_env, run_entry_point


def _one_sentence(result) -> str:
    err = result.stderr.strip()
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert len(err.splitlines()) == 1, err
    assert err.startswith("spieltisch: ") and err.endswith("."), err
    return err


def test_start_up_mistakes_stop_the_real_entry_point_without_a_traceback(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken.toml"
    broken.write_text("token = \n", encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('token = "x"\nlobby_timeout_minutes = "soon"\n', encoding="utf-8")
    runs = {
        # No token anywhere: no config.toml in the working directory, no DISCORD_TOKEN.
        "no_token": ([], empty, clean_env()),
        "malformed": ([str(broken)], empty, clean_env()),
        # The environment's token does not excuse a malformed file.
        "malformed_env_token": ([str(broken)], empty, clean_env(DISCORD_TOKEN="x")),
        "wrong_type": ([str(wrong)], empty, clean_env()),
        "missing_named_file": ([], empty, clean_env(SPIELTISCH_CONFIG=str(tmp_path / "nope.toml"),
                                                     DISCORD_TOKEN="x")),
    }
    with ThreadPoolExecutor(len(runs)) as pool:
        futures = {name: pool.submit(run_entry_point, args, cwd=cwd, env=env)
                   for name, (args, cwd, env) in runs.items()}
        results = {name: future.result() for name, future in futures.items()}

    no_token = _one_sentence(results["no_token"])
    assert "DISCORD_TOKEN" in no_token and "config.toml" in no_token
    for name in ("malformed", "malformed_env_token"):
        text = _one_sentence(results[name])
        assert str(broken) in text and "not valid TOML" in text
    assert "`lobby_timeout_minutes`" in _one_sentence(results["wrong_type"])
    missing = _one_sentence(results["missing_named_file"])
    assert "SPIELTISCH_CONFIG" in missing and "nope.toml" in missing
