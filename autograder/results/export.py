"""Per-question totals for an LMS: an exporter for nbgrader's own ``nbgrader export``.

nbgrader's exporter plugin interface (``nbgrader.plugins.ExportPlugin``) hands a plugin the gradebook that
``grade`` fills (``OUT/nbgrader/gradebook.db``, or an nbgrader course's own), so the per-question points
are there. This plugin writes one row per student: ids and names, then for each assignment its total and
one column per test cell (``<assignment> <grade_id>``), points as numbers, 0 for a missing submission:

    cd OUT/nbgrader && nbgrader export --exporter=autograder.results.export.QuestionsExportPlugin --to questions-lms.csv

A Canvas or Moodle import matches students by an id column and grade items by column name (docs/grading.md).
"""

from __future__ import annotations

import csv
from typing import Any

from nbgrader.api import MissingEntry
from nbgrader.plugins import ExportPlugin

from autograder.results.journal import spreadsheet_text as cell


def _columns(gradebook: Any, assignments: list[str]) -> list[tuple[str, list[str]]]:
    """(assignment, its test cells' names in notebook order) for each assignment exported."""
    found = []
    for assignment in gradebook.assignments:
        if assignments and assignment.name not in assignments:
            continue
        names = [g.name for nb in assignment.notebooks for g in nb.grade_cells]
        found.append((assignment.name, names))
    return found


def rows(gradebook: Any, *, students: list[str] | None = None, assignments: list[str] | None = None) -> list[list]:
    """The header and one row per student: id, names, email, then per assignment total and each question."""
    columns = _columns(gradebook, assignments or [])
    header: list[Any] = ["student_id", "last_name", "first_name", "email"]
    for name, cells in columns:
        header += [f"{name} total", *(f"{name} {gid}" for gid in cells)]
    table: list[list[Any]] = [header]
    for student in gradebook.students:
        if students and student.id not in students:
            continue
        row: list[Any] = [cell(student.id), student.last_name or "", student.first_name or "", student.email or ""]
        for name, cells in columns:
            try:
                submission = gradebook.find_submission(name, student.id)
            except MissingEntry:
                row += [0.0] * (1 + len(cells))
                continue
            points = {g.name: g.score for nb in submission.notebooks for g in nb.grades}
            row += [submission.score, *(points.get(gid, 0.0) for gid in cells)]
        table.append(row)
    return table


class QuestionsExportPlugin(ExportPlugin):
    """``nbgrader export --exporter=autograder.results.export.QuestionsExportPlugin``: totals and per-question points."""

    def export(self, gradebook: Any) -> None:
        dest = self.to or "questions-lms.csv"
        table = rows(gradebook, students=[str(s) for s in self.student], assignments=[str(a) for a in self.assignment])
        self.log.info("Exporting per-question points to %s", dest)
        with open(dest, "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, lineterminator="\n").writerows(
                [[f"{v:g}" if isinstance(v, float) else v for v in row] for row in table]
            )
