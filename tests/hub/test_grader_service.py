"""The grading service on the hub (autograder.service), started by the hub with the tests' limits
(conftest.GRADER): students ask with their own hub tokens for the hidden-test verdict of their saved notebook.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest

from autograder.check import check_notebooks
from autograder.service.client import from_json
from tests.hub import grader
from tests.hub.answers import ASSIGNMENT, ROOT, answered, release_notebook, right, solutions, wrong
from tests.hub.conftest import GRADER, INSTRUCTOR
from tests.hub.hub import Hub

pytestmark = pytest.mark.hub

COOLDOWN_S = float(GRADER["COURSE_GRADER_COOLDOWN_S"])
PER_HOUR = int(GRADER["COURSE_GRADER_PER_HOUR"])
NOTEBOOK = f"{ASSIGNMENT}/{ASSIGNMENT}.ipynb"
MINE = f"hub-checks/{NOTEBOOK}"  # not where nbgrader fetches: test_round_trip.py works in the same homes


@pytest.fixture(scope="module")
def service(hub: Hub) -> Hub:
    grader.wait_until_up(hub)
    return hub


def _rows(questions) -> list[tuple]:
    return [(q.grade_id, q.points, q.max_points, q.passed, q.message) for q in questions]


def _no_hidden_line(text: str) -> None:
    leaked = [line for line in grader.hidden_test_lines(ASSIGNMENT) if line in text]
    assert not leaked, leaked


def test_right_and_wrong_notebooks_get_the_scores_and_messages_check_gives_with_source(service: Hub, tmp_path):
    token = service.user_token("alice")
    home = service.home("alice")
    paths = {
        "right": grader.write(home, f"svc/right/{NOTEBOOK}", right(release_notebook())),
        "wrong": grader.write(home, f"svc/wrong/{NOTEBOOK}", wrong(release_notebook())),
    }
    with ThreadPoolExecutor(1) as pool:  # the local check's engine starts while the service grades
        checked = pool.submit(check_notebooks, list(paths.values()), course_root=ROOT, assignment=ASSIGNMENT, warm=True)
        replies = {}
        for name, path in paths.items():
            replies[name] = grader.ask(service, token, ASSIGNMENT, str(path.relative_to(home)))
            if replies[name].status == 200:
                next_at = datetime.fromisoformat(replies[name].body["next_at"])  # the cooldown
                time.sleep(max(0.0, (next_at - datetime.now(UTC)).total_seconds()) + 0.1)
        local = dict(zip(paths, checked.result()))
    assert local["right"].score == local["right"].max_score > local["wrong"].score
    for name, reply in replies.items():
        assert reply.status == 200, reply.text
        _no_hidden_line(reply.text)
        got = from_json(reply.body["result"])
        assert got.hidden_tests and got.status == local[name].status == "ok"
        assert _rows(got.questions) == _rows(local[name].questions)


def test_over_a_limit_the_answer_says_why_and_when_the_next_check_is_allowed(service: Hub):
    token = service.user_token("carol")
    grader.write(service.home("carol"), MINE, release_notebook())
    first = grader.ask(service, token, ASSIGNMENT, MINE)
    assert first.status == 200, first.text
    again = grader.ask(service, token, ASSIGNMENT, MINE)
    assert again.status == 429, again.text
    assert f"wait {COOLDOWN_S:g} s between two checks" in again.body["error"]
    retry_at = datetime.fromisoformat(again.body["retry_at"])
    assert retry_at == datetime.fromisoformat(first.body["next_at"])
    assert 1 <= int(again.headers["Retry-After"]) <= COOLDOWN_S + 1
    for _ in range(PER_HOUR - 1):
        time.sleep(max(0.0, (retry_at - datetime.now(UTC)).total_seconds()) + 0.2)
        reply = grader.ask(service, token, ASSIGNMENT, MINE)
        assert reply.status == 200, reply.text
        retry_at = datetime.fromisoformat(reply.body["next_at"])
    time.sleep(COOLDOWN_S + 0.2)
    over = grader.ask(service, token, ASSIGNMENT, MINE)
    assert over.status == 429 and f"{PER_HOUR} checks of {ASSIGNMENT} per hour at most" in over.body["error"]
    hour_later = datetime.fromisoformat(over.body["retry_at"]) - datetime.now(UTC)
    assert 3400 < hour_later.total_seconds() <= 3600

    # The instructor reads every request; a student only their own.
    log = grader.call(service, "api/log?student=carol", token=service.user_token(INSTRUCTOR)).body["entries"]
    assert [e["outcome"] for e in log] == ["graded", "refused"] + ["graded"] * (PER_HOUR - 1) + ["refused"]
    assert all(e["score"] == 0 and e["max_score"] > 0 for e in log if e["outcome"] == "graded")
    assert grader.call(service, "api/log?student=alice", token=token).status == 403
    assert {e["student"] for e in grader.call(service, "api/log", token=token).body["entries"]} == {"carol"}


def test_without_a_valid_token_or_the_access_scope_the_service_answers_401_or_403(service: Hub):
    assert grader.call(service, "api/check", token=None, data={"assignment": ASSIGNMENT}).status == 401
    assert grader.call(service, "api/check", token="not-a-token", data={"assignment": ASSIGNMENT}).status == 401
    admin = grader.call(service, "api/check", token=service.token, data={"assignment": ASSIGNMENT})
    assert admin.status == 403, admin.text  # a hub service without access:services!service=grader
    assert grader.call(service, "api/log", token=None).status == 401


def test_a_student_can_check_only_their_own_notebook(service: Hub):
    token = service.user_token("bob")
    alice, bob = service.home("alice"), service.home("bob")
    grader.write(alice, MINE, right(release_notebook()))
    bob.mkdir(parents=True, exist_ok=True)
    (bob / "alias.ipynb").unlink(missing_ok=True)
    (bob / "alias.ipynb").symlink_to(alice / MINE)
    (bob / "alices").unlink(missing_ok=True)
    (bob / "alices").symlink_to(alice)
    (bob / "pipe.ipynb").unlink(missing_ok=True)
    os.mkfifo(bob / "pipe.ipynb")
    (bob / "huge.ipynb").write_bytes(b" " * (int(GRADER["COURSE_GRADER_MAX_BYTES"]) + 1))
    refused = {
        "another user": (403, grader.ask(service, token, ASSIGNMENT, MINE, user="alice")),
        "../": (400, grader.ask(service, token, ASSIGNMENT, f"../alice/{MINE}")),
        "absolute": (400, grader.ask(service, token, ASSIGNMENT, str(alice / MINE))),
        "symlinked file": (400, grader.ask(service, token, ASSIGNMENT, "alias.ipynb")),
        "symlinked folder": (400, grader.ask(service, token, ASSIGNMENT, f"alices/{MINE}")),
        "fifo": (400, grader.ask(service, token, ASSIGNMENT, "pipe.ipynb")),
        "too large": (413, grader.ask(service, token, ASSIGNMENT, "huge.ipynb")),
        "unknown assignment": (404, grader.ask(service, token, "99_nothing", MINE)),
    }
    for case, (status, reply) in refused.items():
        assert reply.status == status, (case, reply.text)
        assert "result" not in reply.body and reply.body["error"], (case, reply.text)
    assert "symbolic links are not followed" in refused["symlinked folder"][1].body["error"]
    assert "2000000 bytes" in refused["too large"][1].body["error"]


def test_one_students_infinite_loop_does_not_delay_anothers_answer(service: Hub):
    looping = answered(release_notebook(), {**solutions(), "make_inputs": "while True:\n    pass\n"})
    grader.write(service.home("dana"), MINE, looping)
    grader.write(service.home("bob"), MINE, right(release_notebook()))
    dana_token, bob_token = service.user_token("dana"), service.user_token("bob")
    dana: dict = {}

    def dana_asks() -> None:
        dana["reply"] = grader.ask(service, dana_token, ASSIGNMENT, MINE)
        dana["done"] = time.monotonic()

    thread = threading.Thread(target=dana_asks)
    thread.start()
    time.sleep(1.0)  # dana's notebook is in its loop
    started = time.monotonic()
    bob = grader.ask(service, bob_token, ASSIGNMENT, MINE)
    bob_done = time.monotonic()
    thread.join(timeout=300)
    assert bob.status == 200 and bob.body["result"]["score"] == bob.body["result"]["max_score"], bob.text
    # Waiting behind dana would put bob after her whole reply (her loop's cell timeout and the rest of her
    # notebook); a bound in seconds would only measure how busy the machine is.
    assert dana["done"] > bob_done, (dana["done"] - started, bob_done - started)
    result = dana["reply"].body["result"]
    assert dana["reply"].status == 200 and result["status"] == "timeout", dana["reply"].text
    make_inputs = next(q for q in result["questions"] if q["grade_id"] == "test_make_inputs")
    assert make_inputs["points"] == 0 and not make_inputs["passed"]
    assert 0 < result["score"] < result["max_score"]  # the rest of dana's answers still count


def test_hidden_test_lines_are_found_in_the_source_so_the_leak_checks_can_fail():
    lines = grader.hidden_test_lines(ASSIGNMENT)
    assert len(lines) >= 5
    source = (Path(ROOT) / "source" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_text(encoding="utf-8")
    assert all(line.replace('"', '\\"') in source or line in source for line in lines[:5])
