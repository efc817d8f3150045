"""The notebooks the grader writes for formgrader: nothing a learner wrote can run in the instructor's page,
and nothing of the instructor's hidden tests is left for formgrader to publish as feedback.

formgrader renders ``autograded/<student>/<assignment>/<assignment>.ipynb`` with nbconvert's HTMLExporter
and its ``formgrade`` template, on the Jupyter server's origin: markdown goes through ``markdown2html``,
which keeps raw HTML (``<script>``, ``<img onerror=...>``), and raw cells marked as HTML are copied as they
are. So every markdown cell that is not the instructor's own is rendered here with the same filter and
reduced to an allowlist of tags and attributes (bleach), and raw cells, learner-chosen cell and notebook
metadata and attachments are dropped or escaped. nbgrader's "Generate Feedback" copies test cells into
the student's feedback page, so hidden tests are removed from what is written (``ClearHiddenTests``).
"""

from __future__ import annotations

import html
import re
from typing import Any

TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em", "h1", "h2",
    "h3", "h4", "h5", "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "span", "strong", "sub",
    "summary", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ATTRIBUTES = {
    "a": ["href", "title"],
    "img": ["src", "alt", "title", "width", "height"],
    "td": ["align"],
    "th": ["align"],
}
PROTOCOLS = ["http", "https", "mailto"]
NOTEBOOK_METADATA = ("kernelspec", "language_info", "nbgrader")
CELL_METADATA = ("nbgrader", "deletable", "editable")
SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,200}")


def safe_markdown(source: str) -> str:
    """A learner's markdown as sanitised HTML that markdown2html passes through unchanged (one HTML block)."""
    import bleach
    from nbconvert.filters import markdown2html

    rendered = markdown2html(source)
    clean = bleach.clean(rendered, tags=TAGS, attributes=ATTRIBUTES, protocols=PROTOCOLS, strip_comments=True)
    clean = re.sub(r"\n\s*\n", "\n", clean)  # a blank line would end the HTML block and start markdown again
    return f'<div class="learner-markdown">\n{clean}\n</div>'


def make_inert(nb: Any, source: Any, config: Any) -> Any:
    """``nb`` (graded, about to be written for formgrader) with learner markup neutralised and hidden tests
    removed. ``source`` is the instructor's notebook: its own markdown cells stay as they are."""
    from nbgrader.preprocessors import ClearHiddenTests

    instructors = {c.source for c in source.cells if c.cell_type == "markdown"}
    nb.metadata = {k: v for k, v in nb.metadata.items() if k in NOTEBOOK_METADATA}
    for cell in nb.cells:
        cell.metadata = {k: v for k, v in cell.metadata.items() if k in CELL_METADATA}
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if not (isinstance(grade_id, str) and SAFE_ID.fullmatch(grade_id)):  # formgrader writes it into HTML
            cell.metadata.pop("nbgrader", None)
        cell.pop("attachments", None)
        if cell.cell_type == "markdown" and cell.source not in instructors:
            cell.source = safe_markdown(cell.source)
        elif cell.cell_type == "raw":
            cell.source = html.escape(cell.source)
    nb, _ = ClearHiddenTests(config=config).preprocess(nb, {})
    return nb
