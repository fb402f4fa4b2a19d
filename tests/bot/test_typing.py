"""The type checker's configuration (``[tool.mypy]`` in pyproject.toml): every module of bot/ and cogs/
has every function annotated and every body checked, every module of games/ is checked with the
whole of --strict, and nothing is left out of the checker. The few exceptions still granted are named
here, so that a new one cannot slip in unnoticed. ``scripts/run-tests.sh`` runs the checker itself."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: The options --strict would set, which mypy takes only for a whole run (the strict section lists them).
STRICT = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
          "disallow_incomplete_defs", "check_untyped_defs", "disallow_untyped_decorators", "warn_unused_ignores",
          "warn_return_any", "no_implicit_reexport", "strict_equality", "extra_checks")

#: Modules of games/ that still switch error codes off, with those codes (none now: a new one must be named here).
COMPUTERS_EXCUSED: dict[str, set[str]] = {}
#: Modules of bot/ that may still leave parameters unannotated (their bodies are checked all the same).
UNANNOTATED_EXCUSED: set[str] = set()


def _modules(*folders: str) -> list[str]:
    files = [path for folder in folders for path in sorted((ROOT / folder).rglob("*.py"))]
    names = [".".join(path.relative_to(ROOT).with_suffix("").parts) for path in files]
    return [name.removesuffix(".__init__") for name in names]


def _overrides() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]["overrides"]


def _patterns(override: dict) -> list[str]:
    return override["module"] if isinstance(override["module"], list) else [override["module"]]


def _matches(pattern: str, module: str) -> bool:
    """mypy's override patterns: a module's name, or ``package.*`` for a package and all below it."""
    if pattern.endswith(".*"):
        package = pattern.removesuffix(".*")
        return module == package or module.startswith(package + ".")
    return module == pattern


def _specificity(pattern: str) -> tuple[int, int]:
    """mypy lets a module's own name win over a wildcard, and a longer wildcard over a shorter one."""
    return (0, len(pattern)) if pattern.endswith(".*") else (1, len(pattern))


def _settings(module: str) -> dict:
    found = [(_specificity(pattern), index, override) for index, override in enumerate(_overrides())
             for pattern in _patterns(override) if _matches(pattern, module)]
    merged: dict = {}
    for _, _, override in sorted(found, key=lambda item: item[:2]):
        merged.update({key: value for key, value in override.items() if key != "module"})
    return merged


@pytest.mark.parametrize("module", _modules("bot", "cogs"))
def test_every_module_of_bot_and_cogs_is_type_checked_whole(module):
    settings = _settings(module)
    assert not settings.get("ignore_errors"), f"{module} is left out of the type checker"
    assert not settings.get("disable_error_code"), f"{module} has error codes switched off"
    assert settings.get("check_untyped_defs"), f"{module} leaves the bodies of unannotated functions unchecked"
    if module not in UNANNOTATED_EXCUSED:
        assert settings.get("disallow_untyped_defs") and settings.get("disallow_incomplete_defs"), \
            f"{module} may leave functions unannotated"


def test_only_the_named_modules_of_bot_may_leave_functions_unannotated():
    loose = {module for module in _modules("bot", "cogs") if not _settings(module).get("disallow_untyped_defs")}
    assert loose == UNANNOTATED_EXCUSED


@pytest.mark.parametrize("module", _modules("games"))
def test_every_module_of_games_is_checked_strictly(module):
    settings = _settings(module)
    assert not settings.get("ignore_errors"), f"{module} is left out of the type checker"
    assert all(settings.get(option) for option in STRICT), f"{module} is not checked with the whole of --strict"
    switched_off = set(settings.get("disable_error_code", ()))
    assert switched_off == COMPUTERS_EXCUSED.get(module, set()), f"{module} switches off {sorted(switched_off)}"


def test_no_module_is_left_out_of_the_checker():
    assert not [override["module"] for override in _overrides() if override.get("ignore_errors")]


def test_the_rules_engines_switch_off_no_error_code():
    rules = [module for module in _modules("games") if module.endswith((".rules", ".combos", ".state", "base"))]
    assert {"games.base", "games.dacapo.rules", "games.kapado.rules", "games.mu.rules", "games.rummu.combos",
            "games.rummu.rules", "games.skippo.rules"} <= set(rules)
    assert not [module for module in rules if _settings(module).get("disable_error_code")]


def test_the_seams_are_found():
    assert {"bot.app", "bot.play.clicks", "bot.play.writer", "bot.play.autoplay", "bot.play.changes",
            "bot.transport.webhooks", "bot.storage.store", "cogs.games", "cogs.controls", "bot.ui.options", "bot.tables.rummu.hand", "bot.pictures.sheet",
            "bot.ops.metrics", "bot.preview"} <= set(_modules("bot", "cogs"))
