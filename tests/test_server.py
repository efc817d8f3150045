"""The warm engine behind `check`: started by the first check, reused by the next, replaced when the code
or settings it was started with differ, stopped on request; the verdicts are the ones a cold engine gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import nbformat
import pytest

from autograder.parent import server
from tests import notebooks as nbs

pytestmark = pytest.mark.slow


def _check(path, env) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "check", str(path), "--json", "--course", str(nbs.ROOT)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def warm_env(tmp_path, monkeypatch):
    env = dict(os.environ, AUTOGRADER_NO_SERVER="0", AUTOGRADER_RUNTIME_DIR=str(tmp_path / "run"))
    monkeypatch.setenv("AUTOGRADER_RUNTIME_DIR", env["AUTOGRADER_RUNTIME_DIR"])
    yield env
    server.stop()


def test_the_warm_engine_is_started_once_reused_and_gives_the_cold_verdict_and_errors(tmp_path, warm_env):
    honest = tmp_path / "01_tensors.ipynb"
    nbformat.write(nbs.honest_submission("01_tensors"), honest)
    first = _check(honest, warm_env)
    socket_path = tmp_path / "run" / "engine.sock"
    assert socket_path.exists() and oct(socket_path.stat().st_mode & 0o777) == "0o600"
    second = _check(nbs.release_path("01_tensors"), warm_env)
    cold = _check(nbs.release_path("01_tensors"), dict(warm_env, AUTOGRADER_NO_SERVER="1"))
    assert first["score"] == first["max_score"] == nbs.max_score("01_tensors")
    assert second == cold and second["score"] == 0
    broken = tmp_path / "broken" / "01_tensors.ipynb"  # the server parses it: the cold check's one line
    broken.parent.mkdir()
    broken.write_text('{"cells": "nope", "metadata": {}, "nbformat": 4, "nbformat_minor": 5}', encoding="utf-8")
    refused = subprocess.run(
        [sys.executable, "-m", "autograder", "check", str(broken), "--course", str(nbs.ROOT)],
        env=warm_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = refused.stderr.strip().splitlines()
    assert refused.returncode == 2 and len(lines) == 1 and "not a valid notebook" in lines[0], refused.stderr
    log = (tmp_path / "run" / "engine.log").read_bytes()
    assert log.count(b"Traceback") == 0


def test_a_changed_setting_replaces_the_engine_and_stop_ends_it(tmp_path, warm_env):
    honest = tmp_path / "02_shapes.ipynb"
    nbformat.write(nbs.honest_submission("02_shapes"), honest)
    _check(honest, warm_env)
    other = dict(warm_env, COURSE_DATA_DIR=str(tmp_path))  # another data folder: another fingerprint
    assert _check(honest, other)["score"] == nbs.max_score("02_shapes")
    assert server.stop() and not (tmp_path / "run" / "engine.sock").exists()
