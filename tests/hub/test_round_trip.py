"""A class on the real JupyterHub: release, fetch, submit, collect, grade, return feedback, through the hub.

One round (the ``round_trip`` fixture) runs the whole term for 01_tensors; each test checks one thing that
must hold of it. Students act through nbgrader's assignment-list API in their own servers (what their
Assignments tab calls) and the contents API (saving a notebook); the instructor types nbgrader and
``python -m autograder grade`` into a terminal of their own server.
"""

from __future__ import annotations

import csv
import html
import io
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.hub import answers, classroom
from tests.hub.answers import ASSIGNMENT
from tests.hub.conftest import INSTRUCTOR
from tests.hub.hub import COURSE_ID, CommandResult, Hub

pytestmark = pytest.mark.hub

ON_TIME = ["alice", "bob"]
API_STUDENTS = ["alice", "bob", "carol", "dana"]


@dataclass
class Round:
    """What the round left behind: nbgrader's answers and outputs, and the instructor's course folder."""

    hub: Hub
    course: Path
    listed: dict[str, list[dict]] = field(default_factory=dict)  # each student's Assignments tab, before fetching
    submits: dict[str, list[dict]] = field(default_factory=dict)  # nbgrader's answer to each Submit
    due: str = ""
    steps: dict[str, CommandResult] = field(default_factory=dict)  # collect, grade, release_feedback
    after: dict[str, list[dict]] = field(default_factory=dict)  # each student's Assignments tab at the end

    def grades(self) -> dict[str, dict[str, str]]:
        text = (self.course / "grades" / "grades.csv").read_text(encoding="utf-8")
        return {row["student_id"]: row for row in csv.DictReader(io.StringIO(text)) if row["assignment"] == ASSIGNMENT}

    def feedback(self, student: str) -> str:
        """The feedback page the student fetched, read from their own server as the browser reads it."""
        (entry,) = classroom.status(self.after[student], "submitted")
        newest = max(entry["submissions"], key=lambda s: s["timestamp"])
        (notebook,) = newest["notebooks"]
        assert notebook["has_local_feedback"], f"{student} has no feedback for the newest submission: {newest}"
        return self.hub.read_file(student, notebook["local_feedback_path"])  # relative to the server's root


@pytest.fixture(scope="module")
def round_trip(hub: Hub, released) -> Round:
    for user in API_STUDENTS:
        hub.start_server(user)
    course = hub.home(INSTRUCTOR) / "course"
    r = Round(hub=hub, course=course)
    for student in API_STUDENTS:
        r.listed[student] = hub.assignments(student)
    for student in ["alice", "bob", "dana"]:  # carol never fetches
        assert hub.assignment_action(student, "fetch", ASSIGNMENT)["success"]

    r.submits["alice"] = [classroom.work_and_submit(hub, "alice", answers.wrong)]
    r.submits["alice"].append(classroom.work_and_submit(hub, "alice", answers.right))  # the newest counts
    r.submits["bob"] = [classroom.work_and_submit(hub, "bob", answers.wrong)]
    r.submits["carol"] = [hub.assignment_action("carol", "submit", ASSIGNMENT)]
    r.due = classroom.set_due_date_now(hub, INSTRUCTOR).isoformat(sep=" ")
    time.sleep(1.1)
    r.submits["dana"] = [classroom.work_and_submit(hub, "dana", answers.right)]  # after the due date

    r.steps = classroom.collect_grade_and_return(hub, INSTRUCTOR)
    for student in API_STUDENTS:
        hub.assignment_action(student, "fetch_feedback", ASSIGNMENT)
        r.after[student] = hub.assignments(student)
    return r


def test_students_see_the_released_assignment_in_their_assignments_tab_and_fetch_it_home(round_trip):
    for student in API_STUDENTS:
        (entry,) = classroom.status(round_trip.listed[student], "released")
        assert entry["course_id"] == COURSE_ID
        assert [nb["notebook_id"] for nb in entry["notebooks"]] == [ASSIGNMENT]
    fetched = round_trip.hub.home("bob") / classroom.NOTEBOOK
    assert fetched.is_file()
    assert "raise NotImplementedError()" in (answers.ROOT / "release" / classroom.NOTEBOOK).read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in fetched.read_text(encoding="utf-8")


