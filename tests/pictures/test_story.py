"""Issue 25, the pictures: who is who, what just happened, counts and letters that never read as card
values, greyed cards that keep their digits, and tables a phone shows whole. Measured on the
rendered sprites and PNGs."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

import games
from bot.pictures import faces, layouts, sprites
from bot.pictures.layouts import COLUMN, WIDE_GAP
from bot.pictures.palette import INKS, JOKER, PAPER, SUITS, contrast, luminance
from bot.pictures.sheet import MARGIN, Sheet
from bot.preview import positions
from bot.registry import pictures
from bot.tables.buildpiles import picture as buildpiles_picture
from bot.tables.diabolo import picture as diabolo_picture
from bot.tables.kapado import picture as kapado_picture
from bot.tables.mu import picture as mu_picture
from bot.ui.labels import helper_label, pile_label

WIDTH, PHONE = 640, 360
TALLEST = 900
VALUE_PX = 45  # a card value's digits, 25 px at phone width


def _rgb(image: Image.Image) -> Image.Image:
    return image.convert("RGB")


def _light(px) -> bool:
    return luminance(px) > 0.9


def _dark(px) -> bool:
    return luminance(px) < 0.03


def _sprites(sheet: Sheet) -> list[Image.Image]:
    return [image for pieces, _, _ in sheet.rows for p in pieces for image in p.images]


def _ink_box(with_ink: Image.Image, without: Image.Image, threshold: int = 60) -> tuple[int, int, int, int]:
    diff = Image.eval(ImageChops.difference(_rgb(with_ink), _rgb(without)).convert("L"),
                      lambda v: 255 if v > threshold else 0)
    box = diff.getbbox()
    assert box is not None
    return box


# -- contrast --------------------------------------------------------------------------------------
def _every_face():
    for name in INKS:
        yield pytest.param(faces.coloured("8", name), id=name)
    yield pytest.param(faces.joker("8"), id="joker")
    yield pytest.param(sprites.Face("8", PAPER, sprites.DARK), id="paper")
    for suit, (pip, colour) in SUITS.items():
        yield pytest.param(sprites.Face("8", PAPER, INKS[colour].rgb, pip), id=f"rommé-{suit}")


@pytest.mark.parametrize("face", list(_every_face()))
def test_a_greyed_card_keeps_its_digit_at_3_to_1_on_its_own_face(face: sprites.Face) -> None:
    """Measured on the faded sprite: the face's colour beside the number, and the number's ink."""
    faded = _rgb(sprites.card(face, sprites.CARD, "dim"))
    fill = faded.getpixel((12, 60))  # left of the number and the symbol
    box = _ink_box(sprites.card(face), sprites.card(replace(face, label="")))
    inks = [faded.getpixel((x, y)) for x in range(box[0], box[2]) for y in range(box[1], box[3])]
    assert max(contrast(fill, ink) for ink in inks) >= 3.0
    assert fill != _rgb(sprites.card(face)).getpixel((12, 60)), "it does fade"


def test_a_greyed_black_card_stays_the_darkest_and_keeps_its_white_writing() -> None:
    """A faded black card must not read as a sixth, grey suit beside the faded others."""
    def faded(name: str) -> tuple[int, int, int]:
        return _rgb(sprites.card(faces.coloured("8", name), sprites.CARD, "dim")).getpixel((12, 60))

    black = faded("black")
    for name in ("red", "yellow", "green", "blue"):
        assert contrast(black, sprites.WHITE) > contrast(faded(name), sprites.WHITE), name
    assert sprites.dimmed(faces.coloured("8", "black")).ink[0] > 200, "white writing, as on a black card"


# -- the last move -----------------------------------------------------------------------------------
def test_a_card_the_last_move_put_down_wears_a_striped_frame_of_dark_and_white() -> None:
    for face in (faces.mu("k8"), faces.mu("y3"), sprites.Face("7", PAPER, sprites.DARK, pips=7)):
        plain, framed = _rgb(sprites.card(face)), _rgb(sprites.card(face, sprites.CARD, "last"))
        band = [framed.getpixel((x, y)) for x in range(10, 70) for y in (2, 3, 4)]
        assert sum(map(_light, band)) >= 15 and sum(map(_dark, band)) >= 15
        assert contrast(sprites.DARK, sprites.WHITE) > 15
        inner = (20, 40, 60, 80)
        assert framed.crop(inner).tobytes() == plain.crop(inner).tobytes(), "the card itself unchanged"


def _png(key: str, view) -> Image.Image:
    return _rgb(Image.open(io.BytesIO(pictures(key).table_png(view))))


@pytest.mark.parametrize("key", ["mu", "rummu", "safaru", "dacapo", "skippo", "kapado", "diabolo"])
def test_the_cards_of_the_last_move_are_framed_on_the_table(key: str) -> None:
    """After each of a game's seeded moves, the table drawn from its view against the same view
    without its last move: wherever they differ, the striped frame is there, dark and white."""
    game = games.REGISTRY[key]
    rng = random.Random(f"last-{key}")
    state = game.setup(game.min_players, game.default_options(), f"last-{key}")
    marked = 0
    for _ in range(60):
        if game.is_over(state):
            break
        seat = rng.choice(sorted(game.to_act(state)))
        game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        view = game.view(state, None)
        if not view.last:
            continue
        plain = replace(view, last=None if key in ("kapado", "diabolo") else ())
        if key == "safaru":
            plain = replace(plain, last_side=None)
        framed, before = _png(key, view), _png(key, plain)
        if framed.size != before.size:
            marked += 1  # Safarü: the caught cards beside their side
            continue
        box = ImageChops.difference(framed, before).getbbox()
        if box is None:
            continue  # the card went where the picture draws no face (a finished build pile)
        region = list(framed.crop(box).get_flattened_data())
        assert sum(map(_light, region)) > 10 and sum(map(_dark, region)) > 10, (key, view.last)
        marked += 1
    assert marked >= 3


# -- counts and letters ------------------------------------------------------------------------------
def test_a_count_is_a_small_labelled_chip_at_most_60_percent_of_a_value() -> None:
    chip = _rgb(sprites.chip("28"))
    dark = Image.eval(chip.convert("L"), lambda v: 255 if v < 100 else 0)
    digits = dark.crop((chip.width // 2, 4, chip.width - 6, chip.height - 4)).getbbox()  # inside the outline
    assert digits is not None
    height = digits[3] - digits[1]
    assert height <= 0.6 * VALUE_PX
    assert height * PHONE / WIDTH >= 10, "still legible on a phone"
    left = dark.crop((0, 0, chip.width // 3, chip.height)).getbbox()
    assert left is not None, "a small card drawn before the number: what it counts"


def test_a_draw_piles_count_keeps_its_digits_unsqueezed() -> None:
    """Skippo's 115 on the draw pile was condensed into the card's width: a chip keeps it natural."""
    back = _rgb(sprites.card(faces.back(115)))
    chip = _rgb(sprites.chip("115"))
    assert chip.width < sprites.CARD[0]
    centre = back.crop(((back.width - chip.width) // 2, (back.height - chip.height) // 2,
                        (back.width + chip.width) // 2, (back.height + chip.height) // 2))
    assert sum(map(_light, centre.get_flattened_data())) > 0.4 * chip.width * chip.height


def _tags(sheet: Sheet, count: int) -> list[Image.Image]:
    shown = {id(image) for image in _sprites(sheet)}
    return [image for image in (sprites.tag(pile_label(i), w) for i in range(count)
                                for w in {0, sprites.LOW_CARD[0], kapado_picture.STACK_CARD[0]})
            if id(image) in shown]


@pytest.mark.parametrize("key", ["dacapo", "skippo"])
def test_build_piles_carry_their_letters_under_them(key: str) -> None:
    game = games.REGISTRY[key]
    pos = list(positions(key, 4, count=3))[-1]
    view = game.view(pos.state, None)
    sheet = pictures(key).table(view)
    head = sheet.rows[0][0]
    letters = [p.images[1] for p in head[1:]]
    assert letters == [sprites.tag(pile_label(i), sprites.LOW_CARD[0]) for i in range(len(view.build))]
    assert all(p.images[0].height <= p.offsets[1] for p in head[1:]), "under the pile"


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("key", ["dacapo", "skippo"])
def test_helper_piles_carry_the_names_the_text_gives_them_under_their_top_card(key: str, players: int) -> None:
    """"Played to H2" is found in the picture: each seat's helper piles, an empty one too, read H1, H2, ...
    under their top card, as the table text and the buttons name them."""
    game = games.REGISTRY[key]
    for pos in positions(key, players, count=4):
        view = game.view(pos.state, None)
        for (pieces, _, _), seat in zip(pictures(key).table(view).rows[1:], view.seats, strict=True):
            helpers = pieces[2:2 + len(seat.helpers)]
            assert [p.images[-1] for p in helpers] == [sprites.tag(helper_label(i), sprites.LOW_CARD[0])
                                                       for i in range(len(seat.helpers))]
            for p, pile in zip(helpers, seat.helpers, strict=True):
                top = p.offsets[-2] + p.images[-2].height
                assert top <= p.offsets[-1] <= top + 8, "right under the pile's top card"
                assert (p.images[-2] is sprites.slot(sprites.LOW_CARD)) == (not pile)


def test_kapados_stacks_carry_their_letters_and_rummus_displays_theirs() -> None:
    game = games.REGISTRY["kapado"]
    view = game.view(next(positions("kapado", 3, count=1)).state, None)
    assert len(_tags(pictures("kapado").table(view), 5)) == len(view.stacks[0])
    game = games.REGISTRY["rummu"]
    for pos in positions("rummu", 4, count=6):
        view = game.view(pos.state, None)
        shown = _sprites(pictures("rummu").table(view))
        for k, _ in enumerate(view.combos):
            assert sprites.tag(pile_label(k)) in shown


# -- Diabolo -----------------------------------------------------------------------------------------
def test_diabolo_draws_its_seats_with_the_one_to_act_hand_counts_and_doublers() -> None:
    game = games.REGISTRY["diabolo"]
    for pos in positions("diabolo", 5, count=4):
        view = game.view(pos.state, None)
        seats = pictures("diabolo").table(view).rows[-1][0]
        assert len(seats) == view.players
        for seat, p in enumerate(seats):
            assert p.images[0] is sprites.badge(seat, seat == view.current)
            assert p.images[1] is sprites.chip(str(view.hand_counts[seat]))
            assert (sprites.chip(diabolo_picture.DOUBLER, icon=False) in p.images) == view.doublers[seat]


def test_diabolos_sums_are_bare_numbers_and_a_closed_row_is_locked_and_greyed() -> None:
    open_sum, closed_sum = _rgb(diabolo_picture._sum(12, False)), _rgb(diabolo_picture._sum(12, True))
    dark = sum(px == sprites.DARK for px in open_sum.get_flattened_data())
    assert dark < 0.4 * open_sum.width * open_sum.height, "no dark box the size of a card"
    assert sum(px == sprites.BG for px in open_sum.get_flattened_data()) > 0.4 * open_sum.width * open_sum.height
    assert open_sum.tobytes() != closed_sum.tobytes()
    assert contrast(diabolo_picture.CLOSED_INK, sprites.BG) >= 4.5
    colour = faces.coloured("", "green")
    lock = _rgb(sprites.sealed(colour, sprites.MINI_ROW))
    assert lock.tobytes() != _rgb(sprites.card(colour, sprites.MINI_ROW)).tobytes()
    assert sum(map(_light, lock.get_flattened_data())) > 100, "a padlock on a white disc"


def test_diabolos_heads_read_on_a_phone() -> None:
    devil = _rgb(sprites.side_mark("devil"))
    red = Image.eval(devil.convert("L"), lambda v: 0)
    red.putdata([255 if px == INKS["red"].rgb else 0 for px in devil.get_flattened_data()])
    left, _, right, _ = red.getbbox()
    assert (right - left) * PHONE / WIDTH >= 24


# -- Mü ----------------------------------------------------------------------------------------------
def test_mus_triangles_and_symbols_are_legible_at_phone_width() -> None:
    face = faces.mu("r7a")
    assert face.triangles
    tri = _ink_box(sprites.card(face), sprites.card(replace(face, triangles=0)))
    assert (tri[3] - tri[1]) * PHONE / WIDTH >= 8
    for cid in ("r7a", "y3", "g5", "b2", "k8"):
        face = faces.mu(cid)
        box = _ink_box(sprites.card(face), sprites.card(replace(face, mark=None)))
        assert max(box[2] - box[0], box[3] - box[1]) * PHONE / WIDTH >= 14, cid


def _mu_with_trumps(players: int):
    game = games.REGISTRY["mu"]
    for seed in range(40):
        for pos in positions("mu", players, count=8, seed=f"trumps-{seed}"):
            view = game.view(pos.state, None)
            if view.phase == "tricks" and view.chef_trump and view.chef_trump != "none" and view.vize_trump:
                return game, pos.state
    raise AssertionError("no seeded Mü position with both trumps")


def test_mu_marks_trump_cards_in_the_hand_and_labels_the_chefs_and_vizes_trumps() -> None:
    game, state = _mu_with_trumps(4)
    public = game.view(state, None)
    seat = next(iter(game.to_act(state)))
    view = game.view(state, seat)
    marked = pictures("mu").trumps(view)
    assert marked and marked < set(view.hand)
    drawn = pictures("mu").hand_png(view, frozenset())
    marked_faces = layouts.hand(lambda c: replace(faces.mu(c), trump=c in marked), view.hand, frozenset())
    assert drawn == marked_faces.png() != layouts.hand(faces.mu, view.hand, frozenset()).png()
    for cid in view.hand:
        face = faces.mu(cid)
        corner = (58, 3, 78, 23)  # the top right corner, beside the number
        with_mark = _rgb(sprites.card(replace(face, trump=True))).crop(corner)
        without = _rgb(sprites.card(face)).crop(corner)
        assert sum(map(_light, with_mark.get_flattened_data())) > 20 + sum(map(_light, without.get_flattened_data())) or \
            face.ink == sprites.WHITE, cid
        assert sum(map(_dark, with_mark.get_flattened_data())) > 10, "a dark outline, on light cards too"
    assert pictures("mu").hand_key(view) != (pictures("mu").hand_cards(view), frozenset())
    head = pictures("mu").table(public).rows[0][0]
    assert [p.images[1] for p in head[:2]] == [sprites.chip(role, icon=False) for role in mu_picture.ROLES]


def test_mus_struck_colours_are_labelled_with_a_count_of_nought() -> None:
    game = games.REGISTRY["mu"]
    view = game.view(next(positions("mu", 3, count=1)).state, None)
    head = pictures("mu").table(view).rows[0][0]
    out = [sprites.crossed(faces.coloured("", c)) for c in view.removed_colours]
    struck = [p for p in head if any(p.images[0] is image for image in out)]
    assert len(struck) == 2 and all(p.images[1] is sprites.chip("0") for p in struck)


# -- size and faces ------------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["mu", "rummu", "dacapo", "skippo", "kapado", "diabolo", "safaru"])
def test_a_table_at_the_most_seats_fits_a_phone_screen(key: str) -> None:
    game = games.REGISTRY[key]
    for pos in positions(key, game.max_players, count=8):
        image = Image.open(io.BytesIO(pictures(key).table_png(game.view(pos.state, None))))
        assert image.width == WIDTH and image.height <= TALLEST, (pos.number, image.size)


def test_mus_six_bid_rows_stand_two_to_a_line_in_seat_order_where_the_table_is_tall() -> None:
    """Measured where the seats' badges land: in the tricks of six players, two badges share a line,
    the second at the picture's middle, and reading left to right, then down, keeps seat order."""
    game = games.REGISTRY["mu"]
    paired = 0
    for pos in positions("mu", 6, count=8):
        view = game.view(pos.state, None)
        if view.phase != "tricks":
            continue
        sheet = pictures("mu").table(view)
        placed, height = sheet._layout()
        marks = {id(sprites.badge(seat, seat == view.to_act)): seat for seat in range(6)}
        rows = sum(p.lead for pieces, _, _ in sheet.rows for p in pieces)  # the bid rows come first
        bids = [(y, x, marks[id(image)]) for image, x, y in placed if id(image) in marks][:rows]
        read = [seat for _, _, seat in sorted(bids)]  # down the lines, left to right along each
        assert read == sorted(read), pos.number
        paired += len({y for y, _, _ in bids}) < len(bids)
        assert all(x in (MARGIN, MARGIN + COLUMN + WIDE_GAP) for _, x, _ in bids)
        assert height <= TALLEST
    assert paired


