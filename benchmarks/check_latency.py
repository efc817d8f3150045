"""Check latency: `autograder check` (cold and warm) against the nbgrader-based check it replaced and a plain
`jupyter nbconvert --execute` of the same notebook, side by side in one run.

Usage: .venv/bin/python benchmarks/check_latency.py [ASSIGNMENT ...] [--repeat 3]

For each assignment, a learner's notebook with every answer right (the solutions pasted into the release
notebook) is checked four ways, each as the command a user types, best of ``--repeat``:
- nbgrader: what `check` did before the judge: generate the assignment in a temporary nbgrader course and
  run `nbgrader autograde` on the notebook (one kernel, hidden tests in it);
- nbconvert: `jupyter nbconvert --to notebook --execute` of the same notebook (no grading at all);
- cold: `python -m autograder check --cold` (starts its own learner and judge engine);
- warm: `python -m autograder check` with the background engine already running (what a learner meets
  from the second check on).
Prints seconds and the ratios nbgrader / warm, nbgrader / cold, nbconvert / warm.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.notebooks import honest_submission  # noqa: E402

NBGRADER_CHECK = """
import shutil, sys, tempfile
from pathlib import Path
sys.path.insert(0, {root!r})
from autograder import nbgrader_api
notebook, assignment = Path(sys.argv[1]), sys.argv[2]
with tempfile.TemporaryDirectory() as tmp:
    course = nbgrader_api.make_course(Path(tmp), Path({root!r}), assignment)
    api = nbgrader_api.api(course)
    with nbgrader_api.quiet_stderr():
        api.generate_assignment(assignment, force=True, create=True)
    target = course / "submitted" / "self-check" / assignment
    target.mkdir(parents=True)
    shutil.copy2(notebook, target / f"{{assignment}}.ipynb")
    with nbgrader_api.quiet_stderr():
        result = api.autograde(assignment, "self-check", force=True, create=True)
    assert result["success"], result.get("error")
"""


def _timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} failed: {done.stderr.strip().splitlines()[-1:]}")
    return elapsed


def measure(assignment: str, folder: Path, repeat: int) -> dict[str, float]:
    notebook = folder / assignment / f"{assignment}.ipynb"
    notebook.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(honest_submission(assignment), notebook)
    py = sys.executable
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(py).parent), os.environ.get("PATH", "")]))
    runtime = Path(tempfile.mkdtemp(prefix="check-latency-run-"))
    warm_env = dict(env, AUTOGRADER_NO_SERVER="0", AUTOGRADER_RUNTIME_DIR=str(runtime))
    check = [py, "-m", "autograder", "check", str(notebook), "--course", str(ROOT)]
    out = folder / f"{assignment}.nbconvert.ipynb"
    commands = {
        "nbgrader": ([py, "-c", NBGRADER_CHECK.format(root=str(ROOT)), str(notebook), assignment], env),
        "nbconvert": (
            [py, "-m", "jupyter", "nbconvert", "--to", "notebook", "--execute", str(notebook), "--output", str(out)],
            env,
        ),
        "cold": ([*check, "--cold"], env),
        "warm": (check, warm_env),
    }
    try:
        _timed(check, warm_env)  # starts the background engine: the warm runs below reuse it
        return {name: min(_timed(cmd, e) for _ in range(repeat)) for name, (cmd, e) in commands.items()}
    finally:
        subprocess.run([py, "-c", "from autograder.parent import server; server.stop()"], env=warm_env, cwd=ROOT)
        shutil.rmtree(runtime, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", default=["01_tensors", "05_autograd", "07_item"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'assignment':<16} {'nbgrader':>9} {'nbconvert':>9} {'cold':>7} {'warm':>7}   nbgr/warm nbgr/cold nbconv/warm"
    )
    with tempfile.TemporaryDirectory(prefix="check-latency-") as tmp:
        for assignment in args.assignments:
            t = measure(assignment, Path(tmp), args.repeat)
            print(
                f"{assignment:<16} {t['nbgrader']:>8.2f}s {t['nbconvert']:>8.2f}s {t['cold']:>6.2f}s {t['warm']:>6.2f}s"
                f"   {t['nbgrader'] / t['warm']:>8.1f}x {t['nbgrader'] / t['cold']:>8.1f}x {t['nbconvert'] / t['warm']:>10.1f}x"
            )


if __name__ == "__main__":
    main()
