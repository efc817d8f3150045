"""Hints that unfold: every graded exercise has 2 or 3, carried into release/, and in a kernel the k-th
failure of the same test cell shows hint k of n, a pass starts over, and grading never counts."""

from __future__ import annotations

import functools
import io
import os
import re
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from course import hints
from tests import notebooks as nbs

ASSIGNMENTS = nbs.assignments()


def _exercises(assignment: str) -> dict[str, str]:
    """grade_id -> the exercise name its test cell (graded or formative) declares with checks.exercise(...)."""
    found = {}
    for cell in nbs.checked_cells(nbs.read(nbs.source_path(assignment))):
        lines = [ln for ln in cell.source.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
        match = re.fullmatch(r'checks\.exercise\("([\w]+)"\)', lines[0].strip()) if lines else None
        found[nbs.meta(cell)["grade_id"]] = match.group(1) if match else ""
    return found


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_test_cell_names_its_exercise_and_every_exercise_has_two_or_three_hints(assignment):
    table = hints.load(nbs.SOURCE / assignment)
    for grade_id, name in _exercises(assignment).items():
        assert name == grade_id.removeprefix("test_"), f"{grade_id}: first line must be checks.exercise(...)"
        assert 2 <= len(table.get(name, [])) <= 3, f"{assignment}/hints.toml: {name} needs 2 or 3 hints"
        assert all(len(h) > 10 for h in table[name]), name


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_hints_are_carried_into_release(assignment):
    release = nbs.RELEASE / assignment / hints.HINTS_FILE
    assert release.read_bytes() == (nbs.SOURCE / assignment / hints.HINTS_FILE).read_bytes()


@functools.cache
def _shell():
    from IPython.core.interactiveshell import InteractiveShell

    import course

    shell = InteractiveShell.instance()
    course._short_check_errors()  # what `import course` does in a kernel: the short error display with hints
    return shell


def _failing_mutant(assignment: str, grade_id: str, release_test: str, folder: Path):
    """A mutant of this exercise that fails its *visible* test with an AssertionError, and its namespace."""
    from tests.test_mutants import _with_mutant  # a mutant that retrains the capstone: the run test_mutants made

    shell = _shell()
    for mutant in (m for m in nbs.mutants(assignment) if m.grade_id == grade_id):
        shell.user_ns.clear()
        shell.user_ns.update(_with_mutant(nbs.solution_namespace(assignment), mutant))
        out = io.StringIO()
        with redirect_stdout(out):
            result = shell.run_cell(release_test, store_history=False)
        if isinstance(result.error_in_exec, AssertionError):
            (folder / hints.STATE_FILE).unlink(missing_ok=True)
            return mutant
    return None


@pytest.mark.slow
@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_the_kth_failure_of_a_test_cell_shows_the_kth_hint_and_a_pass_starts_over(assignment, tmp_path):
    shutil.copy2(nbs.SOURCE / assignment / hints.HINTS_FILE, tmp_path / hints.HINTS_FILE)
    release = nbs.read(nbs.release_path(assignment))
    table = hints.load(tmp_path)
    shell = _shell()
    here = os.getcwd()
    os.chdir(tmp_path)  # the kernel's folder: the notebook's own
    try:
        checked = 0
        for grade_id, name in _exercises(assignment).items():
            test = nbs.test_cell_source(release, grade_id)
            mutant = _failing_mutant(assignment, grade_id, test, tmp_path)
            if mutant is None:
                continue  # no mutant of this exercise fails its visible tests (the hidden ones catch them all)
            n = len(table[name])
            for k in range(1, n + 2):
                out = io.StringIO()
                with redirect_stdout(out):
                    shell.run_cell(test, store_history=False)
                shown = min(k, n)
                assert f"提示 (hint) {shown} / {n}：{table[name][shown - 1]}" in out.getvalue(), (grade_id, k)
                text = out.getvalue()
                assert text.index("提示 (hint)") > text.index("Error"), "the mistake first, then the hint"
            checked += 1
        assert checked >= len(_exercises(assignment)) // 2, f"too few exercises fail visibly: {checked}"
        shell.user_ns.clear()
        shell.user_ns.update(nbs.solution_namespace(assignment))
        grade_id, name = next(iter(_exercises(assignment).items()))
        with redirect_stdout(io.StringIO()):
            shell.run_cell(nbs.test_cell_source(release, grade_id), store_history=False)
        assert name not in hints._state(tmp_path), "a pass must reset the count"
    finally:
        os.chdir(here)
