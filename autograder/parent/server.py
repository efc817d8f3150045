"""A warm engine for ``check`` and ``progress``: the zygotes stay up between commands, for one user.

Starting the engine (two sandboxed processes importing torch) costs seconds; running a notebook through a
warm one costs what its cells cost. The first ``check`` starts this server in the background; later ones
hand it their notebooks (and the course's source notebooks) as text over a Unix socket in a private folder
(mode 0700) and get the outcomes back. The server parses them and makes the plans (so a client never imports
nbformat), and the same engine as ever runs them. It exits after ``IDLE_S`` seconds without a request, and a client whose
code or settings differ from the server's (a new checkout, another data folder) stops it and starts a new
one, so a notebook is never judged by an old engine. ``AUTOGRADER_NO_SERVER=1`` runs everything in-process.
A client imports only what asking a server needs (not the engine, its pool or nbformat): its start-up is
part of every warm check.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from autograder.errors import AutograderError
from autograder.notebooks import CheckTexts, plan_for
from autograder.parent import sandbox
from autograder.wire.protocol import ChannelClosed, ChannelTimeout, CodecError, recv, send
from autograder.wire.schema import Outcome, RunLimits

if TYPE_CHECKING:
    from autograder.parent.engine import PoolCache

IDLE_S = float(os.environ.get("AUTOGRADER_SERVER_IDLE_S", "900"))
START_S = 120


def runtime_dir() -> Path:
    """A folder only this user can enter: $AUTOGRADER_RUNTIME_DIR, $XDG_RUNTIME_DIR/pytorch-course or ~/.cache."""
    base = os.environ.get("AUTOGRADER_RUNTIME_DIR")
    if base:
        folder = Path(base)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "pytorch-course"
    else:
        folder = Path.home() / ".cache" / "pytorch-course" / "run"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)
    return folder


def fingerprint() -> str:
    """The code and settings a verdict depends on: course/ and autograder/ files, Python, data folder."""
    digest = hashlib.sha256(sys.executable.encode())
    digest.update(os.environ.get("COURSE_DATA_DIR", "").encode())
    for root in sandbox.package_folders():
        for path in sorted(root.rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return digest.hexdigest()[:20]


def enabled() -> bool:
    return os.environ.get("AUTOGRADER_NO_SERVER", "") in ("", "0")


# ---------------------------------------------------------------------------------------------------
# Client


def run_checks(
    checks: list[tuple[str, CheckTexts]], *, sandbox_mode: str, limits: RunLimits, hidden: list[Path], parallel: int
) -> list[Outcome] | None:
    """Outcomes for ``checks`` ((job key, notebook texts) each) from the warm server (started if needed),
    which parses the notebooks and makes the plans; None if it cannot be had. A notebook the server cannot
    read, or a sandbox it cannot have, raises AutograderError (the line a cold check gives)."""
    request = {
        "op": "run",
        "fingerprint": fingerprint(),
        "mode": sandbox_mode,
        "limits": vars(limits),
        "hidden": [str(h) for h in hidden],
        "parallel": parallel,
        "jobs": [{"key": key, "texts": texts.to_dict()} for key, texts in checks],
    }
    for attempt in range(2):
        reply = _ask(request)
        if reply is not None and reply.get("op") == "outcomes":
            return [Outcome.from_json(o) for o in reply["outcomes"]]
        if reply is not None and reply.get("op") == "error":
            raise AutograderError(str(reply.get("message", "")))
        if attempt == 0 and (reply is None or reply.get("op") == "stale"):
            if reply is not None:
                _ask({"op": "stop"})
            if not _start():
                return None
    return None


def _ask(request: dict[str, Any]) -> dict[str, Any] | None:
    path = runtime_dir() / "engine.sock"
    if not path.exists():
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(str(path))
            send(sock, request)
            header, _ = recv(sock)
            return header
    except (OSError, ChannelClosed, ChannelTimeout, CodecError):
        return None


def _start() -> bool:
    """Start a server in the background and wait until it answers."""
    import subprocess

    folder = runtime_dir()
    (folder / "engine.sock").unlink(missing_ok=True)
    log = open(folder / "engine.log", "ab")  # noqa: SIM115 - handed to the child
    subprocess.Popen(
        [sys.executable, "-m", "autograder.parent.server"],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
        env=dict(os.environ),
    )
    log.close()
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        reply = _ask({"op": "ping"})
        if reply is not None and reply.get("op") == "pong":
            return True
        time.sleep(0.05)
    return False


def stop(wait: float = 15.0) -> bool:
    """Ask a running server to exit and wait until it has (its socket is gone); True if there was one."""
    if _ask({"op": "stop"}) is None:
        return False
    path = runtime_dir() / "engine.sock"
    deadline = time.monotonic() + wait
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return True


# ---------------------------------------------------------------------------------------------------
# Server


def serve() -> None:
    from autograder.parent import engine

    folder = runtime_dir()
    path = folder / "engine.sock"
    mine = fingerprint()
    pools = engine.PoolCache()
    modes: dict[str, str] = {}  # sandbox mode asked -> resolved: bwrap is probed once, not per check
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    os.chmod(path, 0o600)
    listener.listen(8)
    listener.settimeout(IDLE_S)
    try:
        while True:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                return  # idle
            with conn:
                try:
                    request, _ = recv(conn, deadline=time.monotonic() + 30)
                except (ChannelClosed, ChannelTimeout, CodecError, OSError):
                    continue
                op = request.get("op")
                if op == "ping":
                    send(conn, {"op": "pong", "fingerprint": mine})
                elif op == "stop":
                    send(conn, {"op": "bye"})
                    return
                elif op == "run" and request.get("fingerprint") != mine:
                    send(conn, {"op": "stale"})
                elif op == "run":
                    send(conn, _run(request, pools, modes))
    finally:
        listener.close()
        path.unlink(missing_ok=True)
        pools.close()


def _run(request: dict[str, Any], pools: PoolCache, modes: dict[str, str]) -> dict[str, Any]:
    """Plans made from the request's notebook texts (every one before any runs, as a cold check does),
    then run; an unreadable notebook or an unavailable sandbox is the reply ``error`` with its one line."""
    from autograder.parent import engine

    try:
        asked = str(request["mode"])
        if asked not in modes:
            modes[asked] = sandbox.resolve(asked, lambda text: None)  # a learner's own machine: no warning
        jobs = [engine.Job(key=j["key"], plan=plan_for(CheckTexts.from_dict(j["texts"]))) for j in request["jobs"]]
    except AutograderError as exc:
        return {"op": "error", "message": str(exc)}
    pool = pools.get(modes[asked], RunLimits(**request["limits"]), request["hidden"])
    outcomes: dict[str, Outcome] = {}
    engine.run_jobs(
        pool, jobs, parallel=int(request["parallel"]), on_done=lambda job, o: outcomes.__setitem__(job.key, o)
    )
    return {"op": "outcomes", "outcomes": [outcomes[j.key].to_json() for j in jobs]}


if __name__ == "__main__":
    serve()
