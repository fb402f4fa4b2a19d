"""The closing message of a match: winners, final scores and how every point was earned."""

from __future__ import annotations

from bot.i18n import t


def render_summary(session, lang: str) -> str | None:
    if session.status == "stopped":
        return t(lang, "table.summary_stopped", game=session.game.name)
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
    for hand in result.breakdown[-5:]:
        if many:
            lines.append(t(lang, "table.summary_hand", number=hand.number))
        for line in hand.lines:
            lines.append(t(lang, "table.summary_line", name=names[line.seat],
                           text=t(lang, line.label, **line.params), points=f"{line.points:+d}"))
    text = "\n".join(lines)
    return text if len(text) <= 2000 else text[:1990] + "\n…"
