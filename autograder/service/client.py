"""The student's side: ask the hub's grading service about one's own saved notebook, show the answer.

Used by ``course.check_with_hidden_tests()`` in a notebook and ``python -m autograder check --hub`` in a
terminal of the student's server. Both use that server's own hub token (``$JUPYTERHUB_API_TOKEN``) and the
service's address (``$COURSE_GRADER_URL``, which the hub's configuration gives every server). The answer
is printed as ``check`` prints it, with the hints the visible tests give beside each failed question.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder import check
from autograder.errors import AutograderError

TIMEOUT_S = 1200


@dataclass
class HubAnswer:
    """The service's verdict (as ``check`` computes it) and when the next check is allowed (None: now)."""

    result: check.CheckResult
    next_at: str | None
    limit: str = ""

    def __repr__(self) -> str:  # a notebook shows this under the printed table: keep it one line
        return f"<{self.result.assignment}: score {self.result.score:g} / {self.result.max_score:g}>"


def ask(assignment: str, path: str, *, url: str | None = None, token: str | None = None) -> HubAnswer:
    """POST the request; AutograderError with the service's one-line reason when it refuses."""
    url = url or os.environ.get("COURSE_GRADER_URL", "")
    token = token or os.environ.get("JUPYTERHUB_API_TOKEN", "")
    if not url or not token:
        raise AutograderError(
            "no grading service here: --hub works in a terminal or notebook of your server on the class hub "
            "(it needs $COURSE_GRADER_URL and $JUPYTERHUB_API_TOKEN)"
        )
    body = json.dumps({"assignment": assignment, "path": path}).encode()
    headers = {"Authorization": f"token {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(url.rstrip("/") + "/api/check", data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        try:
            reason = json.loads(exc.read()).get("error") or exc.reason
        except ValueError:
            reason = exc.reason
        raise AutograderError(f"the grading service answered {exc.code}: {reason}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise AutograderError(f"the grading service cannot be reached at {url}: {exc}") from None
    return HubAnswer(from_json(answer["result"]), answer.get("next_at"), answer.get("limit") or "")


def from_json(data: dict[str, Any]) -> check.CheckResult:
    """A CheckResult from ``check --json``'s object."""
    questions = [check.question_from_json(q) for q in data["questions"]]
    return check.CheckResult(
        notebook=data.get("notebook", ""),
        assignment=data["assignment"],
        hidden_tests=bool(data["hidden_tests"]),
        questions=questions,
        status=data["status"],
        note=data.get("note", ""),
    )


def hint_lines(result: check.CheckResult, folder: Path) -> list[str]:
    """For each failed question, the hint its visible test would show now (from the notebook's folder)."""
    from course import hints

    texts, state = hints.load(folder), hints._state(folder)
    lines = []
    for q in result.questions:
        name = q.grade_id.removeprefix("test_")
        if q.passed or not texts.get(name):
            continue
        k = min(max(state.get(name, 0), 1), len(texts[name]))
        lines.append(f"{q.grade_id}: 提示 (hint) {k} / {len(texts[name])}：{texts[name][k - 1]}")
    return lines


def render(answer: HubAnswer, folder: Path) -> str:
    """``check``'s table, the hints, and when the next check is allowed."""
    lines = [f"hidden tests on the class hub: {answer.result.assignment}", check.format_table(answer.result)]
    lines += hint_lines(answer.result, folder)
    if answer.next_at:
        lines.append(f"next check allowed at {answer.next_at} ({answer.limit})")
    return "\n".join(lines)


def relative_to_home(notebook: Path) -> str:
    """The notebook's path inside the home, as the service reads it; AutograderError if outside."""
    home = Path(os.environ.get("HOME") or Path.home()).resolve()
    full = notebook.resolve() if notebook.is_absolute() else (Path.cwd() / notebook).resolve()
    if not full.is_relative_to(home):
        raise AutograderError(f"{notebook} is not in your home ({home}): the grading service reads only from there")
    return full.relative_to(home).as_posix()


def current_notebook() -> Path:
    """The notebook this kernel belongs to (JupyterLab sets $JPY_SESSION_NAME), else the folder's own."""
    name = os.environ.get("JPY_SESSION_NAME", "")
    if name.endswith(".ipynb"):
        path = Path(name)
        if not path.is_absolute():
            path = Path(os.environ.get("HOME") or Path.home()) / path
        return path
    folder = Path.cwd()
    return folder / f"{folder.name}.ipynb"


def guess_assignment(notebook: Path) -> str:
    """The assignment id from the notebook's folder (``01_tensors/``), else from its file name."""
    return notebook.parent.name if re.match(r"\d\d_", notebook.parent.name) else notebook.stem


def check_with_hidden_tests(notebook: str | Path | None = None, *, assignment: str | None = None) -> HubAnswer:
    """Ask the hub's grading service for the hidden-test verdict of this notebook (as saved: press Ctrl+S
    first) and print the table; returns the answer (``.result.score``, ``.result.questions``)."""
    path = Path(notebook) if notebook is not None else current_notebook()
    assignment = assignment or guess_assignment(path)
    answer = ask(assignment, relative_to_home(path))
    print(render(answer, path.parent if path.is_absolute() else Path.cwd() / path.parent))
    return answer
