"""The table and hand pictures: what they show, their limits, and that they are pure functions of views."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

import games
from bot.pictures import faces, layouts, sprites
from bot.pictures.palette import PAPER
from bot.pictures.sheet import LIFT, WIDTH, Plan, Sheet
from bot.preview import playable, positions
from bot.registry import pictures, with_pictures
from bot.tables.dacapo import picture as dacapo_picture
from bot.tables.diabolo import picture as diabolo_picture
from bot.tables.kapado import picture as kapado_picture
from bot.tables.mu import picture as mu_picture
from bot.tables.skippo import picture as skippo_picture
from games.kapado import cards as kapado_cards

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
    for key in sorted(with_pictures()):
        game = games.REGISTRY[key]
        for players in sorted({game.min_players, game.max_players}):
            yield pytest.param(key, players, id=f"{key}-{players}")


@pytest.mark.parametrize(("key", "players"), list(_cases()))
def test_every_picture_is_a_small_png_no_wider_than_a_phone_can_read(key: str, players: int) -> None:
    game = games.REGISTRY[key]
    for pos in positions(key, players, count=5):
        drawn = [pictures(key).table_png(game.view(pos.state, None))]
        for seat in game.to_act(pos.state) if not game.is_over(pos.state) else ():
            drawn.append(pictures(key).hand_png(game.view(pos.state, seat), playable(pos, seat)))
        assert drawn[0] is not None
        for data in filter(None, drawn):
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
    first = pictures("mu").table_png(game.view(state, None))
    sprites._card.cache_clear()
    sprites.text.cache_clear()
    sprites.badge.cache_clear()
    assert pictures("mu").table_png(game.view(state, None)) == first


def test_sprites_are_drawn_once() -> None:
    assert sprites.card(faces.mu("r7a")) is sprites.card(faces.mu("r7b"))  # the two copies look alike
    assert sprites.card(faces.mu("r7a")) is not sprites.card(faces.mu("r7a"), sprites.CARD, "dim")


def test_count_sprites_stay_few_however_many_counts_the_tables_show() -> None:
    """Rummü's discard pile pairs every top card with every count: an unbounded cache of count
    sprites grew by thousands at a thousand tables. The newest are kept, and one made again looks
    the same."""
    sprites.forget()
    first = sprites.counted(faces.mu("r7a"), sprites.CARD, 1)
    for cid in ("r1a", "r2", "r3", "r4", "r5", "r6"):
        for n in range(1, 120):
            sprites.counted(faces.mu(cid), sprites.CARD, n)
    assert sprites._counted.cache_info().currsize <= sprites.COUNTED_KEPT < 6 * 119
    again = sprites.counted(faces.mu("r7a"), sprites.CARD, 1)
    assert again is not first and again.tobytes() == first.tobytes()


def test_calcory_has_no_pictures_its_grid_is_its_buttons() -> None:
    assert pictures("calcory") is None and "calcory" not in with_pictures()
    assert set(with_pictures()) == set(games.REGISTRY) - {"calcory"}


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
    shown = _sprites(pictures("mu").table(view))

    def drawn(cid: str, plain: str = "plain"):
        return sprites.card(mu_picture._face(view, cid), sprites.CARD, "last" if cid in view.last else plain)

    for _, cid in view.trick:
        assert drawn(cid) in shown
    for seat, cid in view.last_trick:
        assert drawn(cid, "plain" if seat == view.last_winner else "dim") in shown
    trick_row = next(pieces for pieces, _, _ in pictures("mu").table(view).rows
                     if drawn(view.trick[0][1]) in pieces[0].images)
    played = [p.images[0] for p in trick_row if len(p.images) == 2]
    assert played == [*(drawn(cid) for _, cid in view.trick), sprites.slot()], "cards in play order"
    assert trick_row[-1].images[1] is sprites.badge(view.to_act, True), "the seat to play next"


def test_a_played_card_changes_the_table_picture() -> None:
    game, state = _mu_in_tricks()
    before = pictures("mu").table_png(game.view(state, None))
    seat = next(iter(game.to_act(state)))
    game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert pictures("mu").table_png(game.view(state, None)) != before


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
        assert pictures("mu").hand_png(view, playable) != pictures("mu").hand_png(view, frozenset())


def test_safaru_shows_every_free_card() -> None:
    game = games.REGISTRY["safaru"]
    state = game.setup(2, game.default_options(), "s")
    view = game.view(state, None)
    sheet = pictures("safaru").table(view)
    shown = [image for p in sheet.rows[0][0] for image in p.images]
    assert shown == [sprites.card(faces.back(view.deck_size)), *(sprites.card(faces.mu(c)) for c in view.table)]


def test_kapado_shows_each_stack_top_count_and_lock() -> None:
    game = games.REGISTRY["kapado"]
    for pos in positions("kapado", 3, count=5):
        view = game.view(pos.state, None)
        shown = _sprites(pictures("kapado").table(view))
        for seat, stacks in enumerate(view.stacks):
            assert sprites.badge(seat, seat == view.current) in shown
            for stack in stacks:
                if not stack.cards:
                    continue
                top = pictures("kapado").face(stack.top) if stack.top is not None else faces.back()
                state = "last" if stack.id == view.last else "plain"
                assert sprites.counted(top, kapado_picture.STACK_CARD, stack.count, stack.lock, state) in shown


def test_rummus_discard_pile_shows_its_top_over_how_many_cards_lie_there() -> None:
    """Only the top discard is seen (docs/rules-decisions.md D26), so the count is what a player
    names when taking several, and what shows that "took 2 cards from the discard pile" happened."""
    game = games.REGISTRY["rummu"]
    views = [game.view(pos.state, None) for pos in positions("rummu", 3, count=8)]
    assert any(v.discard_size > 1 for v in views)
    for view in views:
        shown = pictures("rummu").table(view).rows[0][0][1].images
        if view.discard_top is None:
            assert shown == (sprites.slot(),)
            continue
        state = "last" if view.discard_top in view.last else "plain"
        assert shown == (sprites.counted(faces.mu(view.discard_top), sprites.CARD, view.discard_size, "open", state),)
    taker = next((pos.state, a) for pos in positions("rummu", 3, count=8)
                 for a in game.legal_actions(pos.state, pos.state.turn) if a.key == "takediscard:2")
    state, action = game.clone(taker[0]), taker[1]
    before = game.view(state, None).discard_size
    game.apply(state, state.turn, action)
    after = pictures("rummu").table(game.view(state, None)).rows[0][0][1].images[0]
    assert after is sprites.counted(faces.mu(state.discard[-1]), sprites.CARD, before - 2, "open", "plain") \
        if before > 2 else after is sprites.slot()


def test_kapado_hand_is_the_drawn_card_and_the_wishes_or_nothing() -> None:
    game = games.REGISTRY["kapado"]
    state = game.setup(2, game.default_options(), "s")
    seat = next(iter(game.to_act(state)))
    view = game.view(state, seat)
    assert view.drawn is not None
    assert pictures("kapado").hand_png(view, frozenset()) is not None
    other = game.view(state, 1 - seat)
    assert other.drawn is None and not other.wishes[1 - seat]
    assert pictures("kapado").hand_png(other, frozenset()) is None


def test_a_joker_on_a_build_pile_shows_the_number_it_stands_for() -> None:
    assert skippo_picture.build_top("Xa", 7).label == "7"
    assert dacapo_picture.build_top("Xc", 10).label == "10"
    assert skippo_picture.build_top("Qha", 12) == pictures("skippo").face("Qha")


def test_diabolo_rows_show_each_side_and_its_sum() -> None:
    game = games.REGISTRY["diabolo"]
    view = max((game.view(pos.state, None) for pos in positions("diabolo", 3, count=6)),
               key=lambda v: sum(len(r.devil) + len(r.angel) for r in v.rows))
    sheet = pictures("diabolo").table(view)
    assert len(sheet.rows) == 2 + len(view.rows), "the sides' header, one row per colour, the seats"
    for (pieces, _, _), row in zip(sheet.rows[1:-1], view.rows, strict=True):
        images = pieces[0].images
        assert diabolo_picture._sum(row.devil_sum, row.closed) in images
        assert diabolo_picture._sum(row.angel_sum, row.closed) in images
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


# -- issue 13 polish: numbers that fit, Diabolo's sides, Mü's colours out -----------------------------
def _label_box(face: faces.Face) -> tuple[int, int, int, int]:
    """Where a card's number lies, from pixels: the card with its number against the same card without."""
    plain = replace(face, mark=None, slash=False)
    with_label = sprites.card(plain).convert("RGB")
    without = sprites.card(replace(plain, label="")).convert("RGB")
    diff = Image.eval(ImageChops.difference(with_label, without).convert("L"), lambda v: 255 if v > 60 else 0)
    box = diff.getbbox()
    assert box is not None
    return box


