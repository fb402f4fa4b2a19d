"""Mü: bid as far as the hand's best trump carries, name that trump, then play tricks plainly.

``strengths`` rates every trump for a hand (how many of its cards it holds, and how high), ``target``
turns that into the cards worth laying out. In tricks a seat wins as cheaply as it can, lets a
winning partner have points, and otherwise throws its least valuable card. The strong player
compares whole hands: several bid sizes at once (so it can jump ahead, but at most a card beyond
what its hand carries), every trump and partner, and every card in tricks. Its auction counts a
hand it would play as Chef above the playouts' easy card play (``CHEF_EDGE``), and bids one card
beyond its hand rather than pay a Patt as its Provokateur. Against a Chef it trusts the deals in
which the others' bids fit their hands most and plays its cards on more playouts, and as the
Chef's partner it counts its points against the Chef's (the same bonus).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.base import Action
from games.computer.brain import Brain, margin
from games.deck import COLOURS, colour, digit, triangles
from games.mu.auction import bid_limit
from games.mu.cards import DIGITS, NO_TRUMP, TRUMP, matches, ranking, trick_winner
from games.mu.rules import Mu, bid_action
from games.mu.scoring import provokateur
from games.mu.state import AUCTION, CHEF_TRUMP, PARTNER, TRICKS, VIZE_TRUMP, MuState
from games.mu.tricks import playable

Ranks = dict[str, tuple[str, int]]
#: What a search's playouts are judged against: the hand's number, the scores and the Chef's
#: partner when it started, and whether it started in the auction.
Mark = tuple[int, tuple[int, ...], int, bool]


# -- the auction and the trumps ---------------------------------------------------------------------
#: A hand's worth for a trump in twentieths, so sums are exact and equal hands tie: a trump card
#: 20, a high one (7 to 9) 30; a plain 9 12 and a plain 8 5 (they win tricks of their colour).
_TRUMP_CARD, _HIGH_TRUMP, _PLAIN = 20, 30, {9: 12, 8: 5}
TRUMP_NAMES: tuple[str, ...] = (*COLOURS, *DIGITS)
#: Cards the strong player may bid beyond the hand's ``target``: its search plays the tricks better.
BID_SLACK = 1
#: How much likelier a deal is per card one seat's bid strays from its hand's ``target``.
BID_TRUST = 0.5
#: How many times its playouts a seat against the Chef spends on a card (``MuBrain.budget``).
DEFENCE = 2
#: Points the auction's playouts add to a hand the judged seat plays as Chef (``MuBrain.value``).
CHEF_EDGE = 40


def strengths(hand: Sequence[str]) -> dict[str, float]:
    """How well ``hand`` plays with each trump it holds a card of named (colours, then digits):
    its trumps (the high ones more) and its plain nines and eights. One pass over the hand for
    every trump at once: the strong player's playouts ask at every bid."""
    plain = 0
    gain: dict[str, int] = {}  # what naming the trump adds to its cards' plain worth
    for c in hand:
        d = digit(c)
        p = _PLAIN.get(d, 0)
        plain += p
        extra = (_HIGH_TRUMP if d >= 7 else _TRUMP_CARD) - p
        for name in (colour(c), DIGITS[d]):
            gain[name] = gain.get(name, 0) + extra
    return {name: (plain + gain.get(name, 0)) / 20 for name in TRUMP_NAMES}


def best_trump(hand: Sequence[str], options: Sequence[str]) -> tuple[str, float]:
    scores = strengths(hand)
    scored = [(scores[t], -i, t) for i, t in enumerate(options) if t != NO_TRUMP]
    if not scored:
        return NO_TRUMP, 0.0
    score, _, trump = max(scored)
    return trump, score


def target(players: int, score: float) -> int:
    """The most cards worth bidding with a hand of this ``strength`` (0: pass)."""
    par = {3: 4.5, 4: 4.0, 5: 3.5, 6: 3.0}[players]
    return max(0, int((score - par) * 1.3))


def show_order(hidden: Sequence[str], trump: str) -> list[str]:
    """The cards to lay out first: the trump's lowest cards (they name it and give away least)."""
    trumps = sorted((c for c in hidden if matches(trump, c)), key=lambda c: (digit(c), c))
    rest = sorted((c for c in hidden if not matches(trump, c)), key=lambda c: (triangles(c), digit(c), c))
    return trumps + rest


