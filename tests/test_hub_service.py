"""The grading service's parts without a hub (autograder.service): reading a student's file safely, the
instructor's limits and their retry times, the settings, the bounded queue and the student's rendering."""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from autograder.errors import AutograderError
from autograder.parent.pool import RunLimits
from autograder.service import config
from autograder.service.client import HubAnswer, from_json, guess_assignment, hint_lines, render
from autograder.service.files import Refused, read_in_home
from autograder.service.grading import Busy, Grader, Submission
from autograder.service.limits import RateLimiter
from autograder.service.requests import Entry, RequestLog

T0 = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def homes(tmp_path) -> Path:
    for user in ("ann", "ben"):
        (tmp_path / user / "01_tensors").mkdir(parents=True)
        (tmp_path / user / "01_tensors" / "01_tensors.ipynb").write_text(f'{{"owner": "{user}"}}')
    return tmp_path


def test_a_notebook_in_the_home_is_read_up_to_the_size_limit(homes):
    assert read_in_home(str(homes / "ann"), "01_tensors/01_tensors.ipynb", 100) == b'{"owner": "ann"}'
    assert read_in_home(str(homes / "ann"), "./01_tensors//01_tensors.ipynb", 100) == b'{"owner": "ann"}'
    with pytest.raises(Refused) as big:
        read_in_home(str(homes / "ann"), "01_tensors/01_tensors.ipynb", 5)
    assert big.value.status == 413 and "limit is 5 bytes" in big.value.message


@pytest.mark.parametrize(
    "path",
    [
        "../ben/01_tensors/01_tensors.ipynb",
        "01_tensors/../../ben/01_tensors/01_tensors.ipynb",
        "/etc/passwd.ipynb",
        "",
        "a\0.ipynb",
    ],
)
def test_paths_that_leave_the_home_are_refused_before_anything_is_opened(homes, path):
    with pytest.raises(Refused) as refused:
        read_in_home(str(homes / "ann"), path, 100)
    assert refused.value.status == 400


def test_links_special_files_and_non_notebooks_are_refused(homes):
    ann = homes / "ann"
    (ann / "link.ipynb").symlink_to(homes / "ben" / "01_tensors" / "01_tensors.ipynb")
    (ann / "bens").symlink_to(homes / "ben")
    (ann / "inside.ipynb").symlink_to(ann / "01_tensors" / "01_tensors.ipynb")  # even a link inside the home
    os.mkfifo(ann / "fifo.ipynb")
    (ann / "folder.ipynb").mkdir()
    for path in ("link.ipynb", "bens/01_tensors/01_tensors.ipynb", "inside.ipynb"):
        with pytest.raises(Refused, match="symbolic links are not followed"):
            read_in_home(str(ann), path, 100)
    for path in ("fifo.ipynb", "folder.ipynb", "01_tensors/notes.txt"):
        with pytest.raises(Refused) as refused:
            read_in_home(str(ann), path, 100)
        assert refused.value.status == 400, path
    with pytest.raises(Refused) as missing:
        read_in_home(str(ann), "02_shapes/02_shapes.ipynb", 100)
    assert missing.value.status == 404 and "save the notebook first" in missing.value.message


def test_cooldown_counts_from_the_last_answer_and_says_when_the_next_check_is_allowed():
    limiter = RateLimiter(config.Limits(per_hour=0, cooldown_s=60))
    assert limiter.admit("ann", "01", T0).allowed
    limiter.answered("ann", "01", T0 + timedelta(seconds=10))
    early = limiter.admit("ann", "01", T0 + timedelta(seconds=30))
    assert not early.allowed and early.retry_at == T0 + timedelta(seconds=70) and "wait 60 s" in early.reason
    assert limiter.admit("ann", "02", T0 + timedelta(seconds=30)).allowed  # per assignment
    assert limiter.admit("ben", "01", T0 + timedelta(seconds=30)).allowed  # per student
    assert limiter.admit("ann", "01", T0 + timedelta(seconds=70)).allowed


def test_the_hourly_limit_reopens_when_the_oldest_request_in_the_hour_is_an_hour_old():
    limiter = RateLimiter(config.Limits(per_hour=2, cooldown_s=0))
    assert limiter.admit("ann", "01", T0).allowed
    assert limiter.admit("ann", "01", T0 + timedelta(minutes=10)).allowed
    over = limiter.admit("ann", "01", T0 + timedelta(minutes=20))
    assert not over.allowed and over.retry_at == T0 + timedelta(hours=1) and "2 checks of 01 per hour" in over.reason
    assert limiter.admit("ann", "01", T0 + timedelta(hours=1, seconds=1)).allowed
    assert not limiter.admit("ann", "01", T0 + timedelta(hours=1, seconds=2), dry_run=True).allowed


def test_a_total_and_a_closed_deadline_refuse_for_good():
    total = RateLimiter(config.Limits(per_hour=0, total=1, cooldown_s=0))
    assert total.admit("ann", "01", T0).allowed
    used = total.admit("ann", "01", T0 + timedelta(days=3))
    assert not used.allowed and used.retry_at is None and "all 1 checks" in used.reason
    closed = RateLimiter(config.Limits(deadlines={"01": T0}, after_deadline=False))
    assert closed.admit("ann", "01", T0 - timedelta(seconds=1)).allowed
    late = closed.admit("ann", "01", T0 + timedelta(seconds=1))
    assert not late.allowed and late.retry_at is None and "closed at its deadline" in late.reason
    open_after = RateLimiter(config.Limits(deadlines={"01": T0}, after_deadline=True, cooldown_s=0))
    assert open_after.admit("ann", "01", T0 + timedelta(days=1)).allowed


