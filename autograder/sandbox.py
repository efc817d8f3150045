"""Where learner code runs: inside bubblewrap when the machine has it, else with resource limits only."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

from autograder.errors import AutograderError

BWRAP_HINT = "install it (Debian: apt-get install bubblewrap) or pass --sandbox none"


def bwrap_problem() -> str:
    """'' when bubblewrap can start a sandbox without network here; otherwise why not."""
    path = shutil.which("bwrap")
    if path is None:
        return "bwrap is not installed"
    try:
        probe = subprocess.run(
            [path, "--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true"],
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap did not start: {exc}"
    if probe.returncode != 0:
        lines = probe.stderr.strip().splitlines()
        return f"bwrap cannot create a sandbox here: {lines[-1] if lines else probe.returncode}"
    return ""


def resolve(mode: str, warn) -> str:
    """Turn ``auto|bwrap|none`` into ``bwrap`` or ``none``; ``warn`` gets the one-line fallback warning."""
    if mode not in ("auto", "bwrap", "none"):
        raise AutograderError(f"unknown sandbox {mode!r}: use auto, bwrap or none")
    if mode == "none":
        return "none"
    problem = bwrap_problem()
    if not problem:
        return "bwrap"
    if mode == "bwrap":
        raise AutograderError(f"--sandbox bwrap: {problem}; {BWRAP_HINT}")
    warn(
        f"warning: {problem}; grading with resource limits only (learner code can read files and use the "
        f"network). To isolate it, {BWRAP_HINT.replace(' or pass --sandbox none', '')}."
    )
    return "none"


def _inside(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _closed_parents(paths: list[Path]) -> list[Path]:
    """Folders above ``paths`` that other users cannot enter (e.g. /root holding a pyenv Python): they are
    replaced in the sandbox, with the needed paths bound back under traversable folders."""
    closed = set()
    for path in paths:
        for parent in path.resolve().parents:
            try:
                if parent != Path("/") and not (parent.stat().st_mode & stat.S_IXOTH):
                    closed.add(parent)
            except OSError:
                pass
    return sorted(closed)


def zygote_command(mode: str, role: str, rundir: Path, fd: int, hidden: list[Path], readable: list[Path]) -> list[str]:
    """The command that starts a zygote (``autograder.zygote``) for ``role``, on control socket ``fd``.

    ``hidden`` folders (course, submissions, output, home) are replaced by empty ones inside the sandbox;
    ``readable`` paths needed to run (the Python install, this package, data) are bound back read-only.
    The learner's zygote, when started as root, may switch its children to their own user ids.
    """
    as_root = os.geteuid() == 0
    inner = [sys.executable, "-m", "autograder.zygote", role, str(rundir), str(fd)]
    if mode == "none":  # no sandbox: children keep the grader's user (its Python may live under a private home)
        return inner
    hidden = [p.resolve() for p in hidden if p.exists()] + _closed_parents(readable)
    args = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    for folder in sorted(set(hidden), key=lambda p: len(p.parts)):
        args += ["--tmpfs", str(folder)]
    made: set[Path] = set()
    covers = hidden + [Path("/tmp")]
    for path in sorted({p.resolve() for p in readable if p.exists()}, key=lambda p: len(p.parts)):
        if _inside(path, covers):
            top = max((f for f in covers if f == path or f in path.parents), key=lambda f: len(f.parts))
            for parent in reversed(path.parents):  # bwrap would make missing parents 0700: unreadable
                if top in parent.parents and parent not in made:
                    args += ["--perms", "0755", "--dir", str(parent)]
                    made.add(parent)
            args += ["--ro-bind", str(path), str(path)]
    for parent in reversed(rundir.parents):  # e.g. /tmp/autograder-run-x/ above learner/: traversable
        if Path("/tmp") in parent.parents and parent not in made:
            args += ["--perms", "0755", "--dir", str(parent)]
            made.add(parent)
    args += ["--bind", str(rundir), str(rundir), "--chdir", str(rundir)]
    args += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]
    if as_root and role == "learner":
        for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_KILL"):
            args += ["--cap-add", cap]
        inner.append("--drop-privileges")
    return args + inner


def runner_env(rundir: Path, data_dir: Path | None) -> dict[str, str]:
    """A small, deterministic environment: no secrets of the grader's shell reach learner code."""
    env = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/local/bin", "/usr/bin", "/bin"]),
        "LANG": "C.UTF-8",
        "HOME": str(rundir),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "OPENBLAS_NUM_THREADS": "1",
        "IPYTHONDIR": str(rundir / "ipython"),
        "MPLCONFIGDIR": str(rundir / "matplotlib"),
        "MPLBACKEND": "Agg",
        "CUDA_VISIBLE_DEVICES": "",
    }
    if data_dir is not None:
        env["COURSE_DATA_DIR"] = str(data_dir)
    import autograder
    import course

    # the same course/ and autograder/ as this process (a checkout under test, not only the installed one)
    homes = dict.fromkeys(str(Path(m.__file__).resolve().parent.parent) for m in (course, autograder))
    env["PYTHONPATH"] = os.pathsep.join(homes)
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # machine quirks the BLAS needs (see env docs)
        if name in os.environ:
            env[name] = os.environ[name]
    return env
