"""Grade a class: every student and assignment gets its rows, whatever the submission does.

Discovery finds one task per student folder and assignment; nbgrader's preprocessors sanitise each
notebook (``autograder.gradebook``); the engine runs it as a sandboxed learner process beside a judge
that decides every point (``autograder.engine``); results go to the journal, the CSVs, a feedback page
and nbgrader's gradebook, one submission at a time, as they arrive (``autograder.journal``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder import course as course_mod
from autograder import engine, feedback, journal, sandbox
from autograder.errors import AutograderError
from autograder.gradebook import Gradebook
from autograder.notebooks import make_plan, read_notebook, test_cells
from autograder.pool import Limits


@dataclass
class Task:
    student: str
    assignment: str
    notebook: Path | None
    note: str = ""
    timestamp: str | None = None

    @property
    def key(self) -> str:
        return f"{self.student}/{self.assignment}"

    @property
    def fingerprint(self) -> str:
        """What was handed in: the notebook's bytes and its timestamp (a new submission changes it)."""
        digest = hashlib.sha256((self.timestamp or "").encode())
        digest.update(self.note.encode())
        if self.notebook is not None:
            digest.update(self.notebook.read_bytes())
        return digest.hexdigest()[:16]


def parse_size(text: str) -> int:
    """'4G', '512M', '2GiB', '1000000' -> bytes."""
    units = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
    raw = text.strip().lower().removesuffix("ib").removesuffix("b")
    number, unit = (raw[:-1], raw[-1]) if raw and raw[-1] in units else (raw, "")
    try:
        value = float(number) * units[unit]
    except ValueError:
        raise AutograderError(f"cannot read memory size {text!r}: use e.g. 4G or 512M") from None
    if value < 64 * 2**20:
        raise AutograderError(f"memory limit {text!r} is too small: torch needs at least 64M")
    return int(value)


