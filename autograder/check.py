"""Grade one notebook locally: with the hidden tests through nbgrader when ``source/`` is there,
with the visible tests alone when it is not. Never shows hidden test code, only the messages."""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from autograder import course as course_mod
from autograder import nbgrader_api
from autograder.errors import AutograderError

STUDENT = "self-check"
VISIBLE_ONLY_NOTE = "visible tests only: source/ not found, so hidden tests were not run (they run at grading)"


@dataclass
class Question:
    grade_id: str
    points: float
    max_points: float
    passed: bool
    message: str


@dataclass
class CheckResult:
    notebook: str
    assignment: str | None
    hidden_tests: bool
    questions: list[Question] = field(default_factory=list)

    @property
    def score(self) -> float:
        return sum(q.points for q in self.questions)

    @property
    def max_score(self) -> float:
        return sum(q.max_points for q in self.questions)

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "max_score": self.max_score,
            "hidden_tests": self.hidden_tests,
            "assignment": self.assignment,
            "questions": [asdict(q) for q in self.questions],
        }


def read_notebook(path: Path) -> Any:
    """Read and validate a notebook; every problem becomes one AutograderError line."""
    import nbformat

    if not path.exists():
        raise AutograderError(f"notebook not found: {path}")
    if not path.is_file():
        raise AutograderError(f"not a notebook file: {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise AutograderError(f"{path} is not UTF-8 text, so it is not a notebook") from None
    if not text.strip():
        raise AutograderError(f"{path} is empty")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AutograderError(f"{path} is not valid notebook JSON (line {exc.lineno}: {exc.msg})") from None
    if not isinstance(raw, dict) or not ("cells" in raw or "worksheets" in raw):  # nbformat 4 / 3
        raise AutograderError(f"{path} is JSON but not a notebook (no 'cells')")
    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise AutograderError(f"{path} is not a valid notebook: {first}") from None
    return nb


def test_cells(nb: Any) -> dict[str, Any]:
    """The autograded test cells of a notebook by grade_id, in notebook order (code, grade, no solution)."""
    cells = {}
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("nbgrader", {})
        if cell.cell_type == "code" and meta.get("grade") and not meta.get("solution") and "grade_id" in meta:
            cells[meta["grade_id"]] = cell
    return cells


def cell_message(cell: Any) -> str:
    """The learner-facing message of an executed test cell: its error, or its stderr; '' if it passed."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            ename, evalue = output.get("ename", "Error"), str(output.get("evalue", "")).strip()
            if ename in ("CheckError", "AssertionError") and evalue:
                return evalue
            if ename == "NotImplementedError":
                return "还没有作答 (NotImplementedError)：删掉 raise NotImplementedError()，写出你的答案"
            if ename == "AssertionError":
                return "AssertionError（测试未通过，没有说明）"
            return f"{ename}: {evalue}" if evalue else ename
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stderr":
            first = next((ln for ln in output.get("text", "").splitlines() if ln.strip()), "")
            return f"测试单元写出了 stderr 输出（nbgrader 记 0 分）：{first[:200]}"
    return ""


def check_notebook(notebook: Path, *, course_root: Path | None = None, assignment: str | None = None) -> CheckResult:
    """Grade ``notebook``; with the hidden tests when the course's ``source/`` is found."""
    notebook = Path(notebook)
    nb = read_notebook(notebook)
    root = course_root or course_mod.find_course_root(notebook.resolve().parent, Path.cwd())
    known = course_mod.assignments(root) if root else []
    if assignment is not None and assignment not in known and root is not None:
        course_mod.source_notebook(root, assignment)  # raises: unknown assignment
    assignment = assignment or course_mod.guess_assignment(notebook, known)
    if root is None or assignment is None:
        return _check_visible(notebook, nb, assignment)
    return _check_hidden(notebook, root, assignment)


def _check_hidden(notebook: Path, root: Path, assignment: str) -> CheckResult:
    from nbgrader.api import Gradebook, MissingEntry

    source_nb = read_notebook(course_mod.source_notebook(root, assignment))
    order = list(test_cells(source_nb))
    result = CheckResult(notebook=str(notebook), assignment=assignment, hidden_tests=True)
    with tempfile.TemporaryDirectory(prefix="autograder-check-") as tmp:
        course = nbgrader_api.make_course(Path(tmp), root, assignment)
        grader = nbgrader_api.api(course)
        with nbgrader_api.quiet_stderr():
            prepared = grader.generate_assignment(assignment, force=True, create=True)
        nbgrader_api.run(prepared, f"prepare {assignment}")
        submitted = course / "submitted" / STUDENT / assignment
        submitted.mkdir(parents=True)
        shutil.copy2(notebook, submitted / f"{assignment}.ipynb")
        with nbgrader_api.quiet_stderr():
            outcome = grader.autograde(assignment, STUDENT, force=True, create=True)
        graded_path = course / "autograded" / STUDENT / assignment / f"{assignment}.ipynb"
        messages = {}
        if graded_path.is_file():
            graded = read_notebook(graded_path)
            messages = {gid: cell_message(c) for gid, c in test_cells(graded).items()}
        failure = "" if outcome.get("success") else _last_line(outcome)
        with Gradebook(grader.coursedir.db_url) as gb:
            try:
                grades = {g.name: g for g in gb.find_submission_notebook(assignment, assignment, STUDENT).grades}
            except MissingEntry:
                grades = {}
            max_points = {c.name: c.max_score for c in gb.find_notebook(assignment, assignment).grade_cells}
            for gid in order:
                grade = grades.get(gid)
                points = float(grade.score) if grade is not None and grade.score is not None else 0.0
                maximum = float(max_points.get(gid, 0.0))
                message = messages.get(gid) or (failure if grade is None else "")
                if grade is None and not message:
                    message = "这个单元没有被评分（kernel 崩溃或超时？）"
                result.questions.append(
                    Question(gid, points, maximum, passed=grade is not None and points >= maximum, message=message)
                )
    return result


def _last_line(outcome: dict) -> str:
    lines = [ln.strip() for ln in (outcome.get("error") or outcome.get("log") or "").splitlines() if ln.strip()]
    return f"grading failed: {lines[-1]}" if lines else "grading failed"


def _check_visible(notebook: Path, nb: Any, assignment: str | None) -> CheckResult:
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError, DeadKernelError
    from nbgrader.utils import determine_grade

    if not test_cells(nb):
        raise AutograderError(f"{notebook} has no graded test cells: is it a course notebook?")
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        allow_errors=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    crashed = ""
    try:
        client.execute()
    except (CellTimeoutError, DeadKernelError) as exc:
        crashed = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
    result = CheckResult(notebook=str(notebook), assignment=assignment, hidden_tests=False)
    for gid, cell in test_cells(nb).items():
        ran = cell.get("execution_count") is not None
        points, maximum = determine_grade(cell) if ran else (0.0, float(cell.metadata.nbgrader.get("points", 0)))
        message = cell_message(cell) if ran else (crashed or "没有运行到这个单元")
        result.questions.append(
            Question(gid, float(points or 0), float(maximum), bool(ran and points == maximum), message)
        )
    return result


def format_table(result: CheckResult) -> str:
    """A per-question table, a note when hidden tests were not run, and the last line ``score X / Y``."""
    rows = [f"{'question':<28} {'points':>9}  result"]
    for q in result.questions:
        mark = "pass" if q.passed else "FAIL"
        rows.append(f"{q.grade_id:<28} {q.points:>4g} / {q.max_points:<3g} {mark}  {q.message}".rstrip())
    if not result.hidden_tests:
        rows.append(VISIBLE_ONLY_NOTE)
    rows.append(f"score {result.score:g} / {result.max_score:g}")
    return "\n".join(rows)
