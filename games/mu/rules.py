"""Mü behind the engine contract: dispatch, information sets (``resample``) and the match result."""

from __future__ import annotations

import random
from itertools import combinations
from typing import ClassVar

from games.base import Action, Event, Game, IllegalAction, Result, draw_rng, fresh_seed, top_scorers
from games.deck import COLOURS, DECK, sort_cards
from games.mu import auction, declare, tricks
from games.mu.cards import DIGITS, NO_TRUMP
from games.mu.flow import deal_events
from games.mu.state import (
    AUCTION,
    CHEF_TRUMP,
    OVER,
    PARTNER,
    TRICKS,
    VIZE_TRUMP,
    MuOptions,
    MuState,
    clone,
    deal,
    new_state,
)
from games.mu.views import MuView, view

PASS = Action("pass")
_BID = {cid: Action("bid", cid) for cid in DECK}
_PLAY = {cid: Action("play", cid) for cid in DECK}
_TRUMP = {name: Action("trump", name) for name in (*COLOURS, *DIGITS, NO_TRUMP)}
_PARTNER = {seat: Action("partner", str(seat)) for seat in range(6)}
_KIND_OF_PHASE = {AUCTION: ("bid", "pass"), VIZE_TRUMP: ("trump",), CHEF_TRUMP: ("trump",),
                  PARTNER: ("partner",), TRICKS: ("play",)}


def bid_action(cards: list[str]) -> Action:
    """The one action that lays out several cards at once (ids in deck order, dot-separated)."""
    return Action("bid", ".".join(sort_cards(cards)))


class Mu(Game[MuState, MuView, MuOptions]):
    key: ClassVar[str] = "mu"
    name: ClassVar[str] = "Mü"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    rules_version: ClassVar[int] = 1
    options_model = MuOptions
    # A hand is finite: shown counts only grow, so an auction has at most C bids (C cards dealt)
    # with fewer than N passes before each, then up to three choices and C cards played, in all
    # at most C * (N + 1) + N + 3 actions (< 430). A match is not bounded: Patt and lost-game
    # scores can take points away, and an all-pass Patt scores nothing. Measured random matches
    # (400 per player count, default target) took 340-490 actions at the median and 8,400 at
    # the most (3 players, 153 hands), so the cap of 20,000 actions stops only freak runs.
    playout_cap: ClassVar[int] = 20000

    # -- setup -------------------------------------------------------------------------------
    def setup(self, players: int, options: MuOptions, seed: str) -> MuState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Mü needs {self.min_players}-{self.max_players} players")
        state = new_state(players, options, seed, draw_rng(seed, 0).randrange(players), 1)
        deal(state)
        return state

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: MuState) -> frozenset[int]:
        return frozenset() if state.phase == OVER else frozenset((state.turn,))

    def legal_actions(self, state: MuState, seat: int) -> list[Action]:
        phase = state.phase
        if phase == OVER or seat != state.turn:
            return []
        if phase == TRICKS:
            return [_PLAY[c] for c in tricks.playable(state, seat)]
        if phase == AUCTION:
            return [PASS, *(_BID[c] for c in state.hidden[seat])]
        if phase == PARTNER:
            return [_PARTNER[p] for p in declare.partner_options(state)]
        return [_TRUMP[name] for name in declare.trump_options(state)]

    def check(self, state: MuState, seat: int, action: Action) -> None:
        self._check(state, seat, action)

    def _check(self, state: MuState, seat: int, action: Action) -> object:
        """Raise ``IllegalAction`` or return the parsed argument for ``apply``."""
        if state.phase == OVER:
            raise IllegalAction("core.game_over")
        if seat != state.turn:
            raise IllegalAction("core.not_your_turn")
        kind, arg = action.kind, action.arg
        if kind not in _KIND_OF_PHASE[state.phase]:
            raise IllegalAction("mu.wrong_phase")
        if kind == "play":
            tricks.check_play(state, seat, arg)
            return arg
        if kind == "bid":
            cards = arg.split(".") if arg else []
            auction.check_bid(state, seat, cards)
            return cards
        if kind == "pass":
            if arg:
                raise IllegalAction("core.illegal_action")
            return None
        if kind == "trump":
            declare.check_trump(state, arg)
            return arg
        return declare.check_partner(state, arg)

    def apply(self, state: MuState, seat: int, action: Action) -> list[Event]:
        arg = self._check(state, seat, action)
        kind = action.kind
        state.last = (arg,) if kind == "play" else ()  # type: ignore[assignment]
        if kind == "play":
            return tricks.play(state, seat, arg)  # type: ignore[arg-type]
        if kind == "bid":
            return auction.bid(state, seat, arg)  # type: ignore[arg-type]
        if kind == "pass":
            return auction.pass_(state, seat)
        if kind == "trump":
            return declare.name_trump(state, seat, arg)  # type: ignore[arg-type]
        return declare.choose_partner(state, seat, arg)  # type: ignore[arg-type]

    def start_events(self, state: MuState) -> list[Event]:
        """The events of the first deal, for a host that logs from the start."""
        return deal_events(state)

    # -- information ---------------------------------------------------------------------------
    def view(self, state: MuState, seat: int | None) -> MuView:
        return view(state, seat)

    def resample(self, state: MuState, seat: int, rng: random.Random) -> MuState:
        """Deal the other seats' face-down cards again, keeping hand sizes and every void the
        table saw (a seat that did not follow a suit holds none of it)."""
        out = clone(state)
        others = [p for p in range(state.players) if p != seat]
        pool = sort_cards(c for p in others for c in state.hidden[p])  # canonical: the deal stays unseen
        sizes = {p: len(state.hidden[p]) for p in others}
        voids = {p: state.voids[p] for p in others if state.voids[p]}
        if voids:
            hands = _deal_with_voids(pool, sizes, voids, state.ranks, rng)
        else:
            rng.shuffle(pool)
            hands, start = {}, 0
            for p in others:
                hands[p] = pool[start:start + sizes[p]]
                start += sizes[p]
        for p in others:
            out.hidden[p] = tuple(sort_cards(hands[p]))
        out.seed = fresh_seed(rng)
        return out

    def cards(self, state: MuState) -> list[str]:
        out = list(state.removed)
        for seat in range(state.players):
            out += state.hidden[seat]
            out += state.shown[seat]
            out += state.won[seat]
        out += (c for _, c in state.trick)
        return out

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: MuState) -> bool:
        return state.phase == OVER

    def result(self, state: MuState) -> Result:
        winners = top_scorers(state.scores) if state.phase == OVER else frozenset()
        return Result(tuple(state.scores), winners, tuple(state.history))

    # -- plumbing ------------------------------------------------------------------------------
    def clone(self, state: MuState) -> MuState:
        return clone(state)


