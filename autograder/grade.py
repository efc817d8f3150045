"""Grade a class: parallel, sandboxed, deterministic and resumable, on top of nbgrader's machinery.

nbgrader's own preprocessors prepare each submission (restore test cells, metadata, points and the
kernelspec from the gradebook) and save its scores; only execution is ours: a fork server in a sandbox
(autograder.runner) runs ``jobs`` submissions at once. This process alone writes the gradebook, one
submission after another (serialised writes: SQLite allows one writer, and the writes take
milliseconds next to the seconds of execution, so nothing is gained by separate gradebooks).

Every (student, assignment) asked for ends as one record in ``OUT/.journal.jsonl`` (appended and
fsynced once per submission); ``grades.csv`` and ``questions.csv`` are rewritten from it, so a run
killed at any point and resumed with ``resume=True`` grades only what is left, with no row lost or doubled.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder import course as course_mod
from autograder import feedback, nbgrader_api, sandbox
from autograder.check import cell_message, read_notebook, test_cells
from autograder.errors import AutograderError

GRADES_COLUMNS = ["student_id", "assignment", "score", "max_score", "status"]
QUESTIONS_COLUMNS = ["student_id", "assignment", "grade_id", "points", "max_points", "status", "message"]
JOURNAL = ".journal.jsonl"
MAX_RESTARTS = 2


@dataclass
class Task:
    student: str
    assignment: str
    notebook: Path | None
    note: str = ""
    skip: list[int] = field(default_factory=list)
    restarts: int = 0
    run_id: str = ""
    crash_notes: dict[int, str] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.student}/{self.assignment}"


@dataclass
class Settings:
    jobs: int
    cell_timeout: float
    notebook_timeout: float
    memory: int
    sandbox: str


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


def seed_for(key: str) -> int:
    """The same seed for the same student and assignment, every time."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")


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
            expected = folder / f"{assignment}.ipynb"
            if expected.is_file():
                tasks.append(Task(student, assignment, expected))
                continue
            found = sorted(folder.glob("*.ipynb")) if folder.is_dir() else []
            if len(found) == 1:
                tasks.append(Task(student, assignment, found[0], f"notebook renamed: graded {found[0].name}"))
            elif found:
                names = ", ".join(p.name for p in found)
                tasks.append(
                    Task(student, assignment, None, f"several notebooks ({names}), none named {expected.name}")
                )
            else:
                tasks.append(Task(student, assignment, None, f"no {expected.name} submitted"))
    return tasks


def read_journal(out: Path) -> dict[str, dict[str, Any]]:
    """Finished records by key; a torn last line (a kill mid-write) is ignored and will be redone."""
    path = out / JOURNAL
    records: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return records
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        records[record["key"]] = record
    return records


