"""Da Capo!: the build-pile planner (``games.buildpiles.computer``) with Da Capo's moves.

Jokers go on any build pile alone; other players' pile tops may be played (it shrinks their pile,
so only as a step towards the own pile); an emptied hand draws four new cards; a discard may go
on any helper pile.
"""

from __future__ import annotations

from games.base import Action
from games.buildpiles.computer import HIDDEN, BuildPileBrain, Model, Move, Outlook, Sight, Turn
from games.dacapo.cards import TOP, VALUE


class DaCapoModel(Model):
    top = TOP
    value = VALUE
    pile_name = "pile"
    # Tuned by self-play: an emptied hand draws four, so cards kept in hand cost more here.
    hand_card = 0.12
    joker = 0.5
    stuck = 0.08

    def moves(self, out: Outlook, t: Turn) -> list[Move]:
        sources = self.sources(t)
        sources += [(("other", j), top) for j, (top, left) in enumerate(t.others) if top != HIDDEN and left > 1]
        anywhere = self.slots(t.tops)
        moves: list[Move] = []
        for source, value in sources:
            moves += [("play", source, slot) for slot in (self.targets(t.tops, value) if value else anywhere)]
        if not t.hand and out.drawable:
            moves.append(("draw",))
        return moves

    def after(self, t: Turn, move: Move) -> Turn:
        return self.push(self.take(t, move[1]), move[2])

    def discards(self, out: Outlook, t: Turn) -> list[tuple[int, int]]:
        slots = [i for i, h in enumerate(t.helpers) if h]
        empty = [i for i, h in enumerate(t.helpers) if not h]
        slots += empty[:1]
        return [(v, i) for v in sorted(set(t.hand)) for i in slots]

    def action(self, move: Move, s: Sight, legal: list[Action]) -> Action | None:
        if move[0] == "draw":
            return Action("draw") if Action("draw") in legal else None
        return self.common_action(move, s, legal)


BRAIN = BuildPileBrain(DaCapoModel())
