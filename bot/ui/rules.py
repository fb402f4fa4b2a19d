"""The Rules button of a table: the game's rules summary, privately and in the reader's language, and
what the reader may do right now in one line.

The line reads only the reader's own legal moves (``game.legal_actions`` for the reader's seat), never
another seat's: which moves someone else has could tell a hidden card (a Kapado card that fits no open
stack). Each kind of move is a phrase of the game's catalogue, ``<game>.ui.move.<kind>``, or of the
catalogue the game shares its table with (``buildpiles.ui.move.<kind>`` for Da Capo! and Skippo).
"""

from __future__ import annotations

from bot.i18n import has, t
from bot.storage.status import Status
from bot.transport import ids
from bot.ui.base import Rendered, StaticLayout, button, text
from bot.ui.shown import Shown
from bot.ui.summary import after_buttons

#: Catalogues a game's move phrases may come from, after its own.
SHARED = {"dacapo": "buildpiles", "skippo": "buildpiles"}


def rules_or_rematch(session: Shown, lang: str) -> list[dict]:
    """The table's buttons beside Hand: Rules while the match is played (anyone may read them),
    Rematch, Replay and How did I play? once it is finished, so the final table offers the next
    match, a look back and the coach; a stopped table's Rules button is off (it answers no click;
    ``/rules`` still shows the rules)."""
    if session.status == Status.FINISHED:
        return after_buttons(session, lang)
    return [button(t(lang, "table.rules"), ids.table(session.id, "rules"), disabled=session.status != Status.PLAYING)]


def rules_message(session: Shown, seat: int | None, lang: str) -> Rendered:
    """The rules summary and the reader's moves (``seat`` None: the reader has no seat here)."""
    body = [text(t(lang, f"{session.game.key}.ui.rules")), text(moves_line(session, seat, lang))]
    return Rendered(StaticLayout([{"type": 17, "components": body}]))


def moves_line(session: Shown, seat: int | None, lang: str) -> str:
    """``Your turn: you may … or …``, or whom the table waits for, or that the match is over."""
    game, state = session.game, session.state
    if session.status != Status.PLAYING or state is None or game.is_over(state):
        return t(lang, "table.rules_over")
    acting = sorted(game.to_act(state))
    if seat in acting:
        kinds = dict.fromkeys(action.kind for action in game.legal_actions(state, seat))
        return t(lang, "table.rules_yours", moves=either(lang, [move_phrase(game.key, kind, lang) for kind in kinds]))
    return t(lang, "table.rules_waiting", names=", ".join(session.seats[s].name for s in acting))


def move_phrase(game: str, kind: str, lang: str) -> str:
    own = f"{game}.ui.move.{kind}"
    return t(lang, own if has(own) or game not in SHARED else f"{SHARED[game]}.ui.move.{kind}")


def either(lang: str, phrases: list[str]) -> str:
    """``a, b or c`` in the reader's language."""
    if len(phrases) < 2:
        return "".join(phrases)
    return t(lang, "table.rules_or", first=", ".join(phrases[:-1]), last=phrases[-1])
