"""Who may be graded now: the instructor's limits per student and assignment, and when the next request is.

Only graded requests count (a refused one costs nothing). The counts come from the request log at start,
so a restart of the service does not hand out fresh quotas.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from autograder.service.config import Limits

HOUR = timedelta(hours=1)


@dataclass
class Decision:
    """Whether a request is admitted; if not, why (one line) and when the next one is (None: never)."""

    allowed: bool
    reason: str = ""
    retry_at: datetime | None = None


class RateLimiter:
    """Counts admitted requests per (student, assignment); thread-safe."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._times: dict[tuple[str, str], list[datetime]] = {}
        self._answered: dict[tuple[str, str], datetime] = {}  # the cooldown runs from the last answer
        self._lock = threading.Lock()

    def remember(self, student: str, assignment: str, when: datetime, answered: datetime | None = None) -> None:
        """A request graded earlier (from the log): admitted ``when``, answered at ``answered``."""
        with self._lock:
            self._times.setdefault((student, assignment), []).append(when)
        self.answered(student, assignment, answered or when)

    def answered(self, student: str, assignment: str, when: datetime) -> None:
        """The verdict went out: the cooldown starts now."""
        with self._lock:
            key = (student, assignment)
            self._answered[key] = max(when, self._answered.get(key, when))

    def admit(self, student: str, assignment: str, now: datetime | None = None, *, dry_run: bool = False) -> Decision:
        """Decide, and count the request when it is admitted (so two at once cannot both slip in);
        ``dry_run`` only tells whether a request now would be admitted, and if not, when."""
        now = now or datetime.now(UTC)
        with self._lock:
            times = self._times.setdefault((student, assignment), [])
            decision = self._decide(assignment, times, self._answered.get((student, assignment)), now)
            if decision.allowed and not dry_run:
                times.append(now)
            return decision

    def forget(self, student: str, assignment: str, when: datetime) -> None:
        """An admitted request that was not graded after all (the service was busy)."""
        with self._lock:
            times = self._times.get((student, assignment), [])
            if when in times:
                times.remove(when)

    def _decide(self, assignment: str, times: list[datetime], answered: datetime | None, now: datetime) -> Decision:
        limits = self.limits
        deadline = limits.deadlines.get(assignment)
        if deadline is not None and now > deadline and not limits.after_deadline:
            return Decision(False, f"checks of {assignment} closed at its deadline, {deadline.isoformat()}")
        if limits.total and len(times) >= limits.total:
            return Decision(False, f"you have used all {limits.total} checks of {assignment}")
        if answered and limits.cooldown_s and now < answered + timedelta(seconds=limits.cooldown_s):
            retry = answered + timedelta(seconds=limits.cooldown_s)
            return Decision(False, f"wait {limits.cooldown_s:g} s between two checks of {assignment}", retry)
        recent = [t for t in times if t > now - HOUR]
        if limits.per_hour and len(recent) >= limits.per_hour:
            retry = recent[-limits.per_hour] + HOUR
            return Decision(False, f"{limits.per_hour} checks of {assignment} per hour at most", retry)
        return Decision(True)
