"""`autograder progress`: one row per assignment from the check engine, blanks at 0, honest copies at full
marks, missing / broken / renamed notebooks named in one word, the learner's notebooks never written."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import nbformat
import pytest

from autograder.progress import format_table, progress, render_map
from tests import notebooks as nbs

pytestmark = pytest.mark.slow
ASSIGNMENTS = nbs.assignments()


def test_an_untouched_release_shows_every_assignment_at_zero_with_every_question_left():
    rows = progress(nbs.RELEASE, course_root=nbs.ROOT)
    assert [r.assignment for r in rows] == ASSIGNMENTS
    for row in rows:
        assert row.status == "ok" and row.score == 0 and row.max_score > 0, row
        expected = list(nbs.test_cells_ids(nbs.read(nbs.source_path(row.assignment))))
        assert row.remaining == expected, row
    table = format_table(rows)
    assert table.splitlines()[-2] == f"next: 01_tensors: {rows[0].remaining[0].removeprefix('test_')}"


def test_copies_of_the_solutions_show_full_marks_everywhere(honest_progress):
    for row in honest_progress:
        assert row.status == "ok" and not row.remaining and row.score == row.max_score > 0, row
    assert format_table(honest_progress).splitlines()[-2] == "next: 全部完成 (all done)"
    page = render_map(honest_progress)
    assert page.count('class="tile done"') == len(ASSIGNMENTS)


def test_missing_broken_and_renamed_notebooks_show_as_such_and_nothing_is_written(tmp_path):
    (tmp_path / "01_tensors").mkdir()
    (tmp_path / "01_tensors" / "01_tensors.ipynb").write_text("{ not json", encoding="utf-8")
    (tmp_path / "02_shapes").mkdir()
    nbformat.write(nbs.honest_submission("02_shapes"), tmp_path / "02_shapes" / "my shapes.ipynb")
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    rows = {r.assignment: r for r in progress(tmp_path, course_root=nbs.ROOT)}
    assert rows["01_tensors"].status == "broken" and "not valid notebook JSON" in rows["01_tensors"].note
    assert rows["02_shapes"].status == "renamed" and rows["02_shapes"].score == rows["02_shapes"].max_score
    assert all(rows[a].status == "missing" and rows[a].score == 0 for a in ASSIGNMENTS[2:])
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    text = format_table(list(rows.values()))
    assert "Traceback" not in text and "broken" in text and "renamed" in text and "missing" in text


def test_the_command_prints_json_and_writes_the_course_map_beside_the_notebooks(tmp_path):
    (tmp_path / "01_tensors").mkdir()
    nbformat.write(nbs.honest_submission("01_tensors"), tmp_path / "01_tensors" / "01_tensors.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "progress", str(tmp_path), "--json", "--course", str(nbs.ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, AUTOGRADER_NO_SERVER="1"),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    first = report["assignments"][0]
    full = nbs.max_score("01_tensors")
    assert first["assignment"] == "01_tensors" and first["score"] == first["max_score"] == full
    assert report["next"].startswith("02_shapes")
    page = (tmp_path / "course_map.html").read_text(encoding="utf-8")
    assert "01_tensors" in page and f"{full:g} / {full:g}" in page and "_ref_" not in page
