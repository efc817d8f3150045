"""What the people in a class do on the hub, as steps the tests take: students through their Assignments tab
(nbgrader's assignment-list API in their own server), the instructor by typing commands into a terminal of
their own server."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from functools import cache

from tests.hub.answers import ASSIGNMENT
from tests.hub.hub import ROOT, CommandResult, Hub, HubError

NOTEBOOK = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"


@cache
def grader_has_nbgrader_course() -> bool:
    """Whether ``python -m autograder grade`` has the ``--nbgrader-course`` form yet."""
    command = [sys.executable, "-m", "autograder", "grade", "--help"]
    return "--nbgrader-course" in subprocess.run(command, capture_output=True, text=True, cwd=ROOT).stdout


def grade_command(jobs: int = 2) -> str:
    """What the instructor types to grade the class in ``~/course`` (collected submissions, graded in place)."""
    if grader_has_nbgrader_course():
        grade = f'python -m autograder grade --nbgrader-course "$course" --jobs {jobs} --quiet'
    else:  # BRIDGE until --nbgrader-course is on main: the existing form, results moved into the course
        grade = f'python {ROOT / "tests" / "hub" / "bridge.py"} "$course" --jobs {jobs}'
    # WORKAROUND (grader sandbox, reported): as root, a HOME other than the account's own (local accounts give
    # each hub user one) leaves /root unhidden, so its 0700 mode keeps the sandboxed, unprivileged learner
    # process out of a Python installed under /root (ModuleNotFoundError inside the sandbox). The account's
    # own home restores the grader's usual view; with real accounts it is the same value.
    return f'course="$HOME/course"; HOME="$(getent passwd "$(id -u)" | cut -d: -f6)" {grade}'


def instructor(hub: Hub, user: str, command: str, *, timeout: float = 600) -> CommandResult:
    """A command in the instructor's terminal, in the course folder; fails the test if it fails."""
    result = hub.run(user, f"cd ~/course && {command}", timeout=timeout)
    if result.status != 0:
        raise HubError(f"`{command}` failed ({result.status}) in {user}'s terminal:\n{result.output[-4000:]}")
    return result


def collect_grade_and_return(hub: Hub, user: str) -> dict[str, CommandResult]:
    """Collect every newest submission, grade the class, release the feedback: the instructor's three steps."""
    return {
        "collect": instructor(hub, user, f"nbgrader collect --update {ASSIGNMENT}"),
        "grade": instructor(hub, user, grade_command()),
        "release_feedback": instructor(hub, user, f"nbgrader release_feedback {ASSIGNMENT}"),
    }


def set_due_date_now(hub: Hub, user: str) -> datetime:
    """The instructor sets the assignment's due date to this moment (UTC, as nbgrader stores it)."""
    now = datetime.now(UTC).replace(tzinfo=None)
    instructor(hub, user, f"nbgrader db assignment add {ASSIGNMENT} --duedate='{now.isoformat(sep=' ')} UTC'")
    return now


def status(listing: list[dict], status: str) -> list[dict]:
    """The entries of an Assignments tab listing with this status (released, fetched, submitted)."""
    return [entry for entry in listing if entry["status"] == status and entry["assignment_id"] == ASSIGNMENT]


def work_and_submit(hub: Hub, student: str, make_answer) -> dict:
    """Save ``make_answer(fetched notebook)`` over the fetched notebook, as saving in JupyterLab does, and press
    Submit; nbgrader's answer."""
    notebook = hub.read_notebook(student, NOTEBOOK)
    hub.save_notebook(student, NOTEBOOK, make_answer(notebook))
    return hub.assignment_action(student, "submit", ASSIGNMENT)
