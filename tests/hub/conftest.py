"""Fixtures for the hub tests: one real JupyterHub for the session, and the course released on it.

The hub's log is copied to ``artifacts/hub/jupyterhub.log`` after the session; screenshots of the browser
test go to ``artifacts/hub/<test>/``.
"""

from __future__ import annotations

import importlib.util
import shutil
from collections.abc import Iterator

import pytest

from tests.hub import hub as hubs
from tests.hub.answers import ASSIGNMENT

ARTIFACTS = hubs.ROOT / "artifacts" / "hub"
INSTRUCTOR = "instructor"
# alice: right answer, after a wrong one (submits twice); bob: a wrong answer; carol: never fetches;
# dana: submits after the due date; erin: works in Chromium (test_browser_student.py).
STUDENTS = ["alice", "bob", "carol", "dana", "erin"]
# The grading service's limits in the tests (test_grader_service.py): short, so that a test can wait them out.
GRADER = {
    "COURSE_GRADER_COOLDOWN_S": "2",
    "COURSE_GRADER_PER_HOUR": "2",
    "COURSE_GRADER_CELL_TIMEOUT": "25",  # a first answer (a cold grader: torch imported) takes about 15 s here
    "COURSE_GRADER_NOTEBOOK_TIMEOUT": "90",
    "COURSE_GRADER_WORKERS": "2",
    "COURSE_GRADER_QUEUE": "4",
    "COURSE_GRADER_MAX_BYTES": "2000000",
}


@pytest.fixture(scope="session")
def hub(tmp_path_factory) -> Iterator[hubs.Hub]:
    if importlib.util.find_spec("jupyterhub") is None:
        pytest.skip("jupyterhub is not installed: pip install -e '.[test]'")
    if hubs.proxy_command() is None:
        pytest.skip("configurable-http-proxy not found: `make hub-proxy` installs it into .venv (needs npm)")
    tmp = tmp_path_factory.mktemp("hub")
    try:
        with hubs.running_hub(tmp, instructors=[INSTRUCTOR], students=STUDENTS, grader=GRADER) as running:
            yield running
    finally:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if (tmp / "jupyterhub.log").exists():
            shutil.copy2(tmp / "jupyterhub.log", ARTIFACTS / "jupyterhub.log")


@pytest.fixture(scope="session")
def released(hub: hubs.Hub) -> hubs.CommandResult:
    """The instructor's first steps on the hub, in a terminal of their own server: the class list into the
    gradebook, then ``nbgrader release_assignment 01_tensors``."""
    hub.start_server(INSTRUCTOR)
    roster = " && ".join(f"nbgrader db student add {name}" for name in STUDENTS)
    result = hub.run(INSTRUCTOR, f"cd ~/course && {roster} && nbgrader release_assignment {ASSIGNMENT}")
    assert result.status == 0, result.output
    return result
