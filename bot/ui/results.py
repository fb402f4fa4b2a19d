"""Text of /leaderboard and /stats."""

from __future__ import annotations

import games
from bot.i18n import t


def _percent(rate: float) -> str:
    return f"{round(rate * 100)} %"


def render_leaderboard(board, game_name: str, lang: str, computers: bool) -> str:
    scope = t(lang, "results.with_computers" if computers else "results.humans_only")
    lines = [t(lang, "results.board_title", game=game_name, scope=scope)]
    if not board.rows:
        lines.append(t(lang, "results.no_results"))
    for row in board.rows:
        lines.append(t(lang, "results.board_row", rank=row.rank, name=row.name, wins=row.wins, games=row.games,
                       rate=_percent(row.win_rate)))
    if board.me_outside:
        me = board.me
        lines.append("…")
        lines.append(t(lang, "results.board_row", rank=me.rank, name=me.name, wins=me.wins, games=me.games,
                       rate=_percent(me.win_rate)))
    return "\n".join(lines)


def render_stats(rows, name: str, lang: str) -> str:
    lines = [t(lang, "results.stats_title", name=name)]
    if not rows:
        lines.append(t(lang, "results.no_stats"))
    for row in rows:
        game = games.REGISTRY[row.game].name if row.game in games.REGISTRY else row.game
        lines.append(t(lang, "results.stats_row", game=game, games=row.games, wins=row.wins,
                       rate=_percent(row.win_rate), last=f"<t:{int(row.last_played)}:D>"))
    return "\n".join(lines)