def candidate_trumps(hand: Sequence[str]) -> list[tuple[str, float]]:
    """Trumps the seat may hope to name, with their ``strengths``: its colours and digits, best
    first (colours before digits, then in order, on ties)."""
    held = {colour(c) for c in hand} | {DIGITS[digit(c)] for c in hand}
    scores = strengths(hand)
    return sorted(((t, scores[t]) for t in TRUMP_NAMES if t in held), key=lambda ts: -ts[1])


def bid_move(players: int, hand: Sequence[str], hidden: Sequence[str], shown: Sequence[str],
             bids: Sequence[int], seat: int, limit: int) -> Action:
    """Pass, or lay out cards towards the hand's target, one more than the leader when behind."""
    trump, score = candidate_trumps(hand)[0]
    want = target(players, score)
    mine, top = bids[seat], max(bids)
    if mine >= want or limit <= 0 or (mine >= top and mine > 0 and bids.count(top) == 1):
        return Action("pass")
    k = min(limit, want - mine, max(1, top + 1 - mine))
    return bid_action(show_order(hidden, trump)[:k])


def bid_reach(state: MuState) -> dict[int, tuple[int, int | None]]:
    """What the auction so far shows of where each seat stops, as ``bid_move`` bids: the least and
    the most cards of its hand's ``target`` (None: no bound yet). A seat never bids beyond its
    target, so it holds at least its bid; after a bid or a pass that left it not leading alone it
    stopped (a seat behind bids one beyond the top or up to its target, and passes only there).

    Every seat acts in turn, so the round before the seat to act holds each other seat's latest
    action, and the bid numbers (``bid_times``) tell its bids from its passes: going back, a seat
    bid if its latest bid is the next one back. It did not lead alone if a seat that has not bid
    since holds as many cards. Seats the first round has not reached yet show nothing."""
    n, bids, turn = state.players, state.bids, state.turn
    reach: dict[int, tuple[int, int | None]] = {s: (bids[s], None) for s in range(n)}
    acted = (turn - state.dealer) % n
    if any(state.bid_times[(turn - back) % n] >= 0 for back in range(acted + 1, n)):
        acted = n - 1  # past the first round
    since: set[int] = set()  # seats that bid after the latest action of the seat at hand
    number = state.clock - 1
    for back in range(1, acted + 1):
        s = (turn - back) % n
        if bids[s] == 0 or any(bids[x] >= bids[s] for x in range(n) if x != s and x not in since):
            reach[s] = (bids[s], bids[s])
        if state.bid_times[s] == number >= 0:
            since.add(s)
            number -= 1
    return reach


def provokes(state: MuState, seat: int, action: Action) -> bool:
    """Whether ``action`` ties the top bid where every other seat has stopped (``bid_reach``):
    nobody goes beyond it, so the Patt makes ``seat`` its Provokateur, paying twice what the tied
    seats win, where a pass leaves that to another seat. The search, dealing the others any hand,
    saw them raise again and tied."""
    if action.kind != "bid" or state.bids[seat] + len(action.arg.split(".")) != max(state.bids):
        return False
    reach = bid_reach(state)
    return all(reach[s][1] is not None for s in range(state.players) if s != seat)


def pays_the_patt(state: MuState, seat: int) -> bool:
    """Whether a pass by ``seat`` ends the auction in a Patt it pays as Provokateur: every other
    seat passed since its latest bid, which tied the top."""
    bids = state.bids
    return (state.passes == state.players - 1 and bids.count(max(bids)) > 1
            and provokateur(bids, state.bid_times) == seat)


def name_trump(hand: Sequence[str], options: Sequence[str], chef: bool) -> Action:
    trump, score = best_trump(hand, options)
    if chef and (trump == NO_TRUMP or score < 2.0) and NO_TRUMP in options:
        return Action("trump", NO_TRUMP)
    return Action("trump", trump)


def pick_partner(options: Sequence[int], shown: Sequence[Sequence[str]], bids: Sequence[int], trump: str) -> Action:
    """The seat whose laid-out cards hold most of the Chef's trump, then the biggest bidder."""
    best = max(options, key=lambda s: (sum(matches(trump, c) for c in shown[s]), bids[s], -s))
    return Action("partner", str(best))


# -- tricks ---------------------------------------------------------------------------------------
def power(card: str, led: str, ranks: Ranks) -> tuple[int, int, int]:
    """The trick-winner key of ``card`` when ``led`` was led (-1: it cannot win)."""
    suit, tier = ranks[card]
    if suit == TRUMP:
        return (2, tier, digit(card))
    if suit == led or not led:
        return (1, 0, digit(card))
    return (-1, 0, 0)


