"""Grade a class: every student and assignment gets its rows, whatever the submission does.

Discovery finds one task per student folder and assignment; nbgrader's preprocessors sanitise each
notebook (``autograder.results.gradebook``); the engine runs it as a sandboxed learner process beside a judge
that decides every point (``autograder.parent.engine``); results go to the journal, the CSVs, a feedback page
and nbgrader's gradebook, one submission at a time, as they arrive (``autograder.results.journal``).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autograder import course_folder as course_mod
from autograder.errors import AutograderError
from autograder.notebooks import make_plan, parse_notebook, points
from autograder.parent import engine, sandbox, submission
from autograder.parent.order import LongestFirst
from autograder.parent.pool import RunLimits
from autograder.results import feedback, journal
from autograder.results.gradebook import Gradebook
from autograder.text import neutral
from autograder.wire.schema import Status, Verdict


@dataclass
class Task:
    student: str
    assignment: str
    notebook: Path | None
    note: str = ""
    timestamp: str | None = None
    refused: str = ""  # why what was handed in cannot be graded (a link, a FIFO, a name that is not text)
    folder: str = ""  # the student's folder name on disk (``student`` is its name as text)
    _digest: str | None = None

    @property
    def key(self) -> str:
        return f"{self.student}/{self.assignment}"

    def read(self) -> bytes:
        """The submission's bytes: the student's own regular file, never a link (``autograder.parent.submission``)."""
        assert self.notebook is not None
        root = self.notebook.parent.parent.parent
        return submission.read_own_file(root, (self.folder or self.student, self.assignment, self.notebook.name))

    @property
    def fingerprint(self) -> str:
        """What was handed in: the notebook's bytes and its timestamp (a new submission changes it)."""
        if self._digest is None:
            digest = hashlib.sha256((self.timestamp or "").encode("utf-8", "backslashreplace"))
            digest.update(self.note.encode("utf-8", "backslashreplace"))
            if self.notebook is not None and not self.refused:
                try:
                    digest.update(self.read())
                except AutograderError as exc:
                    digest.update(str(exc).encode("utf-8", "backslashreplace"))
            self._digest = digest.hexdigest()[:16]
        return self._digest


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
    """One task per student folder and assignment, in a stable order, whether or not a notebook is there.

    Nothing under ``submissions`` is followed or opened here beyond listing folders: a student folder that
    is a link, or a name that is not UTF-8 text, becomes a task that is refused with its reason."""
    students = sorted(p.name for p in _entries(submissions) if p.is_dir() and not p.name.startswith("."))
    if not students:
        raise AutograderError(
            f"no student folders in {submissions} (expected {submissions}/<student_id>/<assignment>/)"
        )
    tasks = []
    for folder_name in students:
        student = submission.display_name(folder_name)
        for assignment in assignments:
            task = _task(submissions, folder_name, student, assignment)
            task.folder = folder_name
            tasks.append(task)
    return tasks


