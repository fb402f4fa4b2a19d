"""The closing message of a match: who won (a team by its badges and names), the standing with each
player's rating change, how the last hand was scored, a result picture, and the Rematch, Replay and
How did I play? buttons (with the match's Export and Share as GIF beside them).

It stays within ``MAX_LINES`` lines: the hand summaries the channel got after every earlier hand,
and the picture's table of totals after each hand, tell the rest of the story. Identical score lines
are merged into one that names everyone it concerns (a stuck game scored "+0" for every seat in one
line, not in four); when a hand still has more lines than there is room for, each seat's steps go on
one line of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from bot.i18n import has, t
from bot.pictures.result import ROWS as PICTURE_ROWS
from bot.pictures.result import Entrant, podium_places, result_png, spread
from bot.storage.status import Status
from bot.transport import ids, media
from bot.transport.media import Picture
from bot.ui.base import Rendered, StaticView, Style, button, row
from bot.ui.labels import seat_badge
from bot.ui.presenters import Presenter
from bot.ui.results import change, rating
from bot.ui.shown import Shown
from games.base import HandScore, Result

#: Ends whose command already told the channel (``/stop`` by the host, a vote): no second message.
ANSWERED = frozenset({"stopped", "vote"})
#: The closing summary's most lines.
MAX_LINES = 15

#: Per seat, its rating before and after the match (``Storage.rating_changes``).
Ratings = Mapping[int, tuple[float, float]]


def closing(session: Shown, lang: str, show: Presenter | None, ratings: Ratings | None = None,
            beside: Sequence[dict] = ()) -> Rendered | None:
    """The closing message: the summary, the result picture (unless the table has pictures off) and,
    after a finished match, the Rematch and Replay buttons with the buttons ``beside`` them (the
    match's Export and Share as GIF, which the host's replays package draws). None when nothing is
    to be said."""
    text = render_summary(session, lang, show, ratings)
    if text is None:
        return None
    result = session.result() if session.status == Status.FINISHED else None
    if result is None:
        return Rendered(StaticView([]), text)
    return Rendered(StaticView([row(*after_buttons(session, lang), *beside)]), text,
                    media.pictures(result_picture(session, result, lang)))


def rematch_button(session: Shown, lang: str) -> dict:
    """A finished match's Rematch button (on its closing message and on its final table): the same
    seats, computer players and house rules in a new lobby."""
    return button(t(lang, "table.end.rematch"), ids.rematch(session.id), style=Style.success)


def after_buttons(session: Shown, lang: str) -> list[dict]:
    """What a finished match offers on its closing message and its final table: the Rematch; the
    Replay, which steps through the match privately (``bot/replays``); and How did I play?, which
    gives each of its players a private review of their costliest decisions (``bot.coach``)."""
    return [rematch_button(session, lang), button(t(lang, "replay.button"), ids.replay_button(session.id)),
            button(t(lang, "coach.button"), ids.coach(session.id))]


def render_summary(session: Shown, lang: str, show: Presenter | None, ratings: Ratings | None = None) -> str | None:
    """The closing text; ``show`` is the game's presenter (None: a game without a table), which may
    reword the score lines and name whom they score (teams)."""
    if session.status == Status.STOPPED:
        return None if session.end_reason in ANSWERED else t(lang, "table.summary_stopped", game=session.game.name)
    result = session.result()
    if result is None:
        return None
    names = [seat.name for seat in session.seats]
    lines = [_headline(session, result, names, lang)]
    lines.extend(_standing(result, names, lang, ratings or {}))
    if result.breakdown:
        hand = result.breakdown[-1]
        if len(result.breakdown) > 1:
            lines.append(t(lang, own_key(session, "summary_hand"), number=hand.number))
        reword = getattr(show, "score_line", None)
        if reword is not None:
            hand = replace(hand, lines=tuple(reword(line, lang) for line in hand.lines))
        lines.extend(merged_lines(hand, _line_names(session, result, show, lang), lang, MAX_LINES - len(lines)))
    return _fit("\n".join(lines))


def breakdown_lines(hand: HandScore, names: list[str], lang: str) -> list[str]:
    """Each scoring step of one hand (a ``HandScore``), one line per step."""
    return [
        t(lang, "table.summary_line", name=names[line.seat], text=t(lang, line.label, **line.params),
          points=f"{line.points:+d}")
        for line in hand.lines
    ]


def render_hand(session: Shown, hand: HandScore, lang: str) -> str:
    """The public message after a hand of a longer match: every scoring step, then the totals."""
    names = [seat.name for seat in session.seats]
    lines = [t(lang, own_key(session, "hand_summary"), game=session.game.name, number=hand.number)]
    lines.extend(breakdown_lines(hand, names, lang))
    totals = " · ".join(t(lang, "table.hand_total", name=name, score=score)
                        for name, score in zip(names, hand.totals, strict=False))
    lines.append(t(lang, "table.hand_totals", totals=totals))
    return _fit("\n".join(lines))


def own_key(session: Shown, key: str) -> str:
    """A game's own wording of a shared text, naming its scoring unit (Diabolo's rounds, Kapado's
    games), else the shared one (hands)."""
    own = f"{session.game.key}.ui.{key}"
    return own if has(own) else f"table.{key}"


def _fit(text: str) -> str:
    return text if len(text) <= 2000 else text[:1990] + "\n…"


def _headline(session: Shown, result: Result, names: list[str], lang: str) -> str:
    game = session.game.name
    if not result.winners:
        return t(lang, "table.summary_no_winner", game=game)
    winners = sorted(result.winners)
    if result.sides and len(winners) > 1 and len({result.sides[s] for s in winners}) == 1:
        return t(lang, "table.end.team_won", game=game, team=_team(tuple(winners), names, lang))
    key = "table.summary_shared" if result.shared else "table.summary_winner"
    return t(lang, key, game=game, names=", ".join(_who(s, names) for s in winners))


def _standing(result: Result, names: list[str], lang: str, ratings: Ratings) -> list[str]:
    """One line per seat (per team where partners share a score), best first: place, badges, names,
    score, and the rating after the match with its change."""
    out = []
    for side in sorted(entrants(result), key=lambda e: (e.rank, e.seats)):
        moved = [(seat, ratings[seat]) for seat in side.seats if seat in ratings]
        values = [t(lang, "table.end.rating_value", rating=rating(after, lang), change=change(after - before, lang))
                  for _, (before, after) in moved]
        if len(side.seats) > 1:
            values = [f"{seat_badge(seat)} {value}" for (seat, _), value in zip(moved, values, strict=True)]
        rated = t(lang, "table.end.rating", ratings=", ".join(values)) if values else ""
        out.append(t(lang, "table.end.standing", rank=side.rank, who=_team(side.seats, names, lang),
                     score=side.score, rated=rated))
    return out


def _team(seats: tuple[int, ...], names: list[str], lang: str) -> str:
    """A seat, or a team: its badges, then its names."""
    return "".join(seat_badge(s) for s in seats) + " " + t(lang, "table.end.and").join(names[s] for s in seats)


def _who(seat: int, names: list[str]) -> str:
    """A player as every table text names them: the badge the pictures draw, then the name."""
    return f"{seat_badge(seat)} {names[seat]}"


def _line_names(session: Shown, result: Result, show: Presenter | None, lang: str) -> list[str]:
    """Whom each ``ScoreLine.seat`` names: a seat, or where the presenter scores teams as one
    (``score_names``), a team, led by its seats' badges."""
    names = [seat.name for seat in session.seats]
    score_names = getattr(show, "score_names", None)
    if score_names is None:
        return [_who(seat, names) for seat in range(len(names))]
    teams = score_names(session, lang)
    if not result.sides:
        return [f"{seat_badge(index)} {name}" for index, name in enumerate(teams)]
    return ["".join(seat_badge(s) for s in range(len(names)) if result.sides[s] == index) + f" {name}"
            for index, name in enumerate(teams)]


