#!/usr/bin/env bash
# Sets everything up, then runs the linter, the type checker and the whole test suite (which
# includes the quick benchmark). Arguments go to pytest. docs/performance.md says how long it takes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh dev
# Python's own bytecode cache (__pycache__, ignored by git and Docker), even where the environment
# turns it off (PYTHONDONTWRITEBYTECODE, as this project's Dockerfile and many CI images do): without
# it every test worker, and every bot and benchmark process the tests start, compiles the project's
# modules again, and each worker rewrites every test module's asserts (about 5 s of CPU a worker).
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m ruff check bot games cogs tests
# The type checker, configured in pyproject.toml (strict on games/ and the seams of bot/).
.venv/bin/python -m mypy
# One worker more than there are cores: the end-to-end tests wait on the processes they start (the
# bot, PostgreSQL, the benchmark), and a third worker fills those waits on a machine of two cores.
cores="$(getconf _NPROCESSORS_ONLN)"
.venv/bin/python -m pytest -n "$(( cores < 3 ? cores + 1 : 4 ))" "$@"
