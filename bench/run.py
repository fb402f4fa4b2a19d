"""One benchmark run: the workloads, the order of the phases, and the rows they print."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import envinfo
from bench.budget import GameCount, count_games
from bench.capacity import CapacityResult
from bench.capacity import run as measure_capacity
from bench.cpu import GameCpu
from bench.cpu import measure as measure_cpu
from bench.live import LiveResult, run_live
from bench.load import BenchError, LoadDouble
from bench.pictures import PictureResult
from bench.pictures import measure as measure_pictures
from bench.playouts import Playouts
from bench.playouts import measure as measure_playouts
from bench.postgres import PostgresResult, Server
from bench.postgres import describe as describe_postgres
from bench.postgres import measure as measure_postgres
from bench.ratings import RatingResult
from bench.ratings import measure as measure_ratings
from bench.replay import ReplayStep
from bench.replay import measure as measure_replays
from bench.report import (
    BOT_CPU,
    CAPACITY_CPU,
    CAPACITY_MEMORY,
    CAPACITY_P99,
    CHANNEL_ROUTES,
    INFO,
    LATENCY_MEDIAN,
    LATENCY_P99,
    LATENCY_THINKING,
    LEADERBOARD,
    MEMORY,
    MOST_PLAYED,
    PICTURE_MEDIAN,
    PICTURE_P99,
    PICTURE_SIZE,
    POSTGRESQL,
    RATING_BOARD,
    RATING_UPDATE,
    RAW_SQLITE,
    REPLAY_STEP,
    RESTORE,
    SKIPPED,
    STATS,
    Row,
    beside,
    check,
    kb,
    mb,
    median,
    ms,
    percentile,
    render,
)
from bench.restore import DATABASE as RESTORE_DATABASE
from bench.restore import RestoreResult, run_restore
from bench.results import CALLS, WRITERS, ResultsResult, run_results
from bench.review import QUICK_MOVES as REVIEW_QUICK_MOVES
from bench.review import measure as measure_reviews
from bench.review import rows as review_rows
from bench.safaru import TARGET_MS as SAFARU_MS
from bench.safaru import FreeCards
from bench.safaru import measure as measure_safaru
from bench.sqlite_rate import aiosqlite_commit_rate, raw_commit_rate
from bench.thinking import GAMES as THINKING_GAMES
from games import REGISTRY

# The budget (docs/performance.md lists it).
MEDIAN_MS, P99_MS, THINKING_P99_MS, RESTORE_S, MEMORY_MB = 5.0, 20.0, 10.0, 2.0, 250
READ_MS = 20.0
PICTURE_MEDIAN_MS, PICTURE_P99_MS, PICTURE_KB = 15.0, 40.0, 200
#: Issue 27: a replay's step, its picture drawn, median per game.
REPLAY_STEP_MS = 50.0
RATING_UPDATE_MS, RATING_BOARD_MS = 2.0, 20.0
CHANNEL_PER_MOVE = 1.0
#: Issue 24: one bot process carries this many tables at human pace within these.
CAPACITY_TABLES, CAPACITY_CPU_SHARE, CAPACITY_MB, CAPACITY_P99_MS = 1000, 0.80, 600, 50.0


@dataclass(frozen=True)
class Workload:
    name: str
    quick: bool
    games: int                  # concurrent Calcory games (latency and throughput)
    players: int                # seats per game
    latency_moves: int          # moves timed one at a time
    warmup: float               # seconds of full load before the throughput window
    window: float               # seconds of the throughput window
    sessions: int               # live sessions in the database at the restart
    moves: tuple[int, int]      # random moves per restored session (inclusive range)
    sqlite_seconds: float
    playout_seconds: float      # per game
    picture_rounds: int         # timed passes over every game's seeded positions
    replay_steps: int           # consecutive steps of each game's long match drawn by the replay stepper
    replay_longest: int         # the most moves of that match
    review_moves: int | None    # moves of each game's four-player match the coach reviews (None: all)
    safaru_positions: int       # seeded positions per count of free cards
    result_rows: int            # result rows under /leaderboard, /stats and the rating board
    rated_players: int          # people the rated rows are spread over (one guild, eight games)
    rating_updates: int         # finished matches whose rating update is timed
    budget_moves: int           # moves per game (at most) whose Discord requests are counted
    cpu_moves: int = 60         # moves per game (at most) whose bot CPU time is measured
    capacity: tuple[int, ...] = (250, CAPACITY_TABLES, 2000)    # live tables, one bot process each
    capacity_target: int = CAPACITY_TABLES    # the count whose rows carry the targets
    pace: float = 10.0          # seconds between a table's moves
    capacity_window: float = 30.0   # seconds measured, after a warm-up of one pace


FULL = Workload("full", False, games=100, players=3, latency_moves=2000, warmup=3.0, window=15.0,
                sessions=1000, moves=(200, 200), sqlite_seconds=2.0, playout_seconds=1.0, picture_rounds=20,
                replay_steps=60, replay_longest=1500, review_moves=None,
                safaru_positions=20, result_rows=1_000_000, rated_players=5000, rating_updates=500,
                budget_moves=150)
QUICK = Workload("quick", True, games=10, players=3, latency_moves=100, warmup=0.5, window=2.0,
                 sessions=100, moves=(5, 40), sqlite_seconds=0.3, playout_seconds=0.05, picture_rounds=2,
                 replay_steps=4, replay_longest=120, review_moves=REVIEW_QUICK_MOVES,
                 safaru_positions=4, result_rows=20_000, rated_players=1000, rating_updates=50,
                 budget_moves=10, cpu_moves=20, capacity=(20,), capacity_target=20, pace=2.0, capacity_window=4.0)


async def run(workload: Workload, parent: Path | None = None, profile: Path | None = None,
              computer_processes: int | None = None) -> str:
    """The printed report; with ``profile`` the bot processes run under cProfile and save there;
    ``computer_processes`` overrides the bot's setting of that name (0: strong moves in a thread)."""
    workdir = Path(tempfile.mkdtemp(prefix="spieltisch-bench-", dir=parent))
    postgres = Server()
    try:
        return await _run(workload, workdir, profile, computer_processes, postgres)
    except BenchError as exc:
        logs = "".join(f"\n--- the end of {log.name} ---\n{_tail(log)}"
                       for log in sorted(workdir.glob("*.log")))
        raise BenchError(f"{exc}{logs}") from None
    finally:
        await postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def _tail(path: Path, lines: int = 25) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


