"""A review as its reader sees it, privately and in their language: each costly decision with the
position as the reader saw it then (the table's picture and their hand's), what they played, what
the strong player prefers, and the estimated difference in the game's points (``<game>.ui.coach_unit``
says what one point is in that game).

The positions are the live states before each move, rebuilt from the stored log (``games.base.walk``);
the pictures read only ``game.view`` of them: the public table and the reader's own hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.coach.review import Review
from bot.i18n import t
from bot.pictures import Pictures
from bot.play.sessions import Session
from bot.registry import pictures as pictures_of
from bot.registry import presenter
from bot.storage.status import Status
from bot.transport import media
from bot.transport.media import Picture
from bot.ui.base import Rendered, StaticLayout, text
from bot.ui.presenters import Presenter
from bot.ui.results import rating
from games.base import Action

#: Accent of the review's containers (the strong player's advice, not a turn).
ACCENT = 0x5865F2


def progress(lang: str, done: float) -> Rendered:
    """The answer while the review runs: how far it got."""
    return said(lang, "coach.working", percent=min(99, int(done * 100)))


def said(lang: str, key: str, **params: Any) -> Rendered:
    """One line of the coach's in its answer (a Components V2 message, as the review itself)."""
    return Rendered(StaticLayout([{"type": 17, "accent_color": ACCENT, "components": [text(t(lang, key, **params))]}]))


def render(match: Session, review: Review, states: dict[int, Any], moves: int, lang: str) -> Rendered:
    """The finished review of ``match`` (a finished ``Session``: names, game, pictures on or off) of
    ``moves`` logged moves; ``states`` holds the live state before each of its decisions' moves."""
    game = match.game
    head = [t(lang, "coach.title", game=game.name)]
    if not review.decisions:
        head.append(t(lang, "coach.well_played", count=review.judged))
        return Rendered(StaticLayout([{"type": 17, "accent_color": ACCENT, "components": [text("\n".join(head))]}]))
    head.append(t(lang, "coach.intro", count=len(review.decisions), judged=review.judged))
    head.append(t(lang, "coach.unit", unit=t(lang, f"{game.key}.ui.coach_unit")))
    show = presenter(game.key)
    drawn = pictures_of(game.key)
    parts: list[dict] = [{"type": 17, "accent_color": ACCENT, "components": [text("\n".join(head))]}]
    uploads: list[Picture] = []
    for rank, decision in enumerate(review.decisions, 1):
        state = states[decision.move]
        at = replace(match, status=Status.PLAYING, state=state, counters=[0] * len(match.seats))
        lines = [
            t(lang, "coach.decision", rank=rank, move=decision.move + 1, moves=moves),
            t(lang, "coach.played", move=described(at, show, review.seat, decision.played, lang)),
            t(lang, "coach.better", move=described(at, show, review.seat, decision.best, lang)),
            t(lang, "coach.cost", points=rating(decision.loss, lang), error=rating(decision.error, lang)),
        ]
        shown = position(at, drawn, show, review.seat, decision.move, lang)
        uploads.extend(shown)
        box = [text("\n".join(lines)), *([media.gallery(*shown)] if shown else [])]
        parts.append({"type": 17, "components": box})
    return Rendered(StaticLayout(parts), pictures=tuple(uploads))


def described(at: Session, show: Presenter, seat: int, key: str, lang: str) -> str:
    """A move as the table's move log puts it (made in a copy of the position), without what it set
    off (a hand scored, the next deal: the log's further parts), else its key."""
    game = at.game
    state = game.clone(at.state)
    events = game.apply(state, seat, Action.parse(key))
    line = show.describe(replace(at, state=state), events, lang)
    return line.splitlines()[0].split(" · ")[0] if line else key


def position(at: Session, drawn: Pictures | None, show: Presenter, seat: int, move: int, lang: str) -> list[Picture]:
    """The table's picture and the reader's hand's before the move (none with pictures off, or for a
    game drawn as text only)."""
    if drawn is None or not at.pictures:
        return []
    game = at.game
    out = []
    table = drawn.table_png(game.view(at.state, None))
    if table is not None:
        out.append(Picture(table, t(lang, "coach.table_alt", move=move + 1), "table"))
    playable = getattr(show, "playable", None)
    standing = frozenset(playable(at, seat)) if playable is not None else frozenset()
    hand = drawn.hand_png(game.view(at.state, seat), standing)
    if hand is not None:
        out.append(Picture(hand, t(lang, "coach.hand_alt", move=move + 1), "hand"))
    return out
