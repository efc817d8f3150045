"""The course map a self-study learner looks at: `autograder progress` writes it beside the notebooks, and
the course home page in JupyterLab opens it with one tile per assignment and the failing questions named."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import nbformat
import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import expect  # noqa: E402

from tests import notebooks as nbs  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_home_page_opens_the_course_map_with_a_tile_per_assignment(student_lab, student_page, shots):
    release = student_lab.course / "release"
    for assignment in ("01_tensors", "02_shapes"):  # two done, the rest untouched
        nbformat.write(nbs.honest_submission(assignment), release / assignment / f"{assignment}.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "progress", str(release), "--course", str(student_lab.course)],
        capture_output=True,
        text=True,
        timeout=900,
        env=dict(os.environ, AUTOGRADER_NO_SERVER="1"),
    )
    assert done.returncode == 0, done.stderr
    assert "next: 03_broadcasting" in done.stdout, done.stdout

    page = student_page
    page.goto(student_lab.server.url("/", reset=""))
    home = page.locator(".jp-RenderedMarkdown").filter(has_text="课程地图")
    link = home.get_by_role("link", name=re.compile("课程地图"))
    expect(link).to_be_visible()
    shots(page, "home-page-links-the-map")
    link.click()
    frame = page.frame_locator("iframe").first
    expect(frame.get_by_role("heading", level=1)).to_contain_text("课程地图")
    tiles = frame.locator("section.tile")
    expect(tiles).to_have_count(len(nbs.assignments()))
    expect(tiles.filter(has_text="01_tensors")).to_have_class(re.compile(r"\bdone\b"))
    shapes = nbs.max_score("02_shapes")
    expect(tiles.filter(has_text="02_shapes")).to_contain_text(f"{shapes:g} / {shapes:g}")
    broadcasting = tiles.filter(has_text="03_broadcasting")
    expect(broadcasting).to_contain_text(f"0 / {nbs.max_score('03_broadcasting'):g}")
    expect(broadcasting.locator("li").first).to_be_visible()  # the failing questions, named
    expect(frame.locator("body")).to_contain_text("下一步 (next)：03_broadcasting")
    shots(page, "course-map")
