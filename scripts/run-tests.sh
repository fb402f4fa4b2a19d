#!/usr/bin/env bash
# Sets everything up and runs the whole test suite, then the quick benchmark.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
.venv/bin/python -m ruff check bot games cogs tests
# The type checker, configured in pyproject.toml (strict on games/ and the seams of bot/).
.venv/bin/python -m mypy
# Tests run in one worker per core (at most four): the suite stays within its five minutes.
.venv/bin/python -m pytest -n auto --maxprocesses 4 "$@"
