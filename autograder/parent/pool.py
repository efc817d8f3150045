"""The parent's side of the engine: two zygotes (learner, judge), one socket pair per submission between them.

``Pool.start(plan, seed)`` has each zygote fork a child: the learner child gets one end of a fresh socket
pair, the judge child the other end plus a result socket whose other end only this process holds; the
plan goes to the judge child over that result socket. ``Pool.wait()`` returns the next finished run: the
judge's streamed results and how both children ended.
"""

from __future__ import annotations

import json
import os
import selectors
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError
from autograder.parent import sandbox
from autograder.wire.protocol import CodecError, Framer, send
from autograder.wire.schema import CellResult, Done, RunLimits, TestResult, read_result

START_TIMEOUT_S = 180


@dataclass
class Run:
    """One submission on its way through the two children; filled in as the judge's records arrive."""

    id: str
    results: socket.socket
    tests: dict[str, TestResult] = field(default_factory=dict)
    cells: dict[int, CellResult] = field(default_factory=dict)
    judge_done: Done | None = None  # the judge's last record: None if it never got that far
    learner_exit: dict[str, Any] | None = None
    judge_exit: dict[str, Any] | None = None
    pending: bytearray = field(default_factory=bytearray)
    framer: Framer = field(default_factory=Framer)
    grader_error: str = ""  # a traceback from our own code (the judge's, or a child's set-up), for the log
    closed: bool = False  # the judge closed its end of the result socket

    @property
    def finished(self) -> bool:
        return self.learner_exit is not None and self.judge_exit is not None

    @property
    def timed_out(self) -> bool:
        return bool((self.judge_exit or {}).get("timed_out") or (self.learner_exit or {}).get("timed_out"))