def _deal_with_voids(
    pool: list[str], sizes: dict[int, int], voids: dict[int, frozenset[str]],
    ranks: dict[str, tuple[str, int]], rng: random.Random,
) -> dict[int, list[str]]:
    """Deal ``pool`` into hands of ``sizes`` so that no seat gets a suit it is void in.

    Cards of suits someone is void in go out first, in random order, each to a seat drawn by free
    space among the seats that may hold it and leave the rest dealable (Hall's condition; a group
    with a suit nobody is void in always fits, so only the restricted suits are checked). The
    other cards then fill the remaining room at random.
    """
    suit_of = {c: ranks[c][0] for c in pool}
    everyone = list(sizes)
    takers = {suit: [p for p in everyone if suit not in voids.get(p, ())] for suit in set(suit_of.values())}
    restricted = [c for c in pool if len(takers[suit_of[c]]) < len(everyone)]
    free = [c for c in pool if len(takers[suit_of[c]]) == len(everyone)]
    left: dict[str, int] = {}
    for c in restricted:
        left[suit_of[c]] = left.get(suit_of[c], 0) + 1
    room = dict(sizes)
    hands: dict[int, list[str]] = {p: [] for p in everyone}
    rng.shuffle(restricted)
    for c in restricted:
        suit = suit_of[c]
        left[suit] -= 1
        seats, weights = [], []
        for p in takers[suit]:
            if room[p]:
                room[p] -= 1
                if _dealable(left, room, takers):
                    seats.append(p)
                    weights.append(room[p] + 1)
                room[p] += 1
        p = rng.choices(seats, weights)[0]
        room[p] -= 1
        hands[p].append(c)
    rng.shuffle(free)
    start = 0
    for p in everyone:
        hands[p] += free[start:start + room[p]]
        start += room[p]
    return hands


def _dealable(left: dict[str, int], room: dict[int, int], takers: dict[str, list[int]]) -> bool:
    """Hall's condition: every group of restricted suits fits into the room of the seats that may
    take them."""
    suits = [s for s, n in left.items() if n]
    for size in range(1, len(suits) + 1):
        for group in combinations(suits, size):
            seats = {p for s in group for p in takers[s]}
            if sum(left[s] for s in group) > sum(room[p] for p in seats):
                return False
    return True
