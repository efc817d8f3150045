"""A student on the hub in a real browser: log in, fetch 01_tensors from the Assignments tab, answer with
instant feedback, submit, and, after the instructor has graded, fetch the feedback and read it.

Debian's Chromium through Playwright, as tests/browser does; screenshots of each step go to
artifacts/hub/<test>/. The instructor's part (collect, grade, release feedback) runs in their terminal.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import Page, expect  # noqa: E402

from tests.browser import lab  # noqa: E402
from tests.hub import classroom  # noqa: E402
from tests.hub.answers import ASSIGNMENT, WRONG_ANSWER, WRONG_ID, solutions  # noqa: E402
from tests.hub.conftest import ARTIFACTS, INSTRUCTOR  # noqa: E402
from tests.hub.hub import Hub  # noqa: E402

pytestmark = [pytest.mark.hub, pytest.mark.browser]

STUDENT = "erin"
PASSED = "可见测试 (visible tests) 通过"
# The instructor's own answer (a NumPy input may be read-only or have negative strides).
CORRECT = solutions()[WRONG_ID]


class Shots(lab.Shots):
    """tests/browser's numbered screenshots, under artifacts/hub/<test>/."""

    def __init__(self, name: str) -> None:
        self.folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
        self.folder.mkdir(parents=True, exist_ok=True)
        for old in self.folder.glob("*.png"):
            old.unlink()
        self.count = 0


@pytest.fixture
def page(playwright, tmp_path, request):
    """A fresh Chromium profile and page; a screenshot of the page when the test fails."""
    context = lab.chromium_context(playwright, tmp_path / "chromium-profile")
    page = context.new_page()
    shots = Shots(request.node.name)
    try:
        yield page, shots
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            shots(page, "FAILED")
        context.close()


def _assignments_tab(page: Page) -> None:
    """Nbgrader menu -> Assignment List, as a student opens it; wait until the lists have loaded."""
    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    page.locator(".lm-Menu").get_by_text("Assignment List", exact=True).click()
    expect(page.locator("#released_assignments_list_loading")).to_be_hidden()
    expect(page.locator("#fetched_assignments_list_loading")).to_be_hidden()


def _item(page: Page, listing: str):
    return page.locator(f"#{listing}_assignments_list > .list_item").filter(has_text=ASSIGNMENT)


def test_student_fetches_works_submits_and_reads_feedback_in_chromium(hub: Hub, released, page):
    page, shots = page
    page.goto(f"{hub.url}/hub/login")
    page.locator("#username_input").fill(STUDENT)
    page.locator("#password_input").fill(hub.password)
    shots(page, "hub-login")
    page.locator("#login_submit").click()
    expect(page).to_have_url(re.compile(rf"/user/{STUDENT}/lab"), timeout=150_000)
    expect(page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader")).to_be_visible(timeout=lab.CELL_TIMEOUT_MS)

    page.locator(".lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    menu = page.locator(".lm-Menu")
    expect(menu.get_by_text("Assignment List", exact=True)).to_be_visible()
    expect(menu.get_by_text("Formgrader", exact=True)).to_have_count(0)  # a student's menu
    shots(page, "nbgrader-menu-of-a-student")
    page.keyboard.press("Escape")

    _assignments_tab(page)
    released_item = _item(page, "released")
    expect(released_item).to_be_visible()
    shots(page, "assignments-tab-released")
    released_item.get_by_role("button", name="Fetch").click()
    expect(_item(page, "fetched")).to_be_visible()
    shots(page, "fetched")
    assert (hub.home(STUDENT) / classroom.NOTEBOOK).is_file()

    # Work it: the first answer, wrong then right, with the visible tests' instant feedback; then save.
    page.goto(f"{hub.url}/user/{STUDENT}/lab/tree/{classroom.NOTEBOOK}?reset")
    cells = hub.read_notebook(STUDENT, classroom.NOTEBOOK)["cells"]
    notebook = lab.Notebook(page)
    expect(notebook.panel.locator(".jp-Notebook .jp-Cell")).to_have_count(len(cells))
    notebook.wait_idle()
    answer = _index(cells, "make_inputs")
    test = _index(cells, "test_make_inputs")
    notebook.run(next(i for i, c in enumerate(cells) if "import torch" in "".join(c["source"])))
    notebook.set_source(answer, WRONG_ANSWER)
    notebook.run(answer)
    output = notebook.run(test, expect_error="dtype")
    assert "torch.float32" in output and "torch.int64" in output, output
    notebook.show_output(test)
    shots(page, "wrong-answer-names-dtype")
    notebook.set_source(answer, CORRECT)
    notebook.run(answer)
    assert PASSED in notebook.run(test)
    notebook.show_output(test)
    shots(page, "right-answer-passes")
    page.keyboard.press("ControlOrMeta+s")
    expect(page.locator(".jp-mod-current .jp-mod-dirty")).to_have_count(0)

    _assignments_tab(page)
    _item(page, "fetched").get_by_role("button", name="Submit").click()
    submitted = _item(page, "submitted")
    expect(submitted).to_be_visible()
    shots(page, "submitted")

    classroom.collect_grade_and_return(hub, INSTRUCTOR)

    page.locator("#refresh_assignments_list").click()
    fetch_feedback = submitted.get_by_role("button", name="Fetch Feedback")
    expect(fetch_feedback).to_be_enabled()
    shots(page, "feedback-available")
    fetch_feedback.click()
    view = submitted.get_by_text("(view feedback)")
    expect(view).to_be_visible()
    shots(page, "feedback-fetched")
    view.click()
    listing = page.locator(".jp-DirListing-item", has_text=f"{ASSIGNMENT}.html")
    expect(listing).to_be_visible()
    listing.dblclick()
    frame = page.frame_locator(".jp-HTMLViewer iframe")
    body = frame.locator("body")
    expect(body).to_contain_text("make_inputs")
    expect(body).not_to_contain_text("BEGIN HIDDEN TESTS")
    shots(page, "feedback-page")
    text = body.inner_text()
    assert "NotImplementedError" in text, text[:2000]  # the answers erin left blank, named as such


def _index(cells: list[dict], grade_id: str) -> int:
    return next(i for i, c in enumerate(cells) if c["metadata"].get("nbgrader", {}).get("grade_id") == grade_id)
