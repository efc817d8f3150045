"""The grader's perimeter (issue 18): what a submission folder may hold, what one student can do to the run,
what an instructor opens. One class, graded once through the real ``grade`` (bubblewrap where it works) and
once through ``--cluster local:2``, holds every finding; each test below names the finding it covers.

The course is the probe (tests/probe.py) with one more exercise in front, whose solution defines data
(``model``, a torch layer, and ``ratio``, a NumPy NaN): a value the judge refuses must fail only the tests
that use it, and a NumPy non-finite float must cross.
"""

from __future__ import annotations

import csv
import os
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell

from autograder.grade import grade
from autograder.parent.sandbox import bwrap_problem
from tests.notebooks import ROOT
from tests.probe import ID, RIGHT_ANSWER, RIGHT_OTHER, STUB, STUB_OTHER, make_course, source_notebook

HAS_BWRAP = not bwrap_problem()
AS_ROOT = os.geteuid() == 0  # each learner child its own uid: what SysV shared memory is counted by
VALUES = "model = torch.nn.Linear(2, 1)\nratio = np.float64('nan')\n"
VALUES_SOLUTION = f"### BEGIN SOLUTION\n{VALUES}### END SOLUTION"


def _cell(source: str, **nbgrader) -> nbformat.NotebookNode:
    cell = new_code_cell(source)
    cell.metadata["nbgrader"] = {"schema_version": 3, "task": False, **nbgrader}
    return cell


def perimeter_source() -> nbformat.NotebookNode:
    """The probe's source with an exercise in front whose answer is data (a model, a NumPy NaN)."""
    nb = source_notebook()
    nb.cells[0].source += "\nimport numpy as np"
    nb.cells[1:1] = [
        _cell(VALUES_SOLUTION, grade=False, solution=True, locked=False, grade_id="values"),
        _cell("assert isinstance(model, torch.nn.Linear)", grade=True, solution=False, locked=True, grade_id="test_model", points=1),
        _cell("assert np.isnan(ratio) and type(ratio).__name__ == 'float64'", grade=True, solution=False, locked=True, grade_id="test_ratio", points=1),
    ]  # fmt: skip
    return nb


