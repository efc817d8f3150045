"""The learner's JupyterLab, as `make lab` starts it: home page, answering with feedback, Validate, rich outputs.

Every test runs against a temporary copy of the course; screenshots of each step go to artifacts/browser/.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import Page, expect  # noqa: E402

from tests import notebooks as nbs  # noqa: E402
from tests.browser import lab  # noqa: E402
from tests.browser.lab import Notebook  # noqa: E402

pytestmark = pytest.mark.browser

NOTEBOOK = "01_tensors/01_tensors.ipynb"
PASSED = "可见测试 (visible tests) 通过"
# A NumPy array may be read-only or have negative strides (np.flip): np.array always copies into a fresh one.
CORRECT = (
    "def make_inputs(values) -> torch.Tensor:\n"
    "    if isinstance(values, torch.Tensor):\n"
    "        return values.to(torch.float32, copy=True)\n"
    "    return torch.from_numpy(np.array(values, dtype=np.float32))\n"
)
WRONG = "def make_inputs(values) -> torch.Tensor:\n    return torch.tensor(values)\n"


def _pristine(the_lab, name: str) -> tuple[str, list[dict]]:
    """A fresh copy of the repository's 01_tensors release notebook in the course copy, as ``01_tensors/<name>``.

    Each test works on its own file: Validate saves the notebook, and a saved one carries outputs.
    """
    path = f"01_tensors/{name}"
    shutil.copy2(lab.ROOT / "release" / NOTEBOOK, the_lab.course / "release" / path)
    return path, _cells(the_lab.course / "release" / path)


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _index(cells: list[dict], *, grade_id: str | None = None, contains: str | None = None) -> int:
    """The index of the cell with nbgrader ``grade_id``, or of the first code cell whose source has ``contains``."""
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if grade_id is not None and cell["metadata"].get("nbgrader", {}).get("grade_id") == grade_id:
            return i
        if contains is not None and cell["cell_type"] == "code" and contains in source:
            return i
    raise KeyError(grade_id or contains)


def _validate(page: Page, notebook: Notebook, shots: lab.Shots, step: str) -> str:
    """Press nbgrader's Validate button, wait for its result dialog, screenshot it, close it; the dialog's text."""
    button = notebook.panel.locator(".jp-NotebookPanel-toolbar .validate-button")
    expect(button).to_have_text("Validate")
    button.click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog.locator(".jp-Dialog-header")).to_have_text("Validation Results", timeout=lab.VALIDATE_TIMEOUT_MS)
    body = dialog.locator(".jp-Dialog-body")
    text = body.inner_text()
    shots(page, step)
    dialog.get_by_role("button", name="Ok").click()
    expect(dialog).to_have_count(0)
    expect(button).to_have_text("Validate")
    return text


def test_make_lab_serves_release_on_loopback_and_opens_the_course_home_page():
    """What `make lab` runs is what these tests start: loopback, release/ as root, README.md rendered first."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    dry = subprocess.run(["make", "-n", "-B", "lab"], cwd=lab.ROOT, capture_output=True, text=True, timeout=60)
    assert dry.returncode == 0, dry.stderr
    lines = dry.stdout.replace("\\\n", " ").splitlines()
    command = next(ln for ln in lines if " -m jupyter lab" in ln)
    args = shlex.split(command)
    for arg in [*lab.LAB_ARGS, "--ServerApp.root_dir=release"]:
        assert arg in args, f"`make lab` lacks {arg}: {command}"
    assert re.match(r"PATH=\S*\.venv/bin:", command), f"`make lab` must put .venv/bin first on PATH: {command}"
    overrides = next(ln for ln in lines if "overrides.json" in ln and ln.startswith("echo"))
    assert json.loads(shlex.split(overrides)[1]) == lab.LAB_OVERRIDES, overrides


def test_home_page_is_the_rendered_course_readme_and_links_to_the_first_assignment(student_lab, student_page, shots):
    page = student_page
    page.goto(student_lab.server.url("/", reset=""))
    expect(page).to_have_url(re.compile(rf"/lab/tree/{lab.HOME_PAGE}"))
    home = page.locator(".jp-RenderedMarkdown").filter(has_text="作业顺序")
    expect(home).to_be_visible()
    expect(home.get_by_role("heading", level=1)).to_contain_text("PyTorch")
    for assignment in ("01_tensors", "05_autograd", "10_lenet_mnist"):
        expect(home.get_by_role("link", name=assignment, exact=True)).to_be_visible()
    expect(home).to_contain_text("python -m autograder check release/01_tensors/01_tensors.ipynb")
    expect(home).to_contain_text("score X / Y")
    shots(page, "home-page")
    home.get_by_role("link", name="01_tensors", exact=True).click()
    expect(page.locator(".jp-NotebookPanel .jp-Cell").first).to_be_visible()
    expect(page.get_by_role("tab", name="01_tensors.ipynb")).to_have_attribute("aria-selected", "true")
    shots(page, "link-opens-01_tensors")