def cheapness(card: str, ranks: Ranks) -> tuple[int, int, int]:
    """What a card costs to throw away: points, then trump-ness, then height."""
    return (triangles(card), ranks[card][1], digit(card))


def play_card(playable: Sequence[str], trick: Sequence[tuple[int, str]], ranks: Ranks, seat: int,
              friends: frozenset[int], players: int) -> str:
    if not trick:
        return max(playable, key=lambda c: (power(c, "", ranks), -triangles(c), c))
    led = ranks[trick[0][1]][0]
    best_seat, best_key = -1, (-1, 0, 0)
    for s, c in trick:
        key = power(c, led, ranks)
        if key > best_key:
            best_seat, best_key = s, key
    last = len(trick) == players - 1
    if best_seat in friends and (last or best_key[0] == 2):
        return max(playable, key=lambda c: (triangles(c) if power(c, led, ranks) <= best_key else -9, -digit(c), c))
    winners = [c for c in playable if power(c, led, ranks) > best_key]
    if winners:
        points = sum(triangles(c) for _, c in trick)
        if last or points >= 2 or best_key[0] == 2:
            return min(winners, key=lambda c: (power(c, led, ranks), triangles(c), c))
    return min(playable, key=lambda c: (cheapness(c, ranks), c))


def played_cards(state: MuState) -> list[list[str]]:
    """The cards each seat played this hand, read from the tricks everyone saw: a won trick lies in
    its winner's pile in play order, and its winning card's place tells who led it."""
    n = state.players
    out: list[list[str]] = [[] for _ in range(n)]
    for winner, pile in enumerate(state.won):
        for start in range(0, len(pile), n):
            trick = pile[start:start + n]
            leader = winner - trick_winner(enumerate(trick), state.ranks)
            for i, card in enumerate(trick):
                out[(leader + i) % n].append(card)
    for s, card in state.trick:
        out[s].append(card)
    return out


