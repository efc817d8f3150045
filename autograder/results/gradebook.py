"""nbgrader's gradebook, kept for nbgrader's own tools (formgrader, export, release_feedback).

Either a course of our own under ``OUT/nbgrader`` (the default: the assignments are generated there from
the course's ``source/``), or an instructor's existing nbgrader course (``grade --nbgrader-course``: its
gradebook, ``autograded/`` and ``feedback/`` folders, where formgrader and ``release_feedback`` look).
nbgrader's own preprocessors sanitise each submission; its scores are the engine's verdicts, written here
(never re-derived from the graded notebook). This process alone writes the gradebook, one submission after
another (SQLite has one writer; writes take milliseconds).
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from pathlib import Path
from typing import Any

from autograder import nbgrader_api
from autograder.notebooks import read_notebook
from autograder.results.inert import make_inert
from autograder.wire.schema import Verdict


class Gradebook:
    """An nbgrader course folder and its gradebook, for the assignments being graded."""

    def __init__(self, root: Path, db_url: str, course_root: Path, assignments: list[str], *, own: bool) -> None:
        self.root = root
        self.db_url = db_url
        self.own = own  # our own course under OUT/nbgrader (else the instructor's, left as it is)
        self.config = nbgrader_api.load_config(root)
        self.sources = {a: read_notebook(course_root / "source" / a / f"{a}.ipynb") for a in assignments}
        self._connection: Any = None
        self._source_cells: dict[str, _SourceCells] = {}

    def db(self) -> Any:  # -> nbgrader.api.Gradebook
        """One connection to nbgrader's gradebook for the whole run: opening one checks every table, which
        was most of the parent's time per notebook when each step opened its own. :meth:`close` ends it."""
        if self._connection is None:
            from nbgrader.api import Gradebook as NbGradebook

            nbgrader_api.prepare_nbgrader()
            self._connection = NbGradebook(self.db_url)
        return self._connection

    def source_cells(self, assignment: str) -> _SourceCells:
        """The gradebook, with ``assignment``'s source and graded cells read once for the run."""
        if assignment not in self._source_cells:
            self._source_cells[assignment] = _SourceCells(self.db(), assignment)
        return self._source_cells[assignment]

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

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
            nbgrader_api.log_or_raise(result, f"prepare {assignment}")
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
                    nbgrader_api.log_or_raise(result, f"record {assignment} in the gradebook")
        return cls(course_dir, url, course_dir, assignments, own=False)

    def resources(self, student: str, assignment: str) -> dict[str, Any]:
        return {
            "nbgrader": {"db_url": self.db_url, "assignment": assignment, "notebook": assignment, "student": student},
            "metadata": {"path": str(self.root)},
        }

    def register(self, student: str, assignment: str, timestamp: str | None = None) -> None:
        from nbgrader.utils import parse_utc

        when = None
        if timestamp:
            try:
                when = parse_utc(timestamp)
            except (ValueError, TypeError, OverflowError):
                when = None
        gb = self.db()
        gb.update_or_create_student(student)
        if when is not None:
            gb.update_or_create_submission(assignment, student, timestamp=when)
        else:
            gb.update_or_create_submission(assignment, student)

    def sanitize(self, student: str, assignment: str, nb: Any) -> Any:
        """nbgrader's own sanitising: test cells, metadata, points and kernelspec come from the gradebook."""
        import json

        from nbgrader.preprocessors import ClearOutput, DeduplicateIds, OverwriteCells

        class SharedOverwriteCells(OverwriteCells):
            """nbgrader's OverwriteCells on this run's open gradebook (its own opens a new connection)."""

            def preprocess(inner, nb: Any, resources: dict) -> tuple[Any, dict]:  # noqa: N805
                inner.notebook_id = inner.assignment_id = assignment
                inner.gradebook = self.source_cells(assignment)
                nb, resources = super(OverwriteCells, inner).preprocess(nb, resources)
                if inner.add_missing_cells:
                    nb, resources = inner.add_missing_grade_cells(nb, resources)
                    nb, resources = inner.add_missing_task_cells(nb, resources)
                return nb, resources

        resources = self.resources(student, assignment)
        for step in (ClearOutput, DeduplicateIds):
            nb, resources = step(config=self.config).preprocess(nb, resources)
        kernelspec = self.db().find_notebook(assignment, assignment).kernelspec  # nbgrader's OverwriteKernelspec
        if kernelspec:
            nb.metadata["kernelspec"] = json.loads(kernelspec)
        for step in (SharedOverwriteCells, _check_cell_metadata()):
            nb, resources = step(config=self.config).preprocess(nb, resources)
        return nb

    def save(self, student: str, assignment: str, nb: Any, verdicts: list[Verdict], submission: bytes | None) -> None:
        """The engine's verdicts into the gradebook; the graded notebook goes where formgrader looks.

        Each test cell's ``auto_score`` is its verdict's points (nothing is re-derived from the notebook's
        outputs); other graded cells (written answers) are left for a person, and answer cells get
        nbgrader's "No response." comment when unchanged, as ``SaveAutoGrades`` does. One commit."""
        import nbformat
        from nbgrader.preprocessors import LimitOutput
        from nbgrader.utils import compute_checksum, determine_grade, is_grade, is_solution, is_task

        resources = self.resources(student, assignment)
        nb, resources = LimitOutput(config=self.config).preprocess(nb, resources)
        points = {v.grade_id: v.points for v in verdicts}
        gb = self.db()
        grades, comments = _grades_and_comments(gb, gb.find_submission_notebook(assignment, assignment, student))
        for cell in nb.cells:
            info = cell.metadata.get("nbgrader", {})
            gid = info.get("grade_id")
            if gid is None:
                continue
            if is_grade(cell):
                grade = grades[gid]
                grade.auto_score = points[gid] if gid in points else determine_grade(cell)[0]
                grade.needs_manual_grade = grade.manual_score is not None or grade.auto_score is None
            if is_solution(cell) or is_task(cell):
                comment = comments[gid]
                unchanged = info.get("checksum") == compute_checksum(cell) and not is_task(cell)
                comment.auto_comment = "No response." if unchanged else None
        gb.db.commit()
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
        gb = self.db()
        submission = gb.find_submission_notebook(assignment, assignment, student)
        for grade in submission.grades:
            grade.auto_score = 0
            grade.needs_manual_grade = False
        gb.db.commit()