def _entries(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


def _is_real_dir(path: Path) -> bool:
    try:
        return stat.S_ISDIR(path.lstat().st_mode)
    except OSError:
        return False


def _task(submissions: Path, folder_name: str, student: str, assignment: str) -> Task:
    folder = submissions / folder_name / assignment
    expected = folder / f"{assignment}.ipynb"
    if student != folder_name:
        return Task(student, assignment, expected, refused="the student folder's name is not UTF-8 text")
    if not _is_real_dir(submissions / folder_name):
        return Task(student, assignment, expected, refused="the student folder is a symbolic link")
    timestamp = submission.read_small_text(submissions, (folder_name, assignment, "timestamp.txt"))
    timestamp = timestamp.strip() if timestamp is not None else None
    try:
        mode = folder.lstat().st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISDIR(mode):
        kind = submission.kind_of(mode)
        return Task(student, assignment, expected, timestamp=timestamp, refused=f"{assignment} is {kind}, not a folder")
    found = submission.find_notebook(folder, assignment)
    return Task(student, assignment, found.path, found.note, timestamp, refused=found.refused)


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
    limits = RunLimits(
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
    writer = ResultWriter(out, pages, book, records, bar, hints)
    hidden = [course_root, submissions, out, book.root]
    runs = any(t.notebook is not None and not t.refused for t in left)  # else no engine is needed
    pool = engine.open_pool(mode, limits, hidden) if runs and not cluster else None  # starts while we prepare
    # prepared one by one as the engine asks for the next (a submission that cannot run gets its record
    # here), so nbgrader's sanitising overlaps the submissions already running
    # the assignments that take longest start first, so that a class does not end with them running alone
    order = LongestFirst(left, kind=lambda task: task.assignment)
    runnable = _runnable(order, book, writer)

    def graded(job: _GradingJob, outcome: engine.Outcome) -> None:
        order.finished(job.task)
        writer.graded(job, outcome)

    try:
        if cluster:
            from autograder.parent import cluster as dask_cluster

            dask_cluster.run_jobs(cluster, runnable, mode=mode, limits=limits, hidden=hidden, on_done=graded)
        elif pool is not None:
            parallel = max(1, jobs or os.cpu_count() or 1)
            engine.run_jobs(pool, runnable, parallel=parallel, on_done=graded)
        else:  # every task left is refused or missing: each gets its record as it is prepared, no engine
            for _job in runnable:
                raise AssertionError(f"{_job.key} can run, but no engine was started")
    finally:
        if pool is not None:
            pool.close()
        book.close()
        bar.close()
    journal.write_csvs(out, records)
    if os.environ.get("AUTOGRADER_TIMINGS"):  # benchmarks/grading.py: where the CPU time went
        import resource

        own = resource.getrusage(resource.RUSAGE_SELF)
        cpu = {"parent": own.ru_utime + own.ru_stime, **engine.CHILD_CPU_S}
        print("cpu seconds: " + " ".join(f"{k}={v:.2f}" for k, v in cpu.items()), file=sys.stderr)
    return records


def _assignments(submissions: Path, course_root: Path, assignments: list[str] | None) -> list[str]:
    known = course_mod.assignments(course_root)
    for assignment in assignments or []:
        course_mod.source_notebook(course_root, assignment)
    if assignments:
        return list(assignments)
    present = {p.name for s in _entries(submissions) if _is_real_dir(s) for p in _entries(s) if _is_real_dir(p)}
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
    data: bytes = b""  # the submission as read, once (a file swapped afterwards changes nothing)


def _runnable(order: LongestFirst[Task], book: Gradebook, writer: ResultWriter) -> Iterator[_GradingJob]:
    """The jobs to run, prepared one at a time as the engine asks; a task that cannot run gets its record
    here and is not handed on."""
    for task in order:
        job = _prepare(book, task, writer)
        if job is None:
            order.skipped(task)
        else:
            yield job


def _prepare(book: Gradebook, task: Task, writer: ResultWriter) -> _GradingJob | None:
    """The job for a submission that can run; a finished record (and None) for one that cannot.

    Whatever one submission holds, only its own record says so: the class goes on."""
    try:
        return _job(book, task, writer)
    except Exception as exc:  # noqa: BLE001 - a case none of the checks below foresaw: this task only
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        with open(writer.out / "grader-errors.log", "a", encoding="utf-8", errors="backslashreplace") as log:
            log.write(f"== {task.key}\npreparing: {type(exc).__name__}: {first}\n")
        writer.unrunnable(task, Status.INVALID, f"the submission could not be prepared: {first[:300]}")
        return None


def _job(book: Gradebook, task: Task, writer: ResultWriter) -> _GradingJob | None:
    book.register(task.student, task.assignment, task.timestamp)
    if task.refused:
        writer.unrunnable(task, Status.INVALID, task.refused)
        return None
    if task.notebook is None:
        writer.unrunnable(task, Status.MISSING, task.note)
        return None
    source = book.sources[task.assignment]
    try:
        data = task.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise AutograderError(f"{task.notebook.name} is not UTF-8 text, so it is not a notebook") from None
        raw = parse_notebook(text, task.notebook.name)
        stolen = submission.instructor_material(raw, source)
        if stolen:
            raise AutograderError(f"{task.notebook.name}: {stolen}")
        nb = book.sanitize(task.student, task.assignment, raw)
    except AutograderError as exc:
        writer.unrunnable(task, Status.INVALID, str(exc))
        return None
    except Exception as exc:  # noqa: BLE001 - nbgrader refused the notebook (broken metadata, ...)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        writer.unrunnable(task, Status.INVALID, f"nbgrader could not read the notebook: {first[:300]}")
        return None
    plan = make_plan(source, nb)
    return _GradingJob(key=task.key, plan=plan, task=task, nb=nb, data=data)


class ResultWriter:
    """Where each finished submission goes: gradebook, feedback page, journal, CSVs, progress bar; all
    written from the engine's verdicts."""

    def __init__(self, out: Path, pages: Path, book: Gradebook, records: dict, bar: Any, hints: dict) -> None:
        self.out, self.pages, self.book, self.records, self.bar, self.hints = out, pages, book, records, bar, hints

    def unrunnable(self, task: Task, status: Status, message: str) -> None:
        self.book.zero(task.student, task.assignment)
        maximum = points(self.book.sources[task.assignment])
        verdicts = [Verdict(gid, 0.0, top, status, message) for gid, top in maximum.items()]
        self._finish(_record(task, status, verdicts, message))

    def graded(self, job: engine.Job, outcome: engine.Outcome) -> None:
        assert isinstance(job, _GradingJob) and job.task is not None
        try:
            self._graded(job, outcome)
        except Exception as exc:  # noqa: BLE001 - saving this submission failed: its record says so, the class goes on
            first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
            with open(self.out / "grader-errors.log", "a", encoding="utf-8", errors="backslashreplace") as log:
                log.write(f"== {job.task.key}\nsaving: {type(exc).__name__}: {first}\n")
            self.unrunnable(job.task, Status.CRASHED, f"the graded notebook could not be saved: {first[:300]}")

    def _graded(self, job: _GradingJob, outcome: engine.Outcome) -> None:
        assert job.task is not None
        task, nb = job.task, job.nb
        attach_outputs(nb, outcome)
        self.book.save(task.student, task.assignment, nb, outcome.questions, job.data)
        if outcome.grader_error:  # our bug, or the judge worn down by this submission: the instructor looks
            with open(self.out / "grader-errors.log", "a", encoding="utf-8") as log:
                log.write(f"== {task.key}\n{outcome.grader_error}\n")
        notes = [task.note] if task.note else []
        if outcome.note:
            notes.append(outcome.note)
        elif outcome.status == Status.TIMEOUT:
            notes.append("有单元运行超过时限被停止 (cell timeout)，记 0 分；其余单元照常评分")
        self._finish(_record(task, outcome.status, outcome.questions, "; ".join(notes)))

    def _finish(self, record: dict[str, Any]) -> None:
        assignment = record["assignment"]
        page = self.pages / record["student_id"] / assignment / f"{assignment}.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        journal.atomic_write(page, feedback.render(record, hints=self.hints.get(assignment)))
        if not self.book.own:  # nbgrader's release_feedback matches feedback to a submission by these files
            for name in ("timestamp.txt", "submission_secret.txt"):  # regular files only: a link there
                text = submission.read_small_text(
                    self.book.root / "submitted", (record["student_id"], assignment, name)
                )
                if text is not None:  # could name the source notebook, and feedback is released to the student
                    journal.atomic_write(page.parent / name, text)
        journal.append(self.out, record)
        regraded = record["key"] in self.records  # its old rows are in the CSVs: rewrite them whole
        self.records[record["key"]] = record
        if regraded:
            journal.write_csvs(self.out, self.records)
        else:
            journal.append_csvs(self.out, record)
        self.bar.update(1)


def _record(task: Task, status: Status, verdicts: list[Verdict], message: str) -> dict[str, Any]:
    """The journal's record of one submission: its verdicts, with every text a page, a CSV or formgrader
    shows freed of control and bidi characters."""
    verdicts = [replace(v, message=neutral(v.message)) for v in verdicts]
    return {
        "key": task.key,
        "fingerprint": task.fingerprint,
        "student_id": task.student,
        "assignment": task.assignment,
        "score": sum(v.points for v in verdicts),
        "max_score": sum(v.max_points for v in verdicts),
        "status": str(status),
        "message": neutral(message),
        "questions": [v.to_json(stdout=False) for v in verdicts],
    }


def attach_outputs(nb: Any, outcome: engine.Outcome) -> None:
    """Put the learner cells' outputs and each test cell's verdict on the notebook's code cells."""
    from nbformat import from_dict

    from autograder.notebooks import meta

    def new_output(output_type: str, **fields: Any) -> Any:  # nbformat's new_output validates each one: 1 ms
        return from_dict({"output_type": output_type, **fields})

    by_id = {q.grade_id: q for q in outcome.questions}
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for index, cell in enumerate(code_cells):
        cell.outputs = []
        cell.execution_count = index + 1
        gid = meta(cell).get("grade_id")
        question = by_id.get(gid) if gid is not None and not meta(cell).get("solution") else None
        if question is not None:
            if question.stdout:
                cell.outputs.append(new_output("stream", name="stdout", text=neutral(question.stdout)))
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
            cell.outputs.append(new_output("stream", name="stdout", text=neutral(result["stdout"])))
        if result.get("stderr"):
            cell.outputs.append(new_output("stream", name="stderr", text=neutral(result["stderr"])))
        if result.get("error"):
            ename, evalue = result["error"]
            cell.outputs.append(new_output("error", ename=neutral(ename), evalue=neutral(evalue), traceback=[]))
