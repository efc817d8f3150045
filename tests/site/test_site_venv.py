"""A release notebook runs top to bottom outside this repository, in a fresh virtual environment that has
torch and torchvision but no ``course``: its setup cell installs the course package from the built site.

How close to a hosted notebook this is: the venv is new (``python -m venv``, its own pip); instead of
pip-installing torch (minutes, gigabytes) its site-packages reaches a folder of symlinks to exactly the
distributions of torch, torchvision, matplotlib, tqdm and ipykernel (the kernel) and their dependencies,
taken from this environment through a ``.pth`` file. What hosted notebooks already have (matplotlib, tqdm)
the cell would pip-install where missing; here they are present, so that branch is not run. The course
package is not there: the setup cell, unchanged, pip-installs it from the site's wheel (``--no-index
--no-deps``, as in Colab, with the site at a ``file://`` URL through ``COURSE_SITE_URL``) and downloads the
assignment's ``hints.toml``. The kernel runs without PYTHONPATH, in a folder holding only the notebook.
"""

from __future__ import annotations

import copy
import importlib.metadata as metadata
import json
import subprocess
import venv
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests import notebooks as nbs

pytestmark = pytest.mark.slow

ASSIGNMENT = "01_tensors"
PROVIDED = ("torch", "torchvision", "matplotlib", "tqdm", "ipykernel")


def closure(names: tuple[str, ...]) -> list[metadata.Distribution]:
    """The installed distributions ``names`` need, their dependencies included (markers evaluated)."""
    seen: dict[str, metadata.Distribution] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:  # e.g. CUDA wheels a CPU build does without
            continue
        key = dist.metadata["Name"].lower().replace("_", "-")
        if key in seen:
            continue
        seen[key] = dist
        for text in dist.requires or []:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(seen.values())


def link_folder(dists: list[metadata.Distribution], folder: Path) -> None:
    """Symlinks in ``folder`` to the top-level files and folders of ``dists`` (packages, .dist-info, libs)."""
    folder.mkdir()
    for dist in dists:
        base = Path(dist.locate_file(""))
        for top in {Path(f).parts[0] for f in dist.files or [] if not str(f).startswith("..")}:
            if (base / top).exists() and not (folder / top).exists() and not top.endswith(".pth"):
                (folder / top).symlink_to(base / top)


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory) -> Path:
    """A new venv whose only third-party packages are the symlinked ``PROVIDED`` closure; its python."""
    tmp = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(tmp / "venv")
    python = tmp / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin"},
    ).stdout.strip()
    link_folder(closure(PROVIDED), tmp / "provided")
    (Path(site) / "provided.pth").write_text(f"{tmp / 'provided'}\n")
    kernels = tmp / "jupyter" / "kernels" / "course-venv"
    kernels.mkdir(parents=True)
    argv = [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (kernels / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": "venv", "language": "python"}))
    return python


def _errors(cell) -> list[str]:
    return [o.ename for o in cell.get("outputs", []) if o.output_type == "error"]


def _text(cell) -> str:
    return "".join(o.get("text", "") + "".join(o.get("traceback", [])) for o in cell.get("outputs", []))


def test_a_release_notebook_installs_the_course_and_runs_with_visible_tests_and_hints(
    built_site, fresh_venv, tmp_path, monkeypatch
):
    from nbclient import NotebookClient

    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('course') is not None)"
    run = {"env": env, "cwd": tmp_path}  # not the repository root: `python -c` imports from its folder
    assert subprocess.run([str(fresh_venv), "-c", probe], **run).returncode == 0, "course importable before"
    assert subprocess.run([str(fresh_venv), "-c", "import torch, torchvision"], **run).returncode == 0

    # The learner gets one exercise wrong (a mutant from tests/mutants) and runs its test cell twice (the
    # hints come from the hints.toml that the setup cell fetched),
    # solves the next exercise, and leaves the others as released.
    mutant = nbs.mutants(ASSIGNMENT)[0]
    nb, wrong = nbs.read(nbs.release_path(ASSIGNMENT)), nbs.mutant_submission(ASSIGNMENT, mutant)
    honest = nbs.honest_submission(ASSIGNMENT)
    answers = [i for i, c in enumerate(nb.cells) if nbs.meta(c).get("solution")]
    bad = next(i for i in answers if wrong.cells[i].source != honest.cells[i].source)

    def graded() -> list[int]:
        return [i for i, c in enumerate(nb.cells) if nbs.meta(c).get("grade") and not nbs.meta(c).get("solution")]

    # The next graded exercise's answer (a "predict first" answer cell may sit in between: it is not graded).
    bad_test = next(i for i in graded() if i > bad)
    good = max(i for i in answers if i < next(t for t in graded() if t > bad_test))
    nb.cells[bad], nb.cells[good] = wrong.cells[bad], honest.cells[good]
    assert nbs.meta(nb.cells[bad_test])["grade_id"] == mutant.grade_id
    nb.cells.insert(bad_test + 1, copy.deepcopy(nb.cells[bad_test]))
    good_test = next(i for i in graded() if i > good)

    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.setenv("JUPYTER_PATH", str(fresh_venv.parents[2] / "jupyter"))
    monkeypatch.setenv("COURSE_SITE_URL", built_site.out.as_uri())
    monkeypatch.setenv("HOME", str(tmp_path))
    work = tmp_path / "work"
    work.mkdir()
    NotebookClient(
        nb, kernel_name="course-venv", allow_errors=True, timeout=300, resources={"metadata": {"path": str(work)}}
    ).execute()

    setup = next(c for c in nb.cells if c.cell_type == "code")
    assert not _errors(setup), _text(setup)
    assert "已安装课程包 course" in _text(setup)
    assert all(o.get("name") != "stderr" for o in setup.outputs), _text(setup)
    assert (work / "hints.toml").is_file()
    broken = [(i, e) for i, c in enumerate(nb.cells) for e in _errors(c) if e in {"ModuleNotFoundError", "ImportError"}]
    assert not broken, broken
    first, again, solved = nb.cells[bad_test], nb.cells[bad_test + 1], nb.cells[good_test]
    assert _errors(first) and mutant.expect in _text(first) and "提示 (hint) 1 /" in _text(first), _text(first)
    assert _errors(again) and "提示 (hint) 2 /" in _text(again), _text(again)  # the count lives beside it
    assert not _errors(solved) and "✔" in _text(solved), _text(solved)
    # Every visible test of an exercise left as released fails, as it should.
    untouched = [i for i in graded() if i > good_test]
    assert untouched and all(_errors(nb.cells[i]) for i in untouched)
