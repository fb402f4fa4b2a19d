"""Safarü's unicorn trace (bench/safaru_unicorns.py): rigged positions watched before and after a play."""

from __future__ import annotations

from bench.safaru_unicorns import Group, Story, render
from games.base import Action
from tests.games.test_safaru import GAME, rig


def watched_play(arg: str) -> Story:
    """Seat 0 holds k3 and y4 with r3 and g4 free: pairing the k3 catches the unicorn, pairing the y4 none."""
    state = rig(hands={0: ("k3", "y4"), 1: ("g8",)}, table=("r3", "g4"))
    story = Story(0)
    story(state)
    GAME.apply(state, 0, Action("play", arg))
    story(state)
    return story


def test_a_play_that_leaves_a_catchable_unicorn_free_is_counted_as_passed_up():
    assert watched_play("y4/pair=g4").passed == 1
    taken = watched_play("k3/pair=r3")
    assert (taken.passed, taken.counts) == (0, (1, 0))


def test_the_others_plays_pass_nothing_up_for_the_watched_seat():
    state = rig(hands={0: ("k3",), 1: ("y3", "g8")}, table=("r3", "g4"), turn=1)
    story = Story(0)
    story(state)
    GAME.apply(state, 1, Action("play", "y3/pair=r3"))
    story(state)
    assert (story.passed, story.counts, story.group) == (0, (0, 1), "lost")


def test_a_majority_is_out_of_reach_once_the_lead_beats_the_unicorns_uncaught():
    mine = ("r0", "r1a", "r1b", "r2", "r3", "r4", "r5")
    state = rig(hands={0: ("k3",), 1: ("g8",)}, table=("g4",), piles={0: mine, 1: ("r6",)})
    state.deal_no = 3
    story = Story(0)
    story(state)
    assert (story.decided, story.group) == (3, "won")  # seven against one, four left
    close = rig(hands={0: ("k3",), 1: ("g8",)}, table=("g4",), piles={0: mine[:4], 1: ("r6", "r7a")})
    story = Story(1)
    story(close)
    assert (story.decided, story.counts, story.group) == (None, (2, 4), "lost")


def test_the_table_gives_each_group_its_win_rate_lead_and_deal_of_decision():
    groups = {"won": Group(2, 2.0, 30.0, 1, [0, 0, 1, 1, 0, 0]), "lost": Group(1, 0.0, -9.0, 3, [1, 0, 0, 0, 0, 0])}
    table = render(groups).splitlines()
    assert table[1].split() == ["won", "2", "100.0%", "+15.0", "0", "1", "1", "0", "0", "0", "0.50"]
    assert table[2].split() == ["lost", "1", "0.0%", "-9.0", "0", "0", "0", "0", "0", "1", "3.00"]
    assert "over 3 matches" in table[3]
