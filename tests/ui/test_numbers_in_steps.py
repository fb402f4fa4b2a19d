"""Page numbers inside hand steps are read with ``games.keys.number``: a forged "²", "٣" or "01"
shows the first page instead of crashing the hand (or naming a page twice)."""

from __future__ import annotations

import pytest

from bot.registry import presenter
from bot.tables.rummu.hand import parse as parse_pick
from bot.tables.safaru.presenter import _parse_ui
from tests.ui import kit


@pytest.mark.parametrize("picks", ["²", "٣", "g٣", "b3.b3", "b3~:y1", "y1", "b3:"])
def test_safaru_free_card_picks_take_only_cards_that_lie_free(picks):
    """Safarü's picker names free cards, no numbers: anything but distinct free cards picks nothing."""
    assert _parse_ui(f"k9~:{picks}", ("k9",), ("b3", "g4")) == ("k9", ())
    assert _parse_ui("k9~b3:g4", ("k9",), ("b3", "g4")) == ("k9", ("g4", "b3"))     # in deck order


@pytest.mark.parametrize("page", ["²", "٣", "01"])
def test_build_pile_card_page(page):
    session = kit.make_session("skippo", 2)
    show = presenter("skippo")
    first = show.hand(session, 0, "en", "cards", None).fingerprint()
    assert show.hand(session, 0, "en", f"cards#{page}", None).fingerprint() == first


@pytest.mark.parametrize("head", ["p²", "p٣", "p01", "p", "p-1", "q0"])
def test_rummu_pick_page(head):
    hand = ("k7a", "b7a")
    assert parse_pick(f"{head}:k7a", hand) == parse_pick("", hand)
    assert parse_pick("p0:k7a", hand).chosen == ("k7a",)
