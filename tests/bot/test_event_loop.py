"""The event loop ``python -m bot`` runs the bot on: uvloop's where it is installed (Linux and macOS, as
``pyproject.toml`` installs it), asyncio's own elsewhere."""

from __future__ import annotations

import asyncio

import pytest

import bot.__main__ as entry
from bot.ops import logs
from bot.ops.config import Settings

uvloop = pytest.importorskip("uvloop")


def _loop_of_run(monkeypatch: pytest.MonkeyPatch) -> asyncio.AbstractEventLoop:
    """The loop ``python -m bot run`` would run the bot on: its ``_run`` records the running loop."""
    seen: list[asyncio.AbstractEventLoop] = []

    async def run(settings: Settings) -> None:
        seen.append(asyncio.get_running_loop())

    monkeypatch.setattr(entry, "_run", run)
    monkeypatch.setattr(logs, "setup", lambda *args, **kwargs: None)     # the test runner's logging stays
    assert entry._run_bot(Settings(token="t")) == 0
    (loop,) = seen
    return loop


def test_the_bot_runs_on_uvloop_where_it_is_installed(monkeypatch):
    assert isinstance(_loop_of_run(monkeypatch), uvloop.Loop)


def test_without_uvloop_the_bot_runs_on_asyncios_own_loop(monkeypatch):
    monkeypatch.setattr(entry, "uvloop", None)
    loop = _loop_of_run(monkeypatch)
    assert not isinstance(loop, uvloop.Loop)
    assert type(loop).__module__.startswith("asyncio.")


def test_uvloop_is_a_dependency_everywhere_but_on_windows():
    with open("pyproject.toml", encoding="utf-8") as pyproject:
        assert f"\"uvloop=={uvloop.__version__}; sys_platform != 'win32'\"" in pyproject.read()