def test_right_answer_scores_full_marks_and_one_wrong_answer_loses_its_points(round_trip):
    grades = round_trip.grades()
    assert grades["alice"]["status"] == grades["bob"]["status"] == "ok", grades
    assert float(grades["alice"]["score"]) == float(grades["alice"]["max_score"]) > 0, grades
    assert 0 < float(grades["bob"]["score"]) < float(grades["bob"]["max_score"]), grades


def test_grades_land_in_the_course_gradebook_that_formgrader_shows(round_trip):
    hub, grades = round_trip.hub, round_trip.grades()
    submissions = hub.user_api(INSTRUCTOR, f"/formgrader/api/submissions/{ASSIGNMENT}")
    shown = {s["student"]: s for s in submissions if s["submitted"]}
    assert {"alice", "bob", "dana"} <= set(shown) and "carol" not in shown, shown  # erin too, after the browser test
    for student, submission in shown.items():
        assert submission["autograded"], submission
        assert submission["score"] == float(grades[student]["score"]), (submission, grades[student])
        assert submission["max_score"] == float(grades[student]["max_score"])
    students = {s["id"]: s for s in hub.user_api(INSTRUCTOR, "/formgrader/api/students")}
    assert students["carol"]["score"] == 0, students["carol"]  # on the roster, nothing submitted


def test_each_student_fetches_feedback_with_the_messages_and_no_test_code(round_trip):
    hidden = _hidden_test_lines()
    assert hidden, "the source notebook has hidden tests"
    for student in ["alice", "bob", "dana"]:
        page = round_trip.feedback(student)
        text = html.unescape(re.sub(r"<[^>]+>", " ", page))
        assert "make_inputs" in text, text[:2000]
        assert "BEGIN HIDDEN TESTS" not in page
        leaked = [line for line in hidden if line in text]
        assert not leaked, f"{student}'s feedback shows hidden test code: {leaked[:3]}"
    bob = html.unescape(re.sub(r"<[^>]+>", " ", round_trip.feedback("bob")))
    assert "dtype" in bob and "torch.float32" in bob and "torch.int64" in bob, bob[:3000]


def test_submitting_twice_keeps_both_and_the_newest_is_collected_graded_and_answered(round_trip):
    first, second = round_trip.submits["alice"]
    assert first["success"] and second["success"]
    inbound = sorted((round_trip.hub.exchange / COURSE_ID / "inbound").glob(f"alice+{ASSIGNMENT}+*"))
    assert len(inbound) == 2, inbound  # nothing lost: both submissions stay in the exchange
    (entry,) = classroom.status(round_trip.after["alice"], "submitted")
    stamps = sorted(s["timestamp"] for s in entry["submissions"])
    assert len(stamps) == 2
    collected = (round_trip.course / "submitted" / "alice" / ASSIGNMENT / "timestamp.txt").read_text().strip()
    assert collected == stamps[-1]  # the newest
    assert float(round_trip.grades()["alice"]["score"]) == float(round_trip.grades()["alice"]["max_score"])
    with_feedback = [s["timestamp"] for s in entry["submissions"] if s["notebooks"][0]["has_local_feedback"]]
    assert with_feedback == [stamps[-1]], entry  # feedback is for the graded (newest) submission only


def test_a_student_who_never_fetched_is_told_so_and_nothing_is_submitted(round_trip):
    (answer,) = round_trip.submits["carol"]
    assert answer["success"] is False
    assert "Assignment not found" in answer["value"] and f"carol/{ASSIGNMENT}" in answer["value"], answer
    result = round_trip.hub.run("carol", f"nbgrader submit {ASSIGNMENT}")
    assert result.status == 1
    assert "Assignment not found" in result.output, result.output
    inbound = round_trip.hub.exchange / COURSE_ID / "inbound"
    assert not list(inbound.glob("carol+*"))
    assert not (round_trip.course / "submitted" / "carol").exists()
    assert not classroom.status(round_trip.after["carol"], "submitted")
    assert classroom.status(round_trip.after["carol"], "released")  # still there to fetch


