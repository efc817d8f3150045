"""A graded class read back from ``OUT`` (``grades.csv``, ``questions.csv``), and its statistics.

Everything here is computed from the two CSVs alone, so a class graded locally, on a Dask cluster or into a
PostgreSQL gradebook reads the same. Bad input never raises past :func:`load`: a missing ``OUT`` or
``grades.csv`` is one :class:`AutograderError` line; a torn row, an older ``questions.csv`` (no ``mistake``
column) or a missing ``questions.csv`` becomes a note in :attr:`ClassData.notes` and an empty section.
"""

from __future__ import annotations

import csv
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from autograder.errors import AutograderError
from autograder.results.journal import JOURNAL

RAN = ("ok", "timeout", "crashed")  # a submission that ran: its questions were attempted
UNKNOWN = "unknown"  # course.mistakes.UNKNOWN


@dataclass(frozen=True)
class Grade:
    """One row of grades.csv."""

    student: str
    assignment: str
    score: float
    max_score: float
    status: str


@dataclass(frozen=True)
class QuestionRow:
    """One row of questions.csv (``mistake``: '' passed or not run, an id, or ``unknown``)."""

    student: str
    assignment: str
    grade_id: str
    points: float
    max_points: float
    status: str
    message: str
    mistake: str


@dataclass
class ClassData:
    """The rows of one graded class, and what could not be read (one line each)."""

    grades: list[Grade]
    questions: list[QuestionRow]
    notes: list[str] = field(default_factory=list)
    has_mistakes: bool = True  # False: questions.csv predates the mistake column


def _number(text: str | None) -> float:
    value = float(text or "")
    if not math.isfinite(value):
        raise ValueError(text)
    return value