def test_student_answers_gets_targeted_feedback_and_validates(student_lab, student_page, shots):
    page = student_page
    path, cells = _pristine(student_lab, "01_tensors.ipynb")
    answer, test = _index(cells, grade_id="make_inputs"), _index(cells, grade_id="test_make_inputs")
    notebook = Notebook.open(page, student_lab.server, path)
    shots(page, "opened")

    notebook.run(_index(cells, contains="import torch"))
    notebook.set_source(answer, CORRECT)
    notebook.run(answer)
    output = notebook.run(test)
    assert PASSED in output and "make_inputs" in output, output
    notebook.show_output(test)
    shots(page, "correct-answer-passes")

    notebook.set_source(answer, WRONG)
    notebook.run(answer)
    output = notebook.run(test, expect_error="dtype")
    assert "CheckError" in output and "torch.float32" in output and "torch.int64" in output, output
    notebook.show_output(test)
    shots(page, "wrong-answer-names-dtype")

    text = _validate(page, notebook, shots, "validate-fails-on-dtype")
    assert "The following cell failed" in text and "dtype" in text, text

    for grade_id, solution in nbs.solutions(student_lab.course / "source" / "01_tensors" / "01_tensors.ipynb").items():
        notebook.set_source(_index(cells, grade_id=grade_id), solution)
    text = _validate(page, notebook, shots, "validate-passes-with-every-answer")
    assert "Success! Your notebook passes all the tests." in text, text


def test_figure_cell_renders_the_rand_randn_histograms_as_an_image(student_lab, student_page, shots):
    page = student_page
    path, cells = _pristine(student_lab, "01_tensors_figure.ipynb")
    notebook = Notebook.open(page, student_lab.server, path)
    notebook.run(_index(cells, contains="import torch"))
    figure = _index(cells, contains="torch.randn: standard normal")
    output = notebook.run(figure)
    assert "randn: min=" in output, output
    image = notebook.cell(figure).locator(".jp-OutputArea-output img")
    expect(image).to_be_visible()
    expect(image).to_have_attribute("src", re.compile(r"^data:image/png;base64,"))
    width = image.evaluate("img => img.complete ? img.naturalWidth : 0")
    assert width > 300, f"the figure did not decode (naturalWidth {width})"
    notebook.show_output(figure)
    shots(page, "histograms")


def test_tqdm_progress_bar_renders_as_a_widget(student_lab, student_page, shots):
    scratch = student_lab.course / "release" / "scratch_tqdm.ipynb"
    source = "from tqdm.auto import tqdm\n\nfor _ in tqdm(range(3), desc='epochs'):\n    pass"
    scratch.write_text(json.dumps(lab.new_notebook([source])), encoding="utf-8")
    notebook = Notebook.open(student_page, student_lab.server, scratch.name)
    notebook.run(0)
    progress = student_page.locator(".jupyter-widgets.widget-hprogress")
    bar = notebook.cell(0).locator(".jp-OutputArea-output .widget-hbox").filter(has=progress)
    expect(bar.locator(".widget-hprogress")).to_be_visible()  # an ipywidgets FloatProgress, not text
    expect(bar).to_contain_text("epochs")
    expect(bar).to_contain_text("100%")
    expect(bar).to_contain_text("3/3")
    shots(student_page, "tqdm-widget")


def test_a_syntax_error_in_a_locked_cell_fails_the_same_helper(student_lab, student_page, shots):
    """The helper that checks each cell above must not pass a broken notebook: it raises on the error."""
    release = student_lab.course / "release"
    nb = json.loads((lab.ROOT / "release" / NOTEBOOK).read_text(encoding="utf-8"))
    test = _index(nb["cells"], grade_id="test_make_inputs")
    assert nb["cells"][test]["metadata"]["nbgrader"]["locked"] is True
    nb["cells"][test]["source"] = [
        "checks.check_tensor(make_inputs([[1, 2], [3, 4]]),\n",
        "checks.passed('make_inputs')\n",
    ]
    broken = "01_tensors/01_tensors_broken.ipynb"
    (release / broken).write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")

    notebook = Notebook.open(student_page, student_lab.server, broken)
    notebook.run(_index(nb["cells"], contains="import torch"))
    answer = _index(nb["cells"], grade_id="make_inputs")
    notebook.set_source(answer, CORRECT)
    notebook.run(answer)
    with pytest.raises(AssertionError, match="SyntaxError"):
        notebook.run(test)
    notebook.show_output(test)
    shots(student_page, "syntax-error-detected")
