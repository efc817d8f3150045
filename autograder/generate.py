"""Generate ``release/`` from ``source/`` with nbgrader, without leaving nbgrader's files in the repo."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from autograder import course_folder as course_mod
from autograder import nbgrader_api


def generate(*, course_root: Path, assignments: list[str] | None = None, out: Path | None = None) -> list[Path]:
    """Run ``nbgrader generate_assignment`` for each assignment and replace ``<out>/<id>/``.

    ``out`` defaults to the course's ``release/``. The course home page ``source/README.md`` is copied
    beside the assignments. Returns the release paths written. The assignments are generated in one
    temporary course, so no gradebook or log lands in the repository.
    """
    ids = assignments or course_mod.assignments(course_root)
    for assignment in ids:
        course_mod.source_notebook(course_root, assignment)  # unknown ids fail before any work
    written = []
    with tempfile.TemporaryDirectory(prefix="autograder-generate-") as tmp:
        course = nbgrader_api.make_course(Path(tmp), course_root, *ids)
        api = nbgrader_api.api(course)
        for assignment in ids:
            with nbgrader_api.quiet_stderr():
                result = api.generate_assignment(assignment, force=True, create=True)
            nbgrader_api.log_or_raise(result, f"generate {assignment}")
            target = (out or course_root / "release") / assignment
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(course / "release" / assignment, target)
            written.append(target)
    home = course_root / "source" / "README.md"
    if home.is_file():
        target = (out or course_root / "release") / home.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(home, target)
        written.append(target)
    return written