def _two_digit_faces():
    kapado = {pictures("kapado").face(c) for c, value in kapado_cards.VALUE.items() if value >= 10}
    assert max(int(f.label) for f in kapado) >= 28
    yield from (pytest.param(f, id=f"kapado-{f.label}-{f.mark}") for f in sorted(kapado, key=repr))
    yield pytest.param(dacapo_picture.build_top("Xc", 10), id="dacapo-joker-10")
    yield pytest.param(faces.Face("10", PAPER, sprites.DARK), id="dacapo-10")
    yield pytest.param(pictures("skippo").face("10ha"), id="skippo-10")


@pytest.mark.parametrize("face", list(_two_digit_faces()))
def test_numbers_of_two_digits_keep_clear_of_the_card_edges_and_stay_phone_high(face: faces.Face) -> None:
    left, top, right, bottom = _label_box(face)
    width = sprites.CARD[0]
    assert left >= sprites.LABEL_INSET - 1 and right <= width - sprites.LABEL_INSET + 1, (left, right)
    assert (bottom - top) * PHONE / WIDTH >= MIN_DIGIT_PX


def test_a_single_digit_keeps_its_natural_width_and_sits_centred() -> None:
    left, _, right, _ = _label_box(faces.mu("r2"))
    assert abs((left + right) / 2 - sprites.CARD[0] / 2) <= 1
    narrow = _label_box(faces.Face("10", PAPER, sprites.DARK))
    assert right - left < narrow[2] - narrow[0], "only numbers too wide for the card are condensed"


