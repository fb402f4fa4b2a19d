"""The German catalogue keeps to bot/locales/GLOSSARY.md: one term per thing, du-form throughout."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot import i18n

GLOSSARY = Path(i18n.__file__).with_name("locales") / "GLOSSARY.md"
# Calcory's catalogue is reworked on its own branch; these lines are theirs to bring to the glossary.
ROUNDS = ("diabolo.", "safaru.")  # the only games whose deals are rounds (Runden)


def rows() -> list[dict[str, str]]:
    lines = [line for line in GLOSSARY.read_text(encoding="utf-8").splitlines() if line.startswith("|")]
    head = [cell.strip() for cell in lines[0].strip("|").split("|")]
    return [dict(zip(head, (cell.strip() for cell in line.strip("|").split("|")), strict=True)) for line in lines[2:]]


def forbidden() -> list[str]:
    return [word for row in rows() for word in re.findall(r"`([^`]+)`", row["Not"])]


def german() -> list[tuple[str, str]]:
    return [(key, text) for key, entry in sorted(i18n.catalogue("de").items()) for text in i18n.forms(entry)]


def uses(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def test_the_glossary_names_terms_and_forbidden_synonyms():
    terms = {row["English"]: row["German"] for row in rows()}
    assert terms["build pile (Skippo, Da Capo)"] == "Aufbaustapel" and terms["host"] == "Spielleitung"
    assert {"Ablagestapel", "Gastgeber", "Knopf", "Wähl", "euch", "sind sicher"} <= set(forbidden())


@pytest.mark.parametrize("word", forbidden())
def test_no_forbidden_synonym_in_the_german_catalogue(word):
    assert [key for key, text in german() if uses(text, word)] == []


def test_every_glossary_term_is_in_use():
    texts = " ".join(text for _, text in german()).lower()
    assert [row["German"] for row in rows() if row["German"] and row["German"].lower() not in texts] == []


def test_runde_only_names_diabolo_and_safaru_rounds():
    assert [key for key, text in german() if uses(text, "Runde") and not key.startswith(ROUNDS)] == []


def test_a_game_name_ending_in_punctuation_reads_cleanly():
    """"your turn at Da Capo!." was machine-made: no text puts punctuation straight after {game}."""
    fields = string.Formatter()
    bad = []
    for lang in i18n.LANGUAGES:
        for key, entry in sorted(i18n.catalogue(lang).items()):
            names = {name for text in i18n.forms(entry) for _, name, _, _ in fields.parse(text) if name}
            if "game" in names:
                text = i18n.t(lang, key, **{**dict.fromkeys(names, 2), "game": "Da Capo!"})
                bad += [(lang, key, text)] if re.search(r"![.,;:?!]", text) else []
    assert bad == []