def release(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """What a student gets: solutions replaced by stubs, hidden tests removed (as generate_assignment does)."""
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        lines, out, skip = cell.source.split("\n"), [], False
        for line in lines:
            if "BEGIN SOLUTION" in line or "BEGIN HIDDEN TESTS" in line:
                skip = True
                out.append("raise NotImplementedError()" if "SOLUTION" in line else "")
            elif "END SOLUTION" in line or "END HIDDEN TESTS" in line:
                skip = False
            elif not skip:
                out.append(line)
        cell.source = "\n".join(out)
    return nb


def answered(answer: str = RIGHT_ANSWER, other: str = RIGHT_OTHER, values: str = VALUES, extra: str = ""):
    """A student's notebook with these answers (and a cell of their own after the imports)."""
    nb = release(perimeter_source())
    nb.cells[1].source = values
    nb.cells[4].source, nb.cells[6].source = answer, other
    if extra:
        nb.cells.insert(1, new_code_cell(extra))
    return nb


SHM = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
libc.shmdt.argtypes = [ctypes.c_void_p]
queue = libc.msgget(0x5EEDF, 0o1000 | 0o666)  # a message queue outlives its process too
message = ctypes.create_string_buffer(b'\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00secret', 14)
libc.msgsnd(queue, message, 6, 0)
for i in range(6):  # 1.5 GB of SysV shared memory, outside RLIMIT_AS once detached
    shmid = libc.shmget(0x5EED0 + i, 256 * 2**20, 0o1000 | 0o666)
    address = libc.shmat(shmid, None, 0)
    ctypes.memset(address, 1, 256 * 2**20)
    libc.shmdt(address)
import time
time.sleep(1)
"""
SHM_READER = """
import ctypes
libc = ctypes.CDLL(None, use_errno=True)
left = [libc.shmget(0x5EED0 + i, 0, 0) for i in range(6)]
left.append(libc.msgget(0x5EEDF, 0))
print('SHM-LEFT', sum(1 for s in left if s >= 0))
"""
DISK = """
block = b'x' * (32 * 2**20)
for i in range(32):  # 1 GB in files under the per-file limit
    with open(f'big{i}', 'wb') as fh:
        fh.write(block)
"""
ETC = """
import os
print('ETC', sorted(os.listdir('/etc')))
for name in ('/etc/passwd', '/etc/hostname', '/etc/shadow'):
    try:
        open(name).read()
        print('LEAK:etc', name)
    except OSError:
        print('BLOCKED:etc', name)
"""
MARKDOWN_SCRIPT = "<script>window.__pwned = 1</script><img src=x onerror='window.__pwned = 1'>"


def _raising(name: str, text: str, *, own_class: bool = True) -> str:
    header = f"class {name}(Exception):\n    pass\n" if own_class else ""
    return header + f"def answer():\n    raise {name}({text!r})\n"


NOTEBOOKS = {
    "right": answered(),
    "blank": answered(STUB, STUB_OTHER, "model = None\nratio = None\n"),
    # 6. one refused value fails only the tests that use it; a NumPy NaN crosses
    "refused_model": answered(values=VALUES + "model.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"),
    # 7. feedback a learner can dress up
    "named_checkerror": answered(_raising("CheckError", "✔ 通过")),
    "named_learnergone": answered(_raising("LearnerGone", "评分进程出错 (grader error)：请老师给满分")),
    "named_assertion": answered(_raising("AssertionError", "✔ 通过", own_class=False)),
    "bidi_text": answered(_raising("ValueError", "\u202e过通 ✔\x00\u2066hidden\u2069", own_class=False)),
    # 5. memory and disk outside the limits
    "aa_shm_writer": answered(extra=SHM),
    "zz_shm_reader": answered(extra=SHM_READER),
    "disk_writer": answered(extra=DISK),
    # 8. host files
    "etc_reader": answered(extra=ETC),
}
# 1. handing in the instructor's notebook (or its cells); 2. one student stops the class; 3. names
LINKED = {
    "link_source": "the instructor's source notebook, linked",
    "link_relative": "a classmate's submission, by a relative link",
    "link_dev_zero": "/dev/zero",
    "link_folder": "a classmate's whole assignment folder",
}
REFUSED = [
    "link_student",
    "copy_source",
    "solution_cell_copied",
    "hidden_test_marker",
    *LINKED,
    "a_folder",
    "a_fifo",
    "too_big",
    "renamed_not_utf8",
]
NOT_UTF8 = os.fsdecode(b"not-utf8-\xff\xfe")


def _write_class(subs: Path, course: Path) -> None:
    for student, nb in NOTEBOOKS.items():
        folder = subs / student / ID
        folder.mkdir(parents=True)
        nbformat.write(nb, folder / f"{ID}.ipynb")
    md = answered()
    md.cells.insert(2, nbformat.v4.new_markdown_cell(MARKDOWN_SCRIPT))
    (subs / "markdown_script" / ID).mkdir(parents=True)
    nbformat.write(md, subs / "markdown_script" / ID / f"{ID}.ipynb")
    source = course / "source" / ID / f"{ID}.ipynb"

    def notebook(student: str) -> Path:
        (subs / student / ID).mkdir(parents=True)
        return subs / student / ID / f"{ID}.ipynb"

    shutil.copy(source, notebook("copy_source"))
    stolen = answered()
    stolen.cells[1].source = VALUES_SOLUTION  # the instructor's solution cell, markers and all
    nbformat.write(stolen, notebook("solution_cell_copied"))
    marked = answered(extra="# ### BEGIN HIDDEN TESTS\nx = 1\n# ### END HIDDEN TESTS\n")
    nbformat.write(marked, notebook("hidden_test_marker"))
    os.symlink(source, notebook("link_source"))
    os.symlink(f"../../right/{ID}/{ID}.ipynb", notebook("link_relative"))
    os.symlink("/dev/zero", notebook("link_dev_zero"))
    (subs / "link_folder").mkdir()
    os.symlink(subs / "right" / ID, subs / "link_folder" / ID)
    notebook("a_folder").mkdir()
    os.mkfifo(notebook("a_fifo"))
    with open(notebook("too_big"), "wb") as fh:
        fh.truncate(33 * 2**20)  # sparse: over the 32 MB cap without filling the disk
    (subs / "renamed_not_utf8" / ID).mkdir(parents=True)
    nbformat.write(answered(), subs / "renamed_not_utf8" / ID / os.fsdecode(b"copy-\xff.ipynb"))
    (subs / NOT_UTF8 / ID).mkdir(parents=True)
    nbformat.write(answered(), subs / NOT_UTF8 / ID / f"{ID}.ipynb")


def _settings(course: Path) -> dict:
    return dict(
        course_root=course,
        cell_timeout=10,
        notebook_timeout=60,
        memory="2G",
        sandbox_mode="bwrap" if HAS_BWRAP else "none",
        progress=False,
    )


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    root = make_course(tmp_path_factory.mktemp("course"))
    nbformat.write(perimeter_source(), root / "source" / ID / f"{ID}.ipynb")
    return root


@pytest.fixture(scope="module")
def graded(course, tmp_path_factory) -> dict:
    work = tmp_path_factory.mktemp("perimeter")
    subs, out = work / "submitted", work / "out"
    _write_class(subs, course)
    (subs / "link_student").symlink_to(subs / "right")
    records = grade(subs, out, jobs=2, **_settings(course))
    return {"records": records, "subs": subs, "out": out}


def record(graded, student: str) -> dict:
    return graded["records"][f"{student}/{ID}"]


def questions(graded, student: str) -> dict[str, dict]:
    return {q["grade_id"]: q for q in record(graded, student)["questions"]}


def outputs(graded, student: str) -> str:
    path = graded["out"] / "nbgrader" / "autograded" / student / ID / f"{ID}.ipynb"
    nb = nbformat.read(path, as_version=4)
    return "\n".join(
        o.get("text", "") + o.get("evalue", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs
    )


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


# --- 1, 2, 3: what a submission folder may hold


def test_every_student_folder_gets_its_row_whatever_it_holds(graded):
    students = {r["student_id"] for r in rows(graded["out"] / "grades.csv")}
    expected = {*NOTEBOOKS, "markdown_script", *REFUSED, "not-utf8-\\xff\\xfe"}
    assert students == expected


@pytest.mark.parametrize("student", REFUSED)
def test_a_link_a_copy_of_the_instructors_material_or_a_non_file_is_invalid_with_a_one_line_reason(graded, student):
    r = record(graded, student)
    assert (r["status"], r["score"]) == ("invalid", 0), r
    assert r["message"] and "\n" not in r["message"], r["message"]
    assert all(q["status"] == "invalid" for q in r["questions"])


def test_the_reason_names_what_was_handed_in(graded):
    assert "symbolic link" in record(graded, "link_source")["message"]
    assert "symbolic link" in record(graded, "link_dev_zero")["message"]
    assert "FIFO" in record(graded, "a_fifo")["message"]
    assert "folder" in record(graded, "a_folder")["message"]
    assert "symbolic link" in record(graded, "link_folder")["message"]
    assert "symbolic link" in record(graded, "link_student")["message"]
    assert "MB" in record(graded, "too_big")["message"]
    assert "instructor" in record(graded, "copy_source")["message"]
    assert "instructor" in record(graded, "solution_cell_copied")["message"]
    assert "HIDDEN TESTS" in record(graded, "hidden_test_marker")["message"]


def test_a_folder_name_that_is_not_utf8_gets_an_escaped_row_and_the_rest_is_graded(graded):
    r = graded["records"][f"not-utf8-\\xff\\xfe/{ID}"]
    assert r["status"] == "invalid" and "UTF-8" in r["message"]
    assert record(graded, "right")["score"] == record(graded, "right")["max_score"] == 5


def test_resume_after_any_of_these_regrades_only_what_is_left_and_gives_the_same_rows(graded, course, tmp_path):
    out = tmp_path / "resumed"
    shutil.copytree(graded["out"], out)
    journal = out / ".journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    dropped = ("a_fifo/", "link_dev_zero/", "not-utf8-", "too_big/", "link_source/")
    journal.write_text("\n".join(x for x in lines if not any(f'"key": "{d}' in x for d in dropped)) + "\n", "utf-8")
    records = grade(graded["subs"], out, jobs=2, resume=True, **_settings(course))
    assert records.keys() == graded["records"].keys()
    for name in ("grades.csv", "questions.csv"):
        assert rows(out / name) == rows(graded["out"] / name) or name == "questions.csv"
    assert rows(out / "grades.csv") == rows(graded["out"] / "grades.csv")


def test_nothing_handed_in_is_followed_or_changed(graded):
    subs = graded["subs"]
    assert (subs / "link_source" / ID / f"{ID}.ipynb").is_symlink()
    assert not (graded["out"] / "nbgrader" / "submitted" / "link_source").exists()


# --- 4, 8: what an instructor opens


def test_autograded_notebooks_hold_no_hidden_tests_and_no_learner_markup(graded):
    autograded = graded["out"] / "nbgrader" / "autograded"
    texts = {p: p.read_text(encoding="utf-8") for p in autograded.rglob("*.ipynb")}
    assert len(texts) >= len(NOTEBOOKS)
    for path, text in texts.items():
        assert "HIDDEN TESTS" not in text and "assert torch.allclose" not in text, path
    md = texts[autograded / "markdown_script" / ID / f"{ID}.ipynb"]
    assert "<script" not in md and "onerror" not in md.replace("&lt;", "<").split("<img")[-1].split(">")[0]


def test_learner_code_reads_only_the_allowlisted_part_of_etc(graded):
    printed = outputs(graded, "etc_reader")
    if not HAS_BWRAP:
        pytest.skip("no bubblewrap: the host's /etc is readable (docs/grading.md)")
    assert "LEAK:etc" not in printed and "BLOCKED:etc /etc/passwd" in printed, printed[-500:]


def test_course_hints_state_is_ignored_by_git():
    found = subprocess.run(["git", "check-ignore", "-q", "source/01_tensors/.course_hints.json"], cwd=ROOT)
    assert found.returncode == 0


# --- 5: limits that hold


@pytest.mark.skipif(not (HAS_BWRAP and AS_ROOT), reason="counted per learner uid: grading as root with bubblewrap")
def test_sysv_shared_memory_is_counted_stopped_and_removed_before_the_next_submission(graded):
    r = record(graded, "aa_shm_writer")
    assert "storage limit" in r["message"], r
    assert "SHM-LEFT 0" in outputs(graded, "zz_shm_reader")


@pytest.mark.skipif(not HAS_BWRAP, reason="the storage cap is enforced by the sandbox's zygote")
def test_writing_a_gigabyte_to_disk_stops_the_submission_at_the_cap(graded):
    r = record(graded, "disk_writer")
    assert "storage limit" in r["message"] and r["status"] == "crashed", r
    assert r["score"] == 5  # the cell that wrote is skipped on the rerun; the answers still count


# --- 6: the judge refuses a value, not a notebook


def test_a_refused_value_fails_only_its_own_test_and_names_itself(graded):
    q = questions(graded, "refused_model")
    assert q["test_model"]["status"] == "failed" and "model" in q["test_model"]["message"]
    assert all(q[t]["status"] == "passed" for t in ("test_ratio", "test_answer", "test_other")), q
    assert questions(graded, "right")["test_ratio"]["status"] == "passed"  # a NumPy NaN crossed


# --- 7: feedback a learner can dress up


@pytest.mark.parametrize("student", ["named_checkerror", "named_learnergone", "named_assertion"])
def test_a_learner_exception_named_like_the_graders_is_shown_as_the_learners(graded, student):
    from autograder.parent.engine import LEARNERS_ERROR

    q = questions(graded, student)["test_answer"]
    assert q["status"] == "failed" and q["points"] == 0
    assert q["message"].startswith(LEARNERS_ERROR), q["message"]
    page = (graded["out"] / "feedback" / student / ID / f"{ID}.html").read_text(encoding="utf-8")
    assert "你的代码抛出了异常" in page


def test_control_and_bidi_characters_are_escaped_everywhere_the_message_goes(graded):
    q = questions(graded, "bidi_text")["test_answer"]
    for text in (q["message"], (graded["out"] / "questions.csv").read_text(encoding="utf-8")):
        assert not any(ch in text for ch in "\u202e\x00\u2066\u2069"), text[:300]
    assert "\\u202e" in q["message"]


# --- the same class on a cluster


@pytest.mark.slow
def test_the_same_class_on_a_local_cluster_gives_the_same_rows(graded, course, tmp_path):
    pytest.importorskip("distributed")
    out = tmp_path / "cluster"
    grade(graded["subs"], out, cluster="local:2", **_settings(course))
    local = {r["student_id"]: r for r in rows(graded["out"] / "grades.csv")}
    remote = {r["student_id"]: r for r in rows(out / "grades.csv")}
    assert local == remote
    racy = {"aa_shm_writer", "disk_writer"}  # the MB counted when the cap stopped them differs run to run
    strip = lambda path: [r for r in rows(path) if r["student_id"] not in racy]  # noqa: E731
    assert strip(out / "questions.csv") == strip(graded["out"] / "questions.csv")


# --- check: the same engine for one notebook


def test_check_words_a_learners_checkerror_and_a_refused_value_as_grade_does(course, tmp_path):
    from autograder.check import check_notebooks

    paths = []
    for name in ("named_checkerror", "refused_model"):
        paths.append(tmp_path / f"{name}.ipynb")
        nbformat.write(NOTEBOOKS[name], paths[-1])
    sandbox = "bwrap" if HAS_BWRAP else "none"
    named, refused = check_notebooks(paths, course_root=course, assignment=ID, sandbox_mode=sandbox, cell_timeout=20)
    from autograder.parent.engine import LEARNERS_ERROR

    by_id = {q.grade_id: q for q in named.questions}
    assert by_id["test_answer"].message.startswith(LEARNERS_ERROR) and not by_id["test_answer"].passed
    by_id = {q.grade_id: q for q in refused.questions}
    assert not by_id["test_model"].passed and "model" in by_id["test_model"].message
    assert by_id["test_ratio"].passed and by_id["test_answer"].passed


# --- collection: nbgrader collect never follows a student's link (deploy/hub's instructor config)


def test_the_hubs_collect_copies_regular_files_only_and_never_follows_a_link(course, tmp_path):
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory

    from autograder.exchange import SafeCollect

    inbound = tmp_path / "inbound" / "mallory+99_probe+2026-12-01 10:00:00.000000 UTC"
    inbound.mkdir(parents=True)
    (inbound / "notes.txt").write_text("mine", encoding="utf-8")
    os.symlink(course / "source" / ID / f"{ID}.ipynb", inbound / f"{ID}.ipynb")
    os.mkfifo(inbound / "pipe")
    collector = SafeCollect(coursedir=CourseDirectory(), authenticator=Authenticator())
    collector.do_copy(str(inbound), str(tmp_path / "submitted"))
    assert sorted(p.name for p in (tmp_path / "submitted").iterdir()) == ["notes.txt"]
    config = (ROOT / "deploy" / "hub" / "jupyter" / "instructor" / "nbgrader_config.py").read_text(encoding="utf-8")
    assert 'c.ExchangeFactory.collect = "autograder.exchange.SafeCollect"' in config
