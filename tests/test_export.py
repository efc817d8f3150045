"""The nbgrader exporter for an LMS: per-question points beside each assignment's total, 0 when missing."""

from __future__ import annotations

import csv
from types import SimpleNamespace as NS

from nbgrader.api import MissingEntry
from nbgrader.plugins import ExportPlugin

from autograder.results.export import QuestionsExportPlugin, rows


class FakeGradebook:
    """The part of nbgrader.api.Gradebook an exporter reads: assignments, students, find_submission."""

    def __init__(self) -> None:
        cells = [NS(name="test_a"), NS(name="test_b")]
        self.assignments = [NS(name="01_x", notebooks=[NS(grade_cells=cells)])]
        self.students = [NS(id="ann", last_name="A", first_name="Ann", email="ann@x"), NS(id="=bob", last_name=None,
                         first_name=None, email=None)]  # fmt: skip
        grades = [NS(name="test_a", score=2.0), NS(name="test_b", score=0.0)]
        self.submissions = {("01_x", "ann"): NS(score=2.0, notebooks=[NS(grades=grades)])}

    def find_submission(self, assignment: str, student: str):
        try:
            return self.submissions[(assignment, student)]
        except KeyError:
            raise MissingEntry() from None


def test_rows_hold_each_assignment_total_and_its_questions_and_zero_for_a_missing_submission():
    table = rows(FakeGradebook())
    assert table[0] == ["student_id", "last_name", "first_name", "email", "01_x total", "01_x test_a", "01_x test_b"]
    assert table[1] == ["ann", "A", "Ann", "ann@x", 2.0, 2.0, 0.0]
    assert table[2] == ["'=bob", "", "", "", 0.0, 0.0, 0.0]  # a formula-looking id stays text


def test_the_plugin_is_an_nbgrader_exporter_that_writes_the_csv(tmp_path):
    assert issubclass(QuestionsExportPlugin, ExportPlugin)
    plugin = QuestionsExportPlugin(to=str(tmp_path / "lms.csv"), student=["ann"])
    plugin.export(FakeGradebook())
    with open(tmp_path / "lms.csv", newline="") as fh:
        assert list(csv.reader(fh))[1] == ["ann", "A", "Ann", "ann@x", "2", "2", "0"]
