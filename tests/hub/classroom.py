"""What the people in a class do on the hub, as steps the tests take: students through their Assignments tab
(nbgrader's assignment-list API in their own server), the instructor by typing commands into a terminal of
their own server."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.hub.answers import ASSIGNMENT
from tests.hub.hub import CommandResult, Hub, HubError

NOTEBOOK = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"


def grade_command(jobs: int = 2) -> str:
    """What the instructor types to grade the class in ``~/course`` (collected submissions, graded in place)."""
    return f'python -m autograder grade --nbgrader-course "$HOME/course" --jobs {jobs} --quiet'


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
