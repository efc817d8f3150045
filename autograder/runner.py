"""The notebook runner behind ``autograder grade``: a fork server (zygote) that imports torch once.

Run as ``python -m autograder.runner RUNDIR [--drop-privileges]``, usually inside bubblewrap. The zygote
imports the heavy libraries and builds an IPython shell once, then forks one child per submission, so a
submission starts in milliseconds from a clean copy of that state and no state passes between students.

Protocol, one JSON object per line. Parent -> zygote (stdin):
  {"op": "run", "task": ID, "cells": [{"source": str, "test": bool}], "skip": [int], "seed": int,
   "cell_timeout": s, "notebook_timeout": s, "memory": bytes}
Zygote -> parent (stdout): {"op": "ready"} once, then {"op": "done", "task": ID, "exit": int,
  "timed_out": bool} per task. The child writes one line per cell to RUNDIR/scratch/ID/result.jsonl.

Each child: its own process group, its own user id (with --drop-privileges, uid 20000 + n, so children
cannot read one another's scratch folders or signal the zygote), limits on memory, CPU time, processes,
file size; fd 1 and 2 go to /dev/null (Python-level output is captured per cell, capped).
Before each test cell the functions tests rely on are restored from a snapshot taken before any learner
code ran, and a probe checks that a failing comparison still fails; tampering fails the cell.
"""

from __future__ import annotations

import builtins
import json
import os
import random
import resource
import select
import signal
import sys
import time
from pathlib import Path
from typing import Any

OUTPUT_CAP = 100_000  # characters kept per stream per cell
UID_BASE = 20000


class CellTimeout(BaseException):
    """Raised by SIGALRM inside a cell that ran past its time (BaseException: `except Exception` can't eat it)."""


class CappedWriter:
    """A text stream that keeps the first OUTPUT_CAP characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def write(self, text: str) -> int:
        text = str(text)
        room = OUTPUT_CAP - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def value(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters of output dropped by the grader]\n"
        return text


def _preload() -> dict[str, Any]:
    """Import what notebooks use, build the shell, and snapshot what tests rely on."""
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    import matplotlib

    matplotlib.use(os.environ["MPLBACKEND"])
    import matplotlib.pyplot  # noqa: F401
    import numpy
    import torch
    import torch.nn.functional  # noqa: F401
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    import course.checks

    torch.set_num_threads(1)

    class Shell(InteractiveShell):
        def enable_gui(self, gui: Any = None) -> None:  # no event loop in a grader
            pass

    config = Config()
    config.HistoryManager.enabled = False
    shell = Shell.instance(config=config)
    shell.enable_matplotlib("inline")
    state = {"torch": torch, "numpy": numpy, "shell": shell, "Shell": Shell, "checks": course.checks}
    state["run_cell"] = InteractiveShell.run_cell  # the class's own, whatever learner code does later
    state["snapshot"] = _snapshot(state)
    return state


def _snapshot(state: dict[str, Any]) -> list[tuple[Any, str, Any, bool]]:
    """(owner, name, value, read_static) for everything a test's verdict depends on."""
    torch, checks = state["torch"], state["checks"]
    entries: list[tuple[Any, str, Any, bool]] = []
    for name in ("allclose", "equal", "isclose", "isfinite", "all", "any"):
        entries.append((torch, name, getattr(torch, name), False))
    for name in ("__eq__", "__ne__", "all", "any", "item", "__bool__"):
        entries.append((torch.Tensor, name, getattr(torch.Tensor, name), False))
    entries.append((torch.testing, "assert_close", torch.testing.assert_close, False))
    for owner in (checks, builtins, state["Shell"].__mro__[1]):
        for name, value in vars(owner).items():
            if not name.startswith("__"):
                entries.append((owner, name, value, True))
    return entries


def _restore(state: dict[str, Any]) -> list[str]:
    """Put back everything in the snapshot; return the names that had been changed."""
    changed = []
    missing = object()
    for owner, name, value, static in state["snapshot"]:
        current = vars(owner).get(name, missing) if static else getattr(owner, name, missing)
        if current is not value:
            changed.append(f"{getattr(owner, '__name__', owner)}.{name}")
            try:
                setattr(owner, name, value)
            except (AttributeError, TypeError):
                pass
    return changed


def _probe(state: dict[str, Any]) -> str:
    """A comparison that must fail, and an error that must be seen; '' when both behave."""
    torch, checks = state["torch"], state["checks"]
    a, b = torch.zeros(3), torch.ones(3)
    if torch.allclose(a, b) or torch.equal(a, b) or bool((a == b).all()):
        return "torch comparisons were replaced"
    try:
        checks.check_tensor(a, b)
    except AssertionError:
        pass
    else:
        return "course.checks was replaced"
    result = state["run_cell"](state["shell"], "raise ValueError('probe')", store_history=False, silent=True)
    if not isinstance(result.error_in_exec, ValueError):
        return "error reporting was switched off"
    return ""


