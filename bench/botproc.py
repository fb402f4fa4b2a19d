"""The bot as its own process: ``python -m bot config.toml`` with a temporary config pointing at the double.

With ``profile`` set the bot runs under cProfile and leaves ``<name>.prof`` there when it stops; with
``profile_window`` as well, only between the signals of ``profile_start`` and ``profile_stop``, timed
by CPU time (``bench.profiled``).
The process is always ended by ``stop`` (SIGTERM, then SIGKILL after a grace period); callers use
``async with BotProcess(...)`` so it is ended on every path out, crashes included. Its output goes
to a log file in the work directory; a failed run prints its end.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "bench-token"
STOP_GRACE = 10.0


class BotProcess:
    def __init__(self, workdir: Path, name: str, *, database: Path | str, api_base: str, gateway_url: str,
                 guild_id: str, profile: Path | None = None, computer_processes: int | None = None,
                 profile_window: bool = False, computer_delay: float = 0.0) -> None:
        self.workdir = workdir
        self.profile = profile
        self.profile_window = profile_window
        self.name = name
        self.config = workdir / f"{name}.toml"
        self.log_path = workdir / f"{name}.log"
        self.database = database
        where = (f'database_url = "{database}"\n' if isinstance(database, str)      # postgresql://…
                 else f'database = "{database.as_posix()}"\n')
        self.config.write_text(
            "# Written by the benchmark: the bot against the Discord double on 127.0.0.1.\n"
            + where +
            "sync_commands = true\n"
            f"command_guild_id = {int(guild_id)}\n"
            'log_level = "INFO"\n'
            "lobby_timeout_minutes = 60\n"
            f"computer_delay_seconds = {computer_delay:g}\n"       # by default they move without a pause
            "computer_show_seconds = 0\n"
            + (f"computer_processes = {computer_processes}\n" if computer_processes is not None else "")
            + "[testing]\n"
            f'api_base_url = "{api_base}"\n'
            f'gateway_url = "{gateway_url}"\n'
            f'seed = "bench:{name}"\n'          # the same deals every run, so runs compare
        )
        self.proc: asyncio.subprocess.Process | None = None
        self.spawned_at = 0.0
        self._log = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def __aenter__(self) -> BotProcess:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SPIELTISCH_")}
        env["DISCORD_TOKEN"] = TOKEN
        env["PYTHONUNBUFFERED"] = "1"
        self._log = self.log_path.open("wb")
        self.spawned_at = time.time()
        if self.profile is None:
            command = ["-m", "bot", str(self.config)]
        elif self.profile_window:
            command = ["-m", "bench.profiled", str(self.profile_path), str(self.config)]
        else:
            command = ["-m", "cProfile", "-o", str(self.profile_path), "-m", "bot", str(self.config)]
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, *command, cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=self._log, stderr=asyncio.subprocess.STDOUT,
        )
        return self

    @property
    def profile_path(self) -> Path:
        assert self.profile is not None
        return self.profile / f"{self.name}.prof"

    def profile_start(self) -> None:
        """Start the profile's window (``profile_window``): what follows is profiled."""
        if self.profile is not None and self.profile_window:
            os.kill(self.pid, signal.SIGUSR1)

    def profile_stop(self) -> None:
        """End the window: the profile so far is written (windows add up)."""
        if self.profile is not None and self.profile_window:
            os.kill(self.pid, signal.SIGUSR2)

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def stop(self) -> int | None:
        """SIGTERM (the bot closes cleanly), SIGKILL if it takes longer than the grace period."""
        proc = self.proc
        if proc is None:
            return None
        try:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(proc.wait(), STOP_GRACE)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        proc.kill()
                    await proc.wait()
        finally:
            if proc.returncode is None:         # cancelled while waiting: never leave it behind
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
            if self._log is not None:
                self._log.close()
                self._log = None
        return proc.returncode

    def errors(self) -> list[str]:
        """Log lines at ERROR level or tracebacks: the bot swallowed something it should not have."""
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return []
        return [line for line in text.splitlines() if " ERROR " in line or line.startswith("Traceback")]

    # -- /proc -------------------------------------------------------------------------------
    def memory(self) -> dict[str, int]:
        """VmRSS and VmHWM (peak) of the bot process, in bytes."""
        out = {}
        with open(f"/proc/{self.pid}/status") as fh:
            for line in fh:
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    out[name] = int(value.split()[0]) * 1024
        return out

    def cpu_seconds(self) -> float:
        """User + system CPU time the bot process has used so far."""
        with open(f"/proc/{self.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])       # utime, stime (fields 14 and 15 of stat)
        return ticks / os.sysconf("SC_CLK_TCK")