def merged_lines(hand: HandScore, names: list[str], lang: str, room: int) -> list[str]:
    """The scoring steps of one hand in at most ``room`` lines: identical steps (the same text and
    points) as one line naming everyone they concern; if that is still too long, one line per seat
    with its steps; if even that is, the first lines and a last one counting the rest."""
    steps: dict[tuple[str, int], dict[int, int]] = {}
    for line in hand.lines:
        who = steps.setdefault((t(lang, line.label, **line.params), line.points), {})
        who[line.seat] = who.get(line.seat, 0) + 1
    out = [t(lang, "table.summary_line", text=text, points=f"{points:+d}",
             name=", ".join(_times(names[seat], count, lang) for seat, count in who.items()))
           for (text, points), who in steps.items()]
    if len(out) <= room:
        return out
    by_seat: dict[int, list[str]] = {}
    for (text, points), who in steps.items():
        for seat, count in who.items():
            by_seat.setdefault(seat, []).append(
                _times(t(lang, "table.end.step", text=text, points=f"{points:+d}"), count, lang))
    out = [t(lang, "table.end.joined", name=names[seat], steps=" · ".join(by_seat[seat])) for seat in sorted(by_seat)]
    if len(out) <= room:
        return out
    kept = max(room - 1, 0)
    return [*out[:kept], t(lang, "table.end.more", count=len(out) - kept)]


