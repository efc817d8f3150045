"""Fork servers (zygotes) for the two sides of grading: ``python -m autograder.child.zygote learner|judge RUNDIR FD``.

A zygote imports torch and everything a notebook uses once, then forks one child per submission on the
parent's request, so a child starts in milliseconds from a clean copy of that state. The zygote itself
never runs learner code and never holds a submission: the learner child gets its cells from the judge
over the channel, and the judge child gets the plan straight from the parent. Between tasks (no child
running) it forks the next task's child ahead (a :class:`Spare`, waiting for its task), so a warm ``check``
does not wait for a fork; each child, spare or not, serves one task and exits.

Control channel (FD, a SOCK_SEQPACKET socket to the parent), one JSON message each:
  parent -> zygote: {"op": "start", "task": ID, "seed": int, "timeout": s, "deadline": s, "memory": bytes}
                    with the task's sockets attached (learner: [channel]; judge: [channel, results]);
                    {"op": "kill", "task": ID}
  zygote -> parent: {"op": "ready"} once, then {"op": "exit", "task": ID, "code": int, "timed_out": bool}

Learner children run with their own uid (as root: 20000 + n), their own scratch folder, limits on memory,
CPU time, processes and file size, and no terminal; judge children are made non-dumpable (no ptrace, no
/proc/PID/mem by other processes of the same user) and never run learner code.
"""

from __future__ import annotations

import json
import os
import random
import resource
import select
import shutil
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

UID_BASE = 20000
CONTROL_MAX = 1 << 16


def _preload(role: str) -> dict[str, Any]:
    """Import what notebooks and tests use; for the learner, build the IPython shell once."""
    os.environ["MPLBACKEND"] = "Agg"
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # noqa: F401
    import numpy
    import numpy.random  # imported lazily otherwise, after a child may no longer read the stdlib's home
    import torch
    import torch.nn.functional  # noqa: F401

    import course.checks
    import course.data  # noqa: F401
    import course.fixtures  # noqa: F401
    import course.scenarios  # noqa: F401

    warnings.filterwarnings("ignore", message=".*non-interactive.*cannot be shown")
    torch.set_num_threads(1)
    _import_course()
    if os.environ.get("AUTOGRADER_WARM_UP", "1") == "1":
        _warm_up(torch)
    state: dict[str, Any] = {"torch": torch, "numpy": numpy, "checks": course.checks}
    if role == "learner":
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config

        import autograder.child.learner  # noqa: F401 - the child's server, codec and calls: not per child

        class Shell(InteractiveShell):
            def enable_gui(self, gui: Any = None) -> None:  # no event loop in a grader
                pass

        config = Config()
        config.HistoryManager.enabled = False
        state["shell"] = Shell.instance(config=config)
    else:
        import autograder.child.judge  # noqa: F401
    return state


def _import_course() -> None:
    """Every module of ``course.fixtures`` (a test imports its notebook's, a scenario's call imports it in the
    learner) and what checks import on first use: imported once here, not compiled and run in every child
    (children never write bytecode). Importing them has no side effect: definitions and constants only."""
    import importlib
    import pkgutil
    import tracemalloc  # noqa: F401 - course.fixtures.tensors, and warnings recorded with a source line

    import course.fixtures
    import course.mistakes  # noqa: F401 - the judge's mistake ids
    import course.remote  # noqa: F401

    for module in pkgutil.iter_modules(course.fixtures.__path__):
        importlib.import_module(f"course.fixtures.{module.name}")


