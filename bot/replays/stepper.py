"""The replay's private messages: ``/replay``'s list of a person's matches, and the stepper.

The stepper shows one position of a finished match: the table as the channel saw it after that
move (the presenter's own table, its texts and pictures, without its buttons), the move's line in
the move log's words where the table does not already read it (its move log ends with the move
whenever the table shows one: quoted above it too, the deal's line read twice), the hand's score breakdown where that move ended a hand (as the channel got it),
and with the toggle every seat's hand. Its buttons and select carry the whole
state (match, step, hands shown) in their custom ids (``bot.transport.ids.replay``), so it keeps
working after a restart. Within Discord's limits: one row of five buttons, one select of at most 25
options, paged by the hands (or turns) around the one shown, and 4,000 characters of text.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.i18n import t
from bot.registry import hand_summary, presenter
from bot.replays.steps import Position, Walked
from bot.storage.store import PlayedMatch
from bot.transport import ids, media
from bot.transport.media import Picture
from bot.ui.base import Rendered, StaticLayout, Style, button, row, select, text
from bot.ui.labels import seat_badge
from bot.ui.movelog import log_line, move_log
from bot.ui.pictured import plain
from bot.ui.shown import Shown
from bot.ui.summary import own_key

#: Hands (or turns) the jump select lists at once, leaving room for the two page options.
PAGE = 23
#: Characters of all texts of one Components V2 message.
TEXT_LIMIT = 4000
#: The components a stepper's table part keeps (texts, galleries, separators); its rows are the game's moves.
_SHOWN = frozenset({10, 12, 14})


def stepper(walked: Walked, at: Position, hands: bool, lang: str, ended_at: float | None) -> Rendered:
    """The stepper at ``at`` (a position of ``walked``), every hand shown or not."""
    show = presenter(at.game.key)
    step = len(at.history)
    head = [t(lang, "replay.title", game=at.game.name, when=_when(ended_at))]
    where = t(lang, "replay.deal", steps=walked.steps) if step == 0 else \
        t(lang, "replay.step", step=step, steps=walked.steps)
    head.append(f"{where} · {start_label(walked, walked.start_of(step), at, lang)}")
    events = (at.history[-1][2] or []) if step else at.opening
    last = "\n".join(move_log(at, lang, show)) or None
    table: list[dict] = []
    pictures: list[Picture] = []
    board = getattr(show, "board", None)
    grids = board(at, lang) if board is not None else []
    for index, rendered in enumerate(show.table(at, lang, last)):
        table.extend(_shown(rendered.view.to_components()))
        pictures.extend(rendered.pictures)
        if index < len(grids):      # a table of buttons (Calcory's grid) in words, where its buttons were
            table.append(text(grids[index]))
    told = show.describe(at, events, lang)
    if told and log_line(told) not in _lines(table):
        head.append(f"> {log_line(told)}")
    parts: list[dict] = [text("\n".join(head))]
    scored = hand_summary(at.game.key, at, events, lang) if step else None
    if scored:      # the breakdown the channel saw after this move ended a hand (the table shows the next deal)
        parts.append(text(scored))
    parts.extend(table)
    if hands:
        shown, drawn = _hands(at, lang, TEXT_LIMIT - sum(len(part.get("content", "")) for part in parts))
        parts.extend(shown)
        pictures.extend(drawn)
    parts.append(_buttons(walked, at, step, hands, lang))
    parts.append(row(_jump(walked, at, step, hands, lang)))
    return Rendered(StaticLayout([{"type": 17, "components": parts}]), pictures=tuple(pictures))


def _when(ended_at: float | None) -> str:
    return f"<t:{int(ended_at)}:d>" if ended_at is not None else ""


def _lines(parts: list[dict]) -> set[str]:
    """Every line the texts of ``parts`` show."""
    return {line for part in parts for line in part.get("content", "").splitlines()}


def _shown(components: list[dict]) -> list[dict]:
    """The table's texts and pictures, in its order, without its rows (which play the game)."""
    out: list[dict] = []
    for component in components:
        if component.get("type") in _SHOWN:
            out.append(component)
        elif component.get("type") == 17:
            out.extend(_shown(component.get("components") or []))
    return out