def find_tasks(submissions: Path, assignments: list[str]) -> list[Task]:
    """One task per student folder and assignment, in a stable order, whether or not a notebook is there."""
    students = sorted(p.name for p in submissions.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not students:
        raise AutograderError(
            f"no student folders in {submissions} (expected {submissions}/<student_id>/<assignment>/)"
        )
    tasks = []
    for student in students:
        for assignment in assignments:
            folder = submissions / student / assignment
            stamp = folder / "timestamp.txt"
            timestamp = stamp.read_text(encoding="utf-8", errors="replace").strip() if stamp.is_file() else None
            expected = folder / f"{assignment}.ipynb"
            if expected.is_file():
                tasks.append(Task(student, assignment, expected, timestamp=timestamp))
                continue
            found = sorted(folder.glob("*.ipynb")) if folder.is_dir() else []
            if len(found) == 1:
                note = f"notebook renamed: graded {found[0].name}"
                tasks.append(Task(student, assignment, found[0], note, timestamp))
            elif found:
                names = ", ".join(p.name for p in found)
                tasks.append(
                    Task(student, assignment, None, f"several notebooks ({names}), none named {expected.name}")
                )
            else:
                tasks.append(Task(student, assignment, None, f"no {expected.name} submitted"))
    return tasks


def grade(
    submissions: Path | None,
    out: Path | None,
    *,
    course_root: Path,
    assignments: list[str] | None = None,
    jobs: int | None = None,
    cell_timeout: float | None = None,
    notebook_timeout: float | None = None,
    memory: str | int = "4G",
    sandbox_mode: str = "auto",
    resume: bool = False,
    progress: bool = True,
    nbgrader_course: Path | None = None,
    gradebook_url: str | None = None,
    show_hints: bool = False,
    cluster: str | None = None,
    warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> dict[str, dict[str, Any]]:
    """Grade every student folder in ``submissions`` for ``assignments``; return the records by key.

    With ``nbgrader_course`` (an instructor's nbgrader course folder) the submissions are that course's
    ``submitted/``, its own gradebook, ``autograded/`` and ``feedback/`` are written, and the CSVs go to
    its ``grades/``; grading it again (after another ``nbgrader collect``) grades what is new or changed.
    With ``cluster`` (a Dask scheduler address, or ``local:N``) the submissions run on its workers.
    """
    warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy's SAWarnings from nbgrader's gradebook
    if nbgrader_course is not None:
        nbgrader_course = Path(nbgrader_course).resolve()
        if not course_mod.is_course_root(nbgrader_course):
            raise AutograderError(
                f"{nbgrader_course} is not an nbgrader course (it needs source/ and nbgrader_config.py)"
            )
        course_root = nbgrader_course
        submissions = nbgrader_course / "submitted"
        out = nbgrader_course / "grades"
    if submissions is None or out is None:
        raise AutograderError("give a submissions folder and --out, or --nbgrader-course")
    submissions, out = Path(submissions), Path(out)
    if not submissions.is_dir():
        raise AutograderError(f"submissions folder not found: {submissions}")
    assignments = _assignments(submissions, course_root, assignments)
    if (out / journal.JOURNAL).exists() and not resume and nbgrader_course is None:
        raise AutograderError(
            f"{out} already holds grading results: pass --resume to finish them, or use another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    limits = Limits(
        cell_timeout=float(cell_timeout or _configured_timeout(course_root)),
        notebook_timeout=float(notebook_timeout or 900),
        memory=memory if isinstance(memory, int) else parse_size(memory),
    )
    mode = sandbox.resolve(sandbox_mode, warn)
    tasks = find_tasks(submissions, assignments)
    records = journal.read(out)  # a submission graded before, and unchanged since, is not graded again
    left = [t for t in tasks if records.get(t.key, {}).get("fingerprint") != t.fingerprint]
    if nbgrader_course is not None:
        book = Gradebook.of_course(nbgrader_course, assignments)
        pages = nbgrader_course / "feedback"
    else:
        book = Gradebook.in_output(out, course_root, assignments, gradebook_url)
        pages = out / "feedback"
    hints = _hints(course_root, assignments) if show_hints else {}
    journal.write_csvs(out, records)
    bar = _progress(len(tasks), len(tasks) - len(left), progress)
    sink = _Sink(out, pages, book, records, bar, hints)
    hidden = [course_root, submissions, out, book.root]
    pool = engine.open_pool(mode, limits, hidden) if left and not cluster else None  # starts while we prepare
    # prepared one by one as the engine asks for the next (a submission that cannot run gets its record
    # here), so nbgrader's sanitising overlaps the submissions already running
    runnable = (job for job in (_prepare(book, task, sink) for task in left) if job is not None)
    try:
        if cluster:
            from autograder import cluster as dask_cluster

            dask_cluster.run_jobs(cluster, runnable, mode=mode, limits=limits, hidden=hidden, on_done=sink.graded)
        elif pool is not None:
            parallel = max(1, jobs or os.cpu_count() or 1)
            engine.run_jobs(pool, runnable, parallel=parallel, on_done=sink.graded)
    finally:
        if pool is not None:
            pool.close()
        bar.close()
    journal.write_csvs(out, records)
    return records


def _assignments(submissions: Path, course_root: Path, assignments: list[str] | None) -> list[str]:
    known = course_mod.assignments(course_root)
    for assignment in assignments or []:
        course_mod.source_notebook(course_root, assignment)
    if assignments:
        return list(assignments)
    present = {p.name for s in submissions.iterdir() if s.is_dir() for p in s.iterdir() if p.is_dir()}
    found = [a for a in known if a in present]
    if not found:
        raise AutograderError(
            f"no known assignment folders under {submissions}/<student_id>/ (known: {', '.join(known)})"
        )
    return found


def _configured_timeout(course_root: Path) -> float:
    from autograder.nbgrader_api import load_config

    return float(load_config(course_root).get("Execute", {}).get("timeout", 300))


def _progress(total: int, done: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc="grading", unit="nb", disable=not enabled, file=sys.stderr)


def _hints(course_root: Path, assignments: list[str]) -> dict[str, dict[str, list[str]]]:
    from course import hints

    return {a: hints.load(course_root / "source" / a) for a in assignments}


@dataclass
class _GradingJob(engine.Job):
    task: Task | None = None
    nb: Any = None


def _prepare(book: Gradebook, task: Task, sink: _Sink) -> _GradingJob | None:
    """The job for a submission that can run; a finished record (and None) for one that cannot."""
    book.register(task.student, task.assignment, task.timestamp)
    if task.notebook is None:
        sink.unrunnable(task, "missing", task.note)
        return None
    try:
        nb = book.sanitize(task.student, task.assignment, read_notebook(task.notebook))
    except AutograderError as exc:
        sink.unrunnable(task, "invalid", str(exc))
        return None
    except Exception as exc:  # noqa: BLE001 - nbgrader refused the notebook (broken metadata, ...)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        sink.unrunnable(task, "invalid", f"nbgrader could not read the notebook: {first[:300]}")
        return None
    plan = make_plan(book.sources[task.assignment], nb)
    return _GradingJob(key=task.key, plan=plan, task=task, nb=nb)


class _Sink:
    """Where each finished submission goes: gradebook, feedback page, journal, CSVs, progress bar."""

    def __init__(self, out: Path, pages: Path, book: Gradebook, records: dict, bar: Any, hints: dict) -> None:
        self.out, self.pages, self.book, self.records, self.bar, self.hints = out, pages, book, records, bar, hints

    def unrunnable(self, task: Task, status: str, message: str) -> None:
        self.book.zero(task.student, task.assignment)
        scores = self.book.scores(task.student, task.assignment)
        questions = [
            {
                "grade_id": gid,
                "points": 0.0,
                "max_points": scores.get(gid, (0, 0))[1],
                "status": status,
                "message": message,
            }
            for gid in test_cells(self.book.sources[task.assignment])
        ]
        self._finish(_record(task, status, questions, message))

    def graded(self, job: engine.Job, outcome: engine.Outcome) -> None:
        assert isinstance(job, _GradingJob) and job.task is not None
        task, nb = job.task, job.nb
        attach_outputs(nb, outcome)
        self.book.save(task.student, task.assignment, nb, task.notebook)
        scores = self.book.scores(task.student, task.assignment)
        questions = []
        for q in outcome.questions:
            points, max_points = scores.get(q.grade_id, (q.points, q.max_points))
            status = "passed" if q.passed and points >= max_points else "failed"
            questions.append(
                {
                    "grade_id": q.grade_id,
                    "points": points if status == "passed" else 0.0,
                    "max_points": max_points,
                    "status": status,
                    "message": q.message,
                }
            )
        if outcome.grader_error:  # our bug, or the judge worn down by this submission: the instructor looks
            with open(self.out / "grader-errors.log", "a", encoding="utf-8") as log:
                log.write(f"== {task.key}\n{outcome.grader_error}\n")
        notes = [task.note] if task.note else []
        if outcome.note:
            notes.append(outcome.note)
        elif outcome.status == "timeout":
            notes.append("有单元运行超过时限被停止 (cell timeout)，记 0 分；其余单元照常评分")
        self._finish(_record(task, outcome.status, questions, "; ".join(notes)))

    def _finish(self, record: dict[str, Any]) -> None:
        assignment = record["assignment"]
        page = self.pages / record["student_id"] / assignment / f"{assignment}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        journal.atomic_write(page, feedback.render(record, hints=self.hints.get(assignment)))
        if not self.book.own:  # nbgrader's release_feedback matches feedback to a submission by these files
            submitted = self.book.root / "submitted" / record["student_id"] / assignment
            for name in ("timestamp.txt", "submission_secret.txt"):
                if (submitted / name).is_file():
                    shutil.copy2(submitted / name, page.parent / name)
        journal.append(self.out, record)
        self.records[record["key"]] = record
        journal.write_csvs(self.out, self.records)
        self.bar.update(1)


def _record(task: Task, status: str, questions: list[dict[str, Any]], message: str) -> dict[str, Any]:
    return {
        "key": task.key,
        "fingerprint": task.fingerprint,
        "student_id": task.student,
        "assignment": task.assignment,
        "score": sum(q["points"] for q in questions),
        "max_score": sum(q["max_points"] for q in questions),
        "status": status,
        "message": message,
        "questions": questions,
    }


def attach_outputs(nb: Any, outcome: engine.Outcome) -> None:
    """Put the learner cells' outputs and each test cell's verdict on the notebook's code cells."""
    from nbformat.v4 import new_output

    from autograder.notebooks import meta

    by_id = {q.grade_id: q for q in outcome.questions}
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for index, cell in enumerate(code_cells):
        cell.outputs = []
        cell.execution_count = index + 1
        gid = meta(cell).get("grade_id")
        question = by_id.get(gid) if gid is not None and not meta(cell).get("solution") else None
        if question is not None:
            if question.stdout:
                cell.outputs.append(new_output("stream", name="stdout", text=question.stdout))
            if not question.passed:
                cell.outputs.append(new_output("error", ename="TestFailed", evalue=question.message, traceback=[]))
            continue
        result = outcome.cells.get(index)
        if result is None:
            continue
        if result.get("skipped"):
            cell.outputs.append(new_output("error", ename="Crashed", evalue=result.get("note", ""), traceback=[]))
            continue
        if result.get("stdout"):
            cell.outputs.append(new_output("stream", name="stdout", text=result["stdout"]))
        if result.get("stderr"):
            cell.outputs.append(new_output("stream", name="stderr", text=result["stderr"]))
        if result.get("error"):
            ename, evalue = result["error"]
            cell.outputs.append(new_output("error", ename=ename, evalue=evalue, traceback=[]))
