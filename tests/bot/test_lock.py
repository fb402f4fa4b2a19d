"""The lock files: every package the bot and its tests install is pinned with hashes, they agree with
``pyproject.toml`` and with each other, the test environment is exactly the lock, and
``scripts/setup.sh`` installs from them (again only when the lock or ``pyproject.toml`` changed)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT_TEXT = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
PYPROJECT = tomllib.loads(PYPROJECT_TEXT)
#: ``name==version`` with an optional marker, continued by one ``--hash=sha256:…`` line per file.
_ENTRY = re.compile(r"^([A-Za-z0-9._-]+)==(\S+)(?: ; (.+?))? \\$")
_HASH = re.compile(r"^    --hash=sha256:[0-9a-f]{64}(?: \\)?$")


def lock(name: str) -> dict[tuple[str, str | None], tuple[str, frozenset[str]]]:
    """``{(package, marker): (version, hashes)}`` of a lock file; fails on any line it cannot read."""
    entries: dict = {}
    current = None
    for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if match := _ENTRY.match(line):
            key = (canonicalize_name(match[1]), match[3])
            assert key not in entries, line
            current = entries[key] = (match[2], set())
        else:
            assert current is not None and _HASH.match(line), f"{name}: {line}"
            current[1].add(line.split("sha256:")[1][:64])
    assert entries
    return {key: (version, frozenset(hashes)) for key, (version, hashes) in entries.items()}


def pins(name: str) -> dict[str, str]:
    """The version of each package for this interpreter and platform (markers evaluated)."""
    return {package: version for (package, marker), (version, _) in lock(name).items()
            if marker is None or Marker(marker).evaluate()}


def test_every_locked_package_has_a_version_and_the_hashes_of_its_files():
    for name in ("requirements.txt", "requirements-dev.txt"):
        for (package, _), (version, hashes) in lock(name).items():
            assert Version(version) and hashes, (name, package)


def test_the_locks_hold_pyprojects_pins_and_the_build_backend():
    project = PYPROJECT["project"]
    for name, wanted in (("requirements.txt", project["dependencies"]),
                         ("requirements-dev.txt", project["dependencies"] + project["optional-dependencies"]["dev"])):
        locked = pins(name)
        for text in wanted + PYPROJECT["build-system"]["requires"]:
            requirement = Requirement(text)
            assert requirement.specifier.contains(locked[canonicalize_name(requirement.name)]), (name, text)


def test_the_dev_lock_is_the_bots_lock_plus_the_test_tools():
    bot, dev = lock("requirements.txt"), lock("requirements-dev.txt")
    assert {key: dev.get(key) for key in bot} == bot        # same versions, same files
    assert set(dev) - set(bot)


def test_pillow_is_past_the_advisories_of_12_0():
    """Pillow 12.0.0 had security advisories, fixed in 12.2 and 12.3."""
    assert Version(pins("requirements.txt")["pillow"]) >= Version("12.3")


def _installed_closure(root: str) -> dict[str, str]:
    """``{name: version}`` of the installed distributions ``root`` needs, transitively (each
    requirement's markers evaluated, with the extras asked for)."""
    seen: dict[str, str] = {}
    done: set[tuple[str, str]] = set()
    todo = [Requirement(root)]
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        dist = metadata.distribution(name)
        seen[name] = dist.version
        for extra in {"", *requirement.extras}:
            if (name, extra) not in done:
                done.add((name, extra))
                todo += [needed for needed in map(Requirement, dist.requires or [])
                         if needed.marker is None or needed.marker.evaluate({"extra": extra})]
    return seen


def test_the_test_environment_is_exactly_the_dev_lock():
    """Every package the project and its test tools pull in is installed at its locked version (the
    lock misses no transitive dependency, and setup.sh installed from it), and so is the build backend."""
    installed = _installed_closure("spieltisch[dev]")
    installed.pop("spieltisch")
    locked = pins("requirements-dev.txt")
    assert {name: locked.get(name) for name in installed} == installed
    assert metadata.version("setuptools") == locked["setuptools"]


def test_setup_installs_from_the_lock_with_hashes_and_again_only_when_it_changes(tmp_path):
    """``scripts/setup.sh`` run in a copy of the project whose ``.venv/bin/python`` only notes what
    it was asked to install."""
    for name in ("scripts/setup.sh", "pyproject.toml", "requirements.txt", "requirements-dev.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    fake = tmp_path / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/../asked"\n', encoding="utf-8")
    fake.chmod(0o755)
    asked = tmp_path / ".venv" / "asked"

    def setup(*args: str) -> list[str]:
        before = asked.read_text(encoding="utf-8").splitlines() if asked.exists() else []
        subprocess.run(["bash", "scripts/setup.sh", *args], cwd=tmp_path, check=True, timeout=60,
                       env={**os.environ, "PYTHON": shutil.which("python3") or "python3"})
        return (asked.read_text(encoding="utf-8").splitlines() if asked.exists() else [])[len(before):]

    pip = "-m pip install --quiet --disable-pip-version-check"
    installs = [f"{pip} --require-hashes -r requirements-dev.txt", f"{pip} --no-deps --no-build-isolation -e ."]
    assert setup("dev") == installs
    assert setup("dev") == []                       # nothing changed: nothing installed
    with (tmp_path / "requirements-dev.txt").open("a", encoding="utf-8") as changed:
        changed.write("# a new pin\n")
    assert setup("dev") == installs
    assert setup() == [f"{pip} --require-hashes -r requirements.txt", installs[1]]
    (tmp_path / "pyproject.toml").write_text(PYPROJECT_TEXT + "\n# changed\n", encoding="utf-8")
    assert setup() == [f"{pip} --require-hashes -r requirements.txt", installs[1]]
