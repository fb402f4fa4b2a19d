"""The table and hand pictures: what they show, their limits, and that they are pure functions of views."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import games
from bot.pictures import GAMES_WITH_PICTURES, faces, hand_png, layouts, sprites, table_png
from bot.pictures.sheet import LIFT, WIDTH, Sheet
from bot.preview import playable, positions

MAX_BYTES = 200_000
PHONE = 360
MIN_DIGIT_PX = 24


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _sprites(sheet: Sheet) -> list[Image.Image]:
    return [image for pieces, _, _ in sheet.rows for p in pieces for image in p.images]


def _cases():
    for key in sorted(GAMES_WITH_PICTURES):
        game = games.REGISTRY[key]
        for players in sorted({game.min_players, game.max_players}):
            yield pytest.param(key, players, id=f"{key}-{players}")


@pytest.mark.parametrize(("key", "players"), list(_cases()))
def test_every_picture_is_a_small_png_no_wider_than_a_phone_can_read(key: str, players: int) -> None:
    game = games.REGISTRY[key]
    for pos in positions(key, players, count=5):
        pictures = [table_png(key, game.view(pos.state, None), "en")]
        for seat in game.to_act(pos.state) if not game.is_over(pos.state) else ():
            pictures.append(hand_png(key, game.view(pos.state, seat), "en", playable(pos, seat)))
        assert pictures[0] is not None
        for data in filter(None, pictures):
            assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) <= MAX_BYTES
            image = _image(data)
            assert image.format == "PNG" and image.mode == "P"
            assert 0 < image.width <= WIDTH and image.height <= 2000


def test_digits_stay_24_px_high_when_the_widest_picture_is_shown_360_px_wide() -> None:
    sprite = sprites.text("0123456789").convert("RGB")
    dark = Image.eval(sprite.convert("L"), lambda v: 255 if v < 128 else 0)
    top, bottom = dark.getbbox()[1], dark.getbbox()[3]
    assert (bottom - top) * PHONE / WIDTH >= MIN_DIGIT_PX
    number_area = sprites.card(faces.mu("k8")).convert("L").crop((8, 5, sprites.CARD[0] - 8, 54))  # not the symbol
    white = Image.eval(number_area, lambda v: 255 if v > 140 else 0)  # white 8 on the black card
    _, top, _, bottom = white.getbbox()
    assert (bottom - top) * PHONE / WIDTH >= MIN_DIGIT_PX, "the digit printed on a card"


def test_text_uses_pillows_bundled_scalable_font_not_a_system_font() -> None:
    font = sprites.font(sprites.TEXT_SIZE)
    assert isinstance(font.path, io.BytesIO), "loaded from Pillow's own bytes, not from a file on this machine"
    assert font.font.family == "Aileron"


def test_equal_views_give_equal_bytes_even_with_cold_caches() -> None:
    game = games.REGISTRY["mu"]
    state = list(positions("mu", 4, count=3))[-1].state
    first = table_png("mu", game.view(state, None), "en")
    sprites._card.cache_clear()
    sprites.text.cache_clear()
    sprites.badge.cache_clear()
    assert table_png("mu", game.view(state, None), "de") == first


def test_sprites_are_drawn_once() -> None:
    assert sprites.card(faces.mu("r7a")) is sprites.card(faces.mu("r7b"))  # the two copies look alike
    assert sprites.card(faces.mu("r7a")) is not sprites.card(faces.mu("r7a"), sprites.CARD, "dim")


def test_calcory_has_no_pictures_its_grid_is_its_buttons() -> None:
    game = games.REGISTRY["calcory"]
    state = game.setup(2, game.default_options(), "s")
    assert table_png("calcory", game.view(state, None), "en") is None
    assert hand_png("calcory", game.view(state, 0), "en", frozenset()) is None


# -- what the pictures show -----------------------------------------------------------------------------
def _mu_in_tricks():
    game = games.REGISTRY["mu"]
    for pos in positions("mu", 4, count=8):
        view = game.view(pos.state, None)
        if view.trick and view.last_trick:
            return game, pos.state
    raise AssertionError("no seeded Mü position with a trick and a last trick")


def test_mu_shows_the_trick_in_play_order_and_the_last_trick_faded_but_its_winner() -> None:
    game, state = _mu_in_tricks()
    view = game.view(state, None)
    shown = _sprites(layouts.mu_table(view))
    for _, cid in view.trick:
        assert sprites.card(faces.mu(cid)) in shown
    for seat, cid in view.last_trick:
        state_of = "plain" if seat == view.last_winner else "dim"
        assert sprites.card(faces.mu(cid), sprites.CARD, state_of) in shown
    trick_row = next(pieces for pieces, _, _ in layouts.mu_table(view).rows
                     if sprites.card(faces.mu(view.trick[0][1])) in pieces[0].images)
    played = [p.images[0] for p in trick_row if len(p.images) == 2]
    assert played == [*(sprites.card(faces.mu(cid)) for _, cid in view.trick), sprites.slot()], "cards in play order"
    assert trick_row[-1].images[1] is sprites.badge(view.to_act, True), "the seat to play next"


def test_a_played_card_changes_the_table_picture() -> None:
    game, state = _mu_in_tricks()
    before = table_png("mu", game.view(state, None), "en")
    seat = next(iter(game.to_act(state)))
    game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert table_png("mu", game.view(state, None), "en") != before


def test_the_hand_lifts_playable_cards_and_fades_the_rest() -> None:
    game, state = _mu_in_tricks()
    seat = next(iter(game.to_act(state)))
    view = game.view(state, seat)
    playable = frozenset(view.playable)
    sheet = layouts.hand(faces.mu, view.hand, playable)
    pieces = sheet.rows[0][0]
    for cid, p in zip(view.hand, pieces, strict=True):
        up = cid in playable
        assert p.images[0] is sprites.card(faces.mu(cid), sprites.CARD, "plain" if up else "dim")
        assert p.dy == ((0,) if up else (LIFT,))
    if len(playable) < len(view.hand):
        assert hand_png("mu", view, "en", playable) != hand_png("mu", view, "en", frozenset())


def test_safaru_shows_every_free_card() -> None:
    game = games.REGISTRY["safaru"]
    state = game.setup(2, game.default_options(), "s")
    view = game.view(state, None)
    shown = _sprites(layouts.safaru_table(view))
    assert shown == [sprites.card(faces.back(view.deck_size)), *(sprites.card(faces.mu(c)) for c in view.table)]


def test_kapado_shows_each_stack_top_count_and_lock() -> None:
    game = games.REGISTRY["kapado"]
    for pos in positions("kapado", 3, count=5):
        view = game.view(pos.state, None)
        sheet = layouts.kapado_table(view)
        for seat, stacks in enumerate(view.stacks):
            row = sheet.rows[seat + 1][0]
            assert row[0].images == (sprites.badge(seat, seat == view.current),)
            for stack, p in zip(stacks, row[1:], strict=True):
                if not stack.cards:
                    continue
                assert p.images[1] is sprites.text(str(stack.count))
                assert (sprites.lock_mark(stack.lock) in p.images) == (stack.lock != "open")
                if stack.top is not None and stack.lock == "open":
                    assert p.images[0] is sprites.card(faces.kapado(stack.top))


def test_kapado_hand_is_the_drawn_card_and_the_wishes_or_nothing() -> None:
    game = games.REGISTRY["kapado"]
    state = game.setup(2, game.default_options(), "s")
    seat = next(iter(game.to_act(state)))
    view = game.view(state, seat)
    assert view.drawn is not None
    assert hand_png("kapado", view, "en", frozenset()) is not None
    other = game.view(state, 1 - seat)
    assert other.drawn is None and not other.wishes[1 - seat]
    assert hand_png("kapado", other, "en", frozenset()) is None


def test_a_joker_on_a_build_pile_shows_the_number_it_stands_for() -> None:
    assert faces.build_top("skippo", "Xa", 7).label == "7"
    assert faces.build_top("dacapo", "Xc", 10).label == "10"
    assert faces.build_top("skippo", "Qha", 12) == faces.skippo("Qha")


def test_diabolo_rows_show_each_side_and_its_sum() -> None:
    game = games.REGISTRY["diabolo"]
    view = max((game.view(pos.state, None) for pos in positions("diabolo", 3, count=6)),
               key=lambda v: sum(len(r.devil) + len(r.angel) for r in v.rows))
    sheet = layouts.diabolo_table(view)
    assert len(sheet.rows) == len(view.rows)
    for (pieces, _, _), row in zip(sheet.rows, view.rows, strict=True):
        images = pieces[0].images
        assert sprites.pill(str(row.devil_sum)) in images and sprites.pill(str(row.angel_sum)) in images
        assert len(images) == 3 + len(row.devil) + len(row.angel)
    assert any(row.devil or row.angel for row in view.rows)


def test_the_preview_marks_the_cards_the_hand_lets_the_seat_play() -> None:
    """The preview asks the presenter (what the hand's buttons enable), so it shows what Discord shows:
    Mü's bidder may lay out any face-down card, and nobody else plays."""
    game = games.REGISTRY["mu"]
    pos = next(positions("mu", 3, count=1))
    seat = next(iter(game.to_act(pos.state)))
    bids = {a.arg for a in game.legal_actions(pos.state, seat) if a.kind == "bid"}
    assert bids and playable(pos, seat) == frozenset(bids)
    assert playable(pos, (seat + 1) % 3) == frozenset()
