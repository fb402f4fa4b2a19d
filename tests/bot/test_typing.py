"""The type checker covers the seams between the services (``[tool.mypy]`` in pyproject.toml): no
module of bot/play, bot/transport, bot/storage, bot/app.py or cogs/ is left out of it, and each has
every function annotated and every body checked. ``scripts/run-tests.sh`` runs the checker itself."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SEAMS = ("bot/play", "bot/transport", "bot/storage", "cogs")


def _modules() -> list[str]:
    files = [path for folder in SEAMS for path in sorted((ROOT / folder).rglob("*.py"))] + [ROOT / "bot" / "app.py"]
    names = [".".join(path.relative_to(ROOT).with_suffix("").parts) for path in files]
    return [name.removesuffix(".__init__") for name in names]


def _overrides() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["overrides"]


def _matches(pattern: str, module: str) -> bool:
    """mypy's override patterns: a module's name, or ``package.*`` for a package and all below it."""
    if pattern.endswith(".*"):
        package = pattern.removesuffix(".*")
        return module == package or module.startswith(package + ".")
    return module == pattern


def _settings(module: str) -> dict:
    merged: dict = {}
    for override in _overrides():
        patterns = override["module"] if isinstance(override["module"], list) else [override["module"]]
        if any(_matches(pattern, module) for pattern in patterns):
            merged.update({key: value for key, value in override.items() if key != "module"})
    return merged


@pytest.mark.parametrize("module", _modules())
def test_every_module_of_the_seams_is_type_checked_whole(module):
    settings = _settings(module)
    assert not settings.get("ignore_errors"), f"{module} is left out of the type checker"
    assert not settings.get("disable_error_code"), f"{module} has error codes switched off"
    assert settings.get("disallow_untyped_defs") and settings.get("check_untyped_defs"), \
        f"{module} may leave functions unannotated and unchecked"


def test_the_seams_are_found():
    assert {"bot.app", "bot.play.clicks", "bot.play.writer", "bot.play.autoplay", "bot.play.changes",
            "bot.transport.webhooks", "bot.storage.store", "cogs.games", "cogs.controls"} <= set(_modules())
