"""Which submission to grade next: the assignments that take longest start first.

Graded in folder order, a class ends with its slowest notebooks (the capstone trains a model) running alone
while the other workers wait. ``LongestFirst`` learns how long each assignment takes as the class is graded:
it hands out one submission of every assignment first (in course order), then always one of the assignment
that takes longest, by the mean of its finished runs, or longer while one of its runs is still going. The
order changes when a class finishes, never what a submission scores (each run is seeded by its key).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class LongestFirst(Generic[T]):
    """Iterate over ``items``; ``kind(item)`` names its group (the assignment). Call :meth:`finished` when an
    item handed out has run to its end, and :meth:`skipped` when it turned out not to run at all (a broken or
    missing notebook): skipped items teach nothing about their group's time."""

    def __init__(self, items: list[T], kind: Callable[[T], str], clock: Callable[[], float] = time.monotonic):
        self._queues: dict[str, list[T]] = {}
        for item in items:
            self._queues.setdefault(kind(item), []).append(item)
        self._clock = clock
        self._started: dict[int, tuple[str, float]] = {}  # id(item) -> (its group, when it was handed out)
        self._durations: dict[str, list[float]] = {}

    def __iter__(self) -> Iterator[T]:
        while any(self._queues.values()):
            group = self._next_group()
            item = self._queues[group].pop(0)
            self._started[id(item)] = (group, self._clock())
            yield item

    def finished(self, item: T) -> None:
        started = self._started.pop(id(item), None)
        if started is not None:
            group, when = started
            self._durations.setdefault(group, []).append(self._clock() - when)

    def skipped(self, item: T) -> None:
        self._started.pop(id(item), None)

    def estimate(self, group: str) -> float | None:
        """Seconds one run of ``group`` takes, as far as is known; None before any of its runs started."""
        done = self._durations.get(group, [])
        now = self._clock()
        running = [now - when for of, when in self._started.values() if of == group]
        if not done and not running:
            return None
        mean = sum(done) / len(done) if done else 0.0
        return max([mean, *running])

    def _next_group(self) -> str:
        waiting = [group for group, queue in self._queues.items() if queue]
        for group in waiting:  # every assignment once first, in course order: its time is unknown
            if self.estimate(group) is None:
                return group
        return max(waiting, key=lambda group: self.estimate(group) or 0.0)  # ties: the earlier in course order