def _read_small_file(path: Path, limit: int = 64_000) -> str:
    """A regular file's text, at most ``limit`` bytes; '' for anything else (no blocking on a FIFO)."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return ""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return ""
        return os.read(fd, limit).decode("utf-8", "replace")
    finally:
        os.close(fd)


class Zygote:
    """One fork server in its sandbox, and its control socket."""

    def __init__(
        self,
        role: str,
        mode: str,
        rundir: Path,
        hidden: list[Path],
        readable: list[Path],
        env: dict,
        empty: list[Path] | tuple[()] = (),
    ):
        self.role = role
        self.control, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        command = sandbox.zygote_command(mode, role, rundir, child_end.fileno(), hidden, readable, empty)
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
            cwd=rundir,
            pass_fds=[child_end.fileno()],
        )
        child_end.close()

    def wait_ready(self, deadline: float) -> None:
        self.control.settimeout(max(1.0, deadline - time.monotonic()))
        try:
            message = json.loads(self.control.recv(1 << 16) or b"{}")
        except (OSError, ValueError):
            message = {}
        self.control.settimeout(None)
        if message.get("op") != "ready":
            self.close()
            detail = (self.proc.stderr.read() if self.proc.stderr else b"").decode("utf-8", "replace").strip()
            last = detail.splitlines()[-1] if detail else "no detail"
            raise AutograderError(f"the {self.role} process did not start (is torch importable here?): {last}")

    def send(self, message: dict[str, Any], fds: list[int] | None = None) -> None:
        socket.send_fds(self.control, [json.dumps(message).encode()], fds or [])

    def close(self) -> None:
        try:
            self.control.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Pool:
    """A learner zygote and a judge zygote, each sandboxed, and the runs going through them."""

    def __init__(
        self,
        mode: str,
        limits: RunLimits,
        *,
        hidden: list[Path],
        readable: list[Path],
        data_dir: Path | None,
        warm_up: bool = True,
    ):
        self.limits = limits
        self.tmp = Path(tempfile.mkdtemp(prefix="autograder-run-"))
        os.chmod(self.tmp, 0o755)
        env = sandbox.runner_env(self.tmp, data_dir)
        env["AUTOGRADER_WARM_UP"] = "1" if warm_up else "0"  # torch's lazy imports, paid once per zygote
        roots = {}
        for role in ("learner", "judge"):
            roots[role] = self.tmp / role
            roots[role].mkdir()
            os.chmod(roots[role], 0o755)
        learner_readable, test_split = sandbox.learner_view(readable, data_dir)  # t10k-* empty for learners
        self.learner = Zygote("learner", mode, roots["learner"], hidden, learner_readable, env, test_split)
        self.judge = Zygote("judge", mode, roots["judge"], hidden, readable, env)
        self.runs: dict[str, Run] = {}
        self._counter = 0
        self._ready = False  # the zygotes import torch while the caller prepares its work

    def _wait_ready(self) -> None:
        if self._ready:
            return
        deadline = time.monotonic() + START_TIMEOUT_S
        try:
            self.learner.wait_ready(deadline)
            self.judge.wait_ready(deadline)
        except AutograderError:
            self.close()
            raise
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.learner.control, selectors.EVENT_READ, "learner")
        self.selector.register(self.judge.control, selectors.EVENT_READ, "judge")
        self._ready = True

    def start(self, plan: dict[str, Any], seed: int) -> str:
        """Start one submission; returns its run id."""
        self._wait_ready()
        self._counter += 1
        run_id = f"r{self._counter}"
        learner_end, judge_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        mine, judges = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        request = {
            "op": "start",
            "task": run_id,
            "seed": seed,
            "timeout": self.limits.cell_timeout,
            "deadline": self.limits.notebook_timeout,
            "memory": self.limits.memory,
            "storage": self.limits.storage,
        }
        try:
            self.learner.send(request, [learner_end.fileno()])
            self.judge.send(request, [judge_end.fileno(), judges.fileno()])
        finally:
            for sock in (learner_end, judge_end, judges):
                sock.close()
        send(mine, {"plan": plan})
        mine.setblocking(False)
        run = Run(run_id, mine)
        self.runs[run_id] = run
        self.selector.register(mine, selectors.EVENT_READ, run_id)
        return run_id

    def wait(self) -> Run:
        """Block until a run has finished (both children ended); return it."""
        while True:
            for run in list(self.runs.values()):
                if run.finished:
                    self._forget(run)
                    return run
            for key, _ in self.selector.select(timeout=1.0):
                if key.data in ("learner", "judge"):
                    self._control(key.data)
                else:
                    self._results(self.runs[key.data])

    def _control(self, role: str) -> None:
        zygote = self.learner if role == "learner" else self.judge
        try:
            data = zygote.control.recv(1 << 16)
        except OSError:
            data = b""
        if not data:
            raise AutograderError(f"the {role} process stopped unexpectedly")
        message = json.loads(data)
        run = self.runs.get(message.get("task"))
        if run is None or message.get("op") != "exit":
            return
        if role == "learner":
            run.learner_exit = message
        else:
            run.judge_exit = message
            self._results(run)  # whatever it sent before it ended
            if run.learner_exit is None:  # the judge is done: the learner has nothing left to answer
                self.learner.send({"op": "kill", "task": run.id})

    def _results(self, run: Run) -> None:
        while not run.closed:
            try:
                chunk = run.results.recv(1 << 20)
            except BlockingIOError:
                break
            except OSError:
                chunk = b""
            if not chunk:  # the judge is done with it: stop watching (an EOF stays "readable" forever)
                run.closed = True
                try:
                    self.selector.unregister(run.results)
                except (KeyError, ValueError):
                    pass
                break
            run.pending += chunk
        while not run.grader_error and len(run.pending) >= run.framer.wants():
            size = run.framer.wants()
            piece = run.pending[:size]
            del run.pending[:size]
            try:
                message = run.framer.take(piece)
                record = read_result(message[0]) if message is not None else None
            except (CodecError, ValueError) as exc:  # the judge broke the schema: a grader bug, for the log
                run.grader_error = f"judge process: unreadable result message: {str(exc)[:300]}"
                break
            if isinstance(record, TestResult):
                run.tests[record.grade_id] = record
            elif isinstance(record, CellResult):
                run.cells[record.index] = record
            elif isinstance(record, Done):
                run.judge_done = record
                run.grader_error = record.grader_error

    def _forget(self, run: Run) -> None:
        for role in ("learner", "judge"):  # a child that broke before it ran anything: a grader bug
            text = _read_small_file(self.tmp / role / f"fatal-{run.id}.txt")
            if text:
                run.grader_error = run.grader_error or f"{role} process: {text}"
        self.runs.pop(run.id, None)
        try:
            self.selector.unregister(run.results)
        except (KeyError, ValueError):
            pass
        run.results.close()
        for folder in (self.tmp / "learner" / "scratch").glob(f"{run.id}-*"):
            shutil.rmtree(folder, ignore_errors=True)

    def close(self) -> None:
        for zygote in (getattr(self, "learner", None), getattr(self, "judge", None)):
            if zygote is not None:
                zygote.close()
        shutil.rmtree(self.tmp, ignore_errors=True)