def _append_journal(out: Path, record: dict[str, Any]) -> None:
    with open(out / JOURNAL, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def write_csvs(out: Path, records: dict[str, dict[str, Any]]) -> None:
    """grades.csv and questions.csv from the journal, sorted by student and assignment."""
    grades, questions = io.StringIO(), io.StringIO()
    g, q = csv.writer(grades, lineterminator="\n"), csv.writer(questions, lineterminator="\n")
    g.writerow(GRADES_COLUMNS)
    q.writerow(QUESTIONS_COLUMNS)
    for key in sorted(records):
        r = records[key]
        g.writerow([r["student_id"], r["assignment"], f"{r['score']:g}", f"{r['max_score']:g}", r["status"]])
        for x in r["questions"]:
            q.writerow(
                [
                    r["student_id"],
                    r["assignment"],
                    x["grade_id"],
                    f"{x['points']:g}",
                    f"{x['max_points']:g}",
                    x["status"],
                    x["message"],
                ]
            )
    _atomic_write(out / "grades.csv", grades.getvalue())
    _atomic_write(out / "questions.csv", questions.getvalue())


class Course:
    """An nbgrader course under OUT/nbgrader holding the gradebook nbgrader's own tools can read."""

    def __init__(self, out: Path, course_root: Path, assignments: list[str]) -> None:
        self.root = out / "nbgrader"
        self.root.mkdir(parents=True, exist_ok=True)
        shutil.copy2(course_root / "nbgrader_config.py", self.root / "nbgrader_config.py")
        self.api = None
        for assignment in assignments:
            if not (self.root / "release" / assignment).is_dir():
                target = self.root / "source" / assignment
                if target.exists():
                    shutil.rmtree(target)
                shutil.copytree(course_root / "source" / assignment, target)
                with nbgrader_api.quiet_stderr():
                    result = self._api().generate_assignment(assignment, force=True, create=True)
                nbgrader_api.run(result, f"prepare {assignment}")
        self.db_url = f"sqlite:///{self.root / 'gradebook.db'}"
        self.config = self._load_config()
        self.sources = {a: read_notebook(course_root / "source" / a / f"{a}.ipynb") for a in assignments}

    def _api(self):
        if self.api is None:
            self.api = nbgrader_api.api(self.root)
        return self.api

    def _load_config(self):
        from traitlets.config.loader import PyFileConfigLoader

        return PyFileConfigLoader("nbgrader_config.py", path=str(self.root)).load_config()

    def resources(self, task: Task) -> dict[str, Any]:
        return {
            "nbgrader": {
                "db_url": self.db_url,
                "assignment": task.assignment,
                "notebook": task.assignment,
                "student": task.student,
            },
            "metadata": {"path": str(self.root)},
        }

    def register(self, task: Task) -> None:
        from nbgrader.api import Gradebook

        with Gradebook(self.db_url) as gb:
            gb.update_or_create_student(task.student)
            gb.update_or_create_submission(task.assignment, task.student)

    def sanitize(self, task: Task, nb: Any) -> Any:
        """nbgrader's own sanitising: test cells, metadata, points and kernelspec come from the gradebook."""
        from nbgrader.preprocessors import (
            CheckCellMetadata,
            ClearOutput,
            DeduplicateIds,
            OverwriteCells,
            OverwriteKernelspec,
        )

        resources = self.resources(task)
        config = self.config
        for step in (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata):
            nb, resources = step(config=config).preprocess(nb, resources)
        return nb

    def save(self, task: Task, nb: Any) -> None:
        """nbgrader's LimitOutput and SaveAutoGrades; the graded notebook is kept where formgrader looks."""
        import nbformat
        from nbgrader.preprocessors import LimitOutput, SaveAutoGrades

        resources = self.resources(task)
        config = self.config
        for step in (LimitOutput, SaveAutoGrades):
            nb, resources = step(config=config).preprocess(nb, resources)
        target = self.root / "autograded" / task.student / task.assignment
        target.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target / f"{task.assignment}.ipynb")
        if task.notebook is not None:
            submitted = self.root / "submitted" / task.student / task.assignment
            submitted.mkdir(parents=True, exist_ok=True)
            shutil.copy2(task.notebook, submitted / f"{task.assignment}.ipynb")

    def zero(self, task: Task) -> None:
        """A submission that could not run: every grade 0, as nbgrader does for a missing notebook."""
        from nbgrader.api import Gradebook

        with Gradebook(self.db_url) as gb:
            submission = gb.find_submission_notebook(task.assignment, task.assignment, task.student)
            for grade in submission.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = False
            gb.db.commit()

    def scores(self, task: Task) -> dict[str, tuple[float, float]]:
        from nbgrader.api import Gradebook

        with Gradebook(self.db_url) as gb:
            submission = gb.find_submission_notebook(task.assignment, task.assignment, task.student)
            return {g.name: (float(g.score or 0), float(g.max_score)) for g in submission.grades}


def _attach_outputs(nb: Any, results: dict[int, dict[str, Any]], missing_note: str) -> None:
    """Turn the runner's per-cell records into Jupyter outputs on the notebook's code cells."""
    from nbformat.v4 import new_output

    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    for index, cell in enumerate(code_cells):
        record = results.get(index)
        cell.outputs = []
        cell.execution_count = index + 1
        if record is None:
            cell.outputs.append(new_output("error", ename="NotRun", evalue=missing_note, traceback=[]))
            continue
        if record.get("skipped"):
            note = record.get("note") or "这个单元让进程崩溃，重跑时被跳过"
            cell.outputs.append(new_output("error", ename="Crashed", evalue=note, traceback=[]))
            continue
        if record.get("stdout"):
            cell.outputs.append(new_output("stream", name="stdout", text=record["stdout"]))
        if record.get("stderr"):
            cell.outputs.append(new_output("stream", name="stderr", text=record["stderr"]))
        if record.get("error"):
            err = record["error"]
            cell.outputs.append(new_output("error", ename=err["ename"], evalue=err["evalue"], traceback=[]))


