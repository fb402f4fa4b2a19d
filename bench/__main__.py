"""``python -m bench [--quick] [--tmpdir DIR] [--profile DIR]``: the performance budget's rows.

Exits 0 unless the run crashed: a missed target is a figure to read, not a failure.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from pathlib import Path

from bench.load import BenchError
from bench.run import FULL, QUICK, run


async def _interruptible(coro):
    """SIGTERM and SIGHUP cancel the run like Ctrl+C does, so the bot process is always stopped."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    for sig in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(sig, task.cancel)
    try:
        return await coro
    except asyncio.CancelledError:
        raise BenchError("interrupted") from None
    finally:
        for sig in (signal.SIGTERM, signal.SIGHUP):
            loop.remove_signal_handler(sig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0].strip('`'))
    parser.add_argument("--quick", action="store_true",
                        help="a reduced workload that finishes in seconds (what CI runs)")
    parser.add_argument("--tmpdir", type=Path, default=None,
                        help="where the temporary databases go (default: the system's temp directory)")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="run the bot under cProfile and keep its profiles "
                             "(bot-live.prof, bot-restore.prof, their -postgresql twins, "
                             "bot-capacity-N.prof per number of tables) "
                             "in DIR; the figures are then slower than the real ones")
    parser.add_argument("--computer-processes", type=int, default=None, metavar="N",
                        help="the bot's computer_processes setting (default: the bot's own default; "
                             "0 makes strong moves in a thread, as before the worker pool)")
    args = parser.parse_args(argv)
    if args.computer_processes is not None and args.computer_processes < 0:
        parser.error("--computer-processes must be 0 or more")
    if args.profile is not None:
        args.profile = args.profile.resolve()
        args.profile.mkdir(parents=True, exist_ok=True)
    try:
        print(asyncio.run(_interruptible(run(QUICK if args.quick else FULL, args.tmpdir, args.profile,
                                                     args.computer_processes))),
              flush=True)
    except BenchError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
