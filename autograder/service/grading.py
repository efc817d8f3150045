"""Grading for the service: N worker threads, each with its own warm engine, behind a bounded queue.

Each worker holds one engine (``engine.open_pool``: a learner and a judge zygote, sandboxed as for
``check`` and ``grade``) and grades one submission at a time, so a submission that hangs holds only its
own worker, for at most the configured cell and notebook time; the others keep answering. A request
that finds every worker busy and ``queue`` requests already waiting is refused at once (``Busy``).
"""

from __future__ import annotations

import queue
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder import check
from autograder.errors import AutograderError
from autograder.parent import engine, sandbox
from autograder.parent.pool import RunLimits


class Busy(Exception):
    """Every worker is busy and the queue is full."""


@dataclass
class Submission:
    """A student's notebook to grade for an assignment (its bytes, read by the service)."""

    student: str
    assignment: str
    path: str
    notebook: bytes


def grade_with(pool, course: Path, submission: Submission, scratch: Path) -> dict[str, Any]:
    """The JSON ``check --json`` prints for this notebook, graded in ``pool`` with ``course``'s hidden tests."""
    folder = Path(tempfile.mkdtemp(dir=scratch))
    try:
        copy = folder / f"{submission.assignment}.ipynb"
        copy.write_bytes(submission.notebook)
        try:
            result, plan = check.prepare(copy, course_root=course, assignment=submission.assignment)
        except AutograderError as exc:  # name the student's own path, not the service's copy
            raise AutograderError(str(exc).replace(str(copy), submission.path)) from None
    finally:
        for item in folder.iterdir():
            item.unlink()
        folder.rmdir()
    job = engine.Job(key=f"{check.STUDENT}/{submission.assignment}#0", plan=plan)  # the seed `check` uses
    outcome = engine.run_one(pool, job)
    result.notebook = submission.path
    result.questions = list(outcome.questions)
    result.status, result.note = outcome.status, outcome.note
    return result.to_json()


class Grader:
    """``submit`` returns a Future of the check JSON; ``workers`` graded at once, ``queue`` waiting at most."""

    def __init__(
        self,
        course: Path,
        *,
        workers: int,
        queue_size: int,
        limits: RunLimits,
        hidden: list[Path],
        scratch: Path,
        open_pool: Callable[[], Any] | None = None,
        grade: Callable[..., dict[str, Any]] = grade_with,
    ) -> None:
        self.course = course
        self.scratch = scratch
        scratch.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._grade = grade
        mode = sandbox.resolve("auto", lambda text: print(text, flush=True))
        self._open_pool = open_pool or (lambda: engine.open_pool(mode, limits, hidden=[course, *hidden]))
        self._queue: queue.Queue = queue.Queue()  # bounded by ``_waiting``: running + waiting
        self._waiting = threading.Semaphore(workers + max(queue_size, 0))
        self._started = threading.Semaphore(0)
        self._pools: list[Any] = []  # every engine a worker opened, for close()
        self.workers = workers
        self._threads = [threading.Thread(target=self._work, daemon=True, name=f"grader-{i}") for i in range(workers)]
        for thread in self._threads:
            thread.start()

    def wait_ready(self, timeout: float = 300) -> None:
        """Block until every worker's engine has started (torch imported once per zygote)."""
        deadline = time.monotonic() + timeout
        for _ in range(self.workers):
            self._started.acquire(timeout=max(0.0, deadline - time.monotonic()))

    def _opened(self):
        pool = self._open_pool()
        self._pools.append(pool)
        ready = getattr(pool, "_wait_ready", None)  # the zygotes import torch now, not at the first request
        if ready is not None:
            ready()
        return pool

    def close(self) -> None:
        """Stop every engine (the service is stopping)."""
        for pool in self._pools:
            _close(pool)

    def submit(self, submission: Submission) -> Future:
        """A Future of the verdict; Busy when ``workers`` are grading and the queue is full."""
        if not self._waiting.acquire(blocking=False):
            raise Busy()
        future: Future = Future()
        self._queue.put((submission, future))
        return future

    def _work(self) -> None:
        pool = None
        try:
            pool = self._opened()
        except Exception as exc:  # tried again at the first submission, which then fails with the reason
            print(f"grading service: an engine did not start: {exc}", flush=True)
        self._started.release()
        while True:
            submission, future = self._queue.get()
            try:
                if pool is None:
                    pool = self._opened()
                future.set_result(self._grade(pool, self.course, submission, self.scratch))
            except AutograderError as exc:  # the notebook itself (not JSON, no test cells): the student's to fix
                future.set_exception(exc)
            except Exception as exc:  # our own failure: a fresh engine for the next submission
                future.set_exception(exc)
                if pool is not None:
                    _close(pool)
                pool = None
            finally:
                self._waiting.release()


def _close(pool) -> None:
    try:
        pool.close()
    except Exception:
        pass
