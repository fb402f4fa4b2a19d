"""The Dockerfile and the compose files, checked without Docker: the image's entry command runs here as
a subprocess with the image's environment, the Dockerfile keeps to what the README promises (slim, not
root, the database on a volume), and every setting a compose file passes is one the bot knows."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from urllib.parse import urlsplit

import pytest

from bot.__main__ import COMMANDS
from bot.ops.config import ENV_NAMES, load_settings
from tests.e2e import compose_yaml
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
    # The official image, by the digest of its multi-platform index: a rebuild gets the same base.
    assert steps[0][0] == "FROM" and re.fullmatch(r"python:3\.1\d-slim@sha256:[0-9a-f]{64}", steps[0][1])
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


def test_the_image_installs_only_what_the_lock_file_pins():
    steps = instructions()
    installs = [args for word, args in steps if word == "RUN" and "pip install" in args]
    assert len(installs) == 2
    # First every dependency, each file checked against its hash, then the project, resolving nothing.
    assert installs[0] == "pip install --require-hashes -r requirements.txt"
    assert installs[1].startswith("pip install --no-deps --no-build-isolation . ")
    copied = [args.split()[:-1] for word, args in steps if word == "COPY"]
    assert copied.index(["requirements.txt"]) < copied.index(["pyproject.toml", "README.md", "LICENSE"])


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
        "log level INFO (text), metrics on 127.0.0.1:9108.")

    # The image's own command without a token: one sentence, before anything touches /data.
    bare = _run_entry([], env, tmp_path)
    assert bare.returncode == 2 and bare.stderr.strip().startswith("spieltisch: No Discord bot token")


@pytest.mark.parametrize("name", ["compose.yaml", "compose.postgres.yaml"])
def test_health_is_reachable_on_the_hosts_loopback_and_nowhere_else(name):
    """The image keeps /health and /metrics on the container's loopback; a compose service that
    publishes them listens on the container's interfaces (the published port arrives there) and
    publishes to the host's 127.0.0.1 only."""
    assert "EXPOSE" not in [word for word, _ in instructions()]        # `docker run -P` publishes nothing
    alone = load_settings(env={**image_env(), "DISCORD_TOKEN": "x", "SPIELTISCH_METRICS_PORT": "9108"})
    assert alone.metrics_host == "127.0.0.1"
    published = 0
    for service in bots(compose(name)["services"]).values():
        env = {key: compose_yaml.interpolate(value, OUTSIDE) for key, value in service["environment"].items()}
        settings = load_settings(env={**image_env(), **env})
        ports = service.get("ports", [])
        if settings.metrics_port is None or not ports:
            assert settings.metrics_host == "127.0.0.1" and not ports
            continue
        for port in ports:
            host_address, _host_port, inside = port.split(":")
            assert host_address == "127.0.0.1" and int(inside) == settings.metrics_port
        assert settings.metrics_host == "0.0.0.0"
        assert f"http://127.0.0.1:{settings.metrics_port}/health" in " ".join(service["healthcheck"]["test"])
        published += 1
    assert published


def test_compose_runs_the_image_with_the_token_from_outside_and_a_named_volume():
    text = (ROOT / "compose.yaml").read_text(encoding="utf-8")
    assert "DISCORD_TOKEN: ${DISCORD_TOKEN:?" in text           # never written into the file
    assert "- spieltisch-data:/data" in text and "\nvolumes:\n  spieltisch-data:" in text
    assert '"127.0.0.1:9108:9108"' in text and 'SPIELTISCH_METRICS_PORT: "9108"' in text
    assert "http://127.0.0.1:9108/health" in text


# ------------------------------------------------------------------------------ compose.postgres.yaml

#: What an operator puts in the environment or ``.env`` (a password of letters and digits, as the file asks).
OUTSIDE = {"DISCORD_TOKEN": "x", "POSTGRES_PASSWORD": "Geheim42"}


def compose(name: str) -> dict:
    return compose_yaml.load((ROOT / name).read_text(encoding="utf-8"))


def bots(services: dict) -> dict[str, dict]:
    """The services that run the bot (built from the Dockerfile, started by ``up``)."""
    return {name: s for name, s in services.items() if s.get("build") == "." and "profiles" not in s}