def test_da_capo_cards_look_like_cards_with_their_value_in_dots() -> None:
    face = pictures("dacapo").face("7a")
    plain = _rgb(sprites.card(face))
    lower = plain.crop((8, 58, sprites.CARD[0] - 8, sprites.CARD[1] - 6))
    dots = sum(map(_dark, lower.get_flattened_data()))
    assert dots > 7 * 30, "seven dots under the number"


def test_skippos_cascade_shows_the_numbers_and_no_sliver_of_the_symbols_under_them() -> None:
    for cid in ("Qha", "10sb", "Ksa", "7ca", "Jda"):
        face = pictures("skippo").face(cid)
        box = _ink_box(sprites.card(face, sprites.LOW_CARD), sprites.card(replace(face, mark=None), sprites.LOW_CARD))
        assert box[1] >= buildpiles_picture.CASCADE, cid


def test_safaru_shows_each_sides_catch_and_the_cards_just_caught() -> None:
    game = games.REGISTRY["safaru"]
    seen = 0
    for pos in positions("safaru", 4, count=12):
        view = game.view(pos.state, None)
        sheet = pictures("safaru").table(view)
        for side, (pieces, _, _) in enumerate(sheet.rows[1:]):
            assert pieces[1].images[0] is sprites.chip(str(view.pile_sizes[side]))
            if view.last_side == side:
                caught = [c for c in view.last if c not in view.table]
                assert [p.images[0] for p in pieces[2:2 + len(caught)]] == \
                    [sprites.card(faces.mu(c), sprites.LOW_CARD, "last") for c in caught]
                seen += bool(caught)
    assert seen


