#!/usr/bin/env bash
# Writes the lock files from pyproject.toml: every package the bot needs (requirements.txt) and the
# tests need (requirements-dev.txt, a superset with the same versions), transitive ones included,
# pinned with the hashes of every file PyPI has for that version, for Python 3.11+ on any platform;
# and setuptools, which builds the project itself. setup.sh and the Dockerfile install only these.
# Run it after changing a dependency in pyproject.toml, and commit the lock files with that change.
# Needs uv (`pip install uv`); arguments go to uv, e.g. --upgrade-package aiohttp.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v uv >/dev/null || { echo "lock.sh needs uv on PATH (pip install uv)." >&2; exit 1; }
build="$(mktemp)"
trap 'rm -f "$build"' EXIT
python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))' > "$build"
common=(--quiet --universal --python-version 3.11 --generate-hashes --custom-compile-command "scripts/lock.sh")
uv pip compile pyproject.toml "$build" "${common[@]}" "$@" -o requirements.txt
uv pip compile pyproject.toml "$build" --extra dev --constraint requirements.txt "${common[@]}" "$@" \
    -o requirements-dev.txt