class MuBrain(Brain[Mu, MuState]):
    least, per_arm, most = 80, 24, 300
    cap = 1000

    def easy(self, game: Mu, state: MuState, seat: int, legal: list[Action], rng: random.Random) -> Action:
        view = game.view(state, seat)
        hand = view.hand
        if view.phase == AUCTION:
            shown = view.shown[seat]
            hidden = [c for c in hand if c not in shown]
            return bid_move(view.players, hand, hidden, shown, view.bids, seat, view.bid_limit)
        if view.phase in (VIZE_TRUMP, CHEF_TRUMP):
            return name_trump(hand, [a.arg for a in legal], view.phase == CHEF_TRUMP)
        if view.phase == PARTNER:
            return pick_partner([int(a.arg) for a in legal], view.shown, view.bids, view.chef_trump or "")
        ranks = ranking(view.vize_trump or "", view.chef_trump or "")
        others = frozenset(s for s in range(view.players) if s != seat)
        chefs = frozenset(s for s in (view.chef, view.partner) if s is not None)
        friends = chefs if seat in chefs else others - chefs
        card = play_card([a.arg for a in legal], view.trick, ranks, seat, friends - {seat}, view.players)
        return Action("play", card)

    def policy(self, game: Mu, state: MuState, seat: int, rng: random.Random) -> Action:
        phase = state.phase
        hand = state.hidden[seat] + state.shown[seat]
        if phase == TRICKS:
            chefs = frozenset(s for s in (state.chef, state.partner) if s >= 0)
            friends = chefs if seat in chefs else frozenset(range(state.players)) - chefs
            card = play_card(playable(state, seat), state.trick, state.ranks, seat, friends - {seat}, state.players)
            return Action("play", card)
        if phase == AUCTION:
            return bid_move(state.players, hand, state.hidden[seat], state.shown[seat], state.bids, seat,
                            bid_limit(state, seat))
        legal = game.legal_actions(state, seat)
        if phase == PARTNER:
            return pick_partner([int(a.arg) for a in legal], state.shown, state.bids, state.chef_trump)
        return name_trump(hand, [a.arg for a in legal], phase == CHEF_TRUMP)

    def candidates(self, game: Mu, state: MuState, seat: int, legal: list[Action]) -> list[Action]:
        """In the auction: pass, or bids of up to four cards at once for the hand's two best trumps,
        never far beyond the cards its strength carries (``target``). The playouts judge a bid with
        the plain policy's tricks, and the best of a dozen noisy arms looks better than it is: left
        to them the strong player raised itself to eight or more cards as the only bidder and went
        down as Chef in most such hands. A bid that ``provokes`` a Patt is left out. Where a pass
        would make the seat the Patt's Provokateur (``pays_the_patt``), a bid of one card more
        (Chef alone) stays a candidate beyond the hand's target: the Provokateur pays ten points a
        card for sure, a Chef who misses by a card or two about as much."""
        if state.phase != AUCTION:
            return super().candidates(game, state, seat, legal)
        hand = state.hidden[seat] + state.shown[seat]
        trumps = candidate_trumps(hand)
        room = min(bid_limit(state, seat), 4, target(state.players, trumps[0][1]) + BID_SLACK - state.bids[seat])
        if pays_the_patt(state, seat):
            room = max(room, 1)
        out = [Action("pass")]
        for trump, _ in trumps[:2]:
            order = show_order(state.hidden[seat], trump)
            for k in range(1, room + 1):
                action = bid_action(order[:k])
                if provokes(state, seat, action):
                    continue
                if action not in out:
                    out.append(action)
        return out

    def default(self, game: Mu, state: MuState, seat: int, legal: list[Action], rng: random.Random) -> Action:
        """The easy move, but a pass for a bid that ``provokes`` a Patt (it bids up to its target)."""
        action = self.easy(game, state, seat, legal, rng)
        return Action("pass") if state.phase == AUCTION and provokes(state, seat, action) else action

    def budget(self, game: Mu, state: MuState, arms: int) -> int:
        """A seat against the Chef plays its cards on ``DEFENCE`` times the playouts: most Chef
        contracts it let through were made by a trick's points or less, and its deals are weighed
        by the bids, so fewer of them count."""
        playouts = super().budget(game, state, arms)
        if state.phase == TRICKS and state.turn not in (state.chef, state.partner):
            return DEFENCE * playouts
        return playouts

    def likelihood(self, game: Mu, state: MuState, seat: int) -> float:
        """For a seat against the Chef, deals where the others' bids fit their hands weigh more: a
        seat bids up to its hand's ``target`` (as ``bid_move`` does), so once the auction is over
        every seat but the Chef stopped right there (below the top or tied, it would have gone on)
        and the Chef at most there. Each seat is judged on the hand it was dealt: what it holds and
        what it played. The Chef and its partner search without this: weighed so, the Chef's hands
        went worse (its trump and partner choices), the defenders' better (they let fewer bids
        through)."""
        if state.phase == AUCTION or seat in (state.chef, state.partner):
            return 1.0
        played = played_cards(state)
        stray = 0
        for s in range(state.players):
            if s == seat:
                continue
            hand = state.hidden[s] + state.shown[s] + tuple(played[s])
            bid, want = state.bids[s], target(state.players, candidate_trumps(hand)[0][1])
            stray += max(0, bid - want) if s == state.chef else abs(want - bid)
        return BID_TRUST ** stray

    def same(self, game: Mu, state: MuState, seat: int, action: Action) -> object:
        if action.kind == "play":
            return action.kind, action.arg[:2]  # the two copies of a 1 or a 7 play alike
        return action

    def mark(self, game: Mu, state: MuState) -> Mark:
        return state.hand_no, tuple(state.scores), state.partner, state.phase == AUCTION

    def done(self, game: Mu, mark: Mark, state: MuState) -> bool:
        return state.hand_no != mark[0]

    def value(self, game: Mu, mark: Mark, state: MuState, seat: int) -> float:
        """Points won this hand against the average of the others (a partner's bonus is no loss).
        The Chef's partner counts against the best of them: the Chef gets the same bonus, so the
        partner only leads the table by its own tricks, and points it gives the Chef beyond the
        goal are its loss. Judged from the auction, a hand the seat plays as Chef is worth
        ``CHEF_EDGE`` more: the playouts play its cards as the easy player does, the strong player
        itself plays them better. The playout ends with the hand, so the state's ``last_chef`` (the
        view shows it) is that hand's Chef."""
        gained = tuple(s - m for s, m in zip(state.scores, mark[1], strict=True))
        if seat == mark[2]:
            return margin(gained, seat)
        others = [g for s, g in enumerate(gained) if s != seat]
        edge = CHEF_EDGE if mark[3] and state.last_chef == seat else 0
        return gained[seat] - sum(others) / len(others) + edge


BRAIN = MuBrain()