def _diabolo_view():
    game = games.REGISTRY["diabolo"]
    return game.view(list(positions("diabolo", 3, count=3))[-1].state, None)


def test_diabolo_marks_the_devils_side_left_and_the_angels_side_right_once() -> None:
    view = _diabolo_view()
    sheet = pictures("diabolo").table(view)
    header = sheet.rows[0][0][0].images
    assert header == (sprites.side_mark("devil"), sprites.side_mark("angel"))
    assert all(sprites.side_mark(side) not in _sprites(sheet)[2:] for side in ("devil", "angel")), "once per picture"
    image = _image(pictures("diabolo").table_png(view)).convert("RGB")
    assert image.width <= 640
    band = image.crop((0, 0, image.width, sprites.side_mark("devil").height + 20))
    centre = image.width // 2

    def columns(rgb: tuple[int, int, int]) -> list[int]:
        return [x for x in range(band.width) for y in range(band.height) if band.getpixel((x, y)) == rgb]

    red, yellow = columns(sprites.INKS["red"].rgb), columns(sprites.INKS["yellow"].rgb)
    assert red and max(red) < centre, "the horned head left, over the devils' cards"
    assert yellow and min(yellow) > centre, "the halo right, over the angels' cards"


def test_mu_shows_the_colours_out_of_the_hand_only_with_three_players() -> None:
    game = games.REGISTRY["mu"]
    for players in (3, 4, 5):
        for pos in positions("mu", players, count=3):
            view = game.view(pos.state, None)
            sheet = pictures("mu").table(view)
            shown = _sprites(sheet)
            out = [sprites.crossed(faces.coloured("", c)) for c in ("red", "yellow", "green", "blue", "black")]
            if players == 3:
                assert len(view.removed_colours) == 2
                for colour in view.removed_colours:
                    assert sprites.crossed(faces.coloured("", colour)) in shown
                assert sum(image in out for image in shown) == 2
                assert any(image in out for p in sheet.rows[0][0] for image in p.images), "beside the trumps"
            else:
                assert not any(image in out for image in shown)


