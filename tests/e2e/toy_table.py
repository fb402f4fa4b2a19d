"""The toy game (tests/host/toy_game.py) on Discord, with tiny pictures, for the tests of pictures.

The table is a Components V2 container with a media gallery; its picture shows only the discard
pile and the stock, so a pass redraws the table's text but not its picture. The hand is a legacy
message whose picture (the held card and the size of the discard pile) shows below its text.
"""

from __future__ import annotations

from bot.transport import ids, media
from bot.ui.base import Rendered, StaticLayout, StaticView, Style, button, hand_button, row, text
from tests.double.attachments import png
from tests.host.toy_game import GAME, value


def table_png(view) -> bytes:
    return png(len(view.discard) + 1, 1, pixels=bytes([20 * value(c) for c in view.discard] + [view.stock]))


def table_alt(view) -> str:
    return f"Discard pile: {', '.join(view.discard) or 'empty'}; stock: {view.stock} cards"


def hand_png(view) -> bytes:
    return png(2, 1, pixels=bytes([20 * value(view.hand), len(view.discard)]))


def hand_alt(view) -> str:
    return f"Your card: {view.hand}; {len(view.discard)} on the discard pile"


def moves(session, seat: int) -> list[dict]:
    return [button(key, ids.move(session.id, seat, session.counters[seat], key), style=Style.primary)
            for key in ("pass", "swap") if any(a.key == key for a in GAME.legal_actions(session.state, seat))]


class ToyPresenter:
    table_messages = 1

    def table(self, session, lang: str, last: str | None) -> list[Rendered]:
        view = session.view(None)
        picture = media.draw(session, lambda: table_png(view), table_alt(view))
        turn = f"Turn {view.turns_taken + 1}: seat {view.turn}" if view.turn is not None else "Over"
        buttons = [hand_button(session, lang)]
        if view.turn is not None:
            buttons += moves(session, view.turn)
        parts = [text(f"## High card\n{turn}\n{table_alt(view)}" + (f"\n{last}" if last else "")),
                 *media.galleries(picture), row(*buttons)]
        return [Rendered(StaticLayout([{"type": 17, "components": parts}]), pictures=media.pictures(picture))]

    def hand(self, session, seat: int, lang: str, ui: str, notice: str | None) -> Rendered:
        view = session.view(seat)
        picture = media.draw(session, lambda: hand_png(view), hand_alt(view), "hand")
        lines = [*([notice] if notice else []), hand_alt(view), f"Turns taken: {view.turns_taken}"]
        buttons = moves(session, seat)
        return Rendered(StaticView([row(*buttons)] if buttons else []), "\n".join(lines),
                        pictures=media.pictures(picture))

    def describe(self, session, events, lang: str) -> str | None:
        return f"Seat {events[0].seat}: {events[0].kind}" if events else None


PRESENTER = ToyPresenter()