def _times(text: str, count: int, lang: str) -> str:
    return text if count == 1 else t(lang, "table.end.times", what=text, count=count)


# -- the result picture ------------------------------------------------------------------------------
def entrants(result: Result) -> list[Entrant]:
    """The sides of the result in seat order: each seat, or each team (the seats sharing a score),
    a team placed among the teams (the second of two teams is second, not third)."""
    if not result.sides:
        return [Entrant((seat,), score, rank, seat in result.winners)
                for seat, (score, rank) in enumerate(zip(result.scores, result.ranks, strict=True))]
    teams = [tuple(s for s, own in enumerate(result.sides) if own == side) for side in dict.fromkeys(result.sides)]
    best = [min(result.ranks[s] for s in seats) for seats in teams]
    return [Entrant(seats, result.scores[seats[0]], 1 + sum(other < mine for other in best),
                    any(s in result.winners for s in seats))
            for seats, mine in zip(teams, best, strict=True)]


def result_picture(session: Shown, result: Result, lang: str) -> Picture | None:
    """The podium and the totals after each hand (None with pictures off), with the alt text that
    says the same."""
    sides = entrants(result)
    rows = [(hand.number, tuple(hand.totals[e.seats[0]] for e in sides)) for hand in result.breakdown]
    return media.draw(session, lambda: result_png(sides, rows), _alt(sides, rows, lang), "result")


def _alt(sides: list[Entrant], rows: list[tuple[int, tuple[int, ...]]], lang: str) -> str:
    def badges(entrant: Entrant) -> str:
        return "".join(seat_badge(s) for s in entrant.seats)

    stood = podium_places(sides)
    places: dict[tuple[int, int], list[str]] = {}
    for entrant in sorted(sides, key=lambda e: (e.rank, e.seats)):
        if entrant.rank in stood:
            places.setdefault((entrant.rank, entrant.score), []).append(badges(entrant))
    podium = [t(lang, "table.end.alt_place", rank=rank, who=", ".join(who), score=score)
              for (rank, score), who in places.items()]
    shown = [rows[i] for i in spread(len(rows), PICTURE_ROWS)]
    totals = [t(lang, "table.end.alt_row", number=number,
                totals=", ".join(f"{badges(e)} {total}" for e, total in zip(sides, values, strict=True)))
              for number, values in shown]
    return t(lang, "table.end.alt", podium="; ".join(podium), rows="; ".join(totals))