def _warm_up(torch: Any) -> None:
    """What torch and matplotlib import or build lazily on first use (an optimizer's first step pulls in
    torch._dynamo, ~2 s; the first figure loads Agg, its fonts and tick machinery, ~0.3 s): done once here,
    so no child pays for it."""
    import torch._subclasses.schema_check_mode  # noqa: F401 - imported by a dispatch mode's first exit
    import torch.testing
    import torch.utils.data  # noqa: F401

    _warm_up_matplotlib()

    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
    for optimizer in (torch.optim.AdamW(model.parameters()), torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)):
        optimizer.zero_grad()
        model(torch.ones(2, 2)).sum().backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    with torch.inference_mode():
        model.eval()(torch.ones(1, 2))
    torch.testing.assert_close(torch.ones(1), torch.ones(1))
    torch.ones(2, device="meta") + torch.tensor(1.0)
    torch.manual_seed(0)  # its first call reads 7 torch sources (its lazy CUDA, XPU and MTIA seeding records the
    # stack: traceback.format_stack), 2-10 ms that every child would pay at its start (``_seed``)


def _warm_up_matplotlib() -> None:
    """Draw and close one figure of the kinds notebooks make: pyplot holds no figure afterwards, so a
    child's first figure is still number 1."""
    import matplotlib.pyplot as plt

    for layout in ("constrained", None):
        fig, axes = plt.subplots(1, 2, figsize=(4, 2), layout=layout)
        axes[0].plot([0.0, 1.0], [1.0, 0.0], label="line")
        axes[0].hist([0.1, 0.5, 0.5, 0.9], bins=3)
        axes[0].legend()
        axes[1].imshow([[0.0, 1.0], [1.0, 0.0]], cmap="viridis")
        axes[1].add_patch(plt.Rectangle((0, 0), 1, 1, fill=False))
        for ax in axes:
            ax.set_title("title")
            ax.set_xlabel("x")
        if layout is None:
            plt.tight_layout()
        fig.canvas.draw()
        plt.close("all")


def _close_other_fds(keep: set[int]) -> None:
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd > 2 and fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def _limit(memory: int, cpu_seconds: int, *, own_uid: bool) -> None:
    """Memory (address space), CPU seconds, file size, open files; processes only under a uid of its own
    (RLIMIT_NPROC counts every process of the user, so without one it would cap the grader's user)."""
    vm = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            vm = int(line.split()[1]) * 1024
    for limit, value in (
        (resource.RLIMIT_AS, vm + memory),
        (resource.RLIMIT_CPU, cpu_seconds),
        (resource.RLIMIT_NPROC, 64 if own_uid else resource.RLIM_INFINITY),
        (resource.RLIMIT_FSIZE, 64 * 2**20),
        (resource.RLIMIT_NOFILE, 256),
        (resource.RLIMIT_CORE, 0),
    ):
        try:
            resource.setrlimit(limit, (value, value))
        except (ValueError, OSError):
            pass


def _seed(state: dict[str, Any], seed: int) -> None:
    random.seed(seed)
    state["numpy"].random.seed(seed % 2**32)
    state["torch"].manual_seed(seed)


def _learner_child(state: dict[str, Any], request: dict[str, Any], rundir: Path, fds: list[int], uid: int | None):
    """Runs in the forked learner child; never returns."""
    from autograder.child.learner import Server

    channel = socket.socket(fileno=fds[0])
    os.setpgid(0, 0)
    scratch = Path(request["scratch"])  # made by the zygote, owned by this child's uid
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    _not_dumpable()  # with a shared uid (rootless bwrap) another submission cannot ptrace this one
    os.umask(0o077)  # what it writes, even in the sandbox's shared /tmp, no other submission can read
    os.chdir(scratch)
    os.environ.update({"HOME": str(scratch), "TMPDIR": str(scratch), "MPLCONFIGDIR": str(scratch)})
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    _limit(int(request["memory"]), int(float(request["deadline"])) + 5, own_uid=uid is not None)
    _seed(state, int(request["seed"]))
    shell = state["shell"]
    shell.showtraceback = lambda *a, **k: None
    shell.displayhook.write_output_prompt = lambda: None

    def run_source(source: str) -> BaseException | None:
        import matplotlib.pyplot as plt

        result = shell.run_cell(source, store_history=False, silent=False)
        plt.close("all")
        return result.error_before_exec or result.error_in_exec

    Server(shell.user_ns, run_source, timeout=float(request["timeout"]), guard=True).serve(channel)
    os._exit(0)


