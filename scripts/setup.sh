#!/usr/bin/env bash
# Creates .venv (Python 3.11+) and installs the project with its pinned dependencies.
# Re-running is cheap: nothing is reinstalled while pyproject.toml is unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "Spieltisch needs Python 3.11 or newer; '$py' is $("$py" --version 2>&1)." >&2
    exit 1
fi
[ -x .venv/bin/python ] || "$py" -m venv .venv
stamp=".venv/.installed${extra:+-$extra}"
want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".${extra:+[$extra]}"
    echo "$want" > "$stamp"
fi
