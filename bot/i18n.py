"""One translation function for every user-visible string, English and German.

Catalogues are TOML files in ``bot/locales/<lang>/<domain>.toml``; a key ``name`` in
``calcory.toml`` is looked up as ``calcory.name`` (nested tables join with dots). Placeholders use
``str.format`` names: ``"{player} flipped {slot}"``. English is the fallback for a missing German
text; a key missing in English too is a bug, which ``tests/bot/test_i18n.py`` catches.

A text that counts something is a plural entry: a table that names its count placeholder and
gives one form per CLDR plural category of the language (Babel knows the rules), ``other``
always included, so no catalogue needs "card(s)"::

    [declarer]
    count = "cards"
    one = "Chef with {cards} card"
    other = "Chef with {cards} cards"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel import Locale

LANGUAGES = ("en", "de")
DEFAULT = "en"
_ROOT = Path(__file__).with_name("locales")
CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


@dataclass(frozen=True, slots=True)
class Plural:
    """A text with one form per CLDR plural category, chosen by the placeholder ``count``."""

    count: str
    forms: dict[str, str]

    def pick(self, lang: str, params: dict[str, Any]) -> str:
        if self.count not in params:
            raise KeyError(f"plural text needs its count {self.count!r}")
        return self.forms.get(_category(lang, abs(params[self.count])), self.forms["other"])


Entry = str | Plural


@cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@lru_cache(maxsize=4096, typed=True)
def _category(lang: str, number: float) -> str:
    """The CLDR plural category of ``number`` in ``lang``, asked of Babel once per number: every
    rendering counts cards, and Babel's rule takes longer than the rest of the lookup. ``typed``: an
    int and a float of equal value are asked apart, as Babel's operands tell them apart."""
    return _locale(lang).plural_form(number)


def _is_plural(table: dict[str, Any]) -> bool:
    return "count" in table and "other" in table and set(table) <= CATEGORIES | {"count"}


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, Entry]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict) and _is_plural(value):
            forms = {cat: str(text) for cat, text in value.items() if cat != "count"}
            out[name] = Plural(str(value["count"]), forms)
        elif isinstance(value, dict):
            _flatten(name, value, out)
        else:
            out[name] = str(value)


@cache
def catalogue(lang: str) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for path in sorted((_ROOT / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


def forms(entry: Entry) -> list[str]:
    """Every form of an entry: the text itself, or each plural form."""
    return list(entry.forms.values()) if isinstance(entry, Plural) else [entry]


def language(locale: str | None) -> str:
    """Map a Discord locale (``de``, ``en-US``, ``en-GB`` …) to a catalogue language."""
    if locale and str(locale).split("-")[0].lower() == "de":
        return "de"
    return DEFAULT


def t(lang: str, key: str, **params: Any) -> str:
    """The text for ``key`` in ``lang``, with ``params`` filled in (a plural entry picks its form)."""
    entry = catalogue(lang).get(key)
    if entry is None:
        lang, entry = DEFAULT, catalogue(DEFAULT).get(key)
    if entry is None:
        raise KeyError(f"no text for {key!r}")
    text = entry.pick(lang, params) if isinstance(entry, Plural) else entry
    return text.format(**params) if params else text


def has(key: str) -> bool:
    return key in catalogue(DEFAULT)
