"""`grade --cluster`: a real local Dask cluster gives the rows a local run gives, a worker killed mid-run
costs a retry and never a row, a killed client resumes; `--gradebook` puts the grades in a real
PostgreSQL server, where nbgrader's own export reads them back."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest

from autograder.grade import grade
from tests import postgres
from tests.probe import ID, RIGHT_ANSWER, STUB, STUB_OTHER, WRONG, grade_cli, make_course, submission

pytest.importorskip("distributed")
pytestmark = pytest.mark.slow

SLOW = "import time\ntime.sleep(1.5)\n"


def _class(root: Path, *, slow: bool = False) -> Path:
    """Six students: right, wrong, blank, a crash, and two more right or wrong (slow ones sleep first)."""
    answers = {
        "s0_right": (RIGHT_ANSWER, None),
        "s1_wrong": (WRONG, None),
        "s2_blank": (STUB, STUB_OTHER),
        "s3_crash": ("import os\nos._exit(3)\n", None),
        "s4_right": (RIGHT_ANSWER, None),
        "s5_wrong": (WRONG, None),
    }
    for student, (answer, other) in answers.items():
        folder = root / student / ID
        folder.mkdir(parents=True)
        nb = submission(answer, other) if other else submission(answer)
        if slow:
            nb.cells.insert(1, nbformat.v4.new_code_cell(SLOW))
        nbformat.write(nb, folder / f"{ID}.ipynb")
    return root


def _settings(course: Path) -> dict:
    return dict(course_root=course, cell_timeout=30, notebook_timeout=120, memory="3G", progress=False)


def _text(out: Path) -> tuple[str, str]:
    return tuple((out / name).read_text(encoding="utf-8") for name in ("grades.csv", "questions.csv"))


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    return make_course(tmp_path_factory.mktemp("course"))


@pytest.fixture(scope="module")
def local_out(course, tmp_path_factory) -> Path:
    subs = _class(tmp_path_factory.mktemp("class"))
    out = tmp_path_factory.mktemp("local")
    grade(subs, out, jobs=2, **_settings(course))
    return out


@pytest.fixture(scope="module")
def local_rows(local_out) -> tuple[str, str]:
    return _text(local_out)


def assert_same_report(out: Path, local_out: Path) -> None:
    """The class report read from ``out`` is the one a local run gives, and its links reach feedback pages."""
    from autograder.results import report

    built, local = report.build(out), report.build(local_out)
    assert {**built, "out": ""} == {**local, "out": ""}
    assert built["class"]["by_status"] == {ID: {"ok": 5, "crashed": 1}}
    with open(out / "questions.csv", encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["mistake"]]  # each failed question's mistake id
    want: dict[tuple[str, str], list[str]] = {}
    for r in rows:
        want.setdefault((r["grade_id"], r["mistake"]), []).append(r["student_id"])
    found = {(q["grade_id"], m["mistake"]): m["students"] for q in built["questions"] for m in q["mistakes"]}
    assert found == {k: sorted(v) for k, v in want.items()}
    assert any("s1_wrong" in who for (gid, _), who in found.items() if gid == "test_answer")
    page = report.write(out).read_text(encoding="utf-8")
    links = set(re.findall(r'href="(feedback/[^"]+)"', page))
    assert f"feedback/s1_wrong/{ID}/{ID}.html" in links
    assert [link for link in links if not (out / link).is_file()] == []


def test_a_local_cluster_gives_the_same_rows_and_class_report_as_a_local_run(course, local_out, local_rows, tmp_path):
    subs = _class(tmp_path / "class")
    grade(subs, tmp_path / "out", cluster="local:2", **_settings(course))
    assert _text(tmp_path / "out") == local_rows
    assert "s3_crash,99_probe,1,3,crashed" in local_rows[0]
    assert_same_report(tmp_path / "out", local_out)


def test_a_worker_killed_mid_run_costs_a_retry_and_never_a_row(course, local_rows, tmp_path):
    import dask
    from distributed import Client, LocalCluster

    subs = _class(tmp_path / "class", slow=True)
    out = tmp_path / "out"
    with dask.config.set({"distributed.scheduler.allowed-failures": 2}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None)
    client = Client(cluster)
    try:
        failure: list[BaseException] = []

        def run() -> None:
            try:
                grade(subs, out, cluster=cluster.scheduler_address, **_settings(course))
            except BaseException as exc:  # noqa: BLE001 - reported by the test below
                failure.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        journal = out / ".journal.jsonl"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and (not journal.exists() or not journal.read_text().strip()):
            time.sleep(0.1)
        victim = next(iter(client.run(os.getpid).values()))
        os.kill(victim, signal.SIGKILL)  # mid-run: the other submissions on it are still being graded
        worker.join(timeout=300)
        assert not failure, failure
    finally:
        client.close()
        cluster.close()
    keys = [json.loads(line)["key"] for line in (out / ".journal.jsonl").read_text().splitlines()]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6
    assert _text(out) == local_rows


def test_resume_after_the_client_is_killed_finishes_with_exactly_the_rows_of_a_clean_run(course, local_rows, tmp_path):
    subs = _class(tmp_path / "class", slow=True)
    out = tmp_path / "out"
    base = [str(subs), "--out", str(out), "--course", str(course), "--cluster", "local:2", "--timeout", "30"]
    run = grade_cli(*base)
    journal = out / ".journal.jsonl"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 2):
        time.sleep(0.1)
    os.killpg(run.pid, signal.SIGKILL)  # the client and its local cluster
    run.wait()
    assert 2 <= journal.read_text().count("\n") < 6
    resumed = grade_cli(*base, "--resume")
    assert resumed.wait(timeout=300) == 0, resumed.stderr.read()
    keys = [json.loads(line)["key"] for line in journal.read_text().splitlines()]
    assert sorted(keys) == sorted(set(keys)) and len(keys) == 6
    assert _text(out) == local_rows


def test_a_postgresql_gradebook_holds_the_grades_nbgraders_export_reads_them_and_the_report_is_the_same(
    course, local_out, local_rows, tmp_path
):
    if postgres.binaries() is None:
        pytest.skip("PostgreSQL is not installed (.ci/run installs Debian's postgresql)")
    subs = _class(tmp_path / "class")
    out = tmp_path / "out"
    with postgres.server() as url:
        grade(subs, out, jobs=2, gradebook_url=url, **_settings(course))
        assert _text(out) == local_rows
        assert not (out / "nbgrader" / "gradebook.db").exists(), "the gradebook must be the PostgreSQL one"
        assert_same_report(out, local_out)
        export = tmp_path / "export.csv"
        env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]))
        done = subprocess.run(
            [sys.executable, "-m", "nbgrader", "export", f"--to={export}", f"--CourseDirectory.db_url={url}"],
            cwd=out / "nbgrader",
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
    with open(export, encoding="utf-8", newline="") as fh:
        exported = {r["student_id"]: float(r["raw_score"]) for r in csv.DictReader(fh) if r["assignment"] == ID}
    with open(out / "grades.csv", encoding="utf-8", newline="") as fh:
        ours = {r["student_id"]: float(r["score"]) for r in csv.DictReader(fh)}
    assert exported == ours and ours["s0_right"] == 3
