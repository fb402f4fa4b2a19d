"""Rigged positions for tests, help pages and puzzles: chosen cards in chosen places.

Cards are named by face, as the game prints them (``"7"``, ``"X"`` for a joker; Skippo also
``"A"``, ``"J"``, ``"Q"``, ``"K"``), or by exact card id; a face takes the next unused card with
that face in deck order. ``"?"`` takes some other unused card (a fixed, seed-independent pick),
for piles whose contents do not matter. Every list runs bottom → top, the draw pile too (its
last card is drawn first). The cards nobody named go under the draw pile (``rest="draw"``) or
out of play (``rest="box"``), so no card is ever lost. No turn-start step runs: call
``game.start_turn(state)`` to refill and (Skippo) put aces out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import shuffled
from games.buildpiles.state import Seat, Table

Spec = Sequence[str]


def rig(
    game: Any,
    players: int = 2,
    *,
    options: Any = None,
    current: int = 0,
    piles: dict[int, Spec] | None = None,
    hands: dict[int, Spec] | None = None,
    helpers: dict[int, Sequence[Spec]] | None = None,
    reserves: dict[int, Spec] | None = None,
    build: Sequence[int | Spec | None] = (),
    draw: Spec = (),
    set_aside: Spec = (),
    rest: str = "draw",
    scores: Sequence[int] | None = None,
    seed: str = "rigged",
) -> Table:
    """A position of ``game`` with ``current`` to act. ``build`` lists the build slots in order,
    each as the faces bottom → top, as an int (a pile of naturals 1 … n) or None (free slot)."""
    options = options if options is not None else game.default_options()
    deck = game.deck(options, players)
    ids = set(deck)
    by_face: dict[str, list[str]] = {}
    for cid in deck:
        by_face.setdefault(game.face(cid), []).append(cid)
    for cards in by_face.values():
        cards.reverse()  # pop() takes them in deck order
    used: set[str] = set()

    zones: list[list[str]] = []

    def zone(spec: Spec | int | None) -> list[str]:
        if spec is None:
            names: list[str] = []
        elif isinstance(spec, int):
            names = [game.face_of_value(v) for v in range(1, spec + 1)]
        else:
            names = list(spec)
        zones.append(names)
        return names

    pile_z = [zone((piles or {}).get(s, ())) for s in range(players)]
    hand_z = [zone((hands or {}).get(s, ())) for s in range(players)]
    res_z = [zone((reserves or {}).get(s, ())) for s in range(players)]
    slots = game.helper_slots(options)
    help_z = []
    for s in range(players):
        given = list((helpers or {}).get(s, ()))
        if len(given) > slots:
            raise ValueError("more helper piles than slots")
        help_z.append([zone(h) for h in given] + [zone(()) for _ in range(slots - len(given))])
    nslots = game.build_slots(options)
    given_build = list(build)
    if len(given_build) > nslots:
        raise ValueError("more build piles than slots")
    build_z = [zone(b) for b in given_build] + [zone(None) for _ in range(nslots - len(given_build))]
    draw_z = zone(draw)
    aside_z = zone(set_aside)

    # Exact ids first, then faces, then "?" from whatever is left.
    for names in zones:
        for name in names:
            if name in ids and name not in by_face:
                if name in used:
                    raise ValueError(f"card {name} placed twice")
                used.add(name)
    for names in zones:
        for i, name in enumerate(names):
            if name in by_face:
                pool = by_face[name]
                while pool and pool[-1] in used:
                    pool.pop()
                if not pool:
                    raise ValueError(f"no card {name!r} left")
                names[i] = pool.pop()
                used.add(names[i])
            elif name != "?" and name not in ids:
                raise ValueError(f"unknown card {name!r}")
    left = shuffled("rig", 0, [c for c in deck if c not in used])
    for names in zones:
        for i, name in enumerate(names):
            if name == "?":
                if not left:
                    raise ValueError("no card left for '?'")
                names[i] = left.pop()
    for names in build_z:
        if len(names) >= game.TOP:
            raise ValueError("a full build pile would have been set aside")
    seats = [Seat(pile_z[s], hand_z[s], help_z[s], res_z[s]) for s in range(players)]
    draw_cards, box = (left + draw_z, []) if rest == "draw" else (draw_z, left)
    return Table(options, players, seed, 1, (current - 1) % players, current, seats, build_z, draw_cards,
                 aside_z, box, scores=list(scores) if scores is not None else [0] * players)
