#!/usr/bin/env bash
# Creates .venv (Python 3.11+) and installs the pinned dependencies from the lock file, every file
# checked against its hash (requirements.txt; with the argument `dev`, requirements-dev.txt, which
# adds the test tools), then the project itself without resolving anything more.
# Re-running is cheap: nothing is reinstalled while the lock file and pyproject.toml are unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Spieltisch needs Python 3.11 or newer; '$py' is $("$py" --version 2>&1)." >&2
    exit 1
fi
lock="requirements${extra:+-$extra}.txt"
if [ ! -f "$lock" ]; then
    echo "There is no lock file $lock for '$extra' (scripts/lock.sh writes them)." >&2
    exit 1
fi
[ -x .venv/bin/python ] || "$py" -m venv .venv
stamp=".venv/.installed${extra:+-$extra}"
want="$(cat "$lock" pyproject.toml | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    pip=(.venv/bin/python -m pip install --quiet --disable-pip-version-check)
    "${pip[@]}" --require-hashes -r "$lock"
    # setuptools, the build backend, came from the lock: build with it rather than fetch another.
    "${pip[@]}" --no-deps --no-build-isolation -e .
    echo "$want" > "$stamp"
fi
