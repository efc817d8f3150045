"""A student asks the hub's grading service from JupyterLab in Chromium: a cell calls
``course.check_with_hidden_tests()`` in their notebook (their server's own token), and the terminal of the same
server runs ``python -m autograder check --hub``; both show check's table and the visible tests' hint.
Screenshots in artifacts/hub/<test>/."""

from __future__ import annotations

import re
import shutil
import time

import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import expect  # noqa: E402

from tests.browser import lab  # noqa: E402
from tests.hub import grader  # noqa: E402
from tests.hub.answers import ASSIGNMENT, ROOT, release_notebook, wrong  # noqa: E402
from tests.hub.conftest import GRADER  # noqa: E402
from tests.hub.hub import Hub  # noqa: E402
from tests.hub.test_browser_student import page  # noqa: E402,F401 (the fixture: Chromium page + screenshots)

pytestmark = [pytest.mark.hub, pytest.mark.browser]

STUDENT = "erin"  # her server is already up when test_browser_student.py ran first
FOLDER = f"practice/{ASSIGNMENT}"
CALL = "import course\ncourse.check_with_hidden_tests()"


def test_a_student_sees_the_hidden_test_verdict_of_their_notebook_from_a_cell_and_the_terminal(hub: Hub, page):  # noqa: F811
    page, shots = page
    grader.wait_until_up(hub)
    home = hub.home(STUDENT)
    notebook = wrong(release_notebook())
    notebook["cells"].append(
        {"cell_type": "code", "metadata": {}, "source": CALL, "outputs": [], "execution_count": None}
    )
    grader.write(home, f"{FOLDER}/{ASSIGNMENT}.ipynb", notebook)
    shutil.copy2(ROOT / "release" / ASSIGNMENT / "hints.toml", home / FOLDER / "hints.toml")

    page.goto(f"{hub.url}/hub/login")
    page.locator("#username_input").fill(STUDENT)
    page.locator("#password_input").fill(hub.password)
    page.locator("#login_submit").click()
    expect(page).to_have_url(re.compile(rf"/user/{STUDENT}/lab"), timeout=150_000)
    page.goto(f"{hub.url}/user/{STUDENT}/lab/tree/{FOLDER}/{ASSIGNMENT}.ipynb?reset")
    cells = lab.Notebook(page)
    expect(cells.panel.locator(".jp-Notebook .jp-Cell")).to_have_count(len(notebook["cells"]))
    cells.wait_idle()
    output = cells.run(len(notebook["cells"]) - 1)
    cells.show_output(len(notebook["cells"]) - 1)
    shots(page, "hidden-tests-from-the-hub")
    assert f"hidden tests on the class hub: {ASSIGNMENT}" in output, output
    assert re.search(r"test_make_inputs\s+0 / 2\s+FAIL\s+.*torch\.float32", output), output
    assert "test_make_inputs: 提示 (hint) 1 / " in output and "score 12 / 14" in output, output
    for line in grader.hidden_test_lines(ASSIGNMENT):
        assert line not in output, line

    time.sleep(float(GRADER["COURSE_GRADER_COOLDOWN_S"]) + 0.5)
    result = hub.run(STUDENT, f"cd ~/{FOLDER} && python -m autograder check --hub {ASSIGNMENT}.ipynb")
    assert result.status == 0, result.output
    table = output[output.index("question") : output.index("score 12 / 14")]
    assert " ".join(table.split()) in " ".join(result.output.split()), result.output
    assert "next check allowed at" in result.output or "score 12 / 14" in result.output
