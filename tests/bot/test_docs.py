"""The repository's own documents: every page `docs/README.md` links exists, every rules decision
the code cites is defined in `docs/rules-decisions.md`, nothing cites a document that a clone does
not have, and the performance page lists every benchmark row that has a target."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from bench.report import TARGET_ROWS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DECISIONS = DOCS / "rules-decisions.md"
#: Text that points outside the repository: the design notes and rules specifications the project
#: started from live beside a checkout, never in it.
#: (Spelled in parts, so that this file does not name them itself to a plain grep for them.)
FOREIGN = ("DESIGN" + ".md", ".." + "/shared", "mu-and-more", "dacapo-kapado-skippo-diabolo")
#: A numbered ruling or a specification section is a citation of one of those documents too.
FOREIGN_PATTERNS = (re.compile(r"\bruling \d+", re.IGNORECASE), re.compile(r"\brulings \(?\d"),
                    re.compile(r"(?<![\w/])§\s?\d"))
#: Files whose text is not ours to word: Discord's OpenAPI description and its licence.
NOT_OURS = ("tests/double/spec/",)
HERE = "tests/bot/test_docs.py"


def tracked_text_files() -> list[Path]:
    """Every file git tracks or would add (untracked, not ignored), that reads as UTF-8 text."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    out = []
    for name in listed:
        path = ROOT / name
        if name.startswith(NOT_OURS) or name == HERE or not path.is_file():
            continue
        try:
            path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        out.append(path)
    return out


def defined_decisions() -> set[int]:
    return {int(n) for n in re.findall(r"^\*\*D(\d+)\.", DECISIONS.read_text(encoding="utf-8"), re.MULTILINE)}


def cited_decisions(text: str) -> set[int]:
    """The decision numbers a text cites: every ``D<n>`` of a text that names the decisions page."""
    if "rules-decisions" not in text:
        return set()
    return {int(n) for n in re.findall(r"(?<![\w-])D(\d+)\b", text)}


def test_every_page_the_index_links_exists():
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", index)
    assert len(links) >= 6
    for link in links:
        assert (DOCS / link).is_file(), f"docs/README.md links {link}, which does not exist"


def test_links_between_pages_resolve():
    for page in DOCS.glob("*.md"):
        for link in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / link).exists(), f"{page.name} links {link}, which does not exist"


def test_decisions_are_numbered_once_each():
    numbers = [int(n) for n in re.findall(r"^\*\*D(\d+)\.", DECISIONS.read_text(encoding="utf-8"), re.MULTILINE)]
    assert len(numbers) == len(set(numbers)), "a decision number is defined twice"
    assert set(numbers) == set(range(1, max(numbers) + 1)), "decision numbers have gaps"


def test_every_cited_decision_is_defined():
    defined = defined_decisions()
    undefined = {}
    for path in tracked_text_files():
        missing = cited_decisions(path.read_text(encoding="utf-8")) - defined
        if missing:
            undefined[str(path.relative_to(ROOT))] = sorted(missing)
    assert not undefined, f"decisions cited but not defined in docs/rules-decisions.md: {undefined}"


def test_the_code_cites_the_decisions():
    """The engines point at the page: a decision that no code cites is worth a second look."""
    cited = set()
    for path in tracked_text_files():
        if path.parent != DOCS:
            cited |= cited_decisions(path.read_text(encoding="utf-8"))
    assert {1, 4, 5, 6, 8, 9, 10, 11, 15, 16} <= cited


@pytest.mark.parametrize("text, cites", [
    ("see docs/rules-decisions.md D16", {16}),
    ("(docs/rules-decisions.md D5, D8 and D12)", {5, 8, 12}),
    ("slot D1 of the grid", set()),                 # no citation without the page named
    ("docs/rules-decisions.md: DC-06 is a worked case", set()),
])
def test_citations_are_read_as_written(text, cites):
    assert cited_decisions(text) == cites


def test_nothing_cites_a_document_outside_the_repository():
    found = []
    for path in tracked_text_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(word in line for word in FOREIGN) or any(p.search(line) for p in FOREIGN_PATTERNS):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, "cites a document the repository does not contain:\n" + "\n".join(found)


def test_the_performance_page_lists_every_row_with_a_target():
    page = (DOCS / "performance.md").read_text(encoding="utf-8")
    missing = [row for row in TARGET_ROWS if f"| {row} |" not in page]
    assert not missing, f"docs/performance.md does not list these benchmark rows: {missing}"
