"""`python -m autograder`: help for every command, one-line errors, PATH independence, both check modes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import notebooks as nbs

RELEASE_01 = nbs.release_path("01_tensors")


def autograder(*args: str, cwd: Path | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "autograder", *args],
        cwd=cwd or nbs.ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def bare_path_env() -> dict:
    """The environment of a user who calls .venv/bin/python by its path, without the venv on PATH."""
    env = dict(os.environ)
    env["PATH"] = "/usr/bin:/bin"
    return env


@pytest.mark.parametrize("command", [[], ["generate"], ["check"], ["grade"]])
def test_every_command_has_help_with_an_example(command):
    result = autograder(*command, "--help")
    assert result.returncode == 0, result.stderr
    assert "Usage" in result.stdout
    if command:
        assert "Example" in result.stdout


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (None, "notebook not found"),
        ("", "is empty"),
        ("{ not json", "not valid notebook JSON"),
        ('{"a": 1}', "not a notebook"),
        ('{"cells": "nope", "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', "not a valid notebook"),
    ],
)
def test_check_rejects_a_missing_or_malformed_notebook_in_one_line(tmp_path, content, needle):
    path = tmp_path / "01_tensors.ipynb"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = autograder("check", str(path), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_check_rejects_non_utf8_bytes_in_one_line(tmp_path):
    path = tmp_path / "01_tensors.ipynb"
    path.write_bytes(b"\xff\xfe\x00bad")
    result = autograder("check", str(path), cwd=tmp_path)
    assert result.returncode == 2 and "UTF-8" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_check_rejects_an_unknown_assignment(tmp_path):
    result = autograder("check", str(RELEASE_01), "--assignment", "99_nope")
    assert result.returncode == 2 and "unknown assignment '99_nope'" in result.stderr


def test_generate_rejects_an_unknown_assignment_and_writes_nothing(tmp_path):
    before = sorted(p.name for p in nbs.RELEASE.iterdir())
    result = autograder("generate", "99_nope")
    assert result.returncode == 2 and "unknown assignment" in result.stderr
    assert sorted(p.name for p in nbs.RELEASE.iterdir()) == before


def _copy_course(tmp_path: Path) -> Path:
    course = tmp_path / "course"
    (course / "source").mkdir(parents=True)
    shutil.copy2(nbs.ROOT / "nbgrader_config.py", course)
    shutil.copytree(nbs.SOURCE / "01_tensors", course / "source" / "01_tensors")
    return course


@pytest.mark.slow
def test_generate_works_without_the_venv_on_path(tmp_path):
    course = _copy_course(tmp_path)
    result = autograder("generate", "--course", str(course), env=bare_path_env())
    assert result.returncode == 0, result.stderr
    assert "generated release/01_tensors" in result.stdout
    generated = json.loads((course / "release/01_tensors/01_tensors.ipynb").read_text(encoding="utf-8"))
    assert not list(course.glob("gradebook.db")), "generate must not leave a gradebook in the course"
    assert "NotImplementedError" in json.dumps(generated)


def test_a_new_gradebook_gets_the_revision_alembic_reports_without_running_alembic(tmp_path, monkeypatch):
    import nbgrader.api
    from nbgrader.dbutil import _temp_alembic_ini

    from autograder import nbgrader_api

    alembic = str(Path(sys.executable).parent / "alembic")
    with _temp_alembic_ini(f"sqlite:///{tmp_path / 'x.db'}") as ini:  # what nbgrader itself runs
        heads = subprocess.run([alembic, "-c", ini, "heads"], capture_output=True, text=True, check=True).stdout
    assert nbgrader_api.alembic_head() == heads.split()[0]
    monkeypatch.setenv("PATH", str(tmp_path))  # no alembic (or anything else) on PATH
    monkeypatch.setattr(subprocess, "check_output", None)  # and no subprocess at all
    monkeypatch.setattr(nbgrader.api.sp, "check_output", None)
    nbgrader_api.prepare_nbgrader()
    with nbgrader.api.Gradebook(f"sqlite:///{tmp_path / 'gradebook.db'}") as gb:
        version = gb.db.execute(nbgrader.api.text("SELECT version_num FROM alembic_version")).scalar()
    assert version == heads.split()[0]


@pytest.mark.slow
def test_check_of_a_learner_copy_without_source_runs_visible_tests_only_and_says_so(tmp_path):
    copy = tmp_path / "my_copy.ipynb"
    nb = nbs.read(nbs.source_path("01_tensors"))
    import nbformat

    nbformat.write(nb, copy)  # solutions in, hidden tests in: still graded by the visible run only
    result = autograder("check", str(copy), cwd=tmp_path, env=bare_path_env())
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert "visible tests only" in result.stdout
    full = nbs.max_score("01_tensors")
    assert lines[-1] == f"score {full:g} / {full:g}"


@pytest.mark.slow
def test_check_json_with_hidden_tests_never_prints_test_code(tmp_path):
    copy = tmp_path / "01_tensors.ipynb"
    shutil.copy2(RELEASE_01, copy)
    result = autograder("check", str(copy), "--json", "--course", str(nbs.ROOT), env=bare_path_env())
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert (
        report["score"] == 0 and report["max_score"] == nbs.max_score("01_tensors") and report["hidden_tests"] is True
    )
    assert {q["grade_id"] for q in report["questions"]} >= {"test_make_inputs", "test_time_grid"}
    assert set(report["questions"][0]) >= {"grade_id", "points", "max_points", "passed", "message"}
    assert "_ref_" not in result.stdout and "BEGIN HIDDEN" not in result.stdout


@pytest.mark.parametrize(
    ("argv", "fields"),
    [
        (["check", "a.ipynb"], {"notebook": "a.ipynb", "as_json": False, "assignment": None, "course": None}),
        (
            ["check", "--json", "a.ipynb", "--assignment", "01_tensors", "--course=."],
            {"notebook": "a.ipynb", "as_json": True, "assignment": "01_tensors", "course": "."},
        ),
        (["check", "a.ipynb", "--cold"], None),
        (["check", "a.ipynb", "--hub"], None),
        (["check", "--help"], None),
        (["check", "a.ipynb", "b.ipynb"], None),
        (["check", "a.ipynb", "--assignment"], None),
        (["check", "a.ipynb", "--assignment", "--json"], None),
        (["check", "a.ipynb", "--json", "--json"], None),
        (["check", "."], None),
        (["grade", "a.ipynb"], None),
        ([], None),
    ],
)
def test_check_cli_reads_only_the_plain_check_and_leaves_every_other_form_to_click(argv, fields):
    from autograder import check_cli

    assert check_cli.parse(argv) == fields