def test_a_late_submission_is_collected_graded_and_marked_late(round_trip):
    from nbgrader.api import Gradebook

    grades = round_trip.grades()
    assert float(grades["dana"]["score"]) == float(grades["dana"]["max_score"]), grades
    with Gradebook(f"sqlite:///{round_trip.course / 'gradebook.db'}", COURSE_ID) as gb:
        assert gb.find_assignment(ASSIGNMENT).duedate is not None
        dana, alice = gb.find_submission(ASSIGNMENT, "dana"), gb.find_submission(ASSIGNMENT, "alice")
        assert dana.total_seconds_late > 0, (dana.timestamp, round_trip.due)
        assert alice.total_seconds_late == 0, (alice.timestamp, round_trip.due)
    export = classroom.instructor(round_trip.hub, INSTRUCTOR, "nbgrader export --to=/dev/stdout 2>/dev/null")
    rows = {row["student_id"]: row for row in csv.DictReader(io.StringIO(export.output.strip()))}
    assert rows["dana"]["timestamp"] > rows["dana"]["duedate"], rows["dana"]
    assert rows["alice"]["timestamp"] < rows["alice"]["duedate"], rows["alice"]


def test_an_assignment_never_released_is_not_listed_and_fetching_it_says_so(round_trip):
    hub = round_trip.hub
    unreleased = "02_shapes"
    assert not [e for e in hub.assignments("bob") if e["assignment_id"] == unreleased]
    before = (hub.home("bob") / classroom.NOTEBOOK).read_bytes()
    result = hub.run("bob", f"nbgrader fetch_assignment {unreleased}")
    assert result.status == 1
    assert f"Assignment not found at: {hub.exchange / COURSE_ID / 'outbound' / unreleased}" in result.output
    assert f"Did you mean: {hub.exchange / COURSE_ID / 'outbound' / ASSIGNMENT}" in result.output, result.output
    hub.assignment_action("bob", "fetch", unreleased)  # the tab has no button for it; the API changes nothing
    assert not (hub.home("bob") / unreleased).exists()
    assert (hub.home("bob") / classroom.NOTEBOOK).read_bytes() == before
    collect = classroom.instructor(hub, INSTRUCTOR, f"nbgrader collect {unreleased}")
    assert f"No submissions of '{unreleased}' for course '{COURSE_ID}' to collect" in collect.output


def test_students_get_assignments_and_validate_and_only_the_instructor_gets_formgrader(round_trip):
    hub = round_trip.hub
    assert hub.user_api("alice", "/assignments?course_id=x")["success"] is True
    disabled = {user: set(_page_config(hub, user)["disabledExtensions"]) for user in ("alice", INSTRUCTOR)}
    student_only = {f"@jupyter/nbgrader:{p}" for p in ("formgrader", "course-list", "create-assignment")}
    assert student_only <= disabled["alice"], disabled
    assert not student_only & disabled[INSTRUCTOR], disabled
    everyone = {f"@jupyter/nbgrader:{p}" for p in ("assignment-list", "validate-assignment", "menu")}
    assert not everyone & (disabled["alice"] | disabled[INSTRUCTOR]), disabled
    with pytest.raises(Exception, match="HTTP 404"):
        hub.user_api("alice", "/formgrader/api/status")
    assert hub.user_api(INSTRUCTOR, "/formgrader/api/status") == {"status": True}
    assert hub.user_api("alice", "/api/kernelspecs")["default"] == "python3"


def _page_config(hub: Hub, user: str) -> dict:
    import json

    page = hub.user_api(user, "/lab")
    found = re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>', page, re.S)
    assert found, page[:2000]
    return json.loads(found.group(1))


def _hidden_test_lines() -> list[str]:
    """Lines of the source notebook's hidden tests long enough to be recognised if they leaked."""
    import json

    source = json.loads((answers.ROOT / "source" / classroom.NOTEBOOK).read_text(encoding="utf-8"))
    lines = []
    for cell in source["cells"]:
        text = "".join(cell["source"])
        for block in re.findall(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", text, re.S):
            lines += [ln.strip() for ln in block.splitlines() if len(ln.strip()) >= 20]
    return lines
