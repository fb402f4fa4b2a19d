#!/usr/bin/env bash
# Sets everything up and runs the bot. The token comes from DISCORD_TOKEN or config.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m bot "$@"
