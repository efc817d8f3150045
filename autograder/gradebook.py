"""nbgrader's gradebook, kept for nbgrader's own tools (formgrader, export, release_feedback).

Either a course of our own under ``OUT/nbgrader`` (the default: the assignments are generated there from
the course's ``source/``), or an instructor's existing nbgrader course (``grade --nbgrader-course``: its
gradebook, ``autograded/`` and ``feedback/`` folders, where formgrader and ``release_feedback`` look).
nbgrader's own preprocessors sanitise each submission and save its scores; this process alone writes the
gradebook, one submission after another (SQLite has one writer; writes take milliseconds).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from autograder import nbgrader_api
from autograder.inert import make_inert
from autograder.notebooks import read_notebook


class Gradebook:
    """An nbgrader course folder and its gradebook, for the assignments being graded."""

    def __init__(self, root: Path, db_url: str, course_root: Path, assignments: list[str], *, own: bool) -> None:
        self.root = root
        self.db_url = db_url
        self.own = own  # our own course under OUT/nbgrader (else the instructor's, left as it is)
        self.config = nbgrader_api.load_config(root)
        self.sources = {a: read_notebook(course_root / "source" / a / f"{a}.ipynb") for a in assignments}

    @classmethod
    def in_output(cls, out: Path, course_root: Path, assignments: list[str], db_url: str | None = None) -> Gradebook:
        """A course of our own under ``out/nbgrader``, with the assignments generated from ``source/``."""
        root = out / "nbgrader"
        root.mkdir(parents=True, exist_ok=True)
        shutil.copy2(course_root / "nbgrader_config.py", root / "nbgrader_config.py")
        url = db_url or f"sqlite:///{root / 'gradebook.db'}"
        api = None
        for assignment in assignments:
            if (root / "release" / assignment).is_dir() and _known(url, assignment):
                continue
            target = root / "source" / assignment
            if target.exists():
                shutil.rmtree(target)
            shutil.copytree(course_root / "source" / assignment, target)
            api = api or nbgrader_api.api(root, url)
            with nbgrader_api.quiet_stderr():
                result = api.generate_assignment(assignment, force=True, create=True)
            nbgrader_api.run(result, f"prepare {assignment}")
        return cls(root, url, course_root, assignments, own=True)

    @classmethod
    def of_course(cls, course_dir: Path, assignments: list[str]) -> Gradebook:
        """An instructor's nbgrader course: its own gradebook (``CourseDirectory.db_url`` or gradebook.db)."""
        config = nbgrader_api.load_config(course_dir)
        url = config.get("CourseDirectory", {}).get("db_url") or f"sqlite:///{course_dir / 'gradebook.db'}"
        for assignment in assignments:
            if not _known(url, assignment):  # released without generate_assignment here: record it in the
                with tempfile.TemporaryDirectory(prefix="autograder-course-") as tmp:  # gradebook, not release/
                    course = nbgrader_api.make_course(Path(tmp), course_dir, assignment)
                    with nbgrader_api.quiet_stderr():
                        result = nbgrader_api.api(course, url).generate_assignment(assignment, force=True, create=True)
                    nbgrader_api.run(result, f"record {assignment} in the gradebook")
        return cls(course_dir, url, course_dir, assignments, own=False)

    def resources(self, student: str, assignment: str) -> dict[str, Any]:
        return {
            "nbgrader": {"db_url": self.db_url, "assignment": assignment, "notebook": assignment, "student": student},
            "metadata": {"path": str(self.root)},
        }

    def register(self, student: str, assignment: str, timestamp: str | None = None) -> None:
        from nbgrader.api import Gradebook as NbGradebook
        from nbgrader.utils import parse_utc

        when = None
        if timestamp:
            try:
                when = parse_utc(timestamp)
            except (ValueError, TypeError, OverflowError):
                when = None
        with NbGradebook(self.db_url) as gb:
            gb.update_or_create_student(student)
            if when is not None:
                gb.update_or_create_submission(assignment, student, timestamp=when)
            else:
                gb.update_or_create_submission(assignment, student)

    def sanitize(self, student: str, assignment: str, nb: Any) -> Any:
        """nbgrader's own sanitising: test cells, metadata, points and kernelspec come from the gradebook."""
        from nbgrader.preprocessors import (
            CheckCellMetadata,
            ClearOutput,
            DeduplicateIds,
            OverwriteCells,
            OverwriteKernelspec,
        )

        resources = self.resources(student, assignment)
        for step in (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells, CheckCellMetadata):
            nb, resources = step(config=self.config).preprocess(nb, resources)
        return nb

    def save(self, student: str, assignment: str, nb: Any, submission: bytes | None) -> None:
        """nbgrader's LimitOutput and SaveAutoGrades; the graded notebook goes where formgrader looks."""
        import nbformat
        from nbgrader.preprocessors import LimitOutput, SaveAutoGrades

        resources = self.resources(student, assignment)
        for step in (LimitOutput, SaveAutoGrades):
            nb, resources = step(config=self.config).preprocess(nb, resources)
        nb = make_inert(nb, self.sources[assignment], self.config)  # safe in formgrader, no hidden tests
        target = self.root / "autograded" / student / assignment
        target.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target / f"{assignment}.ipynb")
        if self.own and submission is not None:
            submitted = self.root / "submitted" / student / assignment
            submitted.mkdir(parents=True, exist_ok=True)
            (submitted / f"{assignment}.ipynb").write_bytes(submission)  # the bytes graded, never a link

    def zero(self, student: str, assignment: str) -> None:
        """A submission that could not run: every grade 0, as nbgrader does for a missing notebook."""
        from nbgrader.api import Gradebook as NbGradebook

        with NbGradebook(self.db_url) as gb:
            submission = gb.find_submission_notebook(assignment, assignment, student)
            for grade in submission.grades:
                grade.auto_score = 0
                grade.needs_manual_grade = False
            gb.db.commit()

    def scores(self, student: str, assignment: str) -> dict[str, tuple[float, float]]:
        from nbgrader.api import Gradebook as NbGradebook

        with NbGradebook(self.db_url) as gb:
            submission = gb.find_submission_notebook(assignment, assignment, student)
            return {g.name: (float(g.score or 0), float(g.max_score)) for g in submission.grades}


def _known(db_url: str, assignment: str) -> bool:
    """Whether the gradebook at ``db_url`` already has ``assignment`` with its notebook."""
    from nbgrader.api import Gradebook as NbGradebook
    from nbgrader.api import MissingEntry

    nbgrader_api.ensure_tools_on_path()  # a new gradebook runs alembic from PATH
    try:
        with NbGradebook(db_url) as gb:
            gb.find_notebook(assignment, assignment)
    except MissingEntry:
        return False
    except Exception:  # noqa: BLE001 - no database yet
        return False
    return True
