"""The shared marks of picture and text: badges for seats, letters for piles."""

from bot.ui.labels import helper_label, pile_label, seat_badge


def test_seats_are_the_badges_the_picture_draws():
    assert [seat_badge(s) for s in range(7)] == list("①②③④⑤⑥⑦")


def test_piles_are_letters_that_never_repeat():
    labels = [pile_label(i) for i in range(60)]
    assert labels[:4] == ["A", "B", "C", "D"] and labels[25:28] == ["Z", "AA", "AB"]
    assert len(set(labels)) == 60 and not set("".join(labels)) & set(seat_badge(s) for s in range(7))


def test_helper_piles_are_h_and_their_number_from_one() -> None:
    assert [helper_label(i) for i in range(4)] == ["H1", "H2", "H3", "H4"]
