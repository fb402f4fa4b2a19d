"""Reads the project's compose files without Docker or PyYAML: the block subset of YAML they are
written in (nested mappings, lists of scalars, quoted and plain scalars, JSON-style flow lists,
comments) and Compose's ``${VARIABLE}`` interpolation. Anything else (anchors, multi-line strings,
inline mappings) raises, so the files stay in what this reads and a test never passes on a misreading.
"""

from __future__ import annotations

import json
import re

_VARIABLE = re.compile(r"\$\{(\w+)(?::\?[^}]*)?\}")


def _without_comment(line: str) -> str:
    quote = None
    for at, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1] in " \t"):
            return line[:at]
    return line


def _scalar(text: str) -> object:
    if text.startswith(("[", '"')):
        return json.loads(text)
    if text.startswith("'"):
        if not text.endswith("'") or len(text) < 2:
            raise ValueError(f"unsupported YAML scalar: {text}")
        return text[1:-1].replace("''", "'")
    if text[0] in "&*{|>!%@`" or ": " in text:
        raise ValueError(f"unsupported YAML scalar: {text}")
    return text


def _block(lines: list[tuple[int, str]], at: int, indent: int) -> tuple[object, int]:
    if lines[at][1].startswith("- "):
        items = []
        while at < len(lines) and lines[at][0] == indent and lines[at][1].startswith("- "):
            items.append(_scalar(lines[at][1][2:].strip()))
            at += 1
        return items, at
    mapping: dict[str, object] = {}
    while at < len(lines) and lines[at][0] == indent:
        key, colon, rest = lines[at][1].partition(":")
        if not colon or (rest and not rest.startswith(" ")) or not re.fullmatch(r"[\w.-]+", key):
            raise ValueError(f"unsupported YAML line: {lines[at][1]}")
        if key in mapping:
            raise ValueError(f"{key} appears twice")
        at += 1
        if rest.strip():
            mapping[key] = _scalar(rest.strip())
        elif at < len(lines) and lines[at][0] > indent:
            mapping[key], at = _block(lines, at, lines[at][0])
        else:
            mapping[key] = None
    return mapping, at


def load(text: str) -> dict:
    """The file as nested dicts and lists of strings (numbers stay text, as Compose's environment has them)."""
    lines = []
    for raw in text.splitlines():
        line = _without_comment(raw).rstrip()
        if line.strip():
            lines.append((len(line) - len(line.lstrip(" ")), line.strip()))
    document, at = _block(lines, 0, 0)
    if at != len(lines) or not isinstance(document, dict):
        raise ValueError(f"unsupported YAML from: {lines[at][1]}")
    return document


def variables(value: str) -> list[str]:
    """The variables ``value`` takes from the environment or ``.env``."""
    return _VARIABLE.findall(value)


def interpolate(value: str, env: dict[str, str]) -> str:
    """``value`` as Compose passes it on, with ``env`` as the environment."""
    return _VARIABLE.sub(lambda match: env[match.group(1)], value)
