"""The closing message of a match, rendered without Discord: at most 15 lines with identical score
lines merged, teams named as teams, each player's rating change, the result picture (measured on the
PNG) and the Rematch button."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

import games
from bot.pictures.result import NUMBER_INK, STRIPE
from bot.play.sessions import Status
from bot.registry import find_presenter
from bot.transport import ids
from bot.ui.labels import seat_badge
from bot.ui.summary import MAX_LINES, closing, merged_lines, render_summary
from games import BRAINS
from games.base import HandScore, ScoreLine
from tests.ui import kit

#: House rules that end a match the easy computer plays sooner (six seats of it rarely score in Rummü).
SHORTER = {("rummu", 6): {"team_target": 60}}
PHONE, WIDTH = 360, 640


@cache
def finished(key: str, players: int, seed: str, options: tuple = ()) -> kit.Session:
    """A match played to its end by easy computer moves from a seeded deal."""
    opts = dict(options) or SHORTER.get((key, players))
    session = kit.make_session(key, players, seed=seed, options=opts)
    rng, game, brain = random.Random(seed), session.game, BRAINS[key]
    for _ in range(100_000):
        if session.status is not Status.PLAYING:
            break
        seat = rng.choice(sorted(game.to_act(session.state)))
        kit.play(session, seat, brain.easy(game, session.state, seat, game.legal_actions(session.state, seat), rng).key)
    assert session.status is Status.FINISHED, f"{key} at {players} did not finish"
    return session


def _matches():
    for package in games.PACKAGES:
        game = package.GAME
        for players in sorted({max(2, game.min_players), game.max_players}):
            for seed in ("a", "b"):
                yield pytest.param(game.key, players, seed, id=f"{game.key}-{players}-{seed}")


def _lines(session, lang: str = "en") -> list[str]:
    return render_summary(session, lang, find_presenter(session.game.key)).splitlines()


# -- the text -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("key", "players", "seed"), list(_matches()))
def test_a_closing_summary_has_at_most_15_lines_and_none_twice(key, players, seed):
    session = finished(key, players, seed)
    for lang in ("en", "de"):
        lines = _lines(session, lang)
        assert len(lines) <= MAX_LINES, "\n".join(lines)
        assert len(set(lines)) == len(lines), "\n".join(lines)
        # every seat stands in it by its badge and name, the winners in the first line
        standing = "\n".join(lines[1:])
        assert all(seat_badge(s) in standing and seat.name in standing for s, seat in enumerate(session.seats))
        assert all(seat_badge(s) in lines[0] for s in session.result().winners)


def test_a_stuck_game_scores_every_seat_in_one_line():
    """Da Capo! and Skippo used to print the same "got stuck" line once per seat."""
    session = next(s for seed in "abcdefgh" if not (s := finished("skippo", 4, seed, (("games", 1),))).result().winners)
    lines = _lines(session)
    stuck = [line for line in lines if "got stuck" in line]
    assert stuck == ["• ① P0, ② P1, ③ P2, ④ P3: the game got stuck and ended without a winner (+0)"]


def test_partners_are_named_as_their_team():
    session = finished("safaru", 4, "a")
    result = session.result()
    assert result.sides == (0, 1, 0, 1)
    won = sorted(result.winners)
    team, other = ("①③ P0 & P2", "②④ P1 & P3") if won == [0, 2] else ("②④ P1 & P3", "①③ P0 & P2")
    lines = _lines(session)
    assert lines[0] == f"🏁 **Safarü** is over. Winning team: **{team}**"
    assert lines[1].startswith(f"1. {team}: ") and lines[2].startswith(f"2. {other}: ")
    assert not any(line.startswith(("3.", "4.")) for line in lines)
    assert _lines(session, "de")[0] == f"🏁 **Safarü** ist vorbei. Sieg für das Team **{team}**"


def test_each_players_rating_and_its_change_stand_beside_the_score():
    session = finished("kapado", 3, "a")
    ratings = {0: (1.0, 4.2), 1: (3.0, 1.45), 2: (0.0, 0.0)}
    text = closing(session, "en", find_presenter("kapado"), ratings).content
    assert "① P0: **" in text and "** · rating 4.2 (+3.2)" in text
    assert " · rating 1.4 (−1.6)" in text or " · rating 1.5 (−1.6)" in text
    assert " · rating 0.0 (+0.0)" in text
    german = closing(session, "de", find_presenter("kapado"), ratings).content
    assert " · Wertung 4,2 (+3,2)" in german


def test_a_teams_ratings_name_each_partner():
    session = finished("safaru", 4, "a")
    text = render_summary(session, "en", find_presenter("safaru"), {0: (0.0, 2.0), 2: (0.0, 1.0), 1: (0.0, -1.0)})
    first = text.splitlines()[1] if 0 in session.result().winners else text.splitlines()[2]
    assert first.endswith(" · rating ① 2.0 (+2.0), ③ 1.0 (+1.0)")


def test_a_hand_with_more_steps_than_room_puts_each_seats_steps_on_one_line_then_counts_the_rest():
    lines = tuple(ScoreLine(seat, "kapado.line_stacks", 10 * seat + step) for seat in range(4) for step in range(3))
    hand = HandScore(1, lines, (0, 0, 0, 0))
    names = ["① a", "② b", "③ c", "④ d"]
    assert len(merged_lines(hand, names, "en", 12)) == 12
    joined = merged_lines(hand, names, "en", 11)
    assert joined[0] == "• ① a: cards on their stacks (+0) · cards on their stacks (+1) · cards on their stacks (+2)"
    assert len(joined) == 4
    assert merged_lines(hand, names, "en", 3) == [*joined[:2], "• … and 2 more lines."]
    same = tuple(ScoreLine(seat, "kapado.line_wishes", 1) for seat in (0, 1, 0, 2))
    assert merged_lines(HandScore(1, same, (2, 1, 1)), names, "de", 5) == [
        "• ① a ×2, ② b, ③ c: behaltene Wunschkarten (+1)"]


# -- the message -------------------------------------------------------------------------------------
def test_a_finished_match_closes_with_its_picture_and_the_rematch_and_replay_buttons_a_stopped_one_without():
    session = finished("diabolo", 3, "a")
    message = closing(session, "en", find_presenter("diabolo"))
    kit.check_limits(message)
    assert [c["custom_id"] for c in kit.components(message) if c["type"] == 2] == [
        ids.rematch(session.id), ids.replay_button(session.id), ids.coach(session.id)]
    assert len(message.pictures) == 1 and message.pictures[0].name.startswith("result-")
    assert message.content == render_summary(session, "en", find_presenter("diabolo"))
    plain = closing(replace(session, pictures=False), "de", find_presenter("diabolo"))   # set so, or no Attach Files
    assert plain.pictures == () and [c["label"] for c in kit.components(plain)[1:]] == [
        "Revanche", "Wiederholung", "Wie habe ich gespielt?"]
    stopped = kit.make_session("diabolo", 3)
    stopped.status, stopped.end_reason = Status.STOPPED, "restored"
    assert kit.components(closing(stopped, "en", find_presenter("diabolo"))) == []


def _picture(session) -> Image.Image:
    (picture,) = closing(session, "en", find_presenter(session.game.key)).pictures
    assert picture.png.startswith(kit.PNG) and len(picture.png) <= kit.MAX_PICTURE
    image = Image.open(io.BytesIO(picture.png))
    image.load()
    return image.convert("RGB")


def _final_digits(image: Image.Image) -> list[int]:
    """The height of the light digits in each dark box of the picture's last row (the final totals)."""
    pixels = image.load()

    def dark(x: int, y: int) -> bool:
        return max(pixels[x, y]) < 60

    def light(x: int, y: int) -> bool:
        return min(pixels[x, y]) > 235

    bottom = max(y for y in range(image.height) if any(dark(x, y) for x in range(image.width)))
    top = bottom
    while top > 0 and any(dark(x, top - 1) for x in range(image.width)):
        top -= 1
    heights = []
    x = 0
    while x < image.width:
        if not dark(x, (top + bottom) // 2):
            x += 1
            continue
        start = x
        while x < image.width and any(dark(x, y) for y in range(top, bottom + 1)):
            x += 1
        inked = [y for y in range(top, bottom + 1) if any(light(i, y) for i in range(start, x))]
        heights.append(max(inked) - min(inked) + 1)
    return heights


@pytest.mark.parametrize(("key", "players", "seed"), [p for p in _matches() if p.values[2] == "a"])
def test_the_result_picture_fits_a_phone(key, players, seed):
    """640 px wide, at most 900 tall and 200 KB; a column of totals per seat (per team) whose final
    row's digits stay at least 16 px high on a 360 px wide phone (their ink alone, its faint edge left
    out), on the kit's palette colours."""
    session = finished(key, players, seed)
    image = _picture(session)
    assert image.width == WIDTH and image.height <= 900
    digits = _final_digits(image)
    sides = len(set(session.result().sides)) or players
    assert len(digits) == sides
    assert min(digits) * PHONE / WIDTH >= 16
    colours = {rgb for _, rgb in image.getcolors(1 << 16)}
    assert NUMBER_INK in colours and (STRIPE in colours or len(session.result().breakdown) < 2)


def test_a_long_match_shows_eight_of_its_hands_ending_with_the_last():
    session = finished("mu", 6, "a")
    result = session.result()
    assert len(result.breakdown) > 8
    (picture,) = closing(session, "en", find_presenter("mu")).pictures
    rows = picture.alt.split("its number first: ")[1].rstrip(".").split("; ")
    assert len(rows) == 8 and rows[-1].startswith(f"#{result.breakdown[-1].number}: ")
    last = result.breakdown[-1].totals
    assert rows[-1] == f"#{result.breakdown[-1].number}: " + ", ".join(
        f"{seat_badge(s)} {total}" for s, total in enumerate(last))
    assert picture.alt.startswith("The result. Podium: place 1: ")
