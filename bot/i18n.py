"""One translation function for every user-visible string, English and German.

Catalogues are TOML files in ``bot/locales/<lang>/<domain>.toml``; a key ``name`` in
``calcory.toml`` is looked up as ``calcory.name`` (nested tables join with dots). Placeholders use
``str.format`` names: ``"{player} flipped {slot}"``. English is the fallback for a missing German
text; a key missing in English too is a bug, which ``tests/test_i18n.py`` catches.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "de")
DEFAULT = "en"
_ROOT = Path(__file__).with_name("locales")


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for key, value in table.items():
        name = f"{prefix}.{key}"
        if isinstance(value, dict):
            _flatten(name, value, out)
        else:
            out[name] = str(value)


@cache
def catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted((_ROOT / lang).glob("*.toml")):
        with path.open("rb") as fh:
            _flatten(path.stem, tomllib.load(fh), out)
    return out


def language(locale: str | None) -> str:
    """Map a Discord locale (``de``, ``en-US``, ``en-GB`` …) to a catalogue language."""
    if locale and str(locale).split("-")[0].lower() == "de":
        return "de"
    return DEFAULT


def t(lang: str, key: str, **params: Any) -> str:
    """The text for ``key`` in ``lang``, with ``params`` filled in."""
    text = catalogue(lang).get(key)
    if text is None:
        text = catalogue(DEFAULT).get(key)
    if text is None:
        raise KeyError(f"no text for {key!r}")
    return text.format(**params) if params else text


def has(key: str) -> bool:
    return key in catalogue(DEFAULT)
