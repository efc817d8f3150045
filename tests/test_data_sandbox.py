"""The grading sandbox keeps MNIST's test split from learner code: the judge alone reads ``t10k-*``; the learner
sees empty stand-ins (torchvision's MNIST wants all four files to exist before it loads the training split)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from autograder.parent import sandbox

needs_bwrap = pytest.mark.skipif(bool(sandbox.bwrap_problem()), reason="bubblewrap is not usable here")

PROBE = """
import sys
from pathlib import Path
raw = Path(sys.argv[1]) / "MNIST" / "raw"
for name in ("train-images-idx3-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
    try:
        with open(raw / name, "rb") as f:
            print(name, "read", len(f.read(16)))
    except OSError as exc:
        print(name, "refused", type(exc).__name__)
print("listed", sorted(p.name for p in raw.iterdir()))
"""


def _data(tmp_path: Path) -> Path:
    raw = tmp_path / "data" / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for name in (
        "train-images-idx3-ubyte",
        "train-labels-idx1-ubyte",
        "t10k-images-idx3-ubyte",
        "t10k-labels-idx1-ubyte",
    ):
        (raw / name).write_bytes(b"\0" * 16)
    return (tmp_path / "data").resolve()


def _probe(role: str, data: Path, tmp_path: Path) -> str:
    """Run PROBE in the sandbox a zygote of ``role`` gets, with the readable paths the pool gives it."""
    readable = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent]
    readable += [*sandbox.package_folders(), data]
    empty: list[Path] = []
    if role == "learner":
        readable, empty = sandbox.learner_view(readable, data)
    rundir = tmp_path / role
    rundir.mkdir()
    args = sandbox.zygote_command("bwrap", role, rundir, 3, [], readable, empty)
    inner = len(args) - 1 - args[::-1].index(sys.executable)  # the zygote command after bwrap's options
    done = subprocess.run(
        [*args[:inner], sys.executable, "-c", PROBE, str(data)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_bwrap
def test_learner_code_in_the_grading_sandbox_reads_no_byte_of_the_test_split_and_the_judge_reads_it(tmp_path):
    data = _data(tmp_path)
    learner = _probe("learner", data, tmp_path)
    assert "train-images-idx3-ubyte read 16" in learner
    assert "t10k-images-idx3-ubyte read 0" in learner  # there, but empty: not one byte of the test split
    assert "t10k-labels-idx1-ubyte read 0" in learner
    judge = _probe("judge", data, tmp_path)
    assert "t10k-images-idx3-ubyte read 16" in judge


def test_without_a_test_split_the_learner_gets_the_data_folder_unchanged(tmp_path):
    data = tmp_path / "data"
    (data / "MNIST" / "raw").mkdir(parents=True)
    (data / "MNIST" / "raw" / "train-images-idx3-ubyte").write_bytes(b"")
    assert sandbox.learner_view([Path("/x"), data], data) == ([Path("/x"), data], [])
    assert sandbox.learner_view([Path("/x")], None) == ([Path("/x")], [])