def _known(db_url: str, assignment: str) -> bool:
    """Whether the gradebook at ``db_url`` already has ``assignment`` with its notebook."""
    from nbgrader.api import Gradebook as NbGradebook
    from nbgrader.api import MissingEntry

    nbgrader_api.prepare_nbgrader()
    try:
        with NbGradebook(db_url) as gb:
            gb.find_notebook(assignment, assignment)
    except MissingEntry:
        return False
    except Exception:  # noqa: BLE001 - no database yet
        return False
    return True


def _grades_and_comments(gb: Any, submitted: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A submitted notebook's grades and comments by cell name, in two queries (nbgrader's ``find_grade`` and
    ``find_comment`` run a six-table join per cell: most of the parent's gradebook time per notebook)."""
    from nbgrader.api import BaseCell, Comment, Grade

    def by_name(table: Any) -> dict[str, Any]:
        rows = gb.db.query(table, BaseCell.name).join(BaseCell, BaseCell.id == table.cell_id)
        return {name: row for row, name in rows.filter(table.notebook_id == submitted.id)}

    return by_name(Grade), by_name(Comment)


@functools.cache
def _check_cell_metadata() -> type:
    """nbgrader's ``CheckCellMetadata`` with its JSON schema checked once: nbgrader's validator calls
    ``jsonschema.validate`` for every cell, which checks the schema itself against the meta-schema each time
    (about 90 ms of the parent's time per notebook). Same rules, same errors."""
    import traceback

    from jsonschema import validators
    from jsonschema.exceptions import best_match
    from nbgrader.nbgraderformat import MetadataValidator, ValidationError
    from nbgrader.preprocessors import CheckCellMetadata

    compiled: list[Any] = []  # the schema's validator, made (and the schema checked) on first use

    class OnceCheckedValidator(MetadataValidator):
        def validate_cell(self, cell: Any) -> None:
            meta = cell.metadata.get("nbgrader")
            if meta is None or meta.get("schema_version", 0) != self.schema_version:
                return super().validate_cell(cell)  # nbgrader's own too-old / too-new errors
            if not compiled:
                cls = validators.validator_for(self.schema)
                cls.check_schema(self.schema)
                compiled.append(cls(self.schema))
            error = best_match(compiled[0].iter_errors(meta))
            if error is not None:
                raise error

    class Checked(CheckCellMetadata):
        def preprocess(self, nb: Any, resources: dict) -> tuple[Any, dict]:
            try:
                OnceCheckedValidator().validate_nb(nb)
            except ValidationError as error:
                self.log.error(traceback.format_exc())
                raise ValidationError("Notebook failed to validate; the nbgrader metadata may be corrupted.") from error
            return nb, resources

    return Checked


class _SourceCells:
    """nbgrader's gradebook as ``OverwriteCells`` asks it, with one assignment's source cells and graded cells
    read once: nbgrader looks each cell up again in every submission (a three-table join per cell), though
    the generated assignment does not change while a class is graded. Everything else goes to the gradebook."""

    def __init__(self, gb: Any, assignment: str) -> None:
        from types import SimpleNamespace

        notebook = gb.find_notebook(assignment, assignment)
        fields = ("name", "cell_type", "locked", "checksum", "source")
        self._gb = gb
        self._source = {c.name: SimpleNamespace(**{f: getattr(c, f) for f in fields}) for c in notebook.source_cells}
        graded = [*notebook.task_cells, *notebook.grade_cells]  # a grade cell first where both share a name
        self._graded = {c.name: SimpleNamespace(name=c.name, max_score=c.max_score) for c in graded}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._gb, name)

    def find_source_cell(self, name: str, notebook: str, assignment: str) -> Any:
        from nbgrader.api import MissingEntry

        if name not in self._source:
            raise MissingEntry(f"No such source cell: {assignment}/{notebook}/{name}")
        return self._source[name]

    def find_graded_cell(self, name: str, notebook: str, assignment: str) -> Any:
        from nbgrader.api import MissingEntry

        if name not in self._graded:
            raise MissingEntry(f"No such grade cell: {assignment}/{notebook}/{name}")
        return self._graded[name]