def test_a_request_the_service_could_not_take_does_not_count():
    limiter = RateLimiter(config.Limits(per_hour=1, cooldown_s=0))
    assert limiter.admit("ann", "01", T0).allowed
    limiter.forget("ann", "01", T0)
    assert limiter.admit("ann", "01", T0 + timedelta(seconds=1)).allowed


def test_settings_come_from_the_environment_and_a_bad_one_is_named(tmp_path):
    env = {
        "COURSE_GRADER_COURSE": str(tmp_path),
        "COURSE_GRADER_HOMES": "/home/{username}",
        "COURSE_GRADER_PER_HOUR": "4",
        "COURSE_GRADER_DEADLINES": "01_tensors=2026-10-01T23:59:00, 02_shapes=2026-10-08T23:59:00+08:00",
        "COURSE_GRADER_AFTER_DEADLINE": "closed",
    }
    cfg = config.from_env(env)
    assert cfg.limits.per_hour == 4 and not cfg.limits.after_deadline and cfg.home("ann") == "/home/ann"
    assert cfg.limits.deadlines["01_tensors"] == datetime(2026, 10, 1, 23, 59, tzinfo=UTC)
    assert cfg.limits.deadlines["02_shapes"].utcoffset() == timedelta(hours=8)
    for key, value, words in [
        ("COURSE_GRADER_PER_HOUR", "many", "COURSE_GRADER_PER_HOUR must be a number"),
        ("COURSE_GRADER_COOLDOWN_S", "-1", "must not be negative"),
        ("COURSE_GRADER_DEADLINES", "01_tensors", "is not ASSIGNMENT=ISO-DATE-TIME"),
        ("COURSE_GRADER_AFTER_DEADLINE", "maybe", "'open' or 'closed'"),
        ("COURSE_GRADER_HOMES", "/home", "{username}"),
    ]:
        with pytest.raises(AutograderError, match=words):
            config.from_env({**env, key: value})


def test_the_request_log_is_private_json_lines_filtered_by_student_and_assignment(tmp_path):
    log = RequestLog(tmp_path / "state" / "requests.jsonl")
    log.append(Entry("ann", "01", T0.isoformat(), "graded", 3.0, 14.0, "ok", 1.5))
    log.append(Entry("ben", "01", T0.isoformat(), "refused", reason="wait"))
    assert (tmp_path / "state" / "requests.jsonl").stat().st_mode & 0o077 == 0
    assert [e["student"] for e in log.read()] == ["ann", "ben"]
    assert log.read(student="ann")[0]["score"] == 3.0
    assert log.read(assignment="02") == []


def test_the_queue_is_bounded_and_a_hanging_submission_holds_only_its_own_worker(tmp_path):
    release = threading.Event()

    def grade(pool, course, submission, scratch):
        if submission.student == "hangs":
            release.wait(10)
        return {"student": submission.student}

    grader = Grader(
        tmp_path,
        workers=2,
        queue_size=1,
        limits=RunLimits(1, 1, 1),
        hidden=[],
        scratch=tmp_path / "scratch",
        open_pool=lambda: object(),
        grade=grade,
    )
    grader.wait_ready(10)
    hanging = grader.submit(Submission("hangs", "01", "x.ipynb", b"{}"))
    started = time.monotonic()
    assert grader.submit(Submission("ann", "01", "x.ipynb", b"{}")).result(5) == {"student": "ann"}
    assert time.monotonic() - started < 2 and not hanging.done()
    second_hang = grader.submit(Submission("hangs", "01", "x.ipynb", b"{}"))  # the other worker
    waiting = grader.submit(Submission("ben", "01", "x.ipynb", b"{}"))  # the one place in the queue
    with pytest.raises(Busy):
        grader.submit(Submission("cai", "01", "x.ipynb", b"{}"))
    release.set()
    assert waiting.result(5) == {"student": "ben"} and hanging.result(5) and second_hang.result(5)
    assert grader.submit(Submission("cai", "01", "x.ipynb", b"{}")).result(5) == {"student": "cai"}


def test_the_students_view_is_checks_table_with_the_hint_the_visible_test_is_at(tmp_path):
    (tmp_path / "hints.toml").write_text('[make_inputs]\nhints = ["first", "second"]\n', encoding="utf-8")
    (tmp_path / ".course_hints.json").write_text('{"make_inputs": 2}', encoding="utf-8")
    data = {
        "assignment": "01_tensors",
        "hidden_tests": True,
        "status": "ok",
        "note": "",
        "questions": [
            {"grade_id": "test_make_inputs", "points": 0.0, "max_points": 2.0, "passed": False, "message": "dtype"},
            {"grade_id": "test_make_labels", "points": 2.0, "max_points": 2.0, "passed": True, "message": ""},
        ],
    }
    result = from_json(data)
    assert hint_lines(result, tmp_path) == ["test_make_inputs: 提示 (hint) 2 / 2：second"]
    text = render(HubAnswer(result, "2026-10-01T12:01:00+00:00", "wait 60 s"), tmp_path)
    assert "score 2 / 4" in text and "second" in text and "next check allowed at 2026-10-01T12:01:00" in text
    assert guess_assignment(Path("/home/ann/01_tensors/copy.ipynb")) == "01_tensors"
    assert guess_assignment(Path("/home/ann/work/02_shapes.ipynb")) == "02_shapes"
