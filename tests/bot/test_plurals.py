"""Counted texts go through CLDR plural rules: no "card(s)", and no "1 cards" or "2 Karte" anywhere."""

from __future__ import annotations

import re
import string

import pytest
from babel import Locale

from bot import i18n

FIELDS = string.Formatter()
# Placeholders that stand for names, cards or phrases rather than a number.
WORDS = frozenset(
    ["by", "card", "catch", "chef", "colour", "colours", "combo", "combos", "dealer", "detail", "digit", "digits", "doubler", "game", "hands", "have", "helper", "helpers", "hidden", "kinds", "label", "level", "marker", "mentions", "name", "names", "now", "then", "option", "owner", "pace", "parts", "partner", "stack", "pile", "piles", "reason", "roles", "scope", "slot", "slots", "stacks", "suit", "tally", "team", "text", "top", "totals", "trump", "trumps", "verdict", "vize", "when", "value"]
)
# Nouns players see counted, as (singular, plural); nouns whose two forms agree are left out.
NOUNS = {
    "en": [
        ("card", "cards"), ("point", "points"), ("trick", "tricks"), ("triangle", "triangles"),
        ("turn", "turns"), ("game", "games"), ("player", "players"), ("joker", "jokers"), ("vote", "votes"),
        ("way", "ways"), ("catch", "catches"), ("round", "rounds"), ("hand", "hands"),
        ("pile", "piles"), ("move", "moves"), ("stack", "stacks"), ("slot", "slots"), ("page", "pages"),
        ("match", "matches"), ("bid", "bids"), ("pass", "passes"), ("kind", "kinds"),
        ("ban card", "ban cards"), ("minute", "minutes"), ("second", "seconds"),
    ],
    "de": [
        ("Karte", "Karten"), ("Punkt", "Punkte"), ("Stich", "Stiche"), ("Dreieck", "Dreiecke"), ("Zug", "Züge"),
        ("Partie", "Partien"), ("Spiel", "Spiele"), ("Stimme", "Stimmen"), ("Art", "Arten"), ("Fang", "Fänge"),
        ("Sieg", "Siege"), ("Runde", "Runden"), ("Verbotskarte", "Verbotskarten"), ("Hilfsplatz", "Hilfsplätze"),
        ("Seite", "Seiten"), ("Minute", "Minuten"), ("Sekunde", "Sekunden"), ("Ziffer", "Ziffern"),
        ("Reihe", "Reihen"), ("Zahl", "Zahlen"),
    ],
}
# Words that may stand between a number and its noun without taking its number ("3 in hand").
LINKS = frozenset(["in", "of", "on", "at", "for", "to", "from", "per", "and", "or", "than", "im", "von", "aus", "je", "und", "oder", "als", "auf", "mit"])
BRACKETED = re.compile(r"\w\((?:s|n|en|e|er|es|in|nen)\)|\((?:s|n|en|e|er|es)\)")


def entries():
    for lang in i18n.LANGUAGES:
        for key, entry in sorted(i18n.catalogue(lang).items()):
            yield lang, key, entry


def counts(entry) -> set[str]:
    names = {name for text in i18n.forms(entry) for _, name, _, _ in FIELDS.parse(text) if name}
    return {name for name in names if name not in WORDS}


def machine_made(lang: str, text: str, n: int) -> list[str]:
    """Phrases like "1 cards" or "2 Karte": a number followed by the wrong form of a counted noun."""
    wrong = [plural if n == 1 else singular for singular, plural in NOUNS[lang]]
    found = []
    for noun in wrong:
        pattern = rf"(?<![\w.,]){n} (?:(?!(?:{'|'.join(LINKS)})\b)[a-zäöü-]+ )?{noun}(?!\w)"
        found += [m.group(0) for m in re.finditer(pattern, text)]
    return found


def test_no_bracketed_plurals_in_either_catalogue():
    bad = [(lang, key, text) for lang, key, entry in entries() for text in i18n.forms(entry) if BRACKETED.search(text)]
    assert bad == []


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_counted_text_reads_right_for_zero_one_and_two(lang):
    bad = []
    for key, entry in sorted(i18n.catalogue(lang).items()):
        numbers = counts(entry)
        if not numbers:
            continue
        words = {name: "Ada" for _, name, _, _ in FIELDS.parse(" ".join(i18n.forms(entry))) if name}
        for n in (0, 1, 2):
            text = i18n.t(lang, key, **{**words, **dict.fromkeys(numbers, n)})
            bad += [(key, n, phrase) for phrase in machine_made(lang, text, n)]
    assert bad == []


def test_the_scan_catches_what_it_should():
    assert machine_made("en", "You hold 1 cards and 2 face-down card.", 1) == ["1 cards"]
    assert machine_made("en", "2 face-down card left", 2) == ["2 face-down card"]
    assert machine_made("de", "Noch 1 verdeckte Karten", 1) == ["1 verdeckte Karten"]
    assert machine_made("de", "0 Karte, 3 in Hand", 0) == ["0 Karte"]
    assert machine_made("en", "2 in hand", 2) == []


def test_plural_entries_name_their_count_and_use_the_languages_categories():
    plurals = [(lang, key, e) for lang, key, e in entries() if isinstance(e, i18n.Plural)]
    assert plurals, "the catalogues use plural entries"
    for lang, key, entry in plurals:
        tags = Locale.parse(lang).plural_form.tags | {"other"}
        assert set(entry.forms) <= tags, (lang, key)
        assert "one" in entry.forms, (lang, key)
        assert any(f"{{{entry.count}" in text for text in i18n.forms(entry)), (lang, key)


def test_t_picks_the_form_by_the_named_count():
    assert i18n.t("en", "mu.ui.declarer", chef="Ada", cards=1) == "👑 Chef **Ada** with 1 card"
    assert i18n.t("en", "mu.ui.declarer", chef="Ada", cards=0) == "👑 Chef **Ada** with 0 cards"
    assert i18n.t("de", "mu.ui.declarer", chef="Ada", cards=1) == "👑 Chef **Ada** mit 1 Karte"
    assert i18n.t("de", "mu.ui.declarer", chef="Ada", cards=7) == "👑 Chef **Ada** mit 7 Karten"
    with pytest.raises(KeyError):
        i18n.t("en", "mu.ui.declarer", chef="Ada")
