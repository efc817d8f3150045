"""Warm `check` latency of two copies of the course side by side (before and after a change), alternating.

Usage: .venv/bin/python benchmarks/warm_check.py OTHER_TREE [--assignment 01_tensors] [--rounds 7]

OTHER_TREE is another checkout of this repository (e.g. ``git worktree add /tmp/base HEAD~3``). Each tree gets
its own warm engine (a runtime folder of its own); then, round after round, one `python -m autograder check`
of a notebook with every answer right runs against each tree in turn, as the user types it. Per tree it prints
the wall time (best and median), the client's CPU time (its own process: start-up, imports, request) and the
CPU time of the server, its zygotes and their children over the check (learner and judge included; a spare
child forked after the check counts too). On a shared machine quote the load average with the figures.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.notebooks import honest_submission, max_score  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def _env(tree: Path, runtime: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(tree), AUTOGRADER_RUNTIME_DIR=str(runtime), AUTOGRADER_NO_SERVER="0")


def _server_pid(runtime: Path) -> int | None:
    """The warm server using ``runtime`` (found in /proc by its command line and environment)."""
    wanted = f"AUTOGRADER_RUNTIME_DIR={runtime}".encode()
    for entry in Path("/proc").iterdir():
        try:
            if b"autograder.parent.server" in (entry / "cmdline").read_bytes():
                if wanted in (entry / "environ").read_bytes().split(b"\0"):
                    return int(entry.name)
        except (OSError, ValueError):
            continue
    return None


def _tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its descendants, reaped children included (a zygote reaps its own)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(ppid, []).append(int(entry.name))
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        stack += parents.get(pid, [])
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / TICK


def check_once(tree: Path, runtime: Path, notebook: Path, want: str) -> tuple[float, float, float]:
    """(wall s, client CPU s, server-side CPU s) of one warm check against ``tree``."""
    server = _server_pid(runtime)
    before = _tree_cpu(server) if server else 0.0
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "check", str(notebook), "--course", str(tree)],
        env=_env(tree, runtime),
        cwd=tree,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after_used = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not done.stdout.strip().endswith(want):
        raise SystemExit(f"check against {tree} failed: {(done.stderr or done.stdout).strip()[-300:]}")
    time.sleep(0.3)  # the zygotes fork the next check's children: counted, and not in the next check's way
    server = server or _server_pid(runtime)
    client = after_used.ru_utime + after_used.ru_stime - used.ru_utime - used.ru_stime
    return wall, client, (_tree_cpu(server) - before) if server else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="another checkout of this repository (the 'before')")
    parser.add_argument("--assignment", default="01_tensors")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    trees = {"other": args.other.resolve(), "this": ROOT}
    with tempfile.TemporaryDirectory(prefix="warm-check-") as tmp:
        notebook = Path(tmp) / args.assignment / f"{args.assignment}.ipynb"
        notebook.parent.mkdir()
        nbformat.write(honest_submission(args.assignment), notebook)
        want = f"score {max_score(args.assignment):g} / {max_score(args.assignment):g}"
        runtimes = {name: Path(tmp) / f"run-{name}" for name in trees}
        rows: dict[str, list[tuple[float, float, float]]] = {name: [] for name in trees}
        try:
            for name, tree in trees.items():
                runtimes[name].mkdir(mode=0o700)
                check_once(tree, runtimes[name], notebook, want)  # starts its engine
            for _ in range(args.rounds):
                for name, tree in trees.items():
                    rows[name].append(check_once(tree, runtimes[name], notebook, want))
        finally:
            for name, tree in trees.items():
                stop = "from autograder.parent import server; server.stop()"
                subprocess.run([sys.executable, "-c", stop], env=_env(tree, runtimes[name]), cwd=tree)
    print(f"warm check of {args.assignment}, {args.rounds} rounds alternating; load average {os.getloadavg()[0]:.1f}")
    print(f"{'tree':<6} {'wall best':>10} {'median':>8} {'client CPU':>11} {'server CPU':>11}  path")
    for name, tree in trees.items():
        walls = [r[0] for r in rows[name]]
        client = min(r[1] for r in rows[name])
        server = statistics.median(r[2] for r in rows[name])
        print(
            f"{name:<6} {min(walls):>9.3f}s {statistics.median(walls):>7.3f}s {client:>10.3f}s {server:>10.2f}s  {tree}"
        )


if __name__ == "__main__":
    main()
