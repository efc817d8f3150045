"""Where learner code runs: inside bubblewrap when the machine has it, else with resource limits only."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from autograder.errors import AutograderError

BWRAP_HINT = "install it (Debian: apt-get install bubblewrap) or pass --sandbox none"


def bwrap_problem() -> str:
    """'' when bubblewrap can start a sandbox without network here; otherwise why not."""
    import shutil
    import subprocess  # here, not at the top: a warm check's client imports this module for package_folders

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


SYSTEM_DIRS = ("/usr", "/sys")  # what any program needs, read-only; nothing else of the host is there
# of /etc, only what the dynamic loader, BLAS alternatives, time zones and Python's standard library read
ETC_ALLOWED = (
    "alternatives",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "localtime",
    "timezone",
    "mime.types",
    "nsswitch.conf",
    "os-release",
    "debian_version",
    "ssl",
    "ca-certificates",
    "fonts",
    "matplotlibrc",
)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")  # merged-/usr symlinks, or folders
DEFAULT_EXCHANGE = Path("/usr/local/share/nbgrader/exchange")  # nbgrader's: every student's submissions


def _inside(path: Path, folders: list[Path]) -> bool:
    return any(path == f or f in path.parents for f in folders)


def zygote_command(
    mode: str, role: str, rundir: Path, fd: int, hidden: list[Path], readable: list[Path], empty: Sequence[Path] = ()
) -> list[str]:
    """The command that starts a zygote (``autograder.child.zygote``) for ``role``, on control socket ``fd``.

    The sandbox holds an allowlist, not the host: the system folders read-only, the ``readable`` paths
    needed to run (the Python install, this package, the data) bound read-only, a fresh /tmp, /dev and
    /proc, and the run folder. Home folders, other courses, worktrees and backups are simply not there.
    ``hidden`` folders that lie inside the system folders (an nbgrader exchange under /usr/local) are
    replaced by empty ones, and each ``empty`` file (the capstone's test split, for the learner) is an empty
    read-only file. The learner's zygote, when started as root, may switch its children to their own user ids.
    """
    as_root = os.geteuid() == 0
    inner = [sys.executable, "-m", "autograder.child.zygote", role, str(rundir), str(fd)]
    if mode == "none":  # no sandbox: children keep the grader's user (its Python may live under a private home)
        return inner
    system = [Path(d) for d in SYSTEM_DIRS if Path(d).is_dir()]
    args = ["bwrap"]
    for folder in system:
        args += ["--ro-bind", str(folder), str(folder)]
    for name in SYSTEM_LINKS:
        link = Path(name)
        if link.is_symlink():
            args += ["--symlink", os.readlink(link), name]
        elif link.is_dir():
            args += ["--ro-bind", name, name]
            system.append(link)
    args += ["--perms", "0755", "--dir", "/etc"]
    for name in ETC_ALLOWED:
        entry = Path("/etc") / name
        if entry.exists():
            args += ["--ro-bind", str(entry), str(entry)]
    args += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    hidden = sorted({p.resolve() for p in [*hidden, DEFAULT_EXCHANGE] if p.exists()}, key=lambda p: len(p.parts))
    masked = [folder for folder in hidden if _inside(folder, system)]  # the rest is not in the sandbox at all
    for folder in masked:
        args += ["--tmpfs", str(folder)]
    made: set[Path] = {Path("/tmp")}

    def parents_of(path: Path) -> None:  # bwrap would make missing parents 0700: unreadable for a child's uid
        for parent in reversed(path.parents):
            if parent != Path("/") and parent not in made and not _inside(parent, system):
                args.extend(["--perms", "0755", "--dir", str(parent)])
                made.add(parent)

    for path in sorted({p.resolve() for p in readable if p.exists()}, key=lambda p: len(p.parts)):
        if _inside(path, system) and not _inside(path, masked):
            continue  # the system folders hold it already
        parents_of(path)
        args += ["--ro-bind", str(path), str(path)]
    if empty:
        blank = rundir.with_name(rundir.name + "-empty")  # an empty regular file on the host, bound over each
        blank.write_bytes(b"")
        blank.chmod(0o644)
        for path in empty:
            parents_of(path)
            args += ["--ro-bind", str(blank), str(path)]
    parents_of(rundir)
    args += ["--bind", str(rundir), str(rundir), "--chdir", str(rundir)]
    args += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]
    if as_root and role == "learner":
        for cap in ("CAP_SETUID", "CAP_SETGID", "CAP_KILL"):
            args += ["--cap-add", cap]
        inner.append("--drop-privileges")
    return args + inner


JUDGE_ONLY_DATA = "t10k-*"  # MNIST's test split: the judge reads it, the learner's sandbox holds empty stand-ins


def learner_view(readable: list[Path], data_dir: Path | None) -> tuple[list[Path], list[Path]]:
    """``readable`` for the learner's zygote, and the files it must see empty: the data folder's test split.

    The folders on the way to a ``t10k-*`` file are bound entry by entry without those files; each of them
    is then an empty file in the sandbox (torchvision's MNIST checks that all four files exist before it
    loads the training split), so no test image or label reaches learner code. The judge keeps the whole
    folder: it sends the test images to the learner's model in batches, as data.
    """
    if data_dir is None or not data_dir.is_dir():
        return readable, []
    judge_only = sorted(data_dir.rglob(JUDGE_ONLY_DATA))
    if not judge_only:
        return readable, []
    kept = [p for p in readable if p.resolve() != data_dir.resolve()]

    def visit(folder: Path) -> None:
        for child in sorted(folder.iterdir()):
            if child in judge_only:
                continue
            if child.is_dir() and any(child in p.parents for p in judge_only):
                visit(child)
            else:
                kept.append(child)

    visit(data_dir)
    return kept, judge_only


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
    # the same course/ and autograder/ as this process (a checkout under test, not only the installed one)
    homes = dict.fromkeys(str(folder.parent) for folder in package_folders())
    env["PYTHONPATH"] = os.pathsep.join(homes)
    for name in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # machine quirks the BLAS needs (see env docs)
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def package_folders() -> list[Path]:
    """The folders of the ``course`` and ``autograder`` packages this process would import, found without
    importing ``course`` (which imports torch: a second of a warm check's start-up)."""
    folders = []
    for name in ("course", "autograder"):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise AutograderError(f"the {name} package cannot be found: run from the course folder or install it")
        folders.append(Path(spec.origin).resolve().parent)
    return folders
