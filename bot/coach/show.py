"""A review as its reader sees it, privately and in their language: each costly decision with where
it was (the hand, round or game, or in a match of one hand the turn, as the replay's jump select names
it), the position as the reader saw it then (the table's picture and their hand's, or a table of
buttons such as Calcory's grid in words), what they played, what the strong player prefers, and the
estimated difference in the game's points with the range it most likely lies in
(``<game>.ui.coach_unit`` says what one point is in that game).

The positions are the live states before each move, from the match walked as the replay walks it
(``bot.replays.steps.Walked``); the pictures and the grid read only ``game.view`` of them: the public
table and the reader's own hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.coach.review import Review
from bot.i18n import has, t
from bot.pictures import Pictures
from bot.play.sessions import Session
from bot.registry import pictures as pictures_of
from bot.registry import presenter
from bot.replays.stepper import start_label
from bot.replays.steps import Walked
from bot.storage.status import Status
from bot.transport import media
from bot.transport.media import Picture
from bot.ui.base import Rendered, StaticLayout, text
from bot.ui.presenters import Presenter, Voice
from bot.ui.results import rating
from games.base import Action, Event

#: Accent of the review's containers (the strong player's advice, not a turn).
ACCENT = 0x5865F2
#: Standard errors either side of an estimate in the range the review calls "most likely" (about 95 %).
LIKELY = 2.0


def progress(lang: str, done: float) -> Rendered:
    """The answer while the review runs: how far it got."""
    return said(lang, "coach.working", percent=min(99, int(done * 100)))


def said(lang: str, key: str, **params: Any) -> Rendered:
    """One line of the coach's in its answer (a Components V2 message, as the review itself)."""
    return Rendered(StaticLayout([{"type": 17, "accent_color": ACCENT, "components": [text(t(lang, key, **params))]}]))


def render(match: Session, review: Review, walked: Walked, lang: str) -> Rendered:
    """The finished review of ``match`` (a finished ``Session``: names, game, pictures on or off),
    ``walked`` its log (the position before each decision's move, and where its hands start)."""
    game = match.game
    head = [t(lang, "coach.title", game=game.name)]
    if not review.decisions:
        head.append(t(lang, "coach.well_played", count=review.judged))
        return Rendered(StaticLayout([{"type": 17, "accent_color": ACCENT, "components": [text("\n".join(head))]}]))
    head.append(t(lang, "coach.intro", count=len(review.decisions), judged=review.judged))
    head.append(t(lang, "coach.unit", unit=t(lang, f"{game.key}.ui.coach_unit")))
    show = presenter(game.key)
    drawn = pictures_of(game.key)
    board = getattr(show, "board", None)
    parts: list[dict] = [{"type": 17, "accent_color": ACCENT, "components": [text("\n".join(head))]}]
    uploads: list[Picture] = []
    for rank, decision in enumerate(review.decisions, 1):
        at = replace(match, status=Status.PLAYING, state=walked.state(decision.move), counters=[0] * len(match.seats))
        where = start_label(walked, walked.start_of(decision.move), at, lang)
        lines = [
            t(lang, "coach.decision", rank=rank, where=where, move=decision.move + 1, moves=walked.steps),
            described(at, show, review.seat, decision.played, lang),
            described(at, show, review.seat, decision.best, lang, happened=False),
            cost(decision.loss, decision.error, lang),
        ]
        shown = position(at, drawn, show, review.seat, decision.move, lang)
        uploads.extend(shown)
        grid = board(at, lang) if board is not None else []
        box = [text("\n".join(lines)), *(text(half) for half in grid), *([media.gallery(*shown)] if shown else [])]
        parts.append({"type": 17, "components": box})
    return Rendered(StaticLayout(parts), pictures=tuple(uploads))


def cost(loss: float, error: float, lang: str) -> str:
    """What a decision cost, said with its uncertainty: the range it most likely lies in, or that every
    game played on agreed (no spread at all)."""
    if round(error, 1) == 0:
        return t(lang, "coach.cost_sure", points=rating(loss, lang))
    return t(lang, "coach.cost", points=rating(loss, lang), low=rating(max(0.0, loss - LIKELY * error), lang),
             high=rating(loss + LIKELY * error, lang))


def described(at: Session, show: Presenter, seat: int, key: str, lang: str, *, happened: bool = True) -> str:
    """A move said to the reader who made it, in the move log's terms ("You passed.", or for the
    strong player's "The strong player would have passed.", ``Voice``): the move's own events, made
    in a copy of the position, without what they set off (a trick taken, a ban drawn, a hand scored,
    the next deal). The game's own ``coach_<kind>[_<arg>]_you`` / ``_best`` words, where it has them,
    say a move the log leaves unsaid or secret (a Calcory flip, Kapado's stop, Diabolo's doubler), or
    whose log line tells an outcome the reader could not know then (the strong player's flip "hit
    13": the card it turned was face down)."""
    game = at.game
    action = Action.parse(key)
    voice: Voice = "you" if happened else "best"
    own = next((k for k in (f"{game.key}.ui.coach_{action.kind}_{action.arg}_{voice}",
                            f"{game.key}.ui.coach_{action.kind}_{voice}") if has(k)), None)
    if own is not None:
        return t(lang, own, arg=action.arg)
    state = game.clone(at.state)
    after = replace(at, state=state)
    for made in own_events(game.apply(state, seat, action), seat):
        line = show.describe(after, made, lang, voice)
        if line:
            return line
    return key


def own_events(events: list[Event], seat: int) -> list[list[Event]]:
    """``seat``'s public events from its first until another seat's, in runs of one kind (Da Capo!'s
    joker and the card that covers it are one play): the first run the log has words for is the move
    itself (a pile's next card turned up before the play it made way for has none); what follows it
    is what the move set off."""
    runs: list[list[Event]] = []
    for e in events:
        if e.to is not None or (not runs and e.seat != seat):
            continue
        if e.seat != seat:
            break
        if runs and runs[-1][-1].kind == e.kind:
            runs[-1].append(e)
        else:
            runs.append([e])
    return runs


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
