"""The strong Kapado player at the end of the pile, where it searches the rest of the game exactly.

Every number card but a few lies face up on the stacks, every ban card has been drawn (three each:
the 2 and the 5 are banned) and every wish card is kept, so the unseen cards are the few left in the
pile and the seat can count every way the game may end. A card fits a top by colour or by a common
divisor the bans allow; both is a double fit and draws again.
"""

from __future__ import annotations

import random
from dataclasses import replace

from games.base import Action
from games.computer import choose
from games.kapado import BRAIN, GAME
from games.kapado.cards import BAN, DECK, KIND, NUMBER
from games.kapado.computer import KapadoBrain, _table_of_view, end_search
from games.kapado.rules import position


def late(own: list[str], other: list[str], held: str, left: list[str], lead: int):
    """Seat 0 holds ``held`` with ``left`` the only cards still in the pile; ``own`` and ``other`` are
    the seats' tops, every other number card lies under them, seat 0 keeps the wish cards and leads by
    ``lead`` cards (of the parity the cards allow)."""
    named = {*own, *other, held, *left}
    filler = [c for c in DECK.ids if KIND[c] == NUMBER and c not in named]
    wishes = [c for c in DECK.ids if KIND[c] == "wish"]
    mine, odd = divmod(lead + len(filler) - len(wishes), 2)
    assert not odd and 0 <= mine <= len(filler)
    rows = {0: [[c] for c in own], 1: [[c] for c in other]}
    rows[0][0] = filler[:mine] + rows[0][0]
    rows[1][0] = filler[mine:] + rows[1][0]
    state = position(2, rows, pile=[held, *left], wishes={0: wishes}, banned=(2, 5))
    state.middle = [c for c in DECK.ids if KIND[c] == BAN]
    counts = GAME.view(state, 0).counts
    assert counts[0] - counts[1] == lead, counts
    return state


def strong(state) -> Action:
    action = choose(GAME, state, 0, "strong", random.Random(0))
    GAME.check(state, 0, action)
    return action


def test_kapado_strong_at_the_end_keeps_the_top_for_the_card_the_opponent_would_catch():
    """c7 fits c27 (colour) and d7 (divisor 7) singly, nothing doubly; c9, d21 and b25 are left.
    c27 would catch c9 doubly and d7 would catch d21, one unseen card each, and the rule alone keeps
    c27. But the opponent draws first, and its d3 catches d21: if it draws d21 it draws on and every
    card is gone before the seat's turn; if it draws c9 or b25 it cannot go on, and d21 is still in
    the pile when the seat draws. So d21 is there at the seat's turn more often than c9: the seat
    covers c27 and keeps d7."""
    own = ["c27", "d7", "a4", "a8", "a16"]
    other = ["d3", "a12", "a18", "a24", "a36"]
    state = late(own, other, "c7", ["c9", "d21", "b25"], lead=11)
    legal = GAME.legal_actions(state, 0)
    assert set(legal) == {Action("up", "s0:0"), Action("up", "s0:1")}
    rule = KapadoBrain()
    rule.judgement = replace(BRAIN.judgement, ending=0)
    assert rule.default(GAME, state, 0, legal, random.Random(0)) == Action("up", "s0:1")
    assert strong(state) == Action("up", "s0:0")


def test_kapado_strong_at_the_end_reads_only_the_seats_view():
    """The end search counts the unseen cards from the seat's view: a redeal of the pile, the
    face-down cards and a hidden drawn card leaves its placement unchanged."""
    rng = random.Random("kapado-ending")
    checked = 0
    for n in range(16):
        state = GAME.setup(2, GAME.default_options(), f"ending-{n}")
        target = rng.randrange(2, 7)
        while not GAME.is_over(state) and not (state.phase == "place" and len(state.pile) <= target):
            seat = state.current
            GAME.apply(state, seat, BRAIN.easy(GAME, state, seat, GAME.legal_actions(state, seat), rng))
        if GAME.is_over(state):
            continue
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        if len(legal) < 2 or end_search(view, _table_of_view(view), legal) is None:
            continue
        laid = BRAIN.default(GAME, state, seat, legal, random.Random(n))
        for k in range(3):
            other = GAME.resample(state, seat, random.Random(k))
            assert BRAIN.default(GAME, other, seat, legal, random.Random(n)) == laid
        checked += 1
    assert checked >= 6, checked
