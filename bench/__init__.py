"""The benchmark of the performance budget (docs/performance.md): ``python -m bench [--quick]``.

The bot runs as its own process (``python -m bot``) against the Discord double in this process;
simulated players click Calcory tables through the double the way Discord clients would. One row
per target, the environment beside them; the quick mode is the same run on a small workload, so CI
keeps the command from rotting.
"""
