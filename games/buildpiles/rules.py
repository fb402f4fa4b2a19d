"""The part of the rules engine Da Capo! and Skippo share: deal, turn passing, stalls, match play,
views, ``resample`` and the parsing of moves that name a card, where it comes from and where it goes.

Moves (keys stay short and name absolute things):

- ``play:<card>@<source>><target>``: one card onto a build pile. Sources: ``hand``, the own
  pile (``pile`` in Da Capo, ``stock`` in Skippo), ``helper:<n>`` (own helper pile n, 1-based),
  ``pile:seat<k>`` (another player's pile top, Da Capo), ``reserve`` (Skippo). Targets: ``b<n>``
  (build slot n, 1-based) or ``new`` (start a build pile in the lowest free slot).
- ``discard:<card>><target>``: a hand card onto ``helper:<n>`` or a ``new`` helper pile; ends the turn.
- ``end``: end the turn without a discard (only when none is possible).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from games.base import (
    Action,
    Event,
    Game,
    HandScore,
    IllegalAction,
    Opts,
    Result,
    ScoreLine,
    draw_rng,
    fresh_seed,
    top_scorers,
)
from games.base import shuffled as _shuffled
from games.buildpiles.state import Seat, Table, TableView, all_cards, view
from games.keys import number

HAND, PILE, HELPER, RESERVE = 0, 1, 2, 3
END = Action("end")


class BuildPileGame(Game[Table, TableView, Opts]):
    """Turn passing, stalls (docs/rules-decisions.md D8), match play and information for both build-pile
    games.

    Subclasses set ``TOP`` (the value that finishes a build pile), ``PILE_NAME``, provide ``face``
    and ``face_of_value`` (for ``rig``) and implement ``deck``, ``deal``, ``build_slots``,
    ``helper_slots``, ``start_turn``, ``score_game``, ``match_over`` and the moves.
    """

    TOP: ClassVar[int]
    PILE_NAME: ClassVar[str] = "pile"
    #: A stalled game (docs/rules-decisions.md D8) ends the whole match without a winner: a match cannot be
    #: decided by games that nobody can finish, and ``Result.winners`` is then empty.
    STALL_ENDS_MATCH: ClassVar[bool] = True

    # -- hooks ---------------------------------------------------------------------------------
    @staticmethod
    def face(cid: str) -> str:
        """A card's face as the game prints it (``"7"``, ``"X"`` for a joker)."""
        raise NotImplementedError

    @staticmethod
    def face_of_value(value: int) -> str:
        """The face of the natural card of ``value``."""
        raise NotImplementedError

    def deck(self, options: Opts, players: int) -> list[str]:
        raise NotImplementedError

    def personal_pile_size(self, options: Opts) -> int:
        """How many cards each player's own pile (Da Capo's pile, Skippo's stock) starts with."""
        raise NotImplementedError

    def deal(self, table: Table, cards: list[str]) -> None:
        """A face-down pile each (top turned up), then hand cards one at a time from the dealer's left;
        the rest of the shuffled ``cards`` is the draw pile."""
        size, n = self.personal_pile_size(table.options), table.players
        for s in table.seats:
            s.pile = [cards.pop() for _ in range(size)]
        for _ in range(table.options.hand_size):
            for i in range(n):
                table.seats[(table.dealer + 1 + i) % n].hand.append(cards.pop())
        table.draw = cards

    def build_slots(self, options: Any) -> int:
        slots: int = options.build_piles
        return slots

    def helper_slots(self, options: Any) -> int:
        slots: int = options.helper_piles
        return slots

    def start_turn(self, table: Table, events: list[Event] | None = None) -> list[Event]:
        """What happens before the current player may choose (refill; Skippo: aces out)."""
        raise NotImplementedError

    def score_game(self, table: Table, winner: int) -> list[ScoreLine]:
        raise NotImplementedError

    def match_over(self, table: Table) -> bool:
        raise NotImplementedError

    def before_first_turn(self, table: Table, events: list[Event]) -> None:
        """What happens between the deal and the first player's turn (Skippo: aces out of turn)."""

    def fix_resample(self, table: Table, seat: int, rng: random.Random) -> None:
        """Repair a redeal that contradicts what the table knows (Skippo: held aces)."""

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Opts, seed: str) -> Table:
        return self.begin(players, options, seed)[0]

    def begin(self, players: int, options: Opts, seed: str) -> tuple[Table, list[Event]]:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} needs {self.min_players}-{self.max_players} players")
        dealer = draw_rng(seed, 0).randrange(players)
        table = Table(options, players, seed, 1, dealer, dealer, [], [], [], [], [], scores=[0] * players)
        events: list[Event] = []
        self._new_game(table, events)
        return table, events

    def _new_game(self, table: Table, events: list[Event]) -> None:
        cards = _shuffled(table.seed, table.shuffles, self.deck(table.options, table.players))
        table.shuffles += 1
        n = table.players
        table.seats = [Seat([], [], [[] for _ in range(self.helper_slots(table.options))], [])
                       for _ in range(n)]
        table.build = [[] for _ in range(self.build_slots(table.options))]
        table.set_aside = []
        table.box = []
        self.deal(table, cards)
        table.current = (table.dealer + 1) % n
        table.built = table.moved = False
        table.quiet = 0
        table.aceless = 0
        table.last = ()
        events.append(Event("deal", None, {"game": table.game_no, "dealer": table.dealer,
                                           "first": table.current}))
        self.before_first_turn(table, events)
        self.start_turn(table, events)

    # -- turn passing --------------------------------------------------------------------------
    def to_act(self, state: Table) -> frozenset[int]:
        return frozenset() if state.over else frozenset((state.current,))

    def end_turn(self, table: Table, events: list[Event]) -> None:
        """Pass the turn left, or end a stalled game (docs/rules-decisions.md D8) without a winner.

        A turn is quiet when no card went to a build pile and either nothing is left to draw
        (D8's case) or no card moved at all (D14) (nobody could draw, discard or build: a Skippo
        table whose hands are full of cards no helper pile takes repeats for ever). A full round
        of quiet turns stalls the game.
        """
        if not table.built and (not table.can_draw() or not table.moved):
            table.quiet += 1
        else:
            table.quiet = 0
        events.append(Event("turn_end", table.current, {}))
        if table.quiet >= table.players:
            events.append(Event("stalled", None, {"game": table.game_no}))
            self.finish_game(table, None, events)
            return
        table.current = (table.current + 1) % table.players
        table.built = table.moved = False
        self.start_turn(table, events)

    def finish_game(self, table: Table, winner: int | None, events: list[Event]) -> None:
        """Score the game, and deal the next one unless the match is over."""
        scores = table.scores
        assert scores is not None
        if winner is None:
            lines = [ScoreLine(s, f"{self.key}.line_stalled", 0) for s in range(table.players)]
        else:
            lines = self.score_game(table, winner)
        for line in lines:
            scores[line.seat] += line.points
        table.history += (HandScore(table.game_no, tuple(lines), tuple(scores)),)
        table.winners += (winner,)
        events.append(Event("game_over", winner, {"game": table.game_no, "scores": list(scores)}))
        if (winner is None and self.STALL_ENDS_MATCH) or self.match_over(table):
            table.over = True
            events.append(Event("match_over", None, {"scores": list(scores),
                                                     "winners": sorted(self._winners(table))}))
            return
        table.game_no += 1
        table.dealer = (table.dealer + 1) % table.players
        self._new_game(table, events)

    # -- shared move parsing -------------------------------------------------------------------
    def _turn(self, table: Table, seat: int) -> None:
        if table.over:
            raise IllegalAction("core.game_over")
        if seat != table.current:
            raise IllegalAction("core.not_your_turn")

    @staticmethod
    def split_play(arg: str) -> tuple[str, str, str]:
        card, _, rest = arg.partition("@")
        source, _, target = rest.partition(">")
        if not card or not source or not target:
            raise IllegalAction("core.illegal_action")
        return card, source, target

    def target_slot(self, table: Table, target: str) -> int:
        """The build slot a ``new``/``b<n>`` target names (``new``: the lowest free one)."""
        if target == "new":
            slot = table.free_slot()
            if slot < 0:
                raise IllegalAction(f"{self.key}.no_free_pile", most=len(table.build))
            return slot
        pile = number(target[1:]) if target[:1] == "b" else None
        if pile is not None and 1 <= pile <= len(table.build):
            return pile - 1
        raise IllegalAction(f"{self.key}.no_such_pile")

    def helper_target(self, table: Table, seat: int, target: str) -> int:
        helpers = table.seats[seat].helpers
        if target == "new":
            for i, h in enumerate(helpers):
                if not h:
                    return i
            raise IllegalAction(f"{self.key}.no_free_helper", most=len(helpers))
        index = self.helper_index(target)
        if index is None or index >= len(helpers):
            raise IllegalAction(f"{self.key}.no_such_helper")
        return index

    @staticmethod
    def helper_index(source: str) -> int | None:
        kind, _, n = source.partition(":")
        index = number(n) if kind == "helper" else None
        return index - 1 if index else None

    def locate(self, table: Table, seat: int, card: str, source: str) -> tuple[int, int, int]:
        """Check that ``card`` is at ``source`` and usable: (zone, owner, index)."""
        me = table.seats[seat]
        if source == "hand":
            if card in me.hand:
                return HAND, seat, me.hand.index(card)
            raise IllegalAction(f"{self.key}.not_in_hand")
        if source == self.PILE_NAME:
            if me.pile and me.pile[-1] == card:
                return PILE, seat, 0
            raise IllegalAction(f"{self.key}.not_pile_top")
        index = self.helper_index(source)
        if index is not None:
            if index < len(me.helpers) and me.helpers[index] and me.helpers[index][-1] == card:
                return HELPER, seat, index
            for other, s in enumerate(table.seats):
                if other != seat and any(card in h for h in s.helpers):
                    raise IllegalAction(f"{self.key}.foreign_helper")
            raise IllegalAction(f"{self.key}.not_helper_top")
        return self.locate_other(table, seat, card, source)

    def locate_other(self, table: Table, seat: int, card: str, source: str) -> tuple[int, int, int]:
        raise IllegalAction(f"{self.key}.no_such_source")

    @staticmethod
    def take(table: Table, zone: tuple[int, int, int], events: list[Event]) -> str:
        """Remove the card at ``zone``; a pile turns up its next card."""
        kind, owner, index = zone
        s = table.seats[owner]
        if kind == HAND:
            return s.hand.pop(index)
        if kind == HELPER:
            return s.helpers[index].pop()
        if kind == RESERVE:
            return s.reserve.pop(index)
        card = s.pile.pop()
        if s.pile:
            events.append(Event("reveal", owner, {"card": s.pile[-1]}))
        return card

    # -- information ---------------------------------------------------------------------------
    def view(self, state: Table, seat: int | None) -> TableView:
        return view(state, seat)

    def resample(self, state: Table, seat: int, rng: random.Random) -> Table:
        """Redeal the draw pile, the other hands and every pile card under its top."""
        new = state.copy()
        new.seed = fresh_seed(rng)
        pool = new.draw[:]
        for j, s in enumerate(new.seats):
            pool += s.pile[:-1]
            if j != seat:
                pool += s.hand
        pool.sort()  # a canonical order first, so the redeal never depends on the real one
        rng.shuffle(pool)
        at = len(new.draw)
        new.draw = pool[:at]
        for j, s in enumerate(new.seats):
            if s.pile:
                under = len(s.pile) - 1
                s.pile = pool[at:at + under] + s.pile[-1:]
                at += under
            if j != seat:
                size = len(s.hand)
                s.hand = pool[at:at + size]
                at += size
        self.fix_resample(new, seat, rng)
        return new

    def cards(self, state: Table) -> list[str]:
        return all_cards(state)

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: Table) -> bool:
        return state.over

    @staticmethod
    def _winners(table: Table) -> frozenset[int]:
        if not table.winners or table.winners[-1] is None:
            return frozenset()
        return top_scorers(table.scores or [0] * table.players)

    def result(self, state: Table) -> Result:
        return Result(tuple(state.scores or ()), self._winners(state), state.history)

    def clone(self, state: Table) -> Table:
        return state.copy()