def test_rummus_badge_stands_beside_its_display_with_the_hand_count() -> None:
    """In every layout (one seat a line, two to a line, all in one flow): measured where the sprites
    land, each seat's badge carries its hand count and has its first display on the same line."""
    game = games.REGISTRY["rummu"]
    for pos in positions("rummu", 6, count=8):
        view = game.view(pos.state, None)
        placed, _ = pictures("rummu").table(view)._layout()
        images = [image for image, _, _ in placed]
        for seat in range(view.players):
            at = next(i for i, image in enumerate(images) if image is sprites.badge(seat, seat == view.turn))
            assert images[at + 1] is sprites.chip(str(view.hand_sizes[seat]))
            if any(combo.owner == seat for combo in view.combos):
                (_, x, y), (_, cx, cy) = placed[at], placed[at + 2]
                assert cy == y and cx > x + sprites.BADGE, (pos.number, seat)


def test_jokers_set_aside_are_one_card_with_their_count() -> None:
    joker = pictures("skippo").face("Xa")
    assert buildpiles_picture._reserve(pictures("skippo").face, ("Xa",), frozenset()) is sprites.card(
        joker, sprites.LOW_CARD)
    assert buildpiles_picture._reserve(pictures("skippo").face, ("Xb", "Xa"), frozenset()) is sprites.counted(
        joker, sprites.LOW_CARD, 2)
    assert JOKER.rgb == joker.fill