class Pool:
    """The sandboxed runner (zygote) and the submissions it is running."""

    def __init__(self, settings: Settings, hidden: list[Path], readable: list[Path], data_dir: Path | None) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="autograder-run-"))
        os.chmod(self.tmp, 0o755)
        command, _ = sandbox.runner_command(settings.sandbox, self.tmp, hidden, readable)
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=sandbox.runner_env(self.tmp, data_dir),
            cwd=self.tmp,
        )
        line = self.proc.stdout.readline()
        if not line or json.loads(line).get("op") != "ready":
            self.close()
            raise AutograderError("the notebook runner did not start (is torch importable in this environment?)")

    def submit(self, task: Task, cells: list[dict[str, Any]], settings: Settings) -> None:
        request = {
            "op": "run",
            "task": f"t{id(task)}-{task.restarts}",
            "cells": cells,
            "skip": task.skip,
            "seed": seed_for(task.key),
            "cell_timeout": settings.cell_timeout,
            "notebook_timeout": settings.notebook_timeout,
            "memory": settings.memory,
        }
        task.run_id = request["task"]
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()

    def next_done(self) -> dict[str, Any]:
        line = self.proc.stdout.readline()
        if not line:
            raise AutograderError("the notebook runner stopped unexpectedly")
        return json.loads(line)

    def results(self, run_id: str) -> dict[int, dict[str, Any]]:
        path = self.tmp / "scratch" / run_id / "result.jsonl"
        fatal = path.with_name("fatal.txt")
        if fatal.exists():
            raise AutograderError(f"grader bug while running a notebook:\n{fatal.read_text(encoding='utf-8')}")
        records: dict[int, dict[str, Any]] = {}
        if path.exists():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                if "index" in record:
                    records[int(record["index"])] = record
                elif record.get("done"):
                    records[-1] = record
        shutil.rmtree(self.tmp / "scratch" / run_id, ignore_errors=True)
        return records

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


def _describe_exit(code: int) -> str:
    if code < 0:
        names = {9: "SIGKILL", 11: "SIGSEGV (segfault)", 6: "SIGABRT", 24: "SIGXCPU (CPU 时间超限)", 25: "SIGXFSZ"}
        return f"进程被信号 {names.get(-code, -code)} 终止"
    return f"进程提前退出 (exit code {code}，例如 os._exit())"


def _record(task: Task, status: str, questions: list[dict[str, Any]], message: str) -> dict[str, Any]:
    return {
        "key": task.key,
        "student_id": task.student,
        "assignment": task.assignment,
        "score": sum(q["points"] for q in questions),
        "max_score": sum(q["max_points"] for q in questions),
        "status": status,
        "message": message,
        "questions": questions,
    }


def grade(
    submissions: Path,
    out: Path,
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
    warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
) -> dict[str, dict[str, Any]]:
    """Grade every student folder in ``submissions`` for ``assignments``; return the records by key."""
    warnings.filterwarnings("ignore", module="nbgrader")  # SQLAlchemy's SAWarnings from nbgrader's gradebook
    submissions, out = Path(submissions), Path(out)
    if not submissions.is_dir():
        raise AutograderError(f"submissions folder not found: {submissions}")
    known = course_mod.assignments(course_root)
    for assignment in assignments or []:
        course_mod.source_notebook(course_root, assignment)
    if not assignments:
        present = {p.name for s in submissions.iterdir() if s.is_dir() for p in s.iterdir() if p.is_dir()}
        assignments = [a for a in known if a in present]
        if not assignments:
            raise AutograderError(
                f"no known assignment folders under {submissions}/<student_id>/ (known: {', '.join(known)})"
            )
    if (out / JOURNAL).exists() and not resume:
        raise AutograderError(
            f"{out} already holds grading results: pass --resume to finish them, or use another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    settings = Settings(
        jobs=max(1, jobs or os.cpu_count() or 1),
        cell_timeout=float(cell_timeout or _configured_timeout(course_root)),
        notebook_timeout=float(notebook_timeout or 900),
        memory=memory if isinstance(memory, int) else parse_size(memory),
        sandbox=sandbox.resolve(sandbox_mode, warn),
    )
    tasks = find_tasks(submissions, assignments)
    records = read_journal(out)
    left = [t for t in tasks if t.key not in records]
    course = Course(out, course_root, assignments)
    write_csvs(out, records)
    bar = _progress(len(tasks), len(tasks) - len(left), progress)
    try:
        runnable = []
        for task in left:
            record, nb = _prepare(course, task)
            if record is not None:
                _finish(out, course, records, record, bar)
            else:
                runnable.append((task, nb))
        if runnable:
            _run_all(out, course, records, runnable, settings, submissions, course_root, bar)
    finally:
        bar.close()
    write_csvs(out, records)
    return records


def _configured_timeout(course_root: Path) -> float:
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course_root)).load_config()
    return float(config.get("Execute", {}).get("timeout", 300))


def _progress(total: int, done: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, initial=done, desc="grading", unit="nb", disable=not enabled, file=sys.stderr)


def _prepare(course: Course, task: Task) -> tuple[dict[str, Any] | None, Any]:
    """(a finished record, None) for a submission that cannot run; else (None, the sanitised notebook)."""
    course.register(task)
    if task.notebook is None:
        return _zero_record(course, task, "missing", task.note), None
    try:
        nb = read_notebook(task.notebook)
        nb = course.sanitize(task, nb)
    except AutograderError as exc:
        return _zero_record(course, task, "invalid", str(exc)), None
    except Exception as exc:  # nbgrader refused the notebook (broken metadata, ...)
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return _zero_record(course, task, "invalid", f"nbgrader could not read the notebook: {first[:300]}"), None
    return None, nb


