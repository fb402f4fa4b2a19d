"""The closing message of a match: winners, final scores and how every point was earned."""

from __future__ import annotations

from dataclasses import replace

from bot.i18n import has, t
from bot.storage.status import Status
from bot.ui.presenters import Presenter

#: Ends whose command already told the channel (``/stop`` by the host, a vote): no second message.
ANSWERED = frozenset({"stopped", "vote"})


def render_summary(session, lang: str, show: Presenter | None) -> str | None:
    """The closing message; ``show`` is the game's presenter (None: a game without a table), which may
    reword the score lines."""
    if session.status == Status.STOPPED:
        return None if session.end_reason in ANSWERED else t(lang, "table.summary_stopped", game=session.game.name)
    result = session.result()
    if result is None:
        return None
    names = [seat.name for seat in session.seats]
    lines = []
    if result.winners:
        winners = ", ".join(names[s] for s in sorted(result.winners))
        key = "table.summary_shared" if result.shared else "table.summary_winner"
        lines.append(t(lang, key, game=session.game.name, names=winners))
    else:
        lines.append(t(lang, "table.summary_no_winner", game=session.game.name))
    ranking = sorted(range(len(names)), key=lambda s: (result.ranks[s], names[s]))
    lines.extend(
        t(lang, "table.summary_row", rank=result.ranks[s], name=names[s], score=result.scores[s]) for s in ranking
    )
    many = len(result.breakdown) > 1
    reword = getattr(show, "score_line", None)
    score_names = getattr(show, "score_names", None)
    line_names = score_names(session, lang) if score_names is not None else names
    for hand in result.breakdown[-5:]:
        if many:
            lines.append(t(lang, _own(session, "summary_hand"), number=hand.number))
        steps = [reword(line, lang) for line in hand.lines] if reword is not None else hand.lines
        lines.extend(breakdown_lines(replace(hand, lines=tuple(steps)), line_names, lang))
    return _fit("\n".join(lines))


def breakdown_lines(hand, names: list[str], lang: str) -> list[str]:
    """Each scoring step of one hand (a ``HandScore``), one line per step."""
    return [
        t(lang, "table.summary_line", name=names[line.seat], text=t(lang, line.label, **line.params),
          points=f"{line.points:+d}")
        for line in hand.lines
    ]


def render_hand(session, hand, lang: str) -> str:
    """The public message after a hand of a longer match: every scoring step, then the totals."""
    names = [seat.name for seat in session.seats]
    lines = [t(lang, _own(session, "hand_summary"), game=session.game.name, number=hand.number)]
    lines.extend(breakdown_lines(hand, names, lang))
    totals = " · ".join(t(lang, "table.hand_total", name=name, score=score)
                        for name, score in zip(names, hand.totals, strict=False))
    lines.append(t(lang, "table.hand_totals", totals=totals))
    return _fit("\n".join(lines))


def _own(session, key: str) -> str:
    """A game's own wording of a shared text, naming its scoring unit (Diabolo's rounds, Kapado's
    games), else the shared one (hands)."""
    own = f"{session.game.key}.ui.{key}"
    return own if has(own) else f"table.{key}"


def _fit(text: str) -> str:
    return text if len(text) <= 2000 else text[:1990] + "\n…"
