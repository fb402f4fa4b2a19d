"""A throwaway PostgreSQL server for tests and the benchmark: ``Cluster.start()`` … ``cluster.stop()``.

It finds ``initdb``/``pg_ctl`` (PATH, ``pg_config --bindir``, ``/usr/lib/postgresql/*/bin``,
``/usr/local/pgsql/bin``), makes a cluster in a temporary folder, starts it on a free port of
127.0.0.1 (its socket in that folder, fsync off: nothing here needs to survive a crash), and
deletes it all on ``stop``. As root (CI, this machine), where ``initdb`` and ``postgres`` refuse to
run, it runs them as the unprivileged ``postgres`` user and gives it the folder.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The user the server runs as when we are root.
SERVER_USER = "postgres"
#: Where packages put the server programs when they are not on PATH.
INSTALL_FOLDERS = ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin", "/opt/homebrew/bin")
#: The server's settings: nothing here needs to survive a crash.
SETTINGS = {"listen_addresses": "127.0.0.1", "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off",
            "max_connections": "200"}


class NoServer(Exception):
    """No PostgreSQL server can be started here; the message says why, in one line."""


def required(env) -> bool:
    """CI (``CI=true``) runs everything on PostgreSQL too: there a missing server is a failure, not a skip."""
    return env.get("CI") == "true"


def find_bindir() -> Path:
    """The folder holding ``initdb`` and ``pg_ctl``."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    if shutil.which("pg_config"):
        out = subprocess.run(["pg_config", "--bindir"], capture_output=True, text=True, check=False).stdout.strip()
        if out and (Path(out) / "initdb").is_file():
            return Path(out)
    for pattern in INSTALL_FOLDERS:
        for folder in sorted(glob.glob(pattern), reverse=True):      # the newest version first
            if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
                return Path(folder)
    raise NoServer("no PostgreSQL server is installed (initdb and pg_ctl are neither on PATH, "
                   "nor in pg_config --bindir, nor in /usr/lib/postgresql/*/bin)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Cluster:
    """A running server; ``url(name)`` is a ``database_url`` for one of its databases."""

    root: Path
    bindir: Path
    port: int
    user: str | None        # the system user the server runs as (None: ourselves)

    @classmethod
    def start(cls, settings: dict[str, str] | None = None) -> Cluster:
        """``settings`` override the server's (``SETTINGS``: made for speed, not for surviving a crash)."""
        bindir = find_bindir()
        user = SERVER_USER if os.geteuid() == 0 else None
        if user is not None:
            try:
                account = pwd.getpwnam(user)
            except KeyError:
                raise NoServer(f"running as root, and there is no {user!r} user to run the server as") from None
        root = Path(tempfile.mkdtemp(prefix="spieltisch-pg-"))
        if user is not None:
            os.chown(root, account.pw_uid, account.pw_gid)
        cluster = cls(root, bindir, free_port(), user)
        try:
            cluster._run("initdb", "-D", str(root / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                         "--locale=C", "--no-sync")
            chosen = {**SETTINGS, **(settings or {})}
            options = f"-p {cluster.port} -k {root} " + " ".join(f"-c {key}={value}" for key, value in chosen.items())
            cluster._run("pg_ctl", "-D", str(root / "data"), "-l", str(root / "log"), "-o", options, "-w", "start")
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, program: str, *args: str) -> None:
        done = subprocess.run([str(self.bindir / program), *args], capture_output=True, text=True, check=False,
                              user=self.user, cwd=self.root, env={**os.environ, "LC_ALL": "C"})
        if done.returncode != 0:
            log = (self.root / "log").read_text(errors="replace")[-800:] if (self.root / "log").exists() else ""
            raise NoServer(f"{program} failed: {(done.stderr or done.stdout).strip()[-800:]} {log}".strip())

    def url(self, name: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """Stop the server at once and delete its folder."""
        if (self.root / "data" / "postmaster.pid").exists():
            subprocess.run([str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate", "-w",
                            "stop"], capture_output=True, check=False, user=self.user, cwd=self.root)
        shutil.rmtree(self.root, ignore_errors=True)
