"""One engine for ``grade`` and ``check``: plans in, per-question verdicts out, crashes and hangs handled.

Each submission runs as a learner child and a judge child (``autograder.parent.pool``). When the learner's
process dies or hangs, the judge fails what still needed it and says where; the engine then runs the
submission again without that cell (or test), at most ``MAX_RESTARTS`` times, so one bad cell costs its
own points and not the rest. A notebook that runs past its time is stopped and not rerun.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.notebooks import Plan
from autograder.parent import sandbox
from autograder.parent.pool import Pool, Run, RunLimits
from autograder.text import neutral
from autograder.wire.schema import Lost, Outcome, SkipReason, Status, TestResult, Verdict

MAX_RESTARTS = 2
NOT_ANSWERED = "还没有作答 (NotImplementedError)：删掉 raise NotImplementedError()，写出你的答案"
UNKNOWN_MISTAKE = "unknown"  # course.mistakes.UNKNOWN (the parent does not import course: torch)
MISSING_TEST = "这个测试单元不在提交里（被删除或改动了 metadata），记 0 分"
# Notes and messages, for people only: no decision reads them (tests/test_engine.py rewords them all).
HUNG_NOTE = "这个单元卡住了，无法停止"
STORAGE_NOTE = "写入的文件和共享内存超过上限（{over}），进程被停止 (storage limit)"
SKIPPED_TEST = "{note}；这个测试没有得分，其余部分在新进程里重跑"
SKIPPED_CELL = "{note}；这个单元在重跑时被跳过"
EXIT_UNKNOWN = "进程意外结束"
EXIT_SIGNAL = "进程被信号 {signal} 终止"
EXIT_CODE = "进程提前退出 (exit code {code}，例如 os._exit() 或 sys.exit())"
NOTEBOOK_TIMEOUT = "整个笔记本运行超过 {seconds:g} 秒，被停止 (timeout)"
GRADER_ERROR = "评分进程出错 (grader error)，这个测试没有运行：请老师复查这份提交"
JUDGE_ENDED = "评分进程意外结束（{exit}），这个测试没有运行"
JUDGE_ENDED_NOTE = "评分进程意外结束"
NOT_RUN = "这个测试没有运行"


def seed_for(key: str) -> int:
    """The same seed for the same student and assignment, every time."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:4], "big")


@dataclass(frozen=True)
class Skip:
    """A cell or test a rerun leaves out: why, as a field, and a note for people."""

    reason: SkipReason
    note: str


@dataclass
class Job:
    """A submission to run: its plan, and what earlier runs of it taught (cells and tests to skip)."""

    key: str
    plan: Plan
    skip_cells: dict[int, Skip] = field(default_factory=dict)
    skip_tests: dict[str, Skip] = field(default_factory=dict)
    restarts: int = 0

    def payload(self) -> dict[str, Any]:
        skip_tests = {gid: SKIPPED_TEST.format(note=skip.note) for gid, skip in self.skip_tests.items()}
        return {**self.plan.to_json(), "skip_cells": sorted(self.skip_cells), "skip_tests": skip_tests}


LEARNERS_ERROR = "你的代码抛出了异常 (raised by your code)："


def message_of(error: Sequence[str] | None, origin: str = "") -> str:
    """What the learner reads for a failed test: the check's own message, or the error in one line.

    ``origin`` (who raised it: check, learner, test, gone, timeout, crashed; see ``schema.Origin``)
    chooses the wording, never the exception's name: a learner's exception class named CheckError or
    LearnerGone is shown as the learner's, after a marker saying so."""
    if not error:
        return ""
    ename, evalue = neutral(error[0]), neutral(error[1].strip())
    if origin in ("gone", "timeout", "crashed"):
        return evalue
    if origin == "learner":
        if ename == "NotImplementedError":
            return NOT_ANSWERED
        return LEARNERS_ERROR + (f"{ename}: {evalue}" if evalue else ename)
    if origin == "check" and evalue:
        return evalue
    if origin == "check":
        return "AssertionError（测试未通过，没有说明）"
    if ename == "NotImplementedError":
        return NOT_ANSWERED
    return f"{ename}: {evalue}" if evalue else ename


