"""The benchmark's quick mode, as CI runs it: it must finish, print every row with a figure and exit 0.

It runs as a subprocess exactly as a person would type it (``python -m bench --quick``), so the
bot's own entry point, the double and the players are all exercised end to end.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench.report import LATENCY_MEDIAN, RAW_SQLITE, TARGET_ROWS, THROUGHPUT

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^  (?P<label>.+?)\s{2,}(?P<figure>[\d.,]+ ?(?:ms|s|KB|MB|/s|/move))\s{2,}(?P<target>\S.*?)\s{2,}"
                 r"(?P<status>ok\*?|missed\*?|info)(?:\s|$)")


def test_quick_mode_prints_every_row(tmp_path):
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--tmpdir", str(tmp_path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {m["label"]: m for line in done.stdout.splitlines() if (m := ROW.match(line))}
    for label in TARGET_ROWS:
        assert label in rows, f"no row {label!r} in:\n{done.stdout}"
        assert rows[label]["status"] in ("ok*", "missed*"), rows[label].group(0)
    assert rows[RAW_SQLITE]["status"] == "info"
    safaru = [label for label in rows if label.startswith("Safarü legal moves + hand")]
    assert len(safaru) == 4 and all(rows[label]["status"] in ("ok*", "missed*") for label in safaru), safaru
    assert float(rows[THROUGHPUT]["figure"].removesuffix("/s").replace(",", "")) > 0, "no move was committed"
    assert float(rows[LATENCY_MEDIAN]["figure"].removesuffix(" ms")) > 0
    assert "QUICK MODE" in done.stdout and "synchronous=NORMAL" in done.stdout
    assert "request validation off" in done.stdout
    assert "the bot logged" not in done.stdout, done.stdout
    assert " 0 clicks refused" in done.stdout, "a simulated move was refused"
    assert not list(tmp_path.iterdir()), "the benchmark left files behind"