async def _run(w: Workload, workdir: Path, profile: Path | None, computer_processes: int | None,
               postgres: Server) -> str:
    started = time.perf_counter()
    environment = envinfo.describe(workdir)
    raw = raw_commit_rate(workdir, w.sqlite_seconds)
    via_aiosqlite = await aiosqlite_commit_rate(workdir, w.sqlite_seconds)
    playouts = measure_playouts(w.playout_seconds)
    pictures = measure_pictures(w.picture_rounds)
    replays = measure_replays(w.replay_steps, w.replay_longest)
    # Issue 27: a coach's review, CPU per game; in a thread, as the review runs its own event loop
    # (this process's CPU time counts it, and nothing else runs meanwhile).
    reviews = await asyncio.to_thread(measure_reviews, moves=w.review_moves)
    safaru = measure_safaru(w.safaru_positions)
    ratings = await measure_ratings(workdir, w.result_rows, w.rated_players, w.rating_updates, w.rating_updates // 2)
    postgres.start()        # initdb and the start run meanwhile: counting requests times nothing
    budget = await count_games(w.budget_moves, workdir)
    load = LoadDouble()
    await load.start()
    try:
        live = await run_live(load, workdir, games=w.games, players=w.players, latency_moves=w.latency_moves,
                              warmup=w.warmup, window=w.window, profile=profile,
                              computer_processes=computer_processes)
        restored = await run_restore(load, workdir, live.guild_id, sessions=w.sessions, moves=w.moves,
                                     profile=profile)
        cpu = await measure_cpu(load, workdir, w.cpu_moves, profile)
        capacity = await measure_capacity(load, workdir, w.capacity, pace=w.pace, warmup=w.pace,
                                          window=w.capacity_window, profile=profile)
        pg = await measure_postgres(postgres, load, workdir, games=w.games, players=w.players,
                                    latency_moves=w.latency_moves, restore_guild_id=live.guild_id,
                                    sqlite_restore=workdir / RESTORE_DATABASE, built=restored.built,
                                    profile=profile, computer_processes=computer_processes)
    finally:
        await load.stop()
    results = await run_results(workdir, rows=w.result_rows)
    environment["SQLite"] += (f", journal_mode={restored.built.journal_mode}, "
                              f"synchronous={restored.built.synchronous} (as bot.storage.store opens it)")
    environment["PostgreSQL"] = describe_postgres(pg, postgres.reason)
    environment["Discord double"] = ("request validation off; the double and the players in this process, "
                                     "the bot in its own (python -m bot)")
    environment["workload"] = (f"{w.name}: {w.games} Calcory games x {w.players} players, "
                               f"{w.latency_moves} timed moves, "
                               f"{w.warmup:g} s warm-up + {w.window:g} s window, "
                               f"{w.sessions} sessions restored ({w.moves[0]}-{w.moves[1]} moves each), "
                               f"{results.rows:,} result rows; capacity: "
                               f"{', '.join(f'{n:,}' for n in w.capacity)} tables at a move every {w.pace:g} s, "
                               f"{w.pace:g} s warm-up + {w.capacity_window:g} s window")
    title = "Spieltisch benchmark (docs/performance.md, performance budget)"
    if profile is not None:
        title += f" -- the bot ran under cProfile (slower), profiles in {profile}"
    if w.quick:
        title += (" -- QUICK MODE: reduced workload; the figures are not measured under the budget's "
                  "conditions, the status column only shows the command works")
    rows = (_rows(w, live, restored, results, raw, via_aiosqlite, playouts, computer_processes)
            + _picture_rows(w, pictures) + _replay_rows(w, replays) + review_rows(reviews, w.quick)
            + _safaru_rows(w, safaru) + _rating_rows(w, ratings)
            + _budget_rows(w, budget) + _cpu_rows(w, cpu) + _capacity_rows(w, capacity))
    rows = beside(rows, _postgres_rows(w, pg, postgres.reason))
    notes = _notes(live, restored, time.perf_counter() - started)
    notes[-1:-1] = _capacity_notes(capacity)
    notes[-1:-1] = _postgres_notes(pg)
    return render(title, environment, rows, notes)


def _where_they_think(processes: int | None) -> str:
    if processes is None:
        return "computer_processes as the bot's default"
    return "strong moves in a thread of the bot" if processes == 0 else f"computer_processes = {processes}"


def _rows(w: Workload, live: LiveResult, restored: RestoreResult, results: ResultsResult, raw: float,
          via_aiosqlite: float, playouts: list[Playouts], computer_processes: int | None) -> list[Row]:
    quick = " (quick)" if w.quick else ""
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    games = f"{live.games} games in progress{quick}"
    med, p99 = median(live.latencies), percentile(live.latencies, 99)
    thinking = percentile(live.thinking_latencies, 99)
    setup = restored.startup.setup_hook
    rss = restored.rss
    rows = [
        Row(LATENCY_MEDIAN, ms(med), f"<= {MEDIAN_MS:g} ms", mark(check(med * 1000, MEDIAN_MS, at_most=True)),
            f"{games}, one click at a time, n={len(live.latencies)}; "
            "gateway event -> callback, commit included"),
        Row(LATENCY_P99, ms(p99), f"<= {P99_MS:g} ms", mark(check(p99 * 1000, P99_MS, at_most=True)), games),
        Row(LATENCY_THINKING, ms(thinking), f"<= {THINKING_P99_MS:g} ms",
            mark(check(thinking * 1000, THINKING_P99_MS, at_most=True)),
            f"{games}, one click at a time, n={len(live.thinking_latencies)}, while strong computer players "
            f"think at a {' and a '.join(REGISTRY[k].name for k in THINKING_GAMES)} table ({live.strong_moves} strong moves meanwhile); "
            f"{_where_they_think(computer_processes)}"),
        Row(RESTORE, f"{setup:.2f} s", f"<= {RESTORE_S:g} s", mark(check(setup, RESTORE_S, at_most=True)),
            f"{restored.built.sessions} live sessions, {restored.built.actions} moves replayed; bot's "
            f"setup_hook seen from the double: login answered -> command sync{quick}"),
        Row(MEMORY, mb(rss), f"<= {MEMORY_MB} MB", mark(check(rss / 2**20, MEMORY_MB, at_most=True)),
            f"VmRSS with {restored.built.sessions} live sessions, every table redrawn{quick}"),
        *_read_rows(w, results, mark),
        Row(RAW_SQLITE, f"{raw:,.0f}/s", "-", INFO,
            "single-row INSERT + COMMIT, WAL, synchronous=NORMAL, same disk"),
        Row(f"{RAW_SQLITE} via aiosqlite", f"{via_aiosqlite:,.0f}/s", "-", INFO,
            "the same, one awaited statement at a time (the bot's driver)"),
    ]
    if live.load_latencies:
        rows += [
            Row("click latency under full load, median", ms(median(live.load_latencies)), "-", INFO,
                f"all {live.games} games clicking at once (queueing included), n={len(live.load_latencies)}"),
            Row("click latency under full load, p99", ms(percentile(live.load_latencies, 99)), "-", INFO, ""),
        ]
    rows += [
        Row("rebuild alone, in process", f"{restored.in_process:.2f} s", "-", INFO,
            "SessionManager.restore() on the same database, timed in the benchmark process"),
        Row("bot start-up to gateway connected", f"{restored.startup.to_connected:.2f} s", "-", INFO,
            f"process spawn -> IDENTIFY with {restored.built.sessions} live sessions "
            f"(empty database: {live.startup.to_connected:.2f} s)"),
        Row("setup_hook with an empty database", f"{live.startup.setup_hook:.2f} s", "-", INFO,
            "the same interval as the rebuild row, nothing to rebuild"),
        Row("redraw of every restored table", f"{restored.redraw:.2f} s", "-", INFO,
            "command sync -> the last table edit and turn ping (no rate limits in the double)"),
        Row("bot peak resident memory", mb(restored.peak), "-", INFO, "VmHWM of the restarted bot"),
        Row("bot resident memory, games in progress", mb(live.rss), "-", INFO,
            f"VmRSS at the end of the throughput window, {live.games} games"),
        Row("CPU, every table clicking at once", f"{live.bot_cpu:.0%} / {live.bench_cpu:.0%}", "-", INFO,
            f"bot process / double and players (share of one core each); {live.games} games, no think time"),
    ]
    for p in playouts:
        rows.append(Row(f"random playouts/s, {p.game}", f"{p.per_second:,.0f}/s", "-", INFO,
                        f"{p.players} players, {p.actions_per_second:,.0f} actions/s, "
                        f"{p.actions_per_playout:,.0f} actions a playout, {p.playouts} playouts; rollouts: "
                        f"{p.rollout_actions_per_second:,.0f} actions/s, {p.actions_per_rollout:,.0f} actions a hand"))
    return rows


def _read_rows(w: Workload, r: ResultsResult, mark) -> list[Row]:
    quick = " (quick)" if w.quick else ""
    history = (f"{r.rows:,} result rows, {r.big_guild_rows:,} in this server ({r.players:,} players); "
               f"median of {CALLS} calls through Storage{quick}")
    figures = (
        (LEADERBOARD, r.leaderboard, f"the most played game ({r.game}), asked by players high and low; {history}"),
        (STATS, r.stats, f"one player's games; {history}"),
        (MOST_PLAYED, r.most_played, f"the game /leaderboard shows by default; {history}"),
    )
    rows = [Row(label, ms(seconds), f"<= {READ_MS:g} ms", mark(check(seconds * 1000, READ_MS, at_most=True)),
                conditions) for label, seconds, conditions in figures]
    rows.append(Row(f"{LEADERBOARD}, moves committing", ms(r.leaderboard_busy), "-", INFO,
                    f"the same while {WRITERS} tables commit one move after another"))
    return rows


def _picture_rows(w: Workload, p: PictureResult) -> list[Row]:
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    med, p99 = median(p.times), percentile(p.times, 99)
    where = (f"{p.positions} seeded positions of {p.games} games (smallest and largest tables), "
             f"{w.picture_rounds} passes, sprites cached, n={len(p.times)}")
    return [
        Row(PICTURE_MEDIAN, ms(med), f"<= {PICTURE_MEDIAN_MS:g} ms",
            mark(check(med * 1000, PICTURE_MEDIAN_MS, at_most=True)), where),
        Row(PICTURE_P99, ms(p99), f"<= {PICTURE_P99_MS:g} ms",
            mark(check(p99 * 1000, PICTURE_P99_MS, at_most=True)), "the same renders"),
        Row(PICTURE_SIZE, kb(p.largest), f"<= {PICTURE_KB} KB",
            mark(check(p.largest / 1000, PICTURE_KB, at_most=True)), "8-bit PNG, the largest of those positions"),
        Row("table pictures, cold sprite cache", ms(p.cold), "-", INFO,
            f"the first pass over all {p.positions} positions after dropping every cached card face"),
    ]


def _replay_rows(w: Workload, measured: list[ReplayStep]) -> list[Row]:
    """Per game with pictures: the median replay step of a long match, its picture painted."""
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    return [Row(f"{REPLAY_STEP}, {m.game}", ms(median(m.times)), f"<= {REPLAY_STEP_MS:g} ms",
                mark(check(median(m.times) * 1000, REPLAY_STEP_MS, at_most=True)),
                f"{m.players} players, a match of {m.moves} moves walked in {ms(m.walk)}; {len(m.times)} "
                "consecutive steps from its middle, picture caches cold")
            for m in measured]


def _safaru_rows(w: Workload, measured: list[FreeCards]) -> list[Row]:
    """Issue 14's target: one click's engine and hand work with many free cards."""
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    rows = []
    for m in measured:
        for name, figure in (("median", median(m.samples)), ("max", max(m.samples))):
            rows.append(Row(f"Safarü legal moves + hand, {m.free} free cards, {name}", ms(figure),
                            f"<= {SAFARU_MS:g} ms", mark(check(figure * 1000, SAFARU_MS, at_most=True)),
                            f"{len(m.samples)} seeded positions, half of them free cards 0-4 only; "
                            "legal_actions + the slowest hand rendering, in process"))
    return rows


def _rating_rows(w: Workload, r: RatingResult) -> list[Row]:
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    update, board = median(r.updates), median(r.boards)
    where = f"{r.rows:,} result rows of one guild, {r.players:,} ratings (players x games)"
    return [
        Row(RATING_UPDATE, ms(update), f"<= {RATING_UPDATE_MS:g} ms",
            mark(check(update * 1000, RATING_UPDATE_MS, at_most=True)),
            f"4 seats, inside the match's own transaction, n={len(r.updates)}, p99 {ms(percentile(r.updates, 99))}; "
            f"the whole end of a match (results, rating, commit): median {ms(median(r.ends))}"),
        Row(RATING_BOARD, ms(board), f"<= {RATING_BOARD_MS:g} ms", mark(check(board * 1000, RATING_BOARD_MS, at_most=True)),
            f"{where}; top 10 and the caller's own rank, n={len(r.boards)}, p99 {ms(percentile(r.boards, 99))}"),
        Row("/stats rating trends, median", ms(median(r.trends)), "-", INFO,
            f"every game's rating and its change over the last 10 games, n={len(r.trends)}"),
        Row("rebuild-ratings", f"{r.rebuild:.2f} s", "-", INFO,
            f"python -m bot rebuild-ratings over {where}, one transaction"),
    ]


def _budget_rows(w: Workload, games: list[GameCount]) -> list[Row]:
    """Discord requests per accepted move: the target over all games, then each game by route class."""
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    mean = sum(g.channel_per_move for g in games) / len(games)
    rows = [Row(CHANNEL_ROUTES, f"{mean:.2f}/move", f"<= {CHANNEL_PER_MOVE:g}/move",
                mark(check(mean, CHANNEL_PER_MOVE, at_most=True)),
                f"mean of the {len(games)} games' own figures; up to {w.budget_moves} moves each, computer moves "
                "included; channel routes share Discord's global 50/s limit")]
    for g in games:
        rows.append(Row(f"requests per move, {g.game}", f"{g.channel_per_move:.2f}/move", "-", INFO,
                        f"channel routes; {g.interaction_per_move:.2f}/move on exempt interaction routes; "
                        f"{g.seats} seats (2 people opening their hand for each move), {g.moves} moves, "
                        f"{g.computer_moves} by computers"))
    return rows


def _cpu_rows(w: Workload, games: list[GameCpu]) -> list[Row]:
    """The bot process's own CPU time per accepted move, per game and the median: a figure to compare
    runs by, with no target (the capacity rows say what one process carries)."""
    figure = median([g.per_move for g in games])
    rows = [Row(BOT_CPU, ms(figure), "-", INFO,
                f"median of the {len(games)} games' own figures; up to {w.cpu_moves} moves each, people at every "
                "seat (no computers), each with their hand open, pictures on; every thread of the bot process, "
                "every redraw included, the double and the players (another process) not")]
    for g in games:
        rows.append(Row(f"bot CPU per move, {g.game}", ms(g.per_move), "-", INFO,
                        f"{g.seats} seats, {g.moves} moves, {g.clicks} clicks, "
                        f"{g.requests / g.moves:.1f} requests per move"))
    return rows


def _capacity_rows(w: Workload, results: list[CapacityResult]) -> list[Row]:
    """Issue 24: what one bot process carries at human pace; the targets at ``capacity_target``
    tables, the other counts beside them as figures."""
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    quick = " (quick)" if w.quick else ""
    ordered = sorted(results, key=lambda r: r.tables != w.capacity_target)
    rows: list[Row] = []
    for r in ordered:
        target = r.tables == w.capacity_target
        suffix = "" if target else f" [{r.tables:,} tables]"
        p99 = percentile(r.clicks, 99)
        rows += [
            Row(CAPACITY_CPU + suffix, f"{r.bot_cpu * 100:.0f} %",
                f"<= {CAPACITY_CPU_SHARE * 100:.0f} %" if target else "-",
                mark(check(r.bot_cpu, CAPACITY_CPU_SHARE, at_most=True)) if target else INFO,
                f"{r.tables:,} live tables of the eight games, a move about every {r.pace:g} s at each (3 people "
                f"with their hands open and 1 easy computer player, pictures on), one bot process; "
                f"{r.moves_per_second:.1f} moves/s ({r.computer_moves} of {r.moves} by computers) over "
                f"{r.window:.1f} s, {r.per_move * 1000:.1f} ms of bot CPU a move ({r.loop_cpu:.0%} of a core in its "
                f"event loop); its worker processes (computer players) used {r.workers_cpu:.0%} of a core beside; "
                f"the double and the players used {r.harness_cpu:.0%} of a core{quick}"),
            Row(CAPACITY_MEMORY + suffix, mb(r.rss), f"<= {CAPACITY_MB} MB" if target else "-",
                mark(check(r.rss / 2**20, CAPACITY_MB, at_most=True)) if target else INFO,
                f"VmRSS at the window's end, {r.tables:,} tables, every person's hand open{quick}"),
            Row(CAPACITY_P99 + suffix, ms(p99), f"<= {CAPACITY_P99_MS:g} ms" if target else "-",
                mark(check(p99 * 1000, CAPACITY_P99_MS, at_most=True)) if target else INFO,
                f"every click in the window (moves and in-hand steps), gateway event -> callback, "
                f"n={len(r.clicks)}, median {ms(median(r.clicks))}{quick}"),
        ]
    return sorted(rows, key=lambda row: [CAPACITY_CPU, CAPACITY_MEMORY, CAPACITY_P99].index(
        row.label.split(" [")[0]))


def _capacity_notes(results: list[CapacityResult]) -> list[str]:
    notes = []
    for r in results:
        notes.append(f"capacity, {r.tables:,} tables: set up in {r.setup:.0f} s (built in the database, the bot "
                     f"started and every table redrawn, every hand opened); {r.live:,} still in play at the end; "
                     f"{r.refused} clicks refused, {r.deferred} deferred, {r.late} failed (answered after Discord's 3 s, or not within 10 s); load average at the end {r.load_average}")
        if r.reasons:
            notes.append(f"capacity refusals said: {' / '.join(r.reasons[:3])}")
        if r.errors:
            notes.append(f"the bot logged {len(r.errors)} error lines with {r.tables:,} tables, first: {r.errors[0]}")
    return notes


def _postgres_rows(w: Workload, pg: PostgresResult | None, reason: str) -> list[Row]:
    """Issue 17: the click latency and restart rows again with the bot on PostgreSQL, the same targets."""
    targets = ((LATENCY_MEDIAN, f"<= {MEDIAN_MS:g} ms"), (LATENCY_P99, f"<= {P99_MS:g} ms"),
               (RESTORE, f"<= {RESTORE_S:g} s"), (MEMORY, f"<= {MEMORY_MB} MB"))
    if pg is None:
        return [Row(label + POSTGRESQL, "-", target, SKIPPED, reason) for label, target in targets]
    mark = (lambda status: f"{status}*") if w.quick else (lambda status: status)
    quick = " (quick)" if w.quick else ""
    clicks, restored = pg.clicks, pg.restored
    med, p99 = median(clicks.latencies), percentile(clicks.latencies, 99)
    setup, rss = restored.startup.setup_hook, restored.rss
    same = "the same workload as the row above, the bot on PostgreSQL"
    return [
        Row(LATENCY_MEDIAN + POSTGRESQL, ms(med), targets[0][1], mark(check(med * 1000, MEDIAN_MS, at_most=True)),
            f"{clicks.games} games in progress{quick}, one click at a time, n={len(clicks.latencies)}; {same}"),
        Row(LATENCY_P99 + POSTGRESQL, ms(p99), targets[1][1], mark(check(p99 * 1000, P99_MS, at_most=True)), same),
        Row(RESTORE + POSTGRESQL, f"{setup:.2f} s", targets[2][1], mark(check(setup, RESTORE_S, at_most=True)),
            f"{restored.built.sessions} live sessions, {restored.built.actions} moves replayed; {same} "
            f"(the SQLite restart's database, copied over){quick}"),
        Row(MEMORY + POSTGRESQL, mb(rss), targets[3][1], mark(check(rss / 2**20, MEMORY_MB, at_most=True)),
            f"VmRSS with {restored.built.sessions} live sessions, every table redrawn; {same}{quick}"),
        Row("rebuild alone, in process" + POSTGRESQL, f"{restored.in_process:.2f} s", "-", INFO,
            "SessionManager.restore() on the same database, timed in the benchmark process"),
        Row("redraw of every restored table" + POSTGRESQL, f"{restored.redraw:.2f} s", "-", INFO,
            "command sync -> the last table edit and turn ping"),
        Row("restart database written into PostgreSQL", f"{pg.written:.2f} s", "-", INFO,
            "every table of the SQLite restart's database, COPY in batches, one transaction (not timed as a row)"),
    ]


def _postgres_notes(pg: PostgresResult | None) -> list[str]:
    if pg is None:
        return []
    stats, errors = pg.clicks.stats, pg.clicks.errors + pg.restored.errors
    notes = [f"on PostgreSQL: {stats.games_started} games opened, {stats.refused} clicks refused, "
             f"{stats.deferred} deferred; its rows took {pg.seconds:.1f} s of this run, and {pg.server_start:.1f} s "
             f"more to start the server beside the request counting (waited {pg.waited:.1f} s for it)"]
    if errors:
        notes.append(f"the bot logged {len(errors)} error lines on PostgreSQL, first: {errors[0]}")
    return notes


def _notes(live: LiveResult, restored: RestoreResult, seconds: float) -> list[str]:
    both = live.stats.games_finished + live.load_stats.games_finished
    notes = [
        f"players: {live.stats.games_started + live.load_stats.games_started} games opened, {both} played to "
        f"the end, {live.stats.refused + live.load_stats.refused} clicks refused, "
        f"{live.stats.deferred + live.load_stats.deferred} deferred (the session stayed locked for "
        "over a second; not in the latencies), "
        f"{live.stats.interactions + live.load_stats.interactions} interactions in all",
    ]
    reasons = live.stats.reasons + live.load_stats.reasons
    if reasons:
        notes.append(f"refusals said: {' / '.join(reasons[:3])}")
    rest = restored.startup.setup_hook - restored.in_process - live.startup.setup_hook
    notes.append(
        f"start-up: of the {restored.startup.setup_hook:.2f} s between login and command sync, the rebuild "
        f"itself takes about {restored.in_process:.2f} s and an empty start {live.startup.setup_hook:.2f} s; "
        f"the other {max(rest, 0):.2f} s is further work the bot does before it sends the command sync "
        "(run with --profile DIR to see what)")
    errors = live.errors + restored.errors
    if errors:
        notes.append(f"the bot logged {len(errors)} error lines, first: {errors[0]}")
    notes.append(f"run took {seconds:.1f} s; load average at the end {envinfo.load_average()} "
                 "(other processes on the machine make the figures worse, not better)")
    return notes
