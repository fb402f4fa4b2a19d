"""Session status is named by ``Status`` in the code, never by the string the database stores: a
misspelt ``"stoped"`` would compare false without a word, ``Status.STOPED`` fails at once."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.storage.status import ENDED, LIVE, Status

ROOT = Path(__file__).resolve().parents[2]
VALUES = frozenset(status.value for status in Status)


def _names_status(node: ast.expr) -> bool:
    """``status``, ``session.status``, ``self.session.status``, ``row.status``: what holds a session's."""
    if isinstance(node, ast.Name):
        return node.id == "status"
    return isinstance(node, ast.Attribute) and node.attr == "status" and not (
        isinstance(node.value, ast.Name) and node.value.id == "cell"  # a Calcory grid cell's own status
    )


def _literals(node: ast.expr) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_literals(element) for element in node.elts))
    return set()


def string_compares(source: str) -> list[int]:
    """Lines that compare a status with a literal status string."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_names_status(side) for side in sides) and any(_literals(side) & VALUES for side in sides):
                lines.append(node.lineno)
    return lines


def test_the_check_sees_a_string_compare():
    assert string_compares('if session.status == "playing":\n    pass\n') == [1]
    assert string_compares('ok = status in ("lobby", "playing")\n') == [1]
    assert string_compares('if cell.status == "shown":\n    pass\n') == []
    assert string_compares("if session.status == Status.PLAYING:\n    pass\n") == []


def test_bot_and_cogs_compare_session_status_with_the_enum():
    found = {
        str(path.relative_to(ROOT)): lines
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if (lines := string_compares(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_live_and_ended_split_every_status():
    assert frozenset(Status) == LIVE | ENDED and not LIVE & ENDED
    assert {Status.LOBBY, Status.PLAYING} == LIVE
