"""Text of /leaderboard (by rating or by wins) and /stats."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from babel.numbers import format_decimal

import games
from bot.i18n import has, t
from bot.storage.boards import Leaderboard
from bot.storage.ratings import PROVISIONAL
from bot.storage.ratings_store import RatingRow, RatingTrend
from bot.storage.store import BoardRow, GameStats


def _percent(rate: float) -> str:
    return f"{round(rate * 100)} %"


def _titled(title: str, season: str | None) -> list[str]:
    """A board's title, with the line under it that names its season (where the server runs seasons)."""
    return [title] if season is None else [title, season]


def render_leaderboard(board: Leaderboard[BoardRow], game_name: str, lang: str, computers: bool, season: str | None = None) -> str:
    scope = t(lang, "results.with_computers" if computers else "results.humans_only")
    lines = _titled(t(lang, "results.board_title", game=game_name, scope=scope), season)
    if not board.rows:
        lines.append(t(lang, "results.no_results"))
    for row in board.rows:
        lines.append(t(lang, "results.board_row", rank=row.rank, name=row.name, wins=row.wins, games=row.games,
                       rate=_percent(row.win_rate)))
    if board.me_outside:
        me = board.me
        assert me is not None       # me_outside says so
        lines.append("…")
        lines.append(t(lang, "results.board_row", rank=me.rank, name=me.name, wins=me.wins, games=me.games,
                       rate=_percent(me.win_rate)))
    return "\n".join(lines)


def rating(value: float, lang: str) -> str:
    """A rating with one decimal in the reader's notation (23.4, 23,4)."""
    return format_decimal(round(value, 1), "0.0", locale=lang)


def change(value: float, lang: str) -> str:
    """A rating's change with its sign (+1.2, −0.4)."""
    sign = "+" if round(value, 1) >= 0 else "−"
    return sign + rating(abs(value), lang)


def player_name(row: RatingRow, lang: str) -> str:
    """A person's latest name, or a computer level's ("Computer (easy)")."""
    if row.user_id is not None:
        return row.name
    level = t(lang, f"lobby.level_{row.level}") if has(f"lobby.level_{row.level}") else str(row.level)
    return t(lang, "results.computer_name", level=level)


def _rating_line(row: RatingRow, lang: str) -> str:
    name, value = player_name(row, lang), rating(row.ordinal, lang)
    if row.provisional:
        return t(lang, "results.provisional_row", name=name, rating=value, games=row.games)
    return t(lang, "results.rating_row", rank=row.rank, name=name, rating=value, games=row.games)


def render_rating_board(board: Leaderboard[RatingRow], game_name: str, lang: str, computers: bool, season: str | None = None) -> str:
    """Established players by rating, then the provisional ones, the caller below if outside, and a
    line on what the rating means; ``season`` names the season counted, under the title."""
    scope = t(lang, "results.rating_computers" if computers else "results.rating_people")
    lines = _titled(t(lang, "results.rating_title", game=game_name, scope=scope), season)
    if not board.rows:
        lines.append(t(lang, "results.no_results"))
    headed = False
    for row in board.rows:
        if row.provisional and not headed:
            lines.append(t(lang, "results.provisional_head", min=PROVISIONAL))
            headed = True
        lines.append(_rating_line(row, lang))
    if board.me is not None and board.me_outside:
        lines += ["…", _rating_line(board.me, lang)]
    lines.append(t(lang, "results.rating_help"))
    return "\n".join(lines)


def render_stats(rows: Sequence[GameStats], name: str, lang: str, ratings: Mapping[str, RatingTrend] | None = None, season: str | None = None) -> str:
    """Per game: matches, wins, win rate, last played, and the rating with its recent change (a
    season's rating without one); ``season`` names the season counted, under the title."""
    ratings = ratings or {}
    lines = _titled(t(lang, "results.stats_title", name=name), season)
    if not rows:
        lines.append(t(lang, "results.no_stats"))
    for row in rows:
        game = games.REGISTRY[row.game].name if row.game in games.REGISTRY else row.game
        lines.append(t(lang, "results.stats_row", game=game, games=row.games, wins=row.wins,
                       rate=_percent(row.win_rate), last=f"<t:{int(row.last_played)}:D>"))
        trend = ratings.get(row.game)
        if trend is not None and trend.over:
            lines.append(t(lang, "results.stats_rating", rating=rating(trend.ordinal, lang),
                           change=change(trend.change, lang), over=trend.over))
        elif trend is not None:
            lines.append(t(lang, "results.stats_rating_none", rating=rating(trend.ordinal, lang)))
    return "\n".join(lines)
