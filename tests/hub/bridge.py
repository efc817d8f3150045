"""BRIDGE, to be deleted once `python -m autograder grade --nbgrader-course COURSE` is on main.

Grades an nbgrader course folder in place with the grader's existing form
(``python -m autograder grade SUBMISSIONS --out OUT --course COURSE``) and puts its results where the
``--nbgrader-course`` form will write them, so that the hub tests exercise the real hub, nbgrader and grader:

- OUT/grades.csv, questions.csv  -> COURSE/grades/
- OUT/feedback/<s>/<a>/<a>.html  -> COURSE/feedback/<s>/<a>/, with the submission's timestamp.txt and
  submission_secret.txt beside it (nbgrader's release_feedback reads both)
- OUT/nbgrader/autograded/       -> COURSE/autograded/
- OUT/nbgrader/gradebook.db      -> COURSE/gradebook.db (the db formgrader shows), keeping the course's
  students and due dates and setting each submission's timestamp from its timestamp.txt (so lateness shows)

Usage (in the instructor's terminal, from anywhere): python tests/hub/bridge.py COURSE [--jobs N] [--assignment ID]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _copy(source: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, dest)


def grade(course: Path, *, jobs: int, assignments: list[str]) -> int:
    from nbgrader.api import Gradebook, MissingEntry
    from nbgrader.utils import parse_utc

    db = course / "gradebook.db"
    with tempfile.TemporaryDirectory(prefix="bridge-") as tmp:
        out = Path(tmp) / "out"
        command = [sys.executable, "-m", "autograder", "grade", str(course / "submitted"), "--out", str(out)]
        command += ["--course", str(course), "--jobs", str(jobs), "--quiet"]
        command += [arg for a in assignments for arg in ("--assignment", a)]
        status = subprocess.call(command)
        if status != 0:
            return status
        for name in ("grades.csv", "questions.csv"):
            _copy(out / name, course / "grades" / name)
        for html in sorted((out / "feedback").glob("*/*/*.html")):
            student, assignment = html.parent.parent.name, html.parent.name
            folder = course / "feedback" / student / assignment
            _copy(html, folder / html.name)
            for name in ("timestamp.txt", "submission_secret.txt"):
                _copy(course / "submitted" / student / assignment / name, folder / name)
        shutil.copytree(out / "nbgrader" / "autograded", course / "autograded", dirs_exist_ok=True)

        students, duedates = [], {}
        if db.exists():
            with Gradebook(f"sqlite:///{db}") as gb:
                students = [s.to_dict() for s in gb.students]
                duedates = {a.name: a.duedate for a in gb.assignments}
        shutil.copy2(out / "nbgrader" / "gradebook.db", db)
    with Gradebook(f"sqlite:///{db}") as gb:
        for student in students:
            fields = {k: student[k] for k in ("first_name", "last_name", "email", "lms_user_id")}
            gb.update_or_create_student(student["id"], **fields)
        for name, duedate in duedates.items():
            gb.update_or_create_assignment(name, duedate=duedate)
        for stamp in sorted((course / "submitted").glob("*/*/timestamp.txt")):
            student, assignment = stamp.parent.parent.name, stamp.parent.name
            try:
                submission = gb.find_submission(assignment, student)
            except MissingEntry:
                continue
            submission.timestamp = parse_utc(stamp.read_text(encoding="utf-8").strip())
            gb.db.commit()
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("course", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--assignment", action="append", default=[])
    args = parser.parse_args()
    sys.exit(grade(args.course.resolve(), jobs=args.jobs, assignments=args.assignment))


if __name__ == "__main__":
    main()