def _read_csv(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            reader = csv.DictReader(fh)
            return list(reader.fieldnames or []), list(reader)
    except UnicodeDecodeError:
        raise AutograderError(f"{path} is not UTF-8 text: is it a grades file?") from None
    except csv.Error as exc:
        raise AutograderError(f"{path} is not a readable CSV file: {exc}") from None
    except OSError as exc:
        raise AutograderError(f"cannot read {path}: {exc.strerror}") from None


def load(out: Path) -> ClassData:
    """Read ``out/grades.csv`` and ``out/questions.csv``. Raises AutograderError (one line) only when there
    is no class to report on: ``out`` or its ``grades.csv`` missing or unreadable."""
    out = Path(out)
    if not out.is_dir():
        raise AutograderError(f"{out} is not a folder: give the --out folder of a grading run")
    if not (out / "grades.csv").is_file():
        if (out / JOURNAL).is_file():  # a run stopped before it wrote its CSVs
            raise AutograderError(f"no grades.csv in {out}: that grading run did not finish (grade again, --resume)")
        raise AutograderError(f"no grades.csv in {out}: grade the class first (python -m autograder grade ...)")
    notes: list[str] = []
    columns, raw = _read_csv(out / "grades.csv")
    missing = {"student_id", "assignment", "score", "max_score", "status"} - set(columns)
    if missing:
        raise AutograderError(f"{out / 'grades.csv'} lacks the column(s) {', '.join(sorted(missing))}")
    grades, torn = [], 0
    for row in raw:
        try:
            grades.append(
                Grade(
                    row["student_id"],
                    row["assignment"],
                    _number(row["score"]),
                    _number(row["max_score"]),
                    row["status"],
                )
            )
        except (TypeError, ValueError, KeyError):
            torn += 1
    if torn:
        notes.append(f"grades.csv: {torn} row(s) could not be read (a half-written file?) and are left out")
    data = ClassData(grades, [], notes)
    _load_questions(out / "questions.csv", data)
    return data


def _load_questions(path: Path, data: ClassData) -> None:
    if not path.is_file():
        data.notes.append("no questions.csv: the per-question and misconception sections are empty")
        data.has_mistakes = False
        return
    columns, raw = _read_csv(path)
    needed = {"student_id", "assignment", "grade_id", "points", "max_points", "status", "message"}
    if needed - set(columns):
        data.notes.append(
            f"questions.csv lacks {', '.join(sorted(needed - set(columns)))}: question sections are empty"
        )
        data.has_mistakes = False
        return
    if "mistake" not in columns:
        data.has_mistakes = False
        data.notes.append(
            "questions.csv has no mistake column (graded by an older version): regrade to see misconceptions"
        )
    torn = 0
    for row in raw:
        try:
            data.questions.append(
                QuestionRow(
                    row["student_id"],
                    row["assignment"],
                    row["grade_id"],
                    _number(row["points"]),
                    _number(row["max_points"]),
                    row["status"],
                    row["message"] or "",
                    (row.get("mistake") or "") if row["status"] != "passed" else "",
                )
            )
        except (TypeError, ValueError, KeyError):
            torn += 1
    if torn:
        data.notes.append(f"questions.csv: {torn} row(s) could not be read (a half-written file?) and are left out")


# ---------------------------------------------------------------------------------------------------
# Statistics


def pearson(xs: list[float], ys: list[float]) -> float | None:
    """The correlation coefficient of two equally long samples; None when either has no variance."""
    n = len(xs)
    if n < 2:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


@dataclass
class QuestionStats:
    """One question across the class. ``discrimination``: Pearson correlation, over the students whose
    submission ran, between the question's score and the rest of the assignment's score (PrairieLearn's
    definition); None when either does not vary. ``flags``: why an instructor should look at it."""

    assignment: str
    grade_id: str
    max_points: float
    attempted: int
    full_credit: int
    mean_points: float | None
    discrimination: float | None
    flags: list[str]
    mistakes: list[MistakeCount]

    @property
    def full_credit_rate(self) -> float | None:
        return self.full_credit / self.attempted if self.attempted else None


@dataclass
class MistakeCount:
    """How many students one question's failures name ``mistake`` for (``share``: of those who attempted)."""

    mistake: str
    students: list[str]
    share: float


def question_stats(data: ClassData) -> list[QuestionStats]:
    """Per question, in the order of first appearance (assignment, then its test cells)."""
    ran = {(g.student, g.assignment) for g in data.grades if g.status in RAN}
    totals = {(g.student, g.assignment): g.score for g in data.grades}
    by_question: dict[tuple[str, str], list[QuestionRow]] = defaultdict(list)
    for q in data.questions:
        by_question[(q.assignment, q.grade_id)].append(q)
    stats = []
    for (assignment, gid), rows in by_question.items():
        tried = [q for q in rows if (q.student, assignment) in ran]
        maximum = max((q.max_points for q in rows), default=0.0)
        full = sum(1 for q in tried if q.status == "passed")
        mean = sum(q.points for q in tried) / len(tried) if tried else None
        xs = [q.points for q in tried if (q.student, assignment) in totals]
        ys = [totals[(q.student, assignment)] - q.points for q in tried if (q.student, assignment) in totals]
        disc = pearson(xs, ys)
        flags = []
        if tried and full == 0:
            flags.append("nobody passes")
        if disc is not None and disc < 0:
            flags.append("negative discrimination")
        if not tried:
            flags.append("no submissions")
        counts: dict[str, set[str]] = defaultdict(set)
        for q in tried:
            if q.status != "passed" and q.mistake:
                counts[q.mistake].add(q.student)
        ranked = sorted(counts.items(), key=lambda kv: (kv[0] == UNKNOWN, -len(kv[1]), kv[0]))
        mistakes = [MistakeCount(m, sorted(s), len(s) / len(tried)) for m, s in ranked]
        stats.append(QuestionStats(assignment, gid, maximum, len(tried), full, mean, disc, flags, mistakes))
    return stats


@dataclass
class StudentStats:
    """One student: points lost over the class, the questions lost and the named mistakes behind them."""

    student: str
    score: float
    max_score: float
    lost: list[QuestionRow]
    mistakes: Counter[str]
    statuses: Counter[str]


def student_stats(data: ClassData) -> list[StudentStats]:
    """Every student, the one who lost the most points first (who to help first)."""
    score: Counter[str] = Counter()
    maximum: Counter[str] = Counter()
    statuses: dict[str, Counter[str]] = defaultdict(Counter)
    for g in data.grades:
        score[g.student] += g.score
        maximum[g.student] += g.max_score
        statuses[g.student][g.status] += 1
    lost: dict[str, list[QuestionRow]] = defaultdict(list)
    for q in data.questions:
        if q.status != "passed":
            lost[q.student].append(q)
    students = []
    for name in statuses:
        named = Counter(q.mistake for q in lost[name] if q.mistake and q.mistake != UNKNOWN)
        students.append(StudentStats(name, score[name], maximum[name], lost[name], named, statuses[name]))
    students.sort(key=lambda s: (-(s.max_score - s.score), -sum(s.mistakes.values()), s.student))
    return students


def class_summary(data: ClassData) -> dict[str, object]:
    """Students, assignments, submissions by status per assignment, and each assignment's score fractions."""
    assignments = list(dict.fromkeys(g.assignment for g in data.grades))
    by_status: dict[str, Counter[str]] = {a: Counter() for a in assignments}
    fractions: dict[str, list[float]] = {a: [] for a in assignments}
    for g in data.grades:
        by_status[g.assignment][g.status] += 1
        if g.status in RAN and g.max_score > 0:
            fractions[g.assignment].append(g.score / g.max_score)
    return {
        "students": len({g.student for g in data.grades}),
        "assignments": assignments,
        "by_status": {a: dict(c) for a, c in by_status.items()},
        "fractions": fractions,
    }


# ---------------------------------------------------------------------------------------------------
# Two gradings of the same class


@dataclass(frozen=True)
class Change:
    """One question (or a whole submission, ``grade_id`` '') whose points or status changed."""

    student: str
    assignment: str
    grade_id: str
    old_points: float | None
    new_points: float | None
    old_status: str
    new_status: str
    old_message: str
    new_message: str


def compare(old: ClassData, new: ClassData) -> list[Change]:
    """Every submission and question whose points or status differ between ``old`` and ``new`` (rows only
    one side has count as changed), sorted by student, assignment and question."""
    changes = _changed(
        {(g.student, g.assignment, ""): g for g in old.grades},
        {(g.student, g.assignment, ""): g for g in new.grades},
        points="score",
    ) + _changed(
        {(q.student, q.assignment, q.grade_id): q for q in old.questions},
        {(q.student, q.assignment, q.grade_id): q for q in new.questions},
        points="points",
    )
    changes.sort(key=lambda c: (c.student, c.assignment, c.grade_id))
    return changes


def _changed(
    old: dict[tuple[str, str, str], Grade | QuestionRow],
    new: dict[tuple[str, str, str], Grade | QuestionRow],
    points: str,
) -> list[Change]:
    """The rows (by (student, assignment, grade_id)) whose ``points`` field or status differ; a grade row has no
    message, so its messages are ''."""
    changes = []
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a and b and getattr(a, points) == getattr(b, points) and a.status == b.status:
            continue
        changes.append(
            Change(
                *key, getattr(a, points, None), getattr(b, points, None), getattr(a, "status", ""),
                getattr(b, "status", ""), getattr(a, "message", ""), getattr(b, "message", ""),
            )
        )  # fmt: skip
    return changes
