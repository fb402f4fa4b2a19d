"""The machine and the software the figures were measured on."""

from __future__ import annotations

import os
import platform
import sqlite3
from importlib import metadata
from pathlib import Path


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def cores() -> str:
    total = os.cpu_count() or 0
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else total
    return f"{usable}" if usable == total else f"{usable} of {total}"


def load_average() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def filesystem(path: Path) -> str:
    """The mount holding ``path``: filesystem type and device, from /proc/mounts."""
    best = ("", "unknown", "unknown")
    try:
        real = str(path.resolve())
        with open("/proc/mounts") as fh:
            for line in fh:
                device, mount, kind, *_ = line.split()
                if (real == mount or real.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best[0]):
                    best = (mount, kind, device)
    except OSError:
        pass
    return f"{best[1]} ({best[2]})"


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def describe(workdir: Path) -> dict[str, str]:
    return {
        "CPU": f"{cpu_model()}, {cores()} cores, load average {load_average()} at start",
        "Python": f"{platform.python_implementation()} {platform.python_version()} on {platform.system()} "
                  f"{platform.release()}",
        "libraries": f"discord.py {version('discord.py')}, aiohttp {version('aiohttp')}, "
                     f"aiosqlite {version('aiosqlite')}, pydantic {version('pydantic')}",
        "SQLite": sqlite3.sqlite_version,
        "database disk": f"{workdir} on {filesystem(workdir)}",
    }