def mistake_of(result: TestResult) -> str:
    """A failed test's mistake id, as the judge sent it in its own field (the judge checked it against the
    catalogue), or ``unknown``: never read from the message."""
    value = result.mistake
    if value and len(value) <= 64 and value.replace("-", "").isalnum():
        return value
    return UNKNOWN_MISTAKE


def describe_exit(code: int | None) -> str:
    if code is None:
        return EXIT_UNKNOWN
    if code < 0:
        names = {9: "SIGKILL", 11: "SIGSEGV (segfault)", 6: "SIGABRT", 24: "SIGXCPU (CPU 时间超限)", 25: "SIGXFSZ"}
        return EXIT_SIGNAL.format(signal=names.get(-code, -code))
    return EXIT_CODE.format(code=code)


CHILD_CPU_S = {"learner": 0.0, "judge": 0.0}  # CPU seconds of every learner and judge child run here so far


def run_jobs(pool: Pool, jobs: Iterable[Job], *, parallel: int, on_done: Callable[[Job, Outcome], None]) -> None:
    """Run every job, ``parallel`` at a time, rerunning after a crash or hang; ``on_done`` gets each outcome.

    A finished submission's results are saved (``on_done``) before the next job is prepared (taken from
    ``jobs``), so nothing a later submission does can lose them; one job prepared ahead starts at once
    when a slot frees, so the next submission still runs while this one's results are written."""
    upcoming = iter(jobs)
    again: list[Job] = []
    ahead: list[Job] = []  # prepared, not started
    running: dict[str, Job] = {}

    def start_ready() -> None:
        while len(running) < parallel and (again or ahead):
            job = again.pop(0) if again else ahead.pop(0)
            running[pool.start(job.payload(), seed_for(job.key))] = job

    def prepare() -> None:
        while len(running) + len(ahead) + len(again) <= parallel:
            job = next(upcoming, None)
            if job is None:
                return
            ahead.append(job)
            start_ready()

    prepare()
    while running:
        run = pool.wait()
        job = running.pop(run.id)
        for role, ended in (("learner", run.learner_exit), ("judge", run.judge_exit)):
            CHILD_CPU_S[role] += float((ended or {}).get("cpu_s") or 0.0)
        if _should_rerun(job, run):
            again.append(job)
        else:
            start_ready()
            on_done(job, outcome(job, run, pool.limits.notebook_timeout))
        start_ready()
        prepare()


def run_one(pool: Pool, job: Job) -> Outcome:
    """One job to its end (reruns included), on its own."""
    done: list[Outcome] = []
    run_jobs(pool, [job], parallel=1, on_done=lambda _job, outcome: done.append(outcome))
    return done[0]


def over_storage(run: Run) -> str:
    """The note for a learner process stopped for what it wrote (files, shared memory); '' otherwise."""
    over = str((run.learner_exit or {}).get("over_storage") or "")
    return STORAGE_NOTE.format(over=over) if over else ""


def lost_reason(run: Run) -> Lost | None:
    """Why the judge lost the learner (its ``reason`` field), or None when it did not."""
    if run.judge_done is None or run.judge_done.lost_at is None:
        return None
    return run.judge_done.reason or Lost.EXITED  # a judge that gave no reason: the learner is gone all the same


def skip_for(run: Run) -> Skip:
    """What a rerun leaves out after ``run`` lost its learner, and why: from fields only."""
    if lost_reason(run) is Lost.HUNG:
        return Skip(SkipReason.HUNG, HUNG_NOTE)
    if over_storage(run):
        return Skip(SkipReason.STORAGE, over_storage(run))
    return Skip(SkipReason.EXITED, describe_exit((run.learner_exit or {}).get("code")))


def _should_rerun(job: Job, run: Run) -> bool:
    """Whether to run ``job`` again without the cell or test where ``run`` lost its learner (noted on job)."""
    lost_at = run.judge_done.lost_at if run.judge_done else None
    if run.timed_out or not lost_at or job.restarts >= MAX_RESTARTS:
        return False
    kind, where = lost_at[0], lost_at[1]
    if kind == "cell":
        job.skip_cells[int(where)] = skip_for(run)
    elif kind == "test":
        job.skip_tests[str(where)] = skip_for(run)
    else:
        return False
    job.restarts += 1
    return True


