"""autograder.parent.order: which submission the grader hands out next (a fake clock, no engine)."""

from __future__ import annotations

from autograder.parent.order import LongestFirst


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def names(items: list[tuple[str, str]]) -> list[str]:
    return [f"{student}/{assignment}" for student, assignment in items]


def test_every_assignment_is_handed_out_once_before_any_is_repeated():
    items = [(s, a) for s in ("s0", "s1") for a in ("01", "02", "10")]
    order = iter(LongestFirst(items, kind=lambda item: item[1], clock=Clock()))
    assert names([next(order) for _ in range(3)]) == ["s0/01", "s0/02", "s0/10"]


def test_the_slowest_assignment_goes_first_once_its_runs_are_timed():
    clock = Clock()
    items = [(s, a) for s in ("s0", "s1", "s2") for a in ("01", "10")]
    order = LongestFirst(items, kind=lambda item: item[1], clock=clock)
    it = iter(order)
    first, capstone = next(it), next(it)
    clock.now = 1.0
    order.finished(first)  # 01 took 1 s
    clock.now = 12.0
    order.finished(capstone)  # 10 took 12 s
    assert names(list(it)) == ["s1/10", "s2/10", "s1/01", "s2/01"]


def test_a_run_still_going_counts_as_at_least_as_long_as_it_has_taken():
    clock = Clock()
    items = [(s, a) for s in ("s0", "s1") for a in ("01", "10")]
    order = LongestFirst(items, kind=lambda item: item[1], clock=clock)
    it = iter(order)
    first, _capstone = next(it), next(it)
    clock.now = 1.0
    order.finished(first)
    clock.now = 3.0  # the capstone has run 2 s and is not done: it already takes longer than 01
    assert names([next(it)]) == ["s1/10"]


def test_a_submission_that_never_ran_teaches_nothing_about_its_assignment():
    clock = Clock()
    items = [(s, a) for s in ("s0", "s1", "s2") for a in ("01", "10")]
    order = LongestFirst(items, kind=lambda item: item[1], clock=clock)
    it = iter(order)
    first, broken = next(it), next(it)
    order.skipped(broken)  # an unreadable capstone notebook: no run, no time
    clock.now = 5.0
    order.finished(first)
    assert names([next(it)]) == ["s1/10"]  # 10's time is still unknown, so one of its runs goes next


def test_every_item_is_handed_out_exactly_once_whatever_the_times():
    clock = Clock()
    items = [(f"s{i}", a) for i in range(5) for a in ("01", "02", "03")]
    order = LongestFirst(items, kind=lambda item: item[1], clock=clock)
    seen = []
    for item in order:
        seen.append(item)
        clock.now += {"01": 3.0, "02": 1.0, "03": 2.0}[item[1]]
        order.finished(item)
    assert sorted(seen) == sorted(items)
    assert [a for _, a in seen[3:]] == ["01"] * 4 + ["03"] * 4 + ["02"] * 4
