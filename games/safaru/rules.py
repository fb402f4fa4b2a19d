"""Safarü: the turn structure, deals, match play and what each seat may see.

``legal_actions`` lists at most ``LISTED`` catches a card: the building blocks of the random and
computer players. Any other legal catch is a legal action too (the hand's picker makes them), and
``check`` refuses an illegal one with the rule it breaks.

Catch piles belong to sides: a seat, or at four players with teams a pair of opposite seats.
Everything caught was face up when it was taken, so ``resample`` keeps the piles and redeals only
the other hands and the deck.
"""

from __future__ import annotations

import random

from games.base import (
    Action,
    Event,
    Game,
    HandScore,
    IllegalAction,
    Result,
    ScoreLine,
    draw_rng,
    fresh_seed,
    shuffled,
    top_scorers,
)
from games.deck import DECK, sort_cards
from games.safaru.catches import Catch, parse_catch, plays, score_lines, tally, validate
from games.safaru.state import HAND_SIZE, TABLE_TOP_UP, Options, Play, SafaruState, SafaruView


class Safaru(Game[SafaruState, SafaruView, Options]):
    key = "safaru"
    name = "Safarü"
    min_players = 2
    max_players = 4
    rules_version = 1
    options_model = Options
    playout_cap = 3000  # a single game has at most 60 plays; a match to a target may run on

    # -- setup ---------------------------------------------------------------------------------
    def setup(self, players: int, options: Options, seed: str) -> SafaruState:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"Safarü needs 2 to 4 players, not {players}")
        sides = 2 if players == 4 and options.teams else players
        state = SafaruState(
            players=players, options=options, seed=seed, draws=1, sides=sides, game_no=0,
            first_dealer=draw_rng(seed, 0).randrange(players), dealer=0, deal_no=0, turn=0, deck=[],
            hands=[() for _ in range(players)], table=(), piles=[() for _ in range(sides)],
            totals=[0] * sides, history=[], over=False, played=[() for _ in range(players)],
        )
        self._new_game(state, state.first_dealer)
        return state

    def side(self, state: SafaruState, seat: int) -> int:
        return seat % state.sides

    def _new_game(self, state: SafaruState, dealer: int) -> list[Event]:
        state.game_no += 1
        state.first_dealer = dealer
        state.deal_no = 0
        state.deck = shuffled(state.seed, state.draws, DECK)
        state.draws += 1
        state.table = ()
        state.piles = [() for _ in range(state.sides)]
        state.last, state.last_side = (), None
        return self._deal(state, dealer)

    def _deal(self, state: SafaruState, dealer: int) -> list[Event]:
        """Four cards to every hand from the dealer's left, then up to four more free cards."""
        n = state.players
        hands = [list(h) for h in state.hands]
        for _ in range(HAND_SIZE):
            for k in range(1, n + 1):
                if state.deck:
                    hands[(dealer + k) % n].append(state.deck.pop())
        added = tuple(state.deck.pop() for _ in range(min(TABLE_TOP_UP, len(state.deck))))
        state.hands = [tuple(sort_cards(h)) for h in hands]
        state.played = [() for _ in range(n)]  # new hands: what the old ones told is spent
        state.table += added
        state.dealer = dealer
        state.deal_no += 1
        state.turn = (dealer + 1) % n
        events = [Event("deal", dealer, {"deal": state.deal_no, "table": added, "deck": len(state.deck)})]
        events += [Event("hand", s, {"cards": state.hands[s]}, to=frozenset({s})) for s in range(n)]
        return events

    # -- turn structure ------------------------------------------------------------------------
    def to_act(self, state: SafaruState) -> frozenset[int]:
        return frozenset() if state.over else frozenset({state.turn})

    def legal_actions(self, state: SafaruState, seat: int) -> list[Action]:
        """Each card's catches, at most ``LISTED`` a card (many free cards make far more), or its
        release when it cannot catch; ``check`` accepts every legal catch."""
        if state.over or seat != state.turn:
            return []
        return [Action("play", c.arg) for c in plays(state.hands[seat], state.table)]

    def _parse(self, state: SafaruState, seat: int, action: Action) -> Catch:
        if state.over:
            raise IllegalAction("core.game_over")
        if seat != state.turn:
            raise IllegalAction("core.not_your_turn")
        if action.kind != "play":
            raise IllegalAction("safaru.bad_action")
        try:
            catch = parse_catch(action.arg)
        except ValueError:
            raise IllegalAction("safaru.bad_action") from None
        validate(catch, state.hands[seat], state.table)
        return catch

    def check(self, state: SafaruState, seat: int, action: Action) -> None:
        self._parse(state, seat, action)

    def apply(self, state: SafaruState, seat: int, action: Action) -> list[Event]:
        catch = self._parse(state, seat, action)
        state.hands[seat] = tuple(c for c in state.hands[seat] if c != catch.card)
        taken = set(catch.taken)
        table = tuple(c for c in state.table if c not in taken)
        state.played[seat] += (Play(catch, state.table),)
        if catch.pair:
            caught = (*catch.taken, catch.card)
        else:
            caught = catch.taken
            table += (catch.card,)  # the played card goes free
        state.table = table
        state.last = (catch.card, *(c for c in caught if c != catch.card))
        state.last_side = self.side(state, seat) if caught else None
        if caught:
            side = self.side(state, seat)
            state.piles[side] += caught
        events = [Event("play", seat, {
            "card": catch.card, "add": catch.add, "sev": catch.sev, "pair": catch.pair,
            "caught": caught, "released": catch.released,
        })]
        state.turn = (seat + 1) % state.players
        if not any(state.hands):
            if state.deck:
                events += self._deal(state, state.turn)  # whoever would play next deals
            else:
                events += self._end_game(state)
        return events

    def _end_game(self, state: SafaruState) -> list[Event]:
        lines = score_lines([tally(p) for p in state.piles])
        out: list[ScoreLine] = []
        for side, side_lines in enumerate(lines):
            for label, points, params in side_lines:
                out.append(ScoreLine(side, label, points, params))
                state.totals[side] += points
        per_seat = tuple(state.totals[self.side(state, s)] for s in range(state.players))
        state.history.append(HandScore(state.game_no, tuple(out), per_seat))
        events = [Event("game_end", None, {"game": state.game_no, "totals": per_seat})]
        target = state.options.match_target
        if target <= 0 or max(state.totals) >= target:
            state.over = True
            return events
        return events + self._new_game(state, (state.first_dealer + 1) % state.players)

    # -- information ---------------------------------------------------------------------------
    def view(self, state: SafaruState, seat: int | None) -> SafaruView:
        def visible(side: int) -> tuple[str, ...] | None:
            if state.options.open_piles or (seat is not None and self.side(state, seat) == side):
                return state.piles[side]
            return None

        return SafaruView(
            seat=seat, players=state.players, sides=state.sides,
            hand=None if seat is None else state.hands[seat],
            hand_sizes=tuple(len(h) for h in state.hands), table=state.table, deck_size=len(state.deck),
            pile_sizes=tuple(len(p) for p in state.piles),
            piles=tuple(visible(side) for side in range(state.sides)),
            turn=None if state.over else state.turn, dealer=state.dealer, deal_no=state.deal_no,
            game_no=state.game_no, totals=tuple(state.totals), history=tuple(state.history), over=state.over,
            last=state.last, last_side=state.last_side,
        )

    def resample(self, state: SafaruState, seat: int, rng: random.Random) -> SafaruState:
        """Redeal the other hands and the deck; piles and the table were all seen face up. A play
        rules out only the played card's other catches (docs/rules-decisions.md D23): whether the
        player's other cards had better plays is its choice, not a rule, so every redeal stays
        possible and the strong player weighs them by that choice (``SafaruBrain.likelihood``)."""
        out = self.clone(state)
        others = [s for s in range(state.players) if s != seat]
        pool = sorted([c for s in others for c in state.hands[s]] + state.deck)  # canonical order first
        rng.shuffle(pool)
        for s in others:
            size = len(state.hands[s])
            out.hands[s] = tuple(sort_cards(pool[:size]))
            pool = pool[size:]
        out.deck = pool
        out.seed = fresh_seed(rng)
        return out

    def cards(self, state: SafaruState) -> list[str]:
        return [*state.deck, *(c for h in state.hands for c in h), *state.table,
                *(c for p in state.piles for c in p)]

    # -- end -----------------------------------------------------------------------------------
    def is_over(self, state: SafaruState) -> bool:
        return state.over

    def result(self, state: SafaruState) -> Result:
        scores = tuple(state.totals[self.side(state, s)] for s in range(state.players))
        sides = tuple(self.side(state, s) for s in range(state.players)) if state.sides < state.players else ()
        return Result(scores, top_scorers(scores), tuple(state.history), sides)

    def clone(self, state: SafaruState) -> SafaruState:
        return SafaruState(
            state.players, state.options, state.seed, state.draws, state.sides, state.game_no,
            state.first_dealer, state.dealer, state.deal_no, state.turn, list(state.deck), list(state.hands),
            state.table, list(state.piles), list(state.totals), list(state.history), state.over,
            list(state.played), state.last, state.last_side,
        )


GAME = Safaru()