def _zero_record(course: Course, task: Task, status: str, message: str) -> dict[str, Any]:
    course.zero(task)
    scores = course.scores(task)
    questions = [
        {"grade_id": gid, "points": 0.0, "max_points": scores.get(gid, (0, 0))[1], "status": status, "message": message}
        for gid in test_cells(course.sources[task.assignment])
    ]
    return _record(task, status, questions, message)


def _cells(nb: Any) -> list[dict[str, Any]]:
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            meta = cell.get("metadata", {}).get("nbgrader", {})
            cells.append({"source": cell.source, "test": bool(meta.get("grade") and not meta.get("solution"))})
    return cells


def _run_all(out, course, records, runnable, settings, submissions, course_root, bar) -> None:
    hidden = [course_root, submissions, out, Path.home()]
    readable = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent]
    readable += [Path(__import__(m).__file__).resolve().parent for m in ("course", "autograder")]
    data_dir = _data_dir()
    if data_dir is not None:
        readable.append(data_dir)
    pool = Pool(settings, hidden, readable, data_dir)
    queue = list(runnable)
    running: dict[str, tuple[Task, Any]] = {}
    try:
        while queue or running:
            while queue and len(running) < settings.jobs:
                task, nb = queue.pop(0)
                pool.submit(task, _cells(nb), settings)
                running[task.run_id] = (task, nb)
            done = pool.next_done()
            task, nb = running.pop(done["task"])
            results = pool.results(done["task"])
            again = _settle(task, nb, results, done, settings)
            if again:
                queue.insert(0, (task, nb))
                continue
            _finish(out, course, records, _graded_record(course, task, nb, results, done, settings), bar)
    finally:
        pool.close()


def _data_dir() -> Path | None:
    value = os.environ.get("COURSE_DATA_DIR")
    return Path(value).resolve() if value else None


def _settle(task: Task, nb: Any, results: dict[int, dict[str, Any]], done: dict[str, Any], settings: Settings) -> bool:
    """After a crash, run again without the cell that killed the process (at most MAX_RESTARTS times)."""
    if -1 in results or done["timed_out"]:
        return False
    n_cells = len(_cells(nb))
    first_missing = next((i for i in range(n_cells) if i not in results), None)
    if first_missing is None or task.restarts >= MAX_RESTARTS:
        return False
    task.crash_notes[first_missing] = _describe_exit(done["exit"])
    task.skip = sorted(set(task.skip) | {first_missing})
    task.restarts += 1
    return True


def _graded_record(course, task, nb, results, done, settings) -> dict[str, Any]:
    for index, note in task.crash_notes.items():
        results[index] = {"skipped": True, "note": f"{note}；这个单元没有得分，其余单元在新进程里重跑"}
    if done["timed_out"]:
        missing = f"整个笔记本运行超过 {settings.notebook_timeout:g} 秒，被停止 (timeout)"
    else:
        missing = _describe_exit(done["exit"])
    _attach_outputs(nb, results, missing)
    course.save(task, nb)
    scores = course.scores(task)
    timed_out = done["timed_out"] or any(r.get("timeout") for r in results.values() if isinstance(r, dict))
    crashed = bool(task.crash_notes) or (-1 not in results and not done["timed_out"])
    status = "timeout" if timed_out else "crashed" if crashed else "ok"
    by_id = test_cells(nb)
    questions = []
    for gid in test_cells(course.sources[task.assignment]):
        points, max_points = scores.get(gid, (0.0, 0.0))
        cell = by_id.get(gid)
        if cell is None:
            message, q_status = "这个测试单元不在提交里（被删除或改动了 metadata），记 0 分", "failed"
            points = 0.0
        else:
            message = cell_message(cell)
            q_status = "passed" if points >= max_points and not message else "failed"
        if q_status == "failed" and points >= max_points:
            points = 0.0
        questions.append(
            {"grade_id": gid, "points": points, "max_points": max_points, "status": q_status, "message": message}
        )
    notes = [task.note] if task.note else []
    if task.crash_notes:
        notes.append("; ".join(sorted(set(task.crash_notes.values()))))
    elif done["timed_out"]:
        notes.append(missing)
    elif status == "timeout":
        notes.append(f"有单元运行超过 {settings.cell_timeout:g} 秒被停止 (cell timeout)，记 0 分；其余单元照常评分")
    return _record(task, status, questions, "; ".join(notes))


def _finish(out: Path, course: Course, records: dict, record: dict[str, Any], bar) -> None:
    page = out / "feedback" / record["student_id"] / record["assignment"] / f"{record['assignment']}.html"
    page.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(page, feedback.render(record))
    _append_journal(out, record)
    records[record["key"]] = record
    write_csvs(out, records)
    bar.update(1)
