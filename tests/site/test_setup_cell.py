"""The setup cell: first code cell of every source and release notebook, current, and silent where
``course`` is importable (``make lab``, grading)."""

from __future__ import annotations

import contextlib
import copy
import io

import nbformat

from autograder import setup_cell
from tests import notebooks as nbs

CONFIG = setup_cell.site_config(nbs.ROOT)


def _first_code(nb):
    return next(c for c in nb.cells if c.cell_type == "code")


def test_every_source_notebook_has_the_current_setup_cell_first():
    for assignment in nbs.assignments():
        nb = nbs.read(nbs.source_path(assignment))
        assert not setup_cell.apply(copy.deepcopy(nb), assignment, CONFIG), (
            f"{assignment}: run `python -m autograder setup-cell` then `python -m autograder generate`"
        )


def test_every_release_notebook_starts_with_the_setup_cell_for_its_own_hints():
    for assignment in nbs.assignments():
        cell = _first_code(nbs.read(nbs.release_path(assignment)))
        assert cell.source == setup_cell.cell_source(assignment, CONFIG)
        assert f"/notebooks/{assignment}/hints.toml" in cell.source and CONFIG.pages in cell.source


def test_applying_twice_changes_nothing_and_a_stale_cell_is_replaced_in_place():
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_markdown_cell("# t"), nbformat.v4.new_code_cell("import torch")]
    )
    assert setup_cell.apply(nb, "01_tensors", CONFIG)
    once = copy.deepcopy(nb)
    assert not setup_cell.apply(nb, "01_tensors", CONFIG) and nb == once
    nb.cells[1].source = "old"
    assert setup_cell.apply(nb, "01_tensors", CONFIG)
    assert [c.source for c in nb.cells] == ["# t", setup_cell.cell_source("01_tensors", CONFIG), "import torch"]


def test_where_course_is_importable_the_cell_does_nothing_and_writes_nothing():
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        exec(setup_cell.cell_source("01_tensors", CONFIG), {})
    assert out.getvalue() == "" and err.getvalue() == ""


def test_a_missing_site_setting_is_a_one_line_error(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nversion = "1"\n[tool.course-site]\nbranch = "main"\n')
    try:
        setup_cell.site_config(tmp_path)
    except ValueError as exc:
        assert str(exc) == "pyproject.toml [tool.course-site] lacks repository, pages"
    else:
        raise AssertionError("no error")
