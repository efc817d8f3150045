"""The instructor's JupyterLab: nbgrader's formgrader lists the course and generates a student version.

The server is rooted at a temporary copy of the course (nbgrader needs the course root inside the server
root); generating writes into that copy only.
"""

from __future__ import annotations

import json
import shutil

import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import expect  # noqa: E402

from autograder.course_folder import assignments  # noqa: E402
from tests.browser import lab  # noqa: E402

pytestmark = pytest.mark.browser

ASSIGNMENT = "01_tensors"


def test_formgrader_opens_from_the_nbgrader_menu_and_lists_the_course(instructor_lab, instructor_page, shots):
    page = instructor_page
    page.goto(instructor_lab.server.url("/lab", reset=""))
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    menu = page.locator(".lm-Menu")
    expect(menu).to_contain_text("Formgrader")
    shots(page, "nbgrader-menu")
    menu.get_by_text("Formgrader", exact=True).click()
    formgrader = page.frame_locator("iframe[src*='formgrader']")
    expect(formgrader.locator("h1", has_text="Manage Assignments")).to_be_visible()
    table = formgrader.locator("#main-table")
    expected = assignments(instructor_lab.course)
    assert ASSIGNMENT in expected
    for assignment in expected:
        expect(table.locator("td.name a", has_text=assignment)).to_be_visible()
    shots(page, "formgrader-lists-assignments")


def test_generate_button_writes_the_student_version_into_release(instructor_lab, instructor_page, shots):
    page, course = instructor_page, instructor_lab.course
    release = course / "release" / ASSIGNMENT
    shutil.rmtree(release)
    page.goto(instructor_lab.server.url("/formgrader"))
    row = page.locator("#main-table tr").filter(has=page.locator("td.name a", has_text=ASSIGNMENT))
    expect(row).to_have_count(1)
    expect(row.locator("td.preview a")).to_have_count(0)  # nothing generated yet
    shots(page, "before-generate")

    row.locator("td.assign a").click()  # the "Generate" column
    modal = page.locator(".modal-dialog")
    expect(modal).to_contain_text(
        f"Successfully created the student version of '{ASSIGNMENT}'", timeout=lab.VALIDATE_TIMEOUT_MS
    )
    expect(modal.locator(".modal-title")).to_have_text("Success")
    shots(page, "generated")
    modal.locator(".modal-footer").get_by_role("button", name="OK").click()
    expect(modal).to_have_count(0)
    expect(row.locator("td.preview a")).to_have_count(1)  # the student version can now be previewed

    generated = release / f"{ASSIGNMENT}.ipynb"
    assert generated.is_file(), sorted(p.name for p in release.parent.iterdir())
    text = generated.read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in text and "BEGIN HIDDEN TESTS" not in text
    assert "raise NotImplementedError()" in text
    source = json.loads((course / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8"))
    student = json.loads(text)

    def grade_ids(nb: dict) -> list[str]:
        return [c["metadata"]["nbgrader"]["grade_id"] for c in nb["cells"] if "nbgrader" in c["metadata"]]

    assert grade_ids(student) == grade_ids(source)
