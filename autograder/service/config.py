"""The service's settings, all from environment variables that the hub's configuration sets (with defaults).

COURSE_GRADER_COURSE          the instructor's course folder (source/ with the hidden tests; only the
                              service needs to read it)
COURSE_GRADER_HOMES           where a user's home is: a template with {username} (STATE/home/{username})
COURSE_GRADER_STATE           a private folder for the request log (requests.jsonl)
COURSE_GRADER_INSTRUCTORS     comma-separated hub users who may read the request log
COURSE_GRADER_PER_HOUR        graded requests per student per assignment in any hour (default 10)
COURSE_GRADER_TOTAL           graded requests per student per assignment in all (default 0: no limit)
COURSE_GRADER_COOLDOWN_S      seconds between two graded requests of a student for one assignment (60)
COURSE_GRADER_DEADLINES       "01_tensors=2026-10-01T23:59:00+00:00,..." (UTC if no offset)
COURSE_GRADER_AFTER_DEADLINE  "open" (default) or "closed": whether checks go on after an assignment's deadline
COURSE_GRADER_MAX_BYTES       largest notebook read (default 5000000)
COURSE_GRADER_WORKERS         submissions graded at once (default 2)
COURSE_GRADER_QUEUE           requests that may wait for a worker (default 20); more are refused (503)
COURSE_GRADER_CELL_TIMEOUT    seconds per cell (60); COURSE_GRADER_NOTEBOOK_TIMEOUT per notebook (300)
COURSE_GRADER_MEMORY          bytes a submission may allocate (default 4 GiB)
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from autograder.errors import AutograderError


@dataclass
class Limits:
    """What the instructor allows each student, per assignment."""

    per_hour: int = 10
    total: int = 0  # 0: no total limit
    cooldown_s: float = 60.0
    deadlines: dict[str, datetime] = field(default_factory=dict)
    after_deadline: bool = True
    max_bytes: int = 5_000_000


@dataclass
class ServiceConfig:
    course: Path
    homes: str
    state: Path
    instructors: frozenset[str]
    limits: Limits
    workers: int = 2
    queue: int = 20
    cell_timeout: float = 60.0
    notebook_timeout: float = 300.0
    memory: int = 4 * 2**30

    def home(self, username: str) -> str:
        return self.homes.format(username=username)


def parse_deadlines(text: str) -> dict[str, datetime]:
    """``"01_tensors=2026-10-01T23:59:00,02_shapes=..."`` -> assignment -> aware datetime (UTC by default)."""
    deadlines = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, when = item.partition("=")
        try:
            moment = datetime.fromisoformat(when.strip())
        except ValueError:
            moment = None
        if not sep or moment is None:
            raise AutograderError(f"COURSE_GRADER_DEADLINES: {item!r} is not ASSIGNMENT=ISO-DATE-TIME")
        deadlines[name.strip()] = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return deadlines


def _number(env: dict[str, str], name: str, default: float, kind=float):
    value = env.get(name, "")
    if value == "":
        return kind(default)
    try:
        number = kind(value)
    except ValueError:
        raise AutograderError(f"{name} must be a number, not {value!r}") from None
    if number < 0:
        raise AutograderError(f"{name} must not be negative, not {value!r}")
    return number


def from_env(env: dict[str, str] | None = None) -> ServiceConfig:
    """The settings in ``env`` (default: this process's environment); AutograderError names a bad one."""
    env = dict(os.environ if env is None else env)
    if not env.get("COURSE_GRADER_COURSE"):
        raise AutograderError("COURSE_GRADER_COURSE is not set: the instructor's course folder (with source/)")
    if "{username}" not in env.get("COURSE_GRADER_HOMES", ""):
        raise AutograderError("COURSE_GRADER_HOMES must be a path template with {username}, like /home/{username}")
    after = env.get("COURSE_GRADER_AFTER_DEADLINE", "open")
    if after not in ("open", "closed"):
        raise AutograderError(f"COURSE_GRADER_AFTER_DEADLINE must be 'open' or 'closed', not {after!r}")
    limits = Limits(
        per_hour=_number(env, "COURSE_GRADER_PER_HOUR", 10, int),
        total=_number(env, "COURSE_GRADER_TOTAL", 0, int),
        cooldown_s=_number(env, "COURSE_GRADER_COOLDOWN_S", 60),
        deadlines=parse_deadlines(env.get("COURSE_GRADER_DEADLINES", "")),
        after_deadline=after == "open",
        max_bytes=_number(env, "COURSE_GRADER_MAX_BYTES", 5_000_000, int),
    )
    state = Path(env.get("COURSE_GRADER_STATE") or Path.home() / ".local" / "state" / "pytorch-course-grader")
    return ServiceConfig(
        course=Path(env["COURSE_GRADER_COURSE"]).resolve(),
        homes=env["COURSE_GRADER_HOMES"],
        state=state,
        instructors=frozenset(n.strip() for n in env.get("COURSE_GRADER_INSTRUCTORS", "").split(",") if n.strip()),
        limits=limits,
        workers=max(1, _number(env, "COURSE_GRADER_WORKERS", 2, int)),
        queue=_number(env, "COURSE_GRADER_QUEUE", 20, int),
        cell_timeout=_number(env, "COURSE_GRADER_CELL_TIMEOUT", 60),
        notebook_timeout=_number(env, "COURSE_GRADER_NOTEBOOK_TIMEOUT", 300),
        memory=_number(env, "COURSE_GRADER_MEMORY", 4 * 2**30, int),
    )