def _judge_child(state: dict[str, Any], request: dict[str, Any], fds: list[int]) -> None:
    """Runs in the forked judge child; never returns."""
    from autograder.child.judge import Learner, SocketChannel, run_plan
    from autograder.wire.protocol import recv, send
    from autograder.wire.schema import CellResult, Done, TestResult, result_message

    channel, results = socket.socket(fileno=fds[0]), socket.socket(fileno=fds[1])
    os.setpgid(0, 0)
    _not_dumpable()
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)
    _limit(int(request["memory"]), int(float(request["deadline"])) + 5, own_uid=False)
    _seed(state, int(request["seed"]))
    header, _ = recv(results)
    plan = header["plan"]
    learner = Learner(SocketChannel(channel), timeout=float(request["timeout"]))

    def stream(record: TestResult | CellResult | Done) -> None:
        send(results, result_message(record))

    try:
        report = run_plan(plan, learner, cell_timeout=float(request["timeout"]), on_result=stream)
        stream(report.done())
    except BaseException:  # noqa: BLE001 - whatever a submission made the judge do, this run ends, not the class
        import traceback

        try:
            stream(Done(grader_error=traceback.format_exc()[-4000:]))
        except BaseException:  # noqa: BLE001 - no memory left to say so: the parent sees no "done"
            pass
    os._exit(0)


def _not_dumpable() -> None:
    """PR_SET_DUMPABLE 0: processes of the same user cannot ptrace this one or read /proc/PID/mem."""
    import ctypes

    try:
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _scratch(rundir: Path, task: str, uid: int | None) -> Path:
    """A fresh folder for one learner child, with a name no submission can guess, owned by its uid."""
    import secrets

    folder = rundir / "scratch" / f"{task}-{secrets.token_hex(8)}"
    folder.mkdir(mode=0o700)
    if uid is not None:
        os.chown(folder, uid, uid)
    return folder


def _report_fatal(rundir: Path, request: dict[str, Any]) -> None:
    import traceback

    try:  # a learner child after its uid switch cannot write here, by design (nothing it writes is read)
        (rundir / f"fatal-{request['task']}.txt").write_text(traceback.format_exc(), encoding="utf-8")
    except OSError:
        pass


