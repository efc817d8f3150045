"""Fixtures for the browser tests: a course copy, a JupyterLab server on it, Chromium, and screenshots.

Each test module gets its own server and browser (module scope); each test gets a fresh page, and its
kernels are shut down afterwards so that tests do not share state. On failure, a screenshot and the
server's log land in ``artifacts/browser/``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

try:
    from tests.browser import lab
except ModuleNotFoundError:  # no playwright (the test extra): each test module skips itself
    lab = None


@dataclass
class Lab:
    """A JupyterLab server over a temporary copy of the course, and a Chromium context to drive it."""

    course: Path
    server: lab.LabServer
    context: lab.BrowserContext


def _lab(tmp_path_factory, playwright, request, *, student: bool) -> Iterator[Lab]:
    tmp = tmp_path_factory.mktemp("lab")
    course = lab.copy_course(tmp / "course")
    root = course / "release" if student else course
    name = request.module.__name__.rsplit(".", 1)[-1]
    with lab.lab_server(course, root_dir=root, home=tmp / "home") as server:
        context = lab.chromium_context(playwright, tmp / "chromium-profile")
        try:
            yield Lab(course=course, server=server, context=context)
        finally:
            context.close()
    lab.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy2(server.log, lab.ARTIFACTS / f"{name}-jupyter-lab.log")


@pytest.fixture(scope="module")
def student_lab(tmp_path_factory, playwright, request) -> Iterator[Lab]:
    """JupyterLab as `make lab` starts it: rooted at the copy's ``release/``, cwd the course root."""
    yield from _lab(tmp_path_factory, playwright, request, student=True)


@pytest.fixture(scope="module")
def instructor_lab(tmp_path_factory, playwright, request) -> Iterator[Lab]:
    """JupyterLab rooted at the copy's course root, where nbgrader's formgrader manages the course."""
    yield from _lab(tmp_path_factory, playwright, request, student=False)


@pytest.fixture
def shots(request) -> lab.Shots:
    return lab.Shots(request.node.name)


def _page(the_lab: Lab, request, shots: lab.Shots):
    page = the_lab.context.new_page()
    try:
        yield page
    finally:
        report = getattr(request.node, "report_call", None)
        if report is not None and report.failed:
            try:
                shots(page, "FAILED")
            except Exception:  # noqa: BLE001 - the page may be gone; the test's own error matters
                pass
        page.close()
        the_lab.server.shutdown_kernels()


@pytest.fixture
def student_page(student_lab, request, shots):
    yield from _page(student_lab, request, shots)


@pytest.fixture
def instructor_page(instructor_lab, request, shots):
    yield from _page(instructor_lab, request, shots)
