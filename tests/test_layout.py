"""The folders show the process boundary: the parent side never imports torch (it keeps ``check`` fast and
keeps learner-facing code out of the trusted process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PARENT_SIDE = [
    "autograder.cli",
    "autograder.grade",
    "autograder.check",
    "autograder.progress",
    "autograder.notebooks",
    "autograder.parent.engine",
    "autograder.parent.pool",
    "autograder.parent.sandbox",
    "autograder.parent.server",
    "autograder.parent.cluster",
    "autograder.parent.submission",
    "autograder.wire.protocol",
    "autograder.wire.schema",
    "autograder.results.journal",
    "autograder.results.gradebook",
    "autograder.results.feedback",
]


def test_layout_the_parent_side_imports_no_torch():
    code = "import importlib, sys\n"
    code += f"for name in {PARENT_SIDE!r}:\n    importlib.import_module(name)\n"
    code += "print(sorted(m for m in sys.modules if m == 'torch' or m.startswith('torch.')))\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", "the parent side imported torch"


def test_layout_the_child_side_is_where_torch_is():
    code = "import sys\nimport autograder.child.judge\nprint('torch' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.stdout.strip() == "True", done.stderr[-2000:]


def test_layout_a_warm_checks_client_imports_neither_click_nor_the_engine():
    code = "import sys\nimport autograder.check_cli, autograder.check\n"
    code += "print(sorted(m for m in ('click', 'autograder.parent.engine', 'autograder.parent.pool', 'nbformat') "
    code += "if m in sys.modules))\n"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "[]", "a warm check's client imports more than asking the server needs"
