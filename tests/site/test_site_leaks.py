"""No answer leaks: no file of the built site (pages, search index, downloads, the wheel's members) holds a
solution line or a hidden-test line of ``source/``.

Which lines count as secret: every line inside ``### BEGIN/END SOLUTION`` (a whole answer cell when it has
no markers: nbgrader replaces all of it) and ``### BEGIN/END HIDDEN TESTS``, whitespace collapsed, minus

* lines with fewer than 4 letters or digits (``pass``, ``)``, ``]``, ``else:``, ``x = 0``): such a line
  occurs in any Python program and in minified JavaScript, so finding one proves nothing;
* lines that are public anyway: they occur (as a substring, whitespace collapsed) in a release notebook
  (code or prose: a "predict" question's prose names both ``predict_x = True`` and ``= False``), in its
  ``hints.toml`` (released beside it; the last hint may nearly give the answer, by design), or in the
  ``course``/``autograder`` packages (served as the wheel the notebooks install), e.g. ``import torch``.

What is searched is what a reader sees: HTML with its tags removed and entities decoded (syntax
highlighting splits code into spans), notebooks and JSON by their strings, zip files member by member,
any other file as UTF-8 text. A control test checks that this search does find the release's visible code.
"""

from __future__ import annotations

import html
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from tests import notebooks as nbs

pytestmark = pytest.mark.slow

MARKERS = {
    "### BEGIN SOLUTION": "### END SOLUTION",
    "### BEGIN HIDDEN TESTS": "### END HIDDEN TESTS",
}
MIN_ALNUM = 4


def _norm(text: str) -> str:
    return " ".join(text.split())


def _between_markers(source: str) -> list[str]:
    lines, end = [], None
    for line in source.splitlines():
        stripped = line.strip()
        if end is None and stripped in MARKERS:
            end = MARKERS[stripped]
        elif end is not None and stripped == end:
            end = None
        elif end is not None:
            lines.append(line)
    return lines


def secret_lines(source: Path) -> list[str]:
    """The solution and hidden-test lines of one source notebook, whitespace collapsed."""
    found = []
    for cell in nbs.read(source).cells:
        meta = nbs.meta(cell)
        inside = _between_markers(cell.source)
        if meta.get("solution") and not any(m in cell.source for m in MARKERS):
            inside = cell.source.splitlines()  # no markers: nbgrader replaces the whole answer cell
        if meta.get("solution") or meta.get("grade"):
            found += [_norm(line) for line in inside]
    return found


def public_text() -> str:
    """Everything public anyway: release notebooks' cells, their hints and the packages' source."""
    parts = [c.source for a in nbs.assignments() for c in nbs.read(nbs.release_path(a)).cells]
    parts += [p.read_text(encoding="utf-8") for p in sorted(nbs.RELEASE.glob("*/hints.toml"))]
    for package in ("course", "autograder"):
        parts += [p.read_text(encoding="utf-8") for p in sorted((nbs.ROOT / package).rglob("*.py"))]
    return "\n".join(_norm(line) for part in parts for line in part.splitlines())


def secrets() -> dict[str, str]:
    """Secret line -> the assignment it comes from, after the filter in this module's docstring."""
    public = public_text()
    found = {}
    for assignment in nbs.assignments():
        for line in secret_lines(nbs.source_path(assignment)):
            if sum(ch.isalnum() for ch in line) >= MIN_ALNUM and line not in public:
                found.setdefault(line, assignment)
    return found


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def readable(name: str, data: bytes) -> str:
    """What a reader of the file sees, as text (see the module docstring)."""
    suffix = Path(name).suffix.lower()
    if suffix in {".whl", ".zip"}:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "\n".join(readable(member, archive.read(member)) for member in archive.namelist())
    text = data.decode("utf-8", errors="ignore")
    if suffix in {".html", ".htm"}:
        return html.unescape(re.sub(r"<[^>]+>", "", text))
    if suffix in {".ipynb", ".json"}:
        try:
            return "\n".join(_strings(json.loads(text)))
        except ValueError:
            return text
    return text


def site_text(site: Path) -> dict[str, str]:
    """Relative path -> normalised readable text, for every file of the site."""
    return {
        str(p.relative_to(site)): _norm(readable(p.name, p.read_bytes()))
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


def test_the_secret_lines_are_many_and_the_filter_keeps_most_of_them():
    kept = secrets()
    every = {line for a in nbs.assignments() for line in secret_lines(nbs.source_path(a)) if line}
    assert len(kept) >= 200, len(kept)
    assert len(kept) >= 0.6 * len(every), (len(kept), len(every))


def test_no_file_of_the_site_holds_a_solution_or_hidden_test_line(built_site):
    texts = site_text(built_site.out)
    assert any(name.endswith(".whl") for name in texts) and any(name.endswith(".ipynb") for name in texts)
    leaks = [
        f"{name}: {line!r} ({assignment})"
        for line, assignment in secrets().items()
        for name, text in texts.items()
        if line in text
    ]
    assert not leaks, "\n".join(leaks[:20])


def test_the_search_finds_the_visible_code_of_the_release_in_the_pages(built_site):
    """Control: the same search finds the release's visible test lines in the lesson pages."""
    texts = site_text(built_site.out)
    for assignment in nbs.assignments():
        page = texts[f"{assignment}/{assignment}.html"]
        visible = [
            _norm(line)
            for cell in nbs.grade_cells(nbs.read(nbs.release_path(assignment)))
            for line in cell.source.splitlines()
            if sum(ch.isalnum() for ch in line) >= MIN_ALNUM
        ]
        missing = [line for line in visible if line not in page]
        assert visible and not missing, (assignment, missing[:5])
