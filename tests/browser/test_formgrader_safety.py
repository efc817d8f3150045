"""An instructor opening a graded submission in formgrader runs nothing the student wrote.

formgrader renders ``autograded/<student>/<assignment>/<assignment>.ipynb`` with nbconvert's HTMLExporter
and nbgrader's ``formgrade`` template, on the Jupyter server's origin. This test grades a submission full
of markup that would run script (markdown ``<script>``, ``<img onerror>``, ``<svg onload>``, an HTML raw
cell, printed and raised HTML), renders what ``grade`` wrote exactly as formgrader's handler does, and loads
it in Debian's Chromium: no script of the student's runs, while the same notebook unsanitised does run it
(so the probe works), and the student's words are still on the page.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_markdown_cell, new_raw_cell

from tests.probe import ID, RIGHT_ANSWER, make_course, submission

pytest.importorskip("playwright")
pytestmark = pytest.mark.browser

MARK = "window.__pwned = (window.__pwned || []).concat"
ATTACKS = [
    new_markdown_cell(f"My own explanation, in words.\n\n<script>{MARK}(['script'])</script>"),
    new_markdown_cell(
        f'<img src="nowhere.png" onerror="{MARK}([\'img\'])"> and <svg onload="{MARK}([\'svg\'])"></svg>'
    ),
    new_markdown_cell(f"<details open ontoggle=\"{MARK}(['details'])\"><summary>s</summary>x</details>"),
    new_raw_cell(f"<script>{MARK}(['raw'])</script>", metadata={"format": "text/html"}),
]
PRINTING = (
    f"print('<script>{MARK}([\"stdout\"])</script>')\n"
    + RIGHT_ANSWER
    + f"raise ValueError('<img src=x onerror=\"{MARK}([\\'error\\'])\">')\n"
)


def formgrader_html(notebook: Path, student: str) -> str:
    """The page formgrader's SubmissionHandler writes for this notebook (its exporter, its template)."""
    from nbconvert.exporters import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config import Config

    config = Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    resources = {
        "assignment_id": ID,
        "notebook_id": ID,
        "submission_id": "1",
        "index": 0,
        "total": 1,
        "base_url": "",
        "student": student,
        "last_name": "",
        "first_name": "",
        "notebook_path": f"autograded/{student}/{ID}/{ID}.ipynb",
    }
    html, _ = HTMLExporter(config=config).from_filename(str(notebook), resources=resources)
    return html


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    from autograder.grade import grade
    from autograder.parent.sandbox import bwrap_problem

    root = tmp_path_factory.mktemp("formgrader")
    (root / "course").mkdir()
    course = make_course(root / "course")
    nb = submission(PRINTING)
    nb.cells[1:1] = ATTACKS
    folder = root / "subs" / "mallory" / ID
    folder.mkdir(parents=True)
    nbformat.write(nb, folder / f"{ID}.ipynb")
    out = root / "out"
    sandbox = "none" if bwrap_problem() else "bwrap"
    records = grade(
        root / "subs", out, course_root=course, jobs=1, cell_timeout=20, sandbox_mode=sandbox, progress=False
    )
    assert records[f"mallory/{ID}"]["status"] == "ok", records
    graded = out / "nbgrader" / "autograded" / "mallory" / ID / f"{ID}.ipynb"
    found = {}
    for name, notebook in (("graded", graded), ("unsanitised", folder / f"{ID}.ipynb")):
        found[name] = root / f"{name}.html"
        found[name].write_text(formgrader_html(notebook, "mallory"), encoding="utf-8")
    return found


def _ran(playwright, page_file: Path) -> tuple[list[str], str]:
    from tests.browser import lab

    context = lab.chromium_context(playwright, page_file.parent / f"profile-{page_file.stem}")
    try:
        page = context.new_page()
        page.goto(page_file.as_uri())
        page.wait_for_timeout(1500)  # an image's onerror, a details' ontoggle: events after load
        return page.evaluate("window.__pwned || []"), page.inner_text("body")
    finally:
        context.close()


def test_no_script_of_the_students_runs_in_formgraders_page(pages, playwright):
    ran, text = _ran(playwright, pages["graded"])
    assert ran == [], f"student script ran in formgrader's page: {ran}"
    assert "My own explanation, in words." in text  # the student's words are still shown


def test_the_probe_would_see_the_script_run_in_the_unsanitised_notebook(pages, playwright):
    ran, _ = _ran(playwright, pages["unsanitised"])
    assert "script" in ran and "img" in ran, ran


def test_the_graded_notebook_formgrader_opens_holds_no_hidden_test(pages):
    graded = pages["graded"].parent / "out" / "nbgrader" / "autograded" / "mallory" / ID / f"{ID}.ipynb"
    text = graded.read_text(encoding="utf-8")
    assert "HIDDEN TESTS" not in text and "assert torch.allclose" not in text
    assert "HIDDEN TESTS" not in pages["graded"].read_text(encoding="utf-8")
