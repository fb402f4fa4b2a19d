"""Texts of seasons: a season's name in the reader's language, the scope line of /leaderboard and
/stats, the choices of their ``season:`` option, /season's answers and the end-of-season post."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from babel.dates import format_date

import games
from bot.i18n import t
from bot.storage.boards import Leaderboard
from bot.storage.ratings_store import RatingRow
from bot.storage.seasons import Season
from bot.ui.results import player_name, rating

#: The value of the ``season:`` option that means every match ever (the current season is the default).
ALL_TIME = "all"
CURRENT = "current"
MEDALS = ("🥇", "🥈", "🥉")
#: At most this many choices go back to an autocomplete (Discord's limit).
CHOICES = 25


def _day(when: float) -> datetime:
    return datetime.fromtimestamp(when, UTC)


def season_name(season: Season, lang: str) -> str:
    """A monthly season is its month in the reader's words ("December 2026", "Dezember 2026"); a
    named one is its name."""
    if season.monthly:
        return format_date(_day(season.started_at), "LLLL yyyy", locale=lang)
    return season.name


def _date(when: float, lang: str) -> str:
    """A date in plain text (autocomplete choices show no Discord timestamps)."""
    return format_date(_day(when), "medium", locale=lang)


def scope_line(season: Season | None, lang: str) -> str:
    """The line under a board's title that says which season it counts."""
    if season is None:
        return t(lang, "seasons.scope_all_time")
    name = season_name(season, lang)
    if season.ended_at is None:
        return t(lang, "seasons.scope_current", name=name, since=f"<t:{int(season.started_at)}:D>")
    return t(lang, "seasons.scope_ended", name=name, since=f"<t:{int(season.started_at)}:D>",
             until=f"<t:{int(season.ended_at)}:D>")


def choices(seasons: Sequence[Season], typed: str, lang: str) -> list[tuple[str, str]]:
    """The ``season:`` choices ``(name, value)`` that match what was typed: the current season, all
    time, then the earlier seasons, newest first."""
    typed = typed.strip().casefold()
    out: list[tuple[str, str]] = []
    for season in seasons:
        name = season_name(season, lang)
        shown = (t(lang, "seasons.current_choice", name=name) if season.current else
                 t(lang, "seasons.ended_choice", name=name, date=_date(season.ended_at or 0, lang)))
        if typed in shown.casefold() or typed in season.name.casefold():
            out.append((shown, CURRENT if season.current else str(season.id)))
        if season.current:
            everything = t(lang, "seasons.all_time")
            if typed in everything.casefold():
                out.append((everything, ALL_TIME))
    if not any(season.current for season in seasons) and typed in t(lang, "seasons.all_time").casefold():
        out.insert(0, (t(lang, "seasons.all_time"), ALL_TIME))
    return [(name[:100], value) for name, value in out[:CHOICES]]


def find(seasons: Sequence[Season], value: str) -> Season | None:
    """The season an option's value names: ``current``, an id from the choices, or a name typed in."""
    if value == CURRENT:
        return next((season for season in seasons if season.current), None)
    wanted = value.strip().casefold()
    for season in seasons:
        if value == str(season.id) or wanted == season.name.casefold() or any(
                wanted == season_name(season, lang).casefold() for lang in ("en", "de")):
            return season
    return None


def status(season: Season | None, lang: str) -> str:
    """/season's answer: how the server's seasons are set now."""
    if season is None:
        return t(lang, "seasons.status_off")
    name = season_name(season, lang)
    if season.monthly and season.until is not None:
        line = t(lang, "seasons.status_monthly", name=name, until=f"<t:{int(season.until)}:f>")
    else:
        line = t(lang, "seasons.status_named", name=name, since=f"<t:{int(season.started_at)}:D>")
    post = (t(lang, "seasons.post_channel", channel=f"<#{season.channel_id}>") if season.channel_id is not None
            else t(lang, "seasons.post_none"))
    return f"{line} {post}"


def changed(ended: Season | None, current: Season | None, lang: str) -> str:
    """/season's answer after a change: what ended, and how the seasons are set now."""
    lines = [t(lang, "seasons.ended", name=season_name(ended, lang))] if ended is not None else []
    lines.append(status(current, lang) if current is not None else t(lang, "seasons.turned_off"))
    return "\n".join(lines)


def end_post(season: Season, boards: Sequence[tuple[str, Leaderboard[RatingRow]]], lang: str) -> str:
    """The post at a season's end: the top three by the season's rating of each game played in it."""
    name = season_name(season, lang)
    lines = [t(lang, "seasons.end_title", name=name)]
    for key, board in boards:
        game = games.REGISTRY[key].name if key in games.REGISTRY else key
        podium = " · ".join(t(lang, "seasons.end_place", medal=medal, name=player_name(row, lang),
                                rating=rating(row.ordinal, lang)) for medal, row in zip(MEDALS, board.rows[:3], strict=False))
        lines.append(t(lang, "seasons.end_game", game=game, podium=podium))
    lines.append(t(lang, "seasons.end_footer", name=name))
    return "\n".join(lines)
