"""The Dockerfile and compose.yaml, checked without Docker: the image's entry command runs here as a
subprocess with the image's environment, and the file keeps to what the README promises (slim, not
root, the database on a volume)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

from tests.e2e.bot_process import ROOT, clean_env


def instructions() -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` in order, continuation lines joined, comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("#")]
    joined = "\n".join(lines).replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        if line.strip():
            word, _, rest = line.strip().partition(" ")
            out.append((word.upper(), " ".join(rest.split())))
    return out


def image_env() -> dict[str, str]:
    env = {}
    for word, args in instructions():
        if word == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(args))
    return env


def entry_command() -> list[str]:
    found = {word: json.loads(args) for word, args in instructions() if word in ("ENTRYPOINT", "CMD")}
    return found["ENTRYPOINT"] + found["CMD"]


def test_the_image_is_slim_runs_as_a_user_and_keeps_the_database_on_its_volume():
    steps = instructions()
    assert steps[0][0] == "FROM" and steps[0][1].startswith("python:") and steps[0][1].endswith("-slim")
    users = [args for word, args in steps if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    volumes = [args for word, args in steps if word == "VOLUME"]
    database = image_env()["SPIELTISCH_DATABASE_URL"]      # a PostgreSQL URL from outside replaces it
    assert volumes == ["/data"] and database.startswith("sqlite:////data/")
    for word, args in steps:                # everything copied into the image is in the repository
        if word == "COPY":
            for source in args.split()[:-1]:
                assert (ROOT / source).exists(), source
    assert entry_command() == ["python", "-m", "bot", "run"]


def _run_entry(extra_args: list[str], env: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    command = entry_command()
    assert command[0] == "python"
    args = [sys.executable, *command[1:3], *extra_args] if extra_args else [sys.executable, *command[1:]]
    return subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)


def test_the_entry_command_runs_with_the_images_environment(tmp_path):
    env = clean_env(**image_env())
    helped = _run_entry(["--help"], env, tmp_path)
    assert helped.returncode == 0 and "check-config" in helped.stdout

    checked = _run_entry(["check-config"], {**env, "DISCORD_TOKEN": "x", "SPIELTISCH_METRICS_PORT": "9108"}, tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == (
        "spieltisch: The settings are OK: database /data/spieltisch.sqlite3, commands registered globally, "
        "log level INFO (text), metrics on 0.0.0.0:9108.")

    # The image's own command without a token: one sentence, before anything touches /data.
    bare = _run_entry([], env, tmp_path)
    assert bare.returncode == 2 and bare.stderr.strip().startswith("spieltisch: No Discord bot token")


def test_compose_runs_the_image_with_the_token_from_outside_and_a_named_volume():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "DISCORD_TOKEN: ${DISCORD_TOKEN:?" in text           # never written into the file
    assert "- spieltisch-data:/data" in text and "\nvolumes:\n  spieltisch-data:" in text
    assert '"127.0.0.1:9108:9108"' in text and 'SPIELTISCH_METRICS_PORT: "9108"' in text
    assert "http://127.0.0.1:9108/health" in text
