"""`autograder grade`: every submission gets its rows; attacks and bad input never raise a score;
learner code is isolated; grading is deterministic and resumable.

One small course (assignment 99_probe: two exercises, 2 + 1 points) keeps these tests fast. One class
of ~70 submissions, each a right answer, a wrong one, an attack (tests/attacks.py: on blank answers, every
one must score 0) or a bad file, is graded once per module.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import socket
import time
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from autograder.errors import AutograderError
from autograder.grade import grade, parse_size
from autograder.parent.sandbox import bwrap_problem
from tests.attacks import ATTACKS
from tests.notebooks import ROOT
from tests.notebooks import max_score as nbs_max
from tests.probe import ID, RIGHT_ANSWER, STUB, STUB_OTHER, WRONG, grade_cli, make_course, submission

HAS_BWRAP = not bwrap_problem()
needs_bwrap = pytest.mark.skipif(not HAS_BWRAP, reason="bubblewrap is not usable here (.ci/run installs it)")


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return make_course(tmp_path_factory.mktemp("course"))


def _probe(name: str, code: str) -> str:
    """An answer cell that tries something and prints LEAK:name when it works, BLOCKED:name when not."""
    body = "\n".join("    " + line for line in code.strip().splitlines())
    return (
        f"try:\n{body}\n    print('LEAK:{name}')\nexcept BaseException as exc:\n    print('BLOCKED:{name}', type(exc).__name__)\n"
        + RIGHT_ANSWER
    )


def _delete_test(nb):
    del nb.cells[2]


def _edit_test(nb):
    nb.cells[2].source = "pass"


def _points(nb):
    nb.cells[2].metadata["nbgrader"]["points"] = 100
    nb.cells[4].metadata["nbgrader"]["grade"] = False


def _foreign_kernel(nb):
    nb.metadata["kernelspec"] = {"name": "ir", "display_name": "R", "language": "R"}


NOTEBOOKS = {
    "right": submission(),
    "wrong": submission(WRONG),
    "stub": submission(STUB, STUB_OTHER),
    # notebook tampering, on blank answers (more attacks: tests/attacks.py, added below)
    "attack_edit_test": submission(STUB, STUB_OTHER, edit=_edit_test),
    "attack_delete_test": submission(STUB, STUB_OTHER, edit=_delete_test),
    "attack_points": submission(STUB, STUB_OTHER, edit=_points),
    # crashes, timeouts and limits
    "sys_exit": submission("import sys\nsys.exit(1)\n"),
    "os_exit": submission("import os\nos._exit(0)\n"),
    "segfault": submission("import ctypes\nctypes.string_at(0)\n"),
    "infinite_loop": submission("while True:\n    pass\n"),
    "unstoppable_loop": submission(
        "import time\nwhile True:\n    try:\n        time.sleep(0.2)\n    except BaseException:\n        pass\n"
    ),
    "huge_allocation": submission("x = bytearray(64 * 2**30)\n" + RIGHT_ANSWER),
    "output_flood": submission("for _ in range(100):\n    print('x' * 1_000_000)\n" + RIGHT_ANSWER),
    "foreign_kernel": submission(edit=_foreign_kernel),
    # isolation probes (answers right, so the score tells nothing; the printed verdicts do)
    "probe_network": submission(
        _probe("network", "import socket\nsocket.create_connection(('127.0.0.1', PORT), timeout=3)")
    ),
    "probe_source": submission(_probe("source", "open(SOURCE).read()")),
    # another copy of a course on the machine (a worktree, a backup, this repository): not in the sandbox
    "probe_other_course": submission(_probe("other_course", "open(ELSEWHERE).read()")),
    "probe_other_student": submission(_probe("other_student", "open(OTHER).read()")),
    "probe_gradebook": submission(_probe("gradebook", "open(GRADEBOOK, 'rb').read()")),
    "probe_write": submission(_probe("write", "open(OTHER, 'a').write('x')")),
    "probe_judge": submission(
        _probe(
            "judge",
            "import os\nfound = [p for p in os.listdir('/proc') if p.isdigit()\n"
            "         and b'judge' in open(f'/proc/{p}/cmdline', 'rb').read()]\nassert found, 'no judge process in sight'",
        )
    ),
    **{
        f"probe_shared_tmp_{x}": submission(
            _probe(
                "shared_tmp",
                "import glob, os\nme = f'secret-{os.getpid()}'\n"
                "for folder in ('..', '/tmp', '/dev/shm', os.path.expanduser('~')):  # every place it can write\n"
                "    try:\n        open(os.path.join(folder, me), 'w').write('SECRET')\n    except OSError:\n        pass\n"
                "found = []\nfor p in glob.glob('../*') + glob.glob('/tmp/*') + glob.glob('/dev/shm/*'):\n"
                "    if not p.endswith(me):\n        try:\n"
                "            found += [p] if 'SECRET' in open(p).read() else []\n"
                "        except OSError:\n            pass\nassert found, 'no other submission left anything readable'",
            )
        )
        for x in ("a", "b")
    },
    "probe_processes": submission(
        _probe("processes", "import subprocess\nps = [subprocess.Popen(['sleep', '5']) for _ in range(300)]")
    ),
}
NOTEBOOKS.update({f"attack_{a.name}": submission(a.answer, a.other, extra=a.code) for a in ATTACKS})
BAD_FILES = {
    "malformed": b"{ not json",
    "empty": b"",
    "non_utf8": b"\xff\xfe\x00\x01",
}


def _write_class(root: Path, placeholders: dict[str, str]) -> None:
    for student, nb in NOTEBOOKS.items():
        folder = root / student / ID
        folder.mkdir(parents=True)
        text = nbformat.writes(nb)
        for key, value in placeholders.items():
            text = text.replace(key, repr(value))  # a Python literal inside the JSON string
        (folder / f"{ID}.ipynb").write_text(text, encoding="utf-8")
    for student, data in BAD_FILES.items():
        folder = root / student / ID
        folder.mkdir(parents=True)
        (folder / f"{ID}.ipynb").write_bytes(data)
    old = root / "old_nbformat" / ID
    old.mkdir(parents=True)
    (old / f"{ID}.ipynb").write_text(nbformat.writes(nbformat.convert(submission(), 3), version=3), encoding="utf-8")
    renamed = root / "renamed" / ID
    renamed.mkdir(parents=True)
    nbformat.write(submission(), renamed / f"{ID} (1).ipynb")
    (root / "missing" / ID).mkdir(parents=True)
    (root / "no_folder").mkdir()


@pytest.fixture(scope="module")
def listener():
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    yield server.getsockname()[1]
    server.close()


@pytest.fixture(scope="module")
def graded(course, tmp_path_factory, listener):
    work = tmp_path_factory.mktemp("class")
    subs, out = work / "submitted", work / "out"
    _write_class(
        subs,
        {
            "PORT": listener,
            "SOURCE": str(course / "source" / ID / f"{ID}.ipynb"),
            "OTHER": str(subs / "right" / ID / f"{ID}.ipynb"),
            "GRADEBOOK": str(out / "nbgrader" / "gradebook.db"),
            "ELSEWHERE": str(ROOT / "source" / "01_tensors" / "01_tensors.ipynb"),
        },
    )
    before = {p: p.read_bytes() for p in subs.rglob("*") if p.is_file()}
    records = _grade_class(subs, out, course, jobs=2)
    return {"records": records, "out": out, "subs": subs, "before": before}


def _grade_class(subs: Path, out: Path, course: Path, *, jobs: int) -> dict:
    """The settings every class in this module is graded with: short timeouts, bwrap where it works."""
    return grade(
        subs,
        out,
        course_root=course,
        jobs=jobs,
        cell_timeout=3,
        notebook_timeout=25,
        memory="3G",
        sandbox_mode="bwrap" if HAS_BWRAP else "none",
        progress=False,
    )


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def record(graded, student) -> dict:
    return graded["records"][f"{student}/{ID}"]


def outputs(graded, student) -> str:
    path = graded["out"] / "nbgrader" / "autograded" / student / ID / f"{ID}.ipynb"
    nb = nbformat.read(path, as_version=4)
    return "\n".join(
        o.get("text", "") + o.get("evalue", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
    )


def test_every_student_gets_one_grades_row_and_a_row_per_question(graded):
    students = sorted(list(NOTEBOOKS) + list(BAD_FILES) + ["old_nbformat", "renamed", "missing", "no_folder"])
    grades = rows(graded["out"] / "grades.csv")
    assert [r["student_id"] for r in grades] == students
    assert list(grades[0]) == ["student_id", "assignment", "score", "max_score", "status"]
    questions = rows(graded["out"] / "questions.csv")
    columns = ["student_id", "assignment", "grade_id", "points", "max_points", "status", "message", "mistake"]
    assert list(questions[0]) == columns
    assert len(questions) == 2 * len(students)
    assert all(r["max_score"] == "3" for r in grades)


def test_right_answers_score_full_and_wrong_or_blank_ones_do_not(graded):
    assert record(graded, "right")["score"] == 3 and record(graded, "right")["status"] == "ok"
    assert record(graded, "wrong")["score"] == 1
    assert "期望 1" in record(graded, "wrong")["questions"][0]["message"]
    assert record(graded, "stub")["score"] == 0


def test_the_attack_catalogue_covers_every_group_with_at_least_thirty_attacks():
    groups = {a.group for a in ATTACKS}
    assert len(ATTACKS) + 3 >= 30, len(ATTACKS)
    assert {
        "namespace",
        "shell",
        "channel",
        "hidden",
        "torch",
        "tracing",
        "concurrency",
        "values",
        "watching",
    } <= groups


@pytest.mark.parametrize("attack", [s for s in NOTEBOOKS if s.startswith("attack_")])
def test_no_attack_on_blank_answers_scores_a_point(graded, attack):
    result = record(graded, attack)
    assert result["score"] == 0 and result["max_score"] == 3, result
    assert all(q["points"] == 0 and q["message"] for q in result["questions"]), result["questions"]


def test_a_message_that_looks_like_a_formula_stays_text_in_questions_csv(graded):
    messages = [
        r["message"]
        for r in rows(graded["out"] / "questions.csv")
        if r["student_id"].endswith("formula_in_the_message")
    ]
    assert messages and "=HYPERLINK" in messages[0], messages  # the learner's text, marked as theirs or quoted
    assert not messages[0].startswith(("=", "+", "-", "@")), messages


def test_a_cells_time_limit_counts_its_own_cpu_time_with_a_wall_clock_backstop():
    """So that a submission hogging the machine cannot make another's cells time out (time spent waiting
    for the CPU does not count), while a cell that only sleeps is still stopped."""
    import time as clock

    from autograder.child.learner import WALL_FACTOR, CellTimeout, deadline

    with deadline(1.0):
        clock.sleep(1.5)  # waiting: no CPU time spent, under the wall backstop
    with pytest.raises(CellTimeout), deadline(0.5):
        while True:  # computing: stopped after 0.5 s of CPU time
            pass
    start = clock.monotonic()
    with pytest.raises(CellTimeout), deadline(0.2):
        clock.sleep(5)  # sleeping forever: stopped by the wall backstop
    assert clock.monotonic() - start < 0.2 * WALL_FACTOR + 0.5


def test_a_deleted_test_cell_scores_zero_with_a_message(graded):
    assert "被删除" in record(graded, "attack_delete_test")["questions"][0]["message"]


@pytest.mark.parametrize(
    ("student", "status"),
    [
        ("malformed", "invalid"),
        ("empty", "invalid"),
        ("non_utf8", "invalid"),
        ("missing", "missing"),
        ("no_folder", "missing"),
        ("os_exit", "crashed"),
        ("segfault", "crashed"),
        ("infinite_loop", "timeout"),
        ("unstoppable_loop", "timeout"),
        ("sys_exit", "ok"),
        ("huge_allocation", "ok"),
        ("output_flood", "ok"),
        ("old_nbformat", "ok"),
        ("foreign_kernel", "ok"),
        ("renamed", "ok"),
    ],
)
def test_bad_input_gets_a_row_a_status_and_a_message(graded, student, status):
    result = record(graded, student)
    assert result["status"] == status, result
    if status != "ok":
        assert result["message"] and all(q["message"] for q in result["questions"] if q["points"] == 0)
        assert result["score"] <= 1


def test_a_crashing_or_looping_cell_scores_zero_and_the_rest_is_still_graded(graded):
    for student in ("sys_exit", "os_exit", "segfault", "infinite_loop", "huge_allocation"):
        answer, other = record(graded, student)["questions"]
        assert answer["points"] == 0 and other["points"] == 1, (student, answer, other)


def test_a_cell_that_cannot_be_stopped_is_skipped_and_the_rest_is_graded(graded):
    result = record(graded, "unstoppable_loop")
    assert result["status"] == "timeout" and "卡住" in result["message"], result
    answer, other = result["questions"]
    assert answer["points"] == 0 and other["points"] == 1, result["questions"]


def test_huge_output_is_capped_and_still_graded(graded):
    assert record(graded, "output_flood")["score"] == 3
    assert "more characters of output dropped" in outputs(graded, "output_flood")


def test_renamed_notebooks_are_graded_and_say_so(graded):
    assert record(graded, "renamed")["score"] == 3 and "renamed" in record(graded, "renamed")["message"]


def test_submissions_are_never_modified(graded):
    after = {p: p.read_bytes() for p in graded["subs"].rglob("*") if p.is_file()}
    assert after == graded["before"]


def test_feedback_html_per_submission_never_shows_test_code(graded):
    for student in ("right", "wrong", "attack_patch_torch_comparisons", "malformed", "missing"):
        page = graded["out"] / "feedback" / student / ID / f"{ID}.html"
        text = page.read_text(encoding="utf-8")
        assert "test_answer" in text and "test_other" in text
        assert "BEGIN HIDDEN" not in text and "torch.allclose(answer()" not in text and "check_tensor(" not in text


def test_feedback_shows_hints_only_when_the_instructor_asks(graded, course, tmp_path):
    page = graded["out"] / "feedback" / "wrong" / ID / f"{ID}.html"
    assert "HINT-ONE" not in page.read_text(encoding="utf-8")
    subs = tmp_path / "subs"
    (subs / "wrong" / ID).mkdir(parents=True)
    shutil.copy2(graded["subs"] / "wrong" / ID / f"{ID}.ipynb", subs / "wrong" / ID / f"{ID}.ipynb")
    grade(subs, tmp_path / "out", course_root=course, show_hints=True, progress=False)
    text = (tmp_path / "out" / "feedback" / "wrong" / ID / f"{ID}.html").read_text(encoding="utf-8")
    assert "提示 (hint) 1 / 2" in text and "HINT-ONE" in text and "HINT-TWO" not in text


def test_the_gradebook_is_kept_for_nbgraders_own_tools(graded):
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{graded['out'] / 'nbgrader' / 'gradebook.db'}") as gb:
        assert gb.find_submission(ID, "right").score == 3
        assert gb.find_submission(ID, "wrong").score == 1
        assert gb.find_submission(ID, "malformed").score == 0
        # per cell, as nbgrader's own tools read them: the engine's points; no "No response." on a changed answer
        assert [gb.find_grade(g, ID, ID, "wrong").auto_score for g in ("test_answer", "test_other")] == [0, 1]
        assert gb.find_grade("test_answer", ID, ID, "right").auto_score == 2
        assert gb.find_comment("answer", ID, ID, "right").auto_comment is None


@needs_bwrap
@pytest.mark.parametrize(
    "student",
    [
        "probe_network",
        "probe_source",
        "probe_other_course",
        "probe_other_student",
        "probe_gradebook",
        "probe_write",
        "probe_judge",
        "probe_shared_tmp_a",
        "probe_shared_tmp_b",
        "probe_processes",
    ],
)
def test_learner_code_is_isolated(graded, student):
    what = student.removeprefix("probe_").removesuffix("_a").removesuffix("_b")
    printed = outputs(graded, student)
    assert f"BLOCKED:{what}" in printed and f"LEAK:{what}" not in printed, printed[-500:]


RACY = {f"attack_{a.name}" for a in ATTACKS if a.group == "concurrency"}  # they race the judge on purpose


# Its cell fails at the cell's time limit, or its process is stopped at the size or memory limit on the way back
# (status "crashed"), whichever a loaded machine reaches first: both score 0; the status, message and mistake id change.
LOAD_WORDED = {"attack_enormous_return_value"}


def _rows_without_racy(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as f:
        table = list(csv.reader(f))
    header, body = table[0], table[1:]
    worded = [header.index(name) for name in ("status", "message", "mistake") if name in header]
    out = [header]
    for row in body:
        if row[0] in RACY:
            continue
        if row[0] in LOAD_WORDED:
            row = [value for i, value in enumerate(row) if i not in worded]
        out.append(row)
    return out


def test_grading_the_same_class_twice_gives_identical_rows(graded, course, tmp_path):
    out = tmp_path / "again"
    _grade_class(graded["subs"], out, course, jobs=1)
    for name in ("grades.csv", "questions.csv"):
        assert _rows_without_racy(out / name) == _rows_without_racy(graded["out"] / name), name
    for student in RACY:  # whatever the race did, it scored nothing either time
        assert all(r["score"] == "0" for r in rows(out / "grades.csv") if r["student_id"] == student)


def _small_class(root: Path, n: int = 6) -> Path:
    for i in range(n):
        folder = root / f"s{i:02d}" / ID
        folder.mkdir(parents=True)
        slow = "import time\ntime.sleep(1)\n" + (RIGHT_ANSWER if i % 2 else WRONG)
        nbformat.write(submission(slow), folder / f"{ID}.ipynb")
    return root


def test_a_killed_run_resumes_without_losing_or_doubling_a_row(course, tmp_path):
    subs = _small_class(tmp_path / "subs")
    clean, broken = tmp_path / "clean", tmp_path / "broken"
    base = ["--course", str(course), "--jobs", "1", "--sandbox", "auto"]
    assert grade_cli(str(subs), "--out", str(clean), *base).wait(timeout=300) == 0
    run = grade_cli(str(subs), "--out", str(broken), *base)
    journal = broken / ".journal.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 2):
        time.sleep(0.1)
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    done_before = journal.read_text().count("\n")
    assert 2 <= done_before < 6
    again = grade_cli(str(subs), "--out", str(broken), *base)
    assert again.wait(timeout=300) != 0, "without --resume an existing result folder must be refused"
    assert "--resume" in again.stderr.read()
    resumed = grade_cli(str(subs), "--out", str(broken), *base, "--resume")
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read()
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6
    for name in ("grades.csv", "questions.csv"):
        assert (broken / name).read_text(encoding="utf-8") == (clean / name).read_text(encoding="utf-8")


def test_without_bubblewrap_auto_warns_once_and_bwrap_fails_clearly(course, tmp_path):
    subs = tmp_path / "subs"
    (subs / "ann" / ID).mkdir(parents=True)
    nbformat.write(submission(), subs / "ann" / ID / f"{ID}.ipynb")
    env = dict(os.environ, PATH=str(tmp_path))  # no bwrap to be found
    strict = grade_cli(str(subs), "--out", str(tmp_path / "o1"), "--course", str(course), "--sandbox", "bwrap", env=env)
    assert strict.wait(timeout=120) == 2
    err = strict.stderr.read().strip().splitlines()
    assert len(err) == 1 and "bwrap is not installed" in err[0]
    auto = grade_cli(str(subs), "--out", str(tmp_path / "o2"), "--course", str(course), env=env)
    assert auto.wait(timeout=300) == 0
    warnings = [line for line in auto.stderr.read().splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "resource limits only" in warnings[0]
    assert rows(tmp_path / "o2" / "grades.csv")[0]["score"] == "3"


def test_unknown_assignment_and_missing_folder_are_one_line_errors(course, tmp_path):
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    with pytest.raises(AutograderError, match="unknown assignment '42_nope'"):
        grade(tmp_path / "subs", tmp_path / "out", course_root=course, assignments=["42_nope"], progress=False)
    with pytest.raises(AutograderError, match="submissions folder not found"):
        grade(tmp_path / "nowhere", tmp_path / "out", course_root=course, progress=False)
    assert not (tmp_path / "out").exists()


def test_memory_sizes_are_read_or_refused_clearly():
    assert parse_size("4G") == 4 * 2**30 and parse_size("512MiB") == 512 * 2**20
    with pytest.raises(AutograderError, match="cannot read memory size"):
        parse_size("lots")


@pytest.fixture(scope="module")
def tensors_attacked(tmp_path_factory):
    """01_tensors left blank, with each attack that beat the grader before the judge (6, 2 and 10 of 10)."""
    from tests import notebooks as nbs

    by_name = {a.name: a for a in ATTACKS}
    subs = tmp_path_factory.mktemp("attacked")
    for name in ("rebind_checks", "override_shell_instance_methods", "write_old_result_records_and_exit"):
        nb = nbs.read(nbs.release_path("01_tensors"))
        nb.cells.insert(2, new_code_cell(by_name[name].code))  # right after the imports cell
        folder = subs / name / "01_tensors"
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / "01_tensors.ipynb")
    return grade(subs, tmp_path_factory.mktemp("out"), course_root=ROOT, jobs=2, progress=False)


@pytest.mark.parametrize(
    "name", ["rebind_checks", "override_shell_instance_methods", "write_old_result_records_and_exit"]
)
def test_the_attacks_that_beat_the_old_grader_score_zero_on_01_tensors(tensors_attacked, name):
    result = tensors_attacked[f"{name}/01_tensors"]
    assert result["score"] == 0 and result["max_score"] == nbs_max("01_tensors") > 0, result
