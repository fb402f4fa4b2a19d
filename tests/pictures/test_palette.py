"""Every deck's card colours stay apart for colour-blind players, and every colour has its own symbol.

The distance is CAM02-UCS ΔE (colorspacious) between every pair of card colours of a deck, in normal
vision and in fully simulated protanopia, deuteranopia and tritanopia. The threshold is 20: about
ten just-noticeable differences (≈ 2 each), so two cards are told apart at a glance on a small
phone picture, not only side by side; ΔE around 10 is where small marks start to be confused.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert, deltaE

from bot.pictures.palette import DECKS, DIABOLO, INKS, KAPADO, SUITS
from bot.tables.diabolo import presenter as diabolo_ui
from bot.tables.kapado import presenter as kapado_ui
from bot.ui import cards as mu_labels
from games.deck import COLOURS
from games.diabolo.cards import COLOUR_NAMES
from games.kapado.cards import DECK as KAPADO_DECK

MIN_DELTA_E = 20.0
VISION = (None, "protanomaly", "deuteranomaly", "tritanomaly")


def _seen(rgb: tuple[int, int, int], vision: str | None) -> np.ndarray:
    colour = np.array(rgb) / 255
    if vision is None:
        return colour
    simulated = cspace_convert(colour, {"name": "sRGB1+CVD", "cvd_type": vision, "severity": 100}, "sRGB1")
    return np.clip(simulated, 0, 1)


@pytest.mark.parametrize("vision", VISION, ids=lambda v: v or "normal")
@pytest.mark.parametrize("deck", sorted(DECKS))
def test_every_pair_of_card_colours_stays_apart(deck: str, vision: str | None) -> None:
    for a, b in itertools.combinations(DECKS[deck], 2):
        distance = deltaE(_seen(a, vision), _seen(b, vision), input_space="sRGB1", uniform_space="CAM02-UCS")
        assert distance >= MIN_DELTA_E, f"{deck}: {a} and {b} are only ΔE {distance:.1f} apart ({vision})"


def test_the_simulation_can_tell_when_colours_merge() -> None:
    """Red and green of a typical UI merge for a deuteranope: the test above would catch such a pair."""
    red, green = (0xD0, 0x30, 0x30), (0x30, 0x90, 0x30)
    normal = deltaE(_seen(red, None), _seen(green, None), input_space="sRGB1", uniform_space="CAM02-UCS")
    deutan = deltaE(_seen(red, "deuteranomaly"), _seen(green, "deuteranomaly"), input_space="sRGB1",
                    uniform_space="CAM02-UCS")
    assert normal >= MIN_DELTA_E > deutan


@pytest.mark.parametrize("colours", [
    pytest.param(list(COLOURS), id="mu"),
    pytest.param(list(DIABOLO.values()), id="diabolo"),
    pytest.param([KAPADO[c] for c in KAPADO_DECK.colours], id="kapado"),
])
def test_each_colour_of_a_deck_has_its_own_shape_and_emoji(colours: list[str]) -> None:
    assert len({INKS[c].shape for c in colours}) == len(colours)
    assert len({INKS[c].emoji for c in colours}) == len(colours)


def test_the_rommé_suits_have_their_own_pips() -> None:
    assert sorted(shape for shape, _ in SUITS.values()) == ["club", "diamond", "heart", "spade"]


def test_button_labels_use_the_symbols_the_pictures_draw() -> None:
    assert mu_labels.label("g7a") == "☘️7" and mu_labels.label("k0") == "⚫0"
    assert [mu_labels.symbol(c) for c in COLOURS] == ["❤️", "⭐", "☘️", "🔷", "⚫"]
    assert diabolo_ui.label("p4a") == "🟣4"
    assert {COLOUR_NAMES[c] for c in DIABOLO} == set(DIABOLO.values())
    assert [kapado_ui.EMOJI[c] for c in KAPADO_DECK.colours] == ["🌸", "🔷", "☘️", "⭐"]
