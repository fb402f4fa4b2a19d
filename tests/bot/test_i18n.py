"""Every text exists in English and German, with the same placeholders, for every game."""

import re
import string

import pytest

from bot import i18n
from bot.registry import playable

FIELDS = string.Formatter()


def placeholders(entry: i18n.Entry) -> set[str]:
    return {name for text in i18n.forms(entry) for _, name, _, _ in FIELDS.parse(text) if name}


def test_catalogues_have_the_same_keys():
    assert set(i18n.catalogue("en")) == set(i18n.catalogue("de"))


@pytest.mark.parametrize("key", sorted(i18n.catalogue("en")))
def test_placeholders_match(key):
    en, de = i18n.catalogue("en")[key], i18n.catalogue("de")[key]
    assert placeholders(en) == placeholders(de)


@pytest.mark.parametrize("key", playable())
def test_every_playable_game_has_its_texts(key):
    for lang in i18n.LANGUAGES:
        assert i18n.catalogue(lang)[f"{key}.ui.rules"].strip()
        assert i18n.catalogue(lang)[f"commands.game.{key}"]


def test_command_names_are_valid_for_discord():
    pattern = re.compile(r"^[-_\w]{1,32}$")
    for lang in i18n.LANGUAGES:
        for key, text in i18n.catalogue(lang).items():
            if key.startswith("commands.") and key.endswith(".name"):
                assert pattern.match(text) and text == text.lower(), (lang, key, text)
            if key.startswith("commands.") and key.endswith(".description"):
                assert 1 <= len(text) <= 100, (lang, key, len(text))


def test_locale_mapping():
    assert i18n.language("de") == "de"
    assert i18n.language("en-GB") == "en"
    assert i18n.language("fr") == "en"
    assert i18n.language(None) == "en"


def test_german_falls_back_to_english_only_for_missing_keys():
    assert i18n.t("de", "core.not_your_turn") != i18n.t("en", "core.not_your_turn")
    with pytest.raises(KeyError):
        i18n.t("de", "no.such.key")