def _sweep(uid: int, shared_folders: tuple[Path, ...]) -> None:
    """Kill every process left behind under a child's user id (a learner's background process), and remove
    what it left in the folders every child can write, so the next submission finds nothing there."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
            _remove_sysv(uid)  # they outlive the process: the next submission could read them
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    for shared in shared_folders:
        try:
            entries = list(shared.iterdir())
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.lstat().st_uid == uid:
                    shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
            except OSError:
                pass


STORAGE_CHECK_S = 0.2  # how often a learner child's files and shared memory are counted
MAX_ENTRIES = 20_000  # more files than this in its folders counts as over the limit


SYSV = {  # /proc/sysvipc/<kind>: (id column, bytes column or None, owner uid column, creator uid column)
    "shm": (1, 3, 7, 9),
    "msg": (1, 3, 7, 9),
    "sem": (1, None, 4, 6),
}


def _sysv(uid: int | None = None) -> list[tuple[str, int, int, int]]:
    """(kind, id, bytes, owner uid) of every SysV IPC object (shared memory, message queue, semaphore set)
    in this IPC namespace, of ``uid`` when given: they outlive the process that made them."""
    found = []
    for kind, (id_col, size_col, owner_col, creator_col) in SYSV.items():
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            try:
                ident, owner, creator = int(fields[id_col]), int(fields[owner_col]), int(fields[creator_col])
                size = int(fields[size_col]) if size_col is not None else 0
            except (IndexError, ValueError):
                continue
            if uid is None or uid in (owner, creator):
                found.append((kind, ident, size, owner))
    return found


def _files_bytes(folder: Path, uid: int | None, budget: list[int]) -> int:
    """Bytes on disk of the files under ``folder`` (owned by ``uid``, when given); ``budget`` counts entries."""
    total = 0
    stack = [str(folder)]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            budget[0] -= 1
            if budget[0] < 0:
                return total
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if uid is None or info.st_uid == uid:
                total += info.st_blocks * 512
            if entry.is_dir(follow_symlinks=False):
                stack.append(entry.path)
    return total


def storage_used(scratch: Path | None, uid: int | None) -> tuple[int, bool]:
    """What a learner child keeps outside its address space, in bytes, and whether it made too many files:
    its scratch folder; with a uid of its own, also its files in /tmp and /dev/shm, its SysV shared memory
    and message queues."""
    budget = [MAX_ENTRIES]
    total = _files_bytes(scratch, None, budget) if scratch is not None else 0
    if uid is not None:
        total += sum(_files_bytes(Path(d), uid, budget) for d in ("/tmp", "/dev/shm"))
        total += sum(size for _kind, _id, size, _owner in _sysv(uid))
    return total, budget[0] < 0


def _remove_sysv(uid: int) -> None:
    """Remove the SysV IPC objects of ``uid`` (run as ``uid``: the owner may remove them)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for kind, ident, _size, owner in _sysv(uid):
        if owner != uid:
            continue
        if kind == "shm":
            libc.shmctl(ident, 0, None)  # IPC_RMID
        elif kind == "msg":
            libc.msgctl(ident, 0, None)
        else:
            libc.semctl(ident, 0, 0)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _pidfd(pid: int) -> int | None:
    """A descriptor that select() sees readable when child ``pid`` exits, so its exit is reported at once
    rather than at the loop's next 0.05 s tick; None where the kernel has no pidfd_open (the tick remains)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _run_child(role: str, state: dict[str, Any], request: dict[str, Any], rundir: Path, fds: list[int]) -> None:
    """Runs in a forked child once its task is known (``request``, with its sockets ``fds``); never returns."""
    try:
        _close_other_fds(set(fds))
        if role == "learner":
            _learner_child(state, request, rundir, fds, request["uid"])
        else:
            _judge_child(state, request, fds)
    except BaseException:  # a grader bug, not learner code: leave the traceback for the parent
        _report_fatal(rundir, request)
    finally:
        os._exit(70)


class Spare:
    """A child forked ahead of its task, so that starting a task costs no fork (a 700 MB zygote takes 10-30 ms
    to fork). It runs nothing until its task comes, then goes on as a child forked at that moment would (the
    zygote runs nothing between tasks that a child could tell apart); it serves that one task and exits: no
    learner code runs in it before its task or after it."""

    def __init__(self, role: str, state: dict[str, Any], rundir: Path, control: socket.socket) -> None:
        mine, its = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            try:
                control.close()
                mine.close()
                _close_other_fds({its.fileno()})
                data, fds, _flags, _addr = socket.recv_fds(its, CONTROL_MAX, 4)
                its.close()
                if data:  # nothing: the zygote is stopping
                    _run_child(role, state, json.loads(data), rundir, fds)
            finally:
                os._exit(0)
        its.close()
        self.pid, self.sock = pid, mine

    def hand_over(self, request: dict[str, Any], fds: list[int]) -> bool:
        """Give this spare its task; False if it cannot take it (it died): the caller forks one instead."""
        try:
            socket.send_fds(self.sock, [json.dumps(request).encode()], fds)
            return True
        except OSError:
            self.discard()
            return False
        finally:
            self.sock.close()

    def discard(self) -> None:
        self.sock.close()
        try:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def serve(role: str, rundir: Path, control: socket.socket, drop_privileges: bool) -> None:
    """The zygote loop: start children on request, report how each ended, enforce deadlines."""
    state = _preload(role)
    import gc

    gc.freeze()  # what the zygote imported is never scanned by a child's collector (nor copied for it)
    if role == "learner":  # each child's own folder is made here, before it runs: none can make another's
        (rundir / "scratch").mkdir(exist_ok=True)
        os.chmod(rundir / "scratch", 0o711)
    control.send(json.dumps({"op": "ready"}).encode())
    children: dict[int, dict[str, Any]] = {}
    by_task: dict[str, int] = {}
    counter = 0
    open_control = True
    next_count = 0.0
    spare: Spare | None = None
    while open_control or children:
        if spare is None and open_control and not children:  # between tasks: the next one's child, ready
            spare = Spare(role, state, rundir, control)
        now = time.monotonic()
        for pid, info in list(children.items()):
            if not info["timed_out"] and now > info["deadline"]:
                info["timed_out"] = True
                _kill_group(pid)
        if role == "learner" and now >= next_count:
            next_count = now + STORAGE_CHECK_S
            for pid, info in list(children.items()):
                used, too_many = storage_used(info["scratch"], info["uid"])
                if not info["over"] and (used > info["storage"] or too_many):
                    cap = f"{info['storage'] / 2**20:g} MB"
                    info["over"] = f"超过 {MAX_ENTRIES} 个文件" if too_many else f"{used / 2**20:.0f} MB，上限 {cap}"
                    _kill_group(pid)
        exits = [info["pidfd"] for info in children.values() if info["pidfd"] is not None]  # readable on exit
        ready, _, _ = select.select([control, *exits] if open_control else exits, [], [], 0.05)
        if control in ready:
            try:
                data, fds, _flags, _addr = socket.recv_fds(control, CONTROL_MAX, 4)
            except OSError:
                data, fds = b"", []
            if not data:
                open_control = False
                for pid in children:
                    _kill_group(pid)
                if spare is not None:
                    spare.discard()
                    spare = None
                continue
            request = json.loads(data)
            if request.get("op") == "kill":
                pid = by_task.get(request.get("task"))
                if pid is not None:
                    _kill_group(pid)
                continue
            counter += 1
            uid = UID_BASE + counter if drop_privileges and role == "learner" else None
            request["uid"] = uid
            if role == "learner":
                request["scratch"] = str(_scratch(rundir, request["task"], uid))
            if spare is not None and spare.hand_over(request, fds):
                pid = spare.pid
            else:
                pid = os.fork()
                if pid == 0:
                    control.close()
                    _run_child(role, state, request, rundir, fds)
            spare = None
            for fd in fds:
                os.close(fd)
            deadline = time.monotonic() + float(request["deadline"])
            children[pid] = {
                "pidfd": _pidfd(pid),
                "task": request["task"],
                "deadline": deadline,
                "timed_out": False,
                "uid": uid,
                "scratch": Path(request["scratch"]) if role == "learner" else None,
                "storage": int(request.get("storage", 512 * 2**20)),
                "over": "",
            }
            by_task[request["task"]] = pid
        while children:
            pid, status, usage = os.wait4(-1, os.WNOHANG)
            if pid == 0:
                break
            info = children.pop(pid, None)
            if info is None:
                if spare is not None and pid == spare.pid:  # killed from outside while it waited
                    spare.sock.close()
                    spare = None
                continue
            by_task.pop(info["task"], None)
            if info["pidfd"] is not None:
                os.close(info["pidfd"])
            _kill_group(pid)
            message = {
                "op": "exit",
                "task": info["task"],
                "code": os.waitstatus_to_exitcode(status),
                "timed_out": info["timed_out"],
                "over_storage": info["over"],
                "cpu_s": round(usage.ru_utime + usage.ru_stime, 4),  # the child's own CPU time (benchmarks)
            }
            try:
                control.send(json.dumps(message).encode())
            except OSError:
                open_control = False
            if info["uid"] is not None:  # after the report (a fork: 10-60 ms), before any next child starts
                _sweep(info["uid"], (Path("/tmp"), Path("/dev/shm")))


def main(argv: list[str]) -> None:
    role, rundir, fd = argv[0], Path(argv[1]), int(argv[2])
    if role not in ("learner", "judge"):
        raise SystemExit(f"unknown role {role!r}")
    control = socket.socket(fileno=fd)
    serve(role, rundir, control, drop_privileges="--drop-privileges" in argv[3:])


if __name__ == "__main__":
    main(sys.argv[1:])
