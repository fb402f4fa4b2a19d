"""``python -m bench.profiled OUT CONFIG``: the bot, profiled only while the benchmark asks for it.

SIGUSR1 starts cProfile, SIGUSR2 stops it and writes OUT (the counts add up over several windows).
It times the event loop's thread by its own CPU time, not the wall clock: a wall-clock profile of
the bot blames each socket send for the time the scheduler gave the double's process right after
it (a send looked like a sixth of the bot's time, where it is one fiftieth), and ``bench.cpu``
measures CPU time too. Start-up is left out, so the profile is the moves alone.
"""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time


def main() -> None:
    out, config = sys.argv[1], sys.argv[2]
    profiler = cProfile.Profile(time.thread_time)

    def stop(*_) -> None:
        profiler.disable()
        profiler.dump_stats(out)

    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR2, stop)
    sys.argv = ["bot", config]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
