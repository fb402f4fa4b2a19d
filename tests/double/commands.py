"""Application command registration, checked as docs/interactions/application-commands.md says.

Names of slash commands, options and their localizations match
``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`` and use the lowercase variant of every letter
that has one; descriptions are 1-100 characters (localized ones too); localization keys are
Discord's documented locales; choice names are 1-100 characters and string values at most 100;
required options come before optional ones; at most 25 options and 25 choices; a command counts at
most 8,000 characters of names, descriptions and choice values, taking the longest localization of
each field. Creating more than 200 new commands a day in one scope answers 30034.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .validate import Path, Problem

#: docs/reference.md#locales
LOCALES = frozenset({
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl", "no", "pl",
    "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi", "th", "zh-CN", "ja",
    "zh-TW", "ko"})
MAX_NAME, MAX_DESCRIPTION, MAX_CHOICE, MAX_TOTAL, MAX_OPTIONS = 32, 100, 100, 8000, 25
CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
CREATES_PER_DAY = 200
DAY = 24 * 3600


def _scripts_allowed(ch: str) -> bool:
    """One character of the name regex: - _ ' a letter, a number, or Devanagari or Thai script."""
    if ch in "-_'":
        return True
    if unicodedata.category(ch)[0] in "LN":
        return True
    return 0x0900 <= ord(ch) <= 0x097F or 0x0E00 <= ord(ch) <= 0x0E7F or 0xA8E0 <= ord(ch) <= 0xA8FF


def name_problem(name: Any) -> str | None:
    """Why a slash command or option name is refused, or None."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
        return f"Must be between 1 and {MAX_NAME} in length."
    if not all(_scripts_allowed(ch) for ch in name):
        return "Command name is invalid"
    if any(ch.lower() != ch for ch in name):
        return "Command name is invalid: use the lowercase variant of every letter."
    return None


def command_problems(commands: list[Any]) -> list[Problem]:
    """Every documented violation in a bulk overwrite body (a list of commands)."""
    out: list[Problem] = []
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            continue
        if cmd.get("type", CHAT_INPUT) == CHAT_INPUT:
            out += _described((i,), cmd, "APPLICATION_COMMAND")
            out += _options((i, "options"), cmd.get("options") or [])
            size = command_size(cmd)
            if size > MAX_TOTAL:
                out.append(Problem((i,), "APPLICATION_COMMAND_TOO_LARGE",
                                   f"Command exceeds maximum size ({MAX_TOTAL}): {size}"))
    return out


def _described(path: Path, node: dict, what: str) -> list[Problem]:
    """The name and description of a command or option, with their localizations."""
    out = []
    if (why := name_problem(node.get("name"))) is not None:
        out.append(Problem((*path, "name"), f"{what}_NAME_INVALID", why))
    out += _localized((*path, "name_localizations"), node.get("name_localizations"), name_problem,
                      f"{what}_NAME_INVALID")
    out += _text((*path, "description"), node.get("description"), MAX_DESCRIPTION)
    out += _localized((*path, "description_localizations"), node.get("description_localizations"),
                      lambda v: _length(v, MAX_DESCRIPTION))
    return out


def _length(value: Any, most: int) -> str | None:
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        return f"Must be between 1 and {most} in length."
    return None


def _text(path: Path, value: Any, most: int) -> list[Problem]:
    why = _length(value, most)
    return [] if why is None else [Problem(path, "BASE_TYPE_BAD_LENGTH", why)]


def _localized(path: Path, table: Any, check, code: str = "BASE_TYPE_BAD_LENGTH") -> list[Problem]:
    if table is None:
        return []
    if not isinstance(table, dict):
        return [Problem(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used.")]
    out = []
    for locale, value in table.items():
        if locale not in LOCALES:
            out.append(Problem((*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}."))
        elif (why := check(value)) is not None:
            out.append(Problem((*path, locale), code, why))
    return out


def _options(path: Path, options: list[Any]) -> list[Problem]:
    out = []
    if len(options) > MAX_OPTIONS:
        out.append(Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."))
    optional_seen = False
    names = set()
    for j, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        here = (*path, j)
        out += _described(here, opt, "APPLICATION_COMMAND_OPTION")
        if opt.get("name") in names:
            out.append(Problem((*here, "name"), "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                               "Option names must be unique."))
        names.add(opt.get("name"))
        if opt.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            out += _options((*here, "options"), opt.get("options") or [])
            continue
        if opt.get("required"):
            if optional_seen:
                out.append(Problem((*here, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                                   "Required options must be placed before non-required options"))
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > MAX_OPTIONS:
            out.append(Problem((*here, "choices"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length."))
        for k, choice in enumerate(choices):
            at = (*here, "choices", k)
            out += _text((*at, "name"), choice.get("name"), MAX_CHOICE)
            out += _localized((*at, "name_localizations"), choice.get("name_localizations"),
                              lambda v: _length(v, MAX_CHOICE))
            value = choice.get("value")
            if opt.get("type") == STRING and (not isinstance(value, str) or len(value) > MAX_CHOICE):
                out.append(Problem((*at, "value"), "BASE_TYPE_BAD_LENGTH",
                                   f"Must be between 1 and {MAX_CHOICE} in length."))
    return out


def _longest(node: dict, field: str) -> int:
    values = [node.get(field) or "", *((node.get(f"{field}_localizations") or {}).values())]
    return max(len(str(v)) for v in values)


def command_size(cmd: dict) -> int:
    """The characters a command counts toward 8,000: names, descriptions, choice values; each
    field by its longest localization (the default included)."""
    total = _longest(cmd, "name") + _longest(cmd, "description")
    stack = list(cmd.get("options") or [])
    while stack:
        opt = stack.pop()
        total += _longest(opt, "name") + _longest(opt, "description")
        stack += opt.get("options") or []
        for choice in opt.get("choices") or []:
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total
