"""The request log: one JSON line per request (student, assignment, time, score or why it was refused).

The instructor reads it through the service (``GET api/log``) or as the file ``STATE/requests.jsonl``;
it is also the data for a class report (attempts, time to pass).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass
class Entry:
    student: str
    assignment: str
    time: str  # ISO 8601, UTC
    outcome: str  # graded, refused, busy, error
    score: float | None = None
    max_score: float | None = None
    status: str = ""  # the engine's: ok, timeout, crashed
    seconds: float | None = None
    reason: str = ""


class RequestLog:
    """Append-only JSON lines in a private file; thread-safe."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = threading.Lock()

    def append(self, entry: Entry) -> None:
        line = json.dumps(asdict(entry), ensure_ascii=False) + "\n"
        with self._lock:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, line.encode("utf-8"))
            finally:
                os.close(fd)

    def read(self, *, student: str | None = None, assignment: str | None = None) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        entries = []
        with self._lock:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if (student is None or entry.get("student") == student) and (
                assignment is None or entry.get("assignment") == assignment
            ):
                entries.append(entry)
        return entries