def test_a_colour_out_is_faint_and_struck_through() -> None:
    full = sprites.card(faces.coloured("", "blue"), sprites.OUT_CARD).convert("RGB")
    out = sprites.crossed(faces.coloured("", "blue")).convert("RGB")
    corner = (10, 14)  # away from the symbol and the stroke
    assert full.getpixel(corner) == sprites.INKS["blue"].rgb
    assert out.getpixel(corner) != sprites.INKS["blue"].rgb, "faded"
    diagonal = [out.getpixel((x, round(sprites.OUT_CARD[1] * (1 - x / sprites.OUT_CARD[0]))))
                for x in range(10, sprites.OUT_CARD[0] - 10)]
    assert all(sum(px) < 3 * 90 for px in diagonal), "a dark stroke corner to corner"


# -- the seat to act is always in the picture -----------------------------------------------------------
def _badges(sheet: Sheet) -> list[Image.Image]:
    badges = {id(sprites.badge(seat, current)) for seat in range(6) for current in (False, True)}
    return [image for image in _sprites(sheet) if id(image) in badges]


@pytest.mark.parametrize(("key", "players", "layout", "turn"), [
    ("mu", 3, pictures("mu").table, "to_act"), ("mu", 6, pictures("mu").table, "to_act"),
    ("rummu", 3, pictures("rummu").table, "turn"), ("rummu", 6, pictures("rummu").table, "turn"),
    ("safaru", 2, pictures("safaru").table, "turn"), ("safaru", 4, pictures("safaru").table, "turn"),
])
def test_the_seat_to_act_shows_its_filled_badge_even_before_it_has_cards_out(key, players, layout, turn) -> None:
    game = games.REGISTRY[key]
    checked = 0
    for pos in positions(key, players, count=6):
        view = game.view(pos.state, None)
        current = getattr(view, turn)
        if current is None:
            continue
        badges = _badges(layout(view))
        assert sprites.badge(current, True) in badges
        assert not any(sprites.badge(seat, True) in badges for seat in range(players) if seat != current)
        if key != "mu" or view.phase != "tricks":
            assert all(sprites.badge(seat, seat == current) in badges for seat in range(players)), "every seat"
        checked += 1
    assert checked


@pytest.mark.parametrize("key", sorted(with_pictures()))
def test_the_png_writer_keeps_every_pixel_and_the_palette(key: str) -> None:
    """The sheet writes the PNG itself, in bands (a table) or whole (a hand): decoded again, either is
    the very picture that was drawn."""
    game = games.REGISTRY[key]
    pos = next(iter(positions(key, game.max_players, count=1)))
    sheet = pictures(key).table(game.view(pos.state, None))
    drawn = sheet.render()
    for written in (Plan.of(sheet).png(), sheet.png()):
        back = _image(written)
        assert back.format == "PNG" and back.mode == "P" and back.size == drawn.size
        assert back.getpalette() == drawn.getpalette()
        assert back.tobytes() == drawn.tobytes()