def status_of(job: Job, run: Run) -> Status:
    """ok, timeout or crashed, from fields: the run's time-outs, the skips' reasons, how the judge ended."""
    skips = [*job.skip_cells.values(), *job.skip_tests.values()]
    cell_timeout = any(c.timeout for c in run.cells.values())
    if run.timed_out or cell_timeout or any(s.reason is SkipReason.HUNG for s in skips):
        return Status.TIMEOUT
    if skips or lost_reason(run) is not None or run.judge_done is None or run.grader_error:
        return Status.CRASHED
    return Status.OK


def outcome(job: Job, run: Run, notebook_timeout: float) -> Outcome:
    """Verdicts from what the judge streamed; what it never reached fails with the reason why."""
    plan = job.plan
    if run.timed_out:
        unreached = NOTEBOOK_TIMEOUT.format(seconds=notebook_timeout)
    elif run.grader_error:
        unreached = GRADER_ERROR
    elif run.judge_done is None:
        unreached = JUDGE_ENDED.format(exit=describe_exit((run.judge_exit or {}).get("code")))
    else:
        unreached = NOT_RUN
    questions = []
    for gid in plan.tests:
        maximum = plan.points.get(gid, 0.0)
        if gid in plan.missing:
            questions.append(Verdict(gid, 0.0, maximum, Status.FAILED, MISSING_TEST, UNKNOWN_MISTAKE))
            continue
        result = run.tests.get(gid)
        if result is None:
            questions.append(Verdict(gid, 0.0, maximum, Status.FAILED, unreached, UNKNOWN_MISTAKE))
            continue
        passed, stdout = result.passed, result.stdout
        if passed:
            questions.append(Verdict(gid, maximum, maximum, Status.PASSED, "", "", stdout))
            continue
        message = message_of(result.error, result.origin or "") or "测试未通过"
        questions.append(Verdict(gid, 0.0, maximum, Status.FAILED, message, mistake_of(result), stdout))
    cells = {index: cell.to_dict() for index, cell in run.cells.items()}
    for index, skip in job.skip_cells.items():
        cells[index] = {"skipped": True, "note": SKIPPED_CELL.format(note=skip.note)}
    notes = sorted({s.note for s in [*job.skip_cells.values(), *job.skip_tests.values()]})
    if over_storage(run) and over_storage(run) not in notes:
        notes.append(over_storage(run))
    if run.timed_out or run.grader_error:
        notes.append(unreached)
    elif run.judge_done is None:
        notes.append(JUDGE_ENDED_NOTE)
    elif run.judge_done.lost and not notes:
        notes.append(run.judge_done.lost)
    return Outcome(questions, cells, status_of(job, run), "; ".join(notes), run.grader_error)


def open_pool(mode: str, limits: RunLimits, hidden: list[Path], *, warm_up: bool = True) -> Pool:
    """Zygotes in sandbox ``mode`` that can read Python, ``course``, ``autograder`` and the data, and never
    ``hidden`` (course, submissions, output) nor the grader's home. ``warm_up=False`` skips torch's lazy
    imports in the zygotes (a single notebook pays for them only if it uses them)."""
    readable = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent]
    readable += sandbox.package_folders()  # found, not imported: the parent never imports torch
    value = os.environ.get("COURSE_DATA_DIR")
    data_dir = Path(value).resolve() if value else None
    if data_dir is not None:
        readable.append(data_dir)
    return Pool(mode, limits, hidden=[*hidden, Path.home()], readable=readable, data_dir=data_dir, warm_up=warm_up)


class PoolCache:
    """One process's warm engines (the warm server's, a Dask worker's), one per setting (sandbox mode,
    limits, hidden folders), each started on first use and kept until :meth:`close`."""

    def __init__(self) -> None:
        self._pools: dict[tuple, Pool] = {}

    def get(self, mode: str, limits: RunLimits, hidden: Iterable[str]) -> Pool:
        hidden = tuple(hidden)
        key = (mode, limits.cell_timeout, limits.notebook_timeout, limits.memory, limits.storage, hidden)
        if key not in self._pools:
            self._pools[key] = open_pool(mode, limits, [Path(h) for h in hidden])
        return self._pools[key]

    def close(self) -> None:
        for pool in self._pools.values():
            pool.close()
        self._pools.clear()
