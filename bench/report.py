"""The printed table: one row per target (ok / missed), information rows beside them."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

OK, MISSED, INFO = "ok", "missed", "info"

#: The rows every run prints, in order (the test checks each appears with a figure and a status).
LATENCY_MEDIAN = "click latency, median"
LATENCY_P99 = "click latency, p99"
LATENCY_THINKING = "click latency p99 while two strong players think"
RESTORE = "rebuild live sessions at start-up"
MEMORY = "bot resident memory, live sessions"
LEADERBOARD = "/leaderboard read, many results"
STATS = "/stats read, many results"
MOST_PLAYED = "most-played lookup, many results"
RAW_SQLITE = "raw SQLite commits/s"
PICTURE_MEDIAN = "table picture, median"
PICTURE_P99 = "table picture, p99"
PICTURE_SIZE = "table picture, largest PNG"
#: Issue 27: one row per game with pictures, the game's name after this.
REPLAY_STEP = "replay step with its picture, median"
#: Issue 27: one row per game, the game's key after this.
REVIEW_CPU = "coach review CPU, four players"
RATING_UPDATE = "rating update per finished match, median"
RATING_BOARD = "/leaderboard by rating, median"
CHANNEL_ROUTES = "Discord channel-route requests per move"
BOT_CPU = "bot CPU per accepted move, median"
CAPACITY_CPU = "capacity: bot CPU, share of one core"
CAPACITY_MEMORY = "capacity: bot resident memory"
CAPACITY_P99 = "capacity: click latency p99"
CAPACITY_ROWS = (CAPACITY_CPU, CAPACITY_MEMORY, CAPACITY_P99)
TARGET_ROWS = (LATENCY_MEDIAN, LATENCY_P99, LATENCY_THINKING, RESTORE, MEMORY, LEADERBOARD, STATS,
               MOST_PLAYED, PICTURE_MEDIAN, PICTURE_P99, PICTURE_SIZE, RATING_UPDATE, RATING_BOARD, CHANNEL_ROUTES,
               *CAPACITY_ROWS)

#: Issue 17: these rows are printed again for the PostgreSQL store, each beside its SQLite row.
POSTGRESQL = " [postgresql]"
POSTGRESQL_ROWS = tuple(label + POSTGRESQL for label in (LATENCY_MEDIAN, LATENCY_P99, RESTORE, MEMORY))
#: The status of a row that could not be measured here (its conditions say why).
SKIPPED = "skipped"


@dataclass(frozen=True)
class Row:
    label: str
    figure: str
    target: str
    status: str
    conditions: str = ""


def check(value: float, limit: float, *, at_most: bool) -> str:
    return OK if (value <= limit if at_most else value >= limit) else MISSED


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def median(values: list[float]) -> float:
    return statistics.median(values)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def mb(size: int) -> str:
    return f"{size / 2**20:.0f} MB"


def kb(size: int) -> str:
    return f"{size / 1000:.0f} KB"


def beside(rows: list[Row], more: list[Row]) -> list[Row]:
    """``rows`` with each of ``more`` placed after the row of its label without its store's suffix
    (``" [postgresql]"``), or after the one placed before it."""
    out = list(rows)
    at = len(out)
    for row in more:
        base = row.label.rsplit(" [", 1)[0]
        found = next((i for i, r in enumerate(out) if r.label == base), None)
        at = at if found is None else found + 1
        while found is not None and at < len(out) and out[at].label.startswith(base + " ["):
            at += 1
        out.insert(at, row)
        at += 1
    return out


def render(title: str, environment: dict[str, str], rows: list[Row], notes: list[str]) -> str:
    label_w = max(len(r.label) for r in rows)
    figure_w = max(len(r.figure) for r in rows)
    target_w = max(len(r.target) for r in rows)
    status_w = max(len(r.status) for r in rows)
    key_w = max(len(k) for k in environment)
    lines = [title, ""]
    lines += [f"  {key:<{key_w}}  {value}" for key, value in environment.items()]
    lines.append("")
    header = (f"  {'row':<{label_w}}  {'measured':>{figure_w}}  {'target':<{target_w}}  "
              f"{'status':<{status_w}}  conditions")
    lines += [header, "  " + "-" * (len(header) + 10)]
    for r in rows:
        lines.append(f"  {r.label:<{label_w}}  {r.figure:>{figure_w}}  {r.target:<{target_w}}  "
                     f"{r.status:<{status_w}}  {r.conditions}".rstrip())
    if notes:
        lines.append("")
        lines += [f"  {note}" for note in notes]
    return "\n".join(lines)