def _run_child(state: dict[str, Any], request: dict[str, Any], rundir: Path, uid: int | None) -> None:
    """Runs in the forked child; never returns."""
    os.setpgid(0, 0)
    scratch = rundir / "scratch" / request["task"]
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    scratch.mkdir(mode=0o700)
    os.chdir(scratch)
    os.environ.update({"HOME": str(scratch), "TMPDIR": str(scratch), "MPLCONFIGDIR": str(scratch)})
    results = open(scratch / "result.jsonl", "w", encoding="utf-8")  # noqa: SIM115
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    _limit(request, own_uid=uid is not None)
    seed = int(request["seed"])
    random.seed(seed)
    state["numpy"].random.seed(seed % 2**32)
    state["torch"].manual_seed(seed)

    shell = state["shell"]
    run_cell = state["run_cell"]
    shell.showtraceback = lambda *a, **k: None
    displayed: list[str] = []
    shell.displayhook.write_output_prompt = lambda: None
    shell.displayhook.write_format_data = lambda data, md=None: displayed.append(data.get("text/plain", ""))

    def on_alarm(signum: int, frame: Any) -> None:
        raise CellTimeout()

    skip = set(request.get("skip", []))
    for index, cell in enumerate(request["cells"]):
        if index in skip:
            results.write(json.dumps({"index": index, "skipped": True}) + "\n")
            results.flush()
            continue
        tampered = ""
        if cell["test"]:
            changed = _restore(state)
            tampered = _probe(state) or (f"changed before the test: {', '.join(changed[:3])}" if changed else "")
        out, err = CappedWriter(), CappedWriter()
        sys.stdout, sys.stderr = out, err
        displayed.clear()
        signal.signal(signal.SIGALRM, on_alarm)
        signal.setitimer(signal.ITIMER_REAL, float(request["cell_timeout"]))
        timed_out = False
        try:
            result = run_cell(shell, cell["source"], store_history=False)
            error = result.error_before_exec or result.error_in_exec
        except CellTimeout as exc:  # raised outside run_cell's own handlers
            error = exc
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
        if isinstance(error, CellTimeout):
            timed_out = True
        if cell["test"] and not tampered:
            changed = _restore(state)
            if changed:
                tampered = f"changed during the test: {', '.join(changed[:3])}"
        record: dict[str, Any] = {
            "index": index,
            "stdout": out.value(),
            "stderr": err.value(),
            "result": displayed[-1] if displayed else None,
            "timeout": timed_out,
            "error": None,
        }
        if timed_out:
            record["error"] = {
                "ename": "CellTimeout",
                "evalue": f"这个单元运行超过 {request['cell_timeout']:g} 秒，被停止",
            }
        elif error is not None:
            record["error"] = {"ename": type(error).__name__, "evalue": str(error)[:2000]}
        if tampered:
            record["error"] = {
                "ename": "GradingIntegrityError",
                "evalue": f"评分环境被修改 (grading environment modified): {tampered}",
            }
        results.write(json.dumps(record, ensure_ascii=False) + "\n")
        results.flush()
    results.write(json.dumps({"done": True}) + "\n")
    results.close()
    os._exit(0)


def _limit(request: dict[str, Any], *, own_uid: bool) -> None:
    """Memory (address space), CPU seconds, file size, open files; processes only under a uid of its own
    (RLIMIT_NPROC counts every process of the user, so without one it would cap the grader's user)."""
    vm = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            vm = int(line.split()[1]) * 1024
    memory = int(request["memory"])
    cpu = int(float(request["notebook_timeout"])) + 5
    for limit, value in (
        (resource.RLIMIT_AS, vm + memory),
        (resource.RLIMIT_CPU, cpu),
        (resource.RLIMIT_NPROC, 128 if own_uid else resource.RLIM_INFINITY),
        (resource.RLIMIT_FSIZE, 64 * 2**20),
        (resource.RLIMIT_NOFILE, 256),
        (resource.RLIMIT_CORE, 0),
    ):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass


def _sweep(uid: int) -> None:
    """Kill every process left behind under a child's user id (a learner's background process)."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def serve(rundir: Path, drop_privileges: bool) -> None:
    """The zygote loop: start children on request, report how each ended, enforce notebook timeouts."""
    state = _preload()
    (rundir / "scratch").mkdir(exist_ok=True)
    os.chmod(rundir / "scratch", 0o1777)
    out = sys.stdout
    out.write(json.dumps({"op": "ready"}) + "\n")
    out.flush()
    children: dict[int, dict[str, Any]] = {}
    counter = 0
    stdin = sys.stdin.buffer
    pending = b""
    open_input = True
    while open_input or children:
        now = time.monotonic()
        for pid, info in list(children.items()):
            if not info["timed_out"] and now > info["deadline"]:
                info["timed_out"] = True
                _kill_group(pid)
        ready, _, _ = select.select([stdin] if open_input else [], [], [], 0.05)
        if ready:
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:
                open_input = False
                for pid in children:
                    _kill_group(pid)
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                counter += 1
                uid = UID_BASE + counter if drop_privileges else None
                pid = os.fork()
                if pid == 0:
                    try:
                        _run_child(state, request, rundir, uid)
                    except BaseException:
                        _report_fatal(rundir, request)
                    finally:
                        os._exit(70)
                deadline = time.monotonic() + float(request["notebook_timeout"])
                children[pid] = {"task": request["task"], "deadline": deadline, "timed_out": False, "uid": uid}
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                break
            info = children.pop(pid, None)
            if info is None:
                continue
            _kill_group(pid)
            if info["uid"] is not None:
                _sweep(info["uid"])
            code = os.waitstatus_to_exitcode(status)
            out.write(
                json.dumps({"op": "done", "task": info["task"], "exit": code, "timed_out": info["timed_out"]}) + "\n"
            )
            out.flush()


def _report_fatal(rundir: Path, request: dict[str, Any]) -> None:
    """A grader bug (not learner code) stopped a child: leave the traceback for the parent to show."""
    import traceback

    try:
        path = rundir / "scratch" / request["task"] / "fatal.txt"
        path.write_text(traceback.format_exc(), encoding="utf-8")
    except OSError:
        pass


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def main(argv: list[str]) -> None:
    rundir = Path(argv[0])
    serve(rundir, drop_privileges="--drop-privileges" in argv[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
