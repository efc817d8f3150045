"""Grade one notebook locally through the same engine as ``grade``: a learner process beside a judge.

With the course's ``source/`` (found from the notebook's folder or the current one) the judge runs the
instructor's test cells, hidden tests included, and the verdict is the one ``grade`` would give. Without
it, the notebook's own (visible) test cells are all there is, and the result says so. Hidden test code is
never printed, only the messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder import course_folder as course_mod
from autograder.notebooks import CheckTexts, notebook_text, plan_for
from autograder.parent import server
from autograder.wire.schema import Outcome, RunLimits, Status, Verdict

STUDENT = "self-check"
VISIBLE_ONLY_NOTE = "visible tests only: source/ not found, so hidden tests were not run (they run at grading)"


@dataclass
class CheckResult:
    notebook: str
    assignment: str | None
    hidden_tests: bool
    questions: list[Verdict] = field(default_factory=list)
    status: str = Status.OK
    note: str = ""

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
            "status": self.status,
            "note": self.note,
            "questions": [question_json(q) for q in self.questions],
        }


def question_json(q: Verdict) -> dict[str, Any]:
    """One question in ``check --json``'s object (the hub service's answer reads it back)."""
    fields = ("grade_id", "points", "max_points", "passed", "message", "mistake")
    return {name: getattr(q, name) for name in fields}


def question_from_json(data: dict[str, Any]) -> Verdict:
    """Read back :func:`question_json` (``mistake`` may be absent: a service older than the field)."""
    status = Status.PASSED if data["passed"] else Status.FAILED
    message, mistake = data.get("message", ""), data.get("mistake", "")
    return Verdict(data["grade_id"], data["points"], data["max_points"], status, message, mistake)


def check_notebook(notebook: Path, **options: Any) -> CheckResult:
    """Grade ``notebook``; with the hidden tests when the course's ``source/`` is found (options as for
    :func:`check_notebooks`)."""
    return check_notebooks([notebook], **options)[0]


def check_notebooks(
    notebooks: list[Path],
    *,
    course_root: Path | None = None,
    assignment: str | None = None,
    sandbox_mode: str = "auto",
    cell_timeout: float = 300,
    notebook_timeout: float = 900,
    memory: int = 4 * 2**30,
    parallel: int = 2,
    warm: bool = False,
) -> list[CheckResult]:
    """Several notebooks through one engine (torch is imported once); a result per notebook, in order.

    With ``warm`` the engine is the user's background server (``autograder.parent.server``: fast after the first
    use), else one started for this call. A notebook that cannot be read raises AutograderError.
    """
    found = [locate(Path(nb), course_root=course_root, assignment=assignment) for nb in notebooks]
    results = [result for result, _ in found]
    keys = [f"{STUDENT}/{r.assignment or i}#{i}" for i, r in enumerate(results)]
    hidden = [Path(h) for h in sorted({r.course_root for r in results if r.course_root})]
    limits = RunLimits(cell_timeout=cell_timeout, notebook_timeout=notebook_timeout, memory=memory)
    outcomes: dict[str, Outcome] = {}
    warmed = None
    if warm and server.enabled():  # the server parses the notebooks and makes the plans (no nbformat here)
        texts = [(key, t) for key, (_, t) in zip(keys, found)]
        warmed = server.run_checks(texts, sandbox_mode=sandbox_mode, limits=limits, hidden=hidden, parallel=parallel)
    if warmed is not None:
        outcomes = dict(zip(keys, warmed))
    else:  # an engine of its own: imported only here, a warm check never needs it
        from autograder.parent import engine, sandbox

        jobs = [engine.Job(key=key, plan=plan_for(t)) for key, (_, t) in zip(keys, found)]
        mode = sandbox.resolve(sandbox_mode, lambda text: None)  # a learner's own machine: no warning needed
        pool = engine.open_pool(mode, limits, hidden=hidden, warm_up=len(jobs) > 1)
        try:
            engine.run_jobs(pool, jobs, parallel=parallel, on_done=lambda job, o: outcomes.__setitem__(job.key, o))
        finally:
            pool.close()
    for result, key in zip(results, keys):
        outcome = outcomes[key]
        result.questions = list(outcome.questions)
        result.status, result.note = outcome.status, outcome.note
    return results


@dataclass
class _Prepared(CheckResult):
    course_root: str | None = None


def prepare(notebook: Path, *, course_root: Path | None = None, assignment: str | None = None):
    """(an empty result, the plan) for one notebook: which assignment, hidden or visible tests."""
    result, texts = locate(notebook, course_root=course_root, assignment=assignment)
    return result, plan_for(texts)


def locate(notebook: Path, *, course_root: Path | None = None, assignment: str | None = None):
    """(an empty result, the notebook's and its source's texts) for one notebook, unparsed: which
    assignment, hidden or visible tests. :func:`autograder.notebooks.plan_for` parses them."""
    text = notebook_text(notebook)
    root = course_root or course_mod.find_course_root(notebook.resolve().parent, Path.cwd())
    known = course_mod.assignments(root) if root else []
    if assignment is not None and root is not None and assignment not in known:
        course_mod.source_notebook(root, assignment)  # raises: unknown assignment
    assignment = assignment or course_mod.guess_assignment(notebook, known)
    hidden = root is not None and assignment is not None
    texts = CheckTexts(str(notebook), text)
    if hidden:
        source = course_mod.source_notebook(root, assignment)
        texts = CheckTexts(str(notebook), text, str(source), notebook_text(source))
    result = _Prepared(
        notebook=str(notebook), assignment=assignment, hidden_tests=hidden, course_root=str(root) if root else None
    )
    return result, texts


def format_table(result: CheckResult) -> str:
    """A per-question table, a note when hidden tests were not run, and the last line ``score X / Y``."""
    rows = [f"{'question':<28} {'points':>9}  result"]
    for q in result.questions:
        mark = "pass" if q.passed else "FAIL"
        rows.append(f"{q.grade_id:<28} {q.points:>4g} / {q.max_points:<3g} {mark}  {q.message}".rstrip())
    if result.status != "ok":
        rows.append(f"status: {result.status}" + (f" ({result.note})" if result.note else ""))
    if not result.hidden_tests:
        rows.append(VISIBLE_ONLY_NOTE)
    rows.append(f"score {result.score:g} / {result.max_score:g}")
    return "\n".join(rows)