def _hands(at: Position, lang: str, room: int) -> tuple[list[dict], list[Picture]]:
    """Every seat's hand at this step, as its owner saw it then: a line after the seat's badge and name
    (the picture's own words for the cards, its alt text, or for a game without hand pictures the
    hand's first line; without the label its owner read: ``theirs``), then its picture, so each picture
    stands under its owner. The words come from the picture even in a match without pictures, whose
    hand text names no cards (Mü's shows them as buttons). At most ``room`` characters of text."""
    show = presenter(at.game.key)
    pictured = at if at.pictures else replace(at, pictures=True)
    parts, drawn = [text(t(lang, "replay.hands"))], list[Picture]()
    for seat, player in enumerate(at.seats):
        hand = show.hand(pictured, seat, lang, "", None)
        said = hand.pictures[0].alt if hand.pictures else hand.text
        cards = theirs(next((line for line in said.splitlines() if line.strip()), ""))
        parts.append(text(f"{seat_badge(seat)} **{player.name}** · {cards}"))
        if at.pictures:
            parts.extend(media.galleries(hand.pictures[0] if hand.pictures else None))
            drawn.extend(hand.pictures[:1])
    while sum(len(part.get("content", "")) for part in parts) > room:     # the longest lines halved
        longest = max((part for part in parts if part.get("content")), key=lambda part: len(part["content"]))
        if len(longest["content"]) < 8:
            break
        longest["content"] = longest["content"][:len(longest["content"]) // 2].rstrip() + "…"
    return parts, drawn


def theirs(line: str) -> str:
    """A hand's first line without the label its owner read ("**Your hand (4):**", "Deine Stapel:"),
    which after another player's name would say "Bob · Your hand": the cards after the first colon."""
    _, colon, cards = line.replace("**", "").partition(":")
    return cards.strip() if colon and cards.strip() else line


def _buttons(walked: Walked, at: Position, step: int, hands: bool, lang: str) -> dict:
    session = at.id

    def go(op: str, disabled: bool) -> dict:
        return button(t(lang, f"replay.{op}"), ids.replay(session, step, hands, op), disabled=disabled)

    toggle = button(t(lang, "replay.hide" if hands else "replay.show"), ids.replay(session, step, hands, "hands"),
                    style=Style.primary)
    return row(go("first", step == 0), go("back", step == 0), go("next", step == walked.steps),
               go("last", step == walked.steps), toggle)


def _jump(walked: Walked, at: Position, step: int, hands: bool, lang: str) -> dict:
    """The select of the hands (or turns) around the one shown; a page further is an option too."""
    here = walked.start_of(step)
    first = here - here % PAGE
    shown = range(first, min(first + PAGE, len(walked.starts)))
    options: list[tuple[str, str, str]] = []
    if first > 0:
        earlier = walked.starts[first - PAGE]
        options.append((t(lang, "replay.earlier", first=first - PAGE + 1, last=first), str(earlier.step), ""))
    options += [(start_label(walked, index, at, lang), str(walked.starts[index].step),
                 t(lang, "replay.from_move", step=walked.starts[index].step)) for index in shown]
    if shown.stop < len(walked.starts):
        later = walked.starts[shown.stop]
        last = min(shown.stop + PAGE, len(walked.starts))
        options.append((t(lang, "replay.later", first=shown.stop + 1, last=last), str(later.step), ""))
    return select(ids.replay(at.id, step, hands, "jump"), options, placeholder=t(lang, "replay.jump"),
                  default=str(walked.starts[here].step))


def start_label(walked: Walked, index: int, at: Shown, lang: str) -> str:
    """``Hand 3`` (in the game's own word: Game, Round), or in a game of one hand ``Turn 5 · ① ann``."""
    start = walked.starts[index]
    if start.seat is None:
        return plain(t(lang, own_key(at, "summary_hand"), number=start.number))
    return t(lang, "replay.turn", number=start.number, who=f"{seat_badge(start.seat)} {at.seats[start.seat].name}")


# -- /replay ----------------------------------------------------------------------------------------
def match_list(matches: list[PlayedMatch], names: dict[str, str], anonymous: str, lang: str) -> Rendered:
    """The caller's last finished matches in this server, newest first, in a select (``names``: each
    game's name by key)."""
    options = []
    for match in matches:
        day = datetime.fromtimestamp(match.ended_at, UTC).strftime("%Y-%m-%d")
        seated = ", ".join(seat.get("name") or anonymous for seat in match.seats)
        result = t(lang, "replay.won" if match.won else "replay.placed", rank=match.rank or 0,
                   count=len(match.seats), score=match.score if match.score is not None else "–")
        options.append((f"{names.get(match.game, match.game)} · {day}", str(match.id), f"{result} · {seated}"))
    parts = [text(t(lang, "replay.list", count=len(matches))),
             row(select(ids.replay_pick(), options, placeholder=t(lang, "replay.pick")))]
    return Rendered(StaticLayout([{"type": 17, "components": parts}]))