def test_the_postgres_example_runs_every_shard_once_on_a_healthy_postgres_with_its_data_on_a_volume():
    services, volumes = compose("compose.postgres.yaml")["services"], compose("compose.postgres.yaml")["volumes"]
    postgres = services["postgres"]
    assert postgres["image"] == "postgres:15" and postgres["restart"] == "unless-stopped"
    (data,) = postgres["volumes"]
    assert data.split(":") == ["spieltisch-postgres", "/var/lib/postgresql/data"] and "spieltisch-postgres" in volumes
    assert postgres["healthcheck"]["test"][0] == "CMD-SHELL" and "pg_isready" in postgres["healthcheck"]["test"][1]
    assert postgres["environment"]["POSTGRES_PASSWORD"].startswith("${POSTGRES_PASSWORD:?")

    shards = bots(services)
    assert len(shards) == 2
    counts, ids, ports, urls = set(), [], [], set()
    for service in shards.values():
        env = service["environment"]
        assert service["restart"] == "unless-stopped"
        assert service["depends_on"] == {"postgres": {"condition": "service_healthy"}}
        assert env["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")     # never written into the file
        assert "image" not in service       # two services building one image name collide
        counts.add(int(env["SPIELTISCH_SHARD_COUNT"]))
        ids += [int(shard) for shard in env["SPIELTISCH_SHARD_IDS"].split(",")]
        ports += [port.rsplit(":", 1)[0] for port in service["ports"]]
        assert all(port.startswith("127.0.0.1:") for port in service["ports"])
        urls.add(env["SPIELTISCH_DATABASE_URL"])
    (count,) = counts
    assert sorted(ids) == list(range(count))                            # each shard exactly once
    assert len(set(ports)) == len(ports)
    (url,) = urls
    where = urlsplit(compose_yaml.interpolate(url, OUTSIDE))
    assert (where.scheme, where.hostname, where.port, where.path) == ("postgresql", "postgres", 5432, "/spieltisch")
    assert (where.username, where.password) == (postgres["environment"]["POSTGRES_USER"], OUTSIDE["POSTGRES_PASSWORD"])
    assert where.path == "/" + postgres["environment"]["POSTGRES_DB"]


def test_each_shard_service_starts_with_its_settings_in_the_image():
    for service in bots(compose("compose.postgres.yaml")["services"]).values():
        env = {name: compose_yaml.interpolate(value, OUTSIDE) for name, value in service["environment"].items()}
        settings = load_settings(env={**image_env(), **env})
        assert settings.shard_count == 2 and settings.shard_ids == [int(env["SPIELTISCH_SHARD_IDS"])]
        assert (settings.metrics_port, settings.metrics_host, settings.log_format) == (9108, "0.0.0.0", "json")


def _known(name: str) -> bool:
    return name == "DISCORD_TOKEN" or name in ENV_NAMES


@pytest.mark.parametrize("name", ["compose.yaml", "compose.postgres.yaml"])
def test_every_variable_a_compose_file_passes_to_the_bot_is_a_setting(name):
    services = bots(compose(name)["services"])
    passed = {variable for service in services.values() for variable in service["environment"]}
    assert passed and [variable for variable in sorted(passed) if not _known(variable)] == []


def test_the_copy_service_moves_compose_yamls_sqlite_volume_into_the_bots_postgres():
    services = compose("compose.postgres.yaml")["services"]
    copy = services["copy-database"]
    assert copy["profiles"] == ["copy"] and copy["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    (single,) = compose("compose.yaml")["services"]["spieltisch"]["volumes"]
    assert copy["volumes"] == [single]                              # the SQLite bot's volume, same name
    command, *args = copy["command"]
    assert args[0::2] == ["--from", "--to"]
    assert args[1] == image_env()["SPIELTISCH_DATABASE_URL"]
    (url,) = {service["environment"]["SPIELTISCH_DATABASE_URL"] for service in bots(services).values()}
    assert args[3] == url
    assert command in COMMANDS


def test_the_compose_reader_refuses_what_it_does_not_read():
    assert compose_yaml.load("a:\n  b: \"x # y\"  # z\n  c:\n    - '1'\n") == {"a": {"b": "x # y", "c": ["1"]}}
    for text in ("a: &anchor\n", "a:\n- b\n", "a: |\n  b\n", "a:\n  b: c\n   d: e\n", "a: b\na: c\n"):
        with pytest.raises(ValueError):
            compose_yaml.load(text)
