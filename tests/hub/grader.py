"""Asking the hub's grading service (autograder.service) as a student's server does: JSON over HTTP with a
hub token; and what must never appear in its answers (the hidden test lines of the source notebook)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.hub.hub import ROOT, Hub, HubError

SERVICE_START_S = 180


@dataclass
class Reply:
    status: int
    body: Any
    text: str
    headers: dict[str, str]


def call(hub: Hub, path: str, *, token: str | None, data: Any = None, method: str | None = None) -> Reply:
    """One request to the service (``api/check``, ``api/log``...), as the student's server sends it."""
    headers = {"Authorization": f"token {token}"} if token else {}
    body = json.dumps(data).encode() if data is not None else None
    method = method or ("POST" if body is not None else "GET")
    request = urllib.request.Request(hub.grader_url + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            status, text, got = response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        status, text, got = exc.code, exc.read().decode(), dict(exc.headers)
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    return Reply(status, parsed, text, got)


def ask(hub: Hub, token: str, assignment: str, path: str | None = None, **extra: Any) -> Reply:
    return call(hub, "api/check", token=token, data={"assignment": assignment, "path": path, **extra})


def wait_until_up(hub: Hub) -> None:
    """The service answers (401 to a request without a token) once its engines have started."""
    deadline = time.monotonic() + SERVICE_START_S
    while time.monotonic() < deadline:
        try:
            if call(hub, "api/limits", token=None).status == 401:
                return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.5)
    raise HubError(f"the grading service did not answer within {SERVICE_START_S} s:\n{hub.log_tail()}")


def hidden_test_lines(assignment: str) -> list[str]:
    """Every non-trivial line between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` in source/."""
    source = json.loads((ROOT / "source" / assignment / f"{assignment}.ipynb").read_text(encoding="utf-8"))
    lines, inside = [], False
    for cell in source["cells"]:
        text = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for line in text.splitlines():
            if "BEGIN HIDDEN TESTS" in line:
                inside = True
            elif "END HIDDEN TESTS" in line:
                inside = False
            elif inside and len(line.strip()) >= 12:
                lines.append(line.strip())
    return lines


def write(home: Path, path: str, notebook: dict) -> Path:
    target = home / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(notebook), encoding="utf-8")
    return target
