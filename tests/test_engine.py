"""The engine's decisions on hand-made runs: statuses and reruns come from fields, never from messages.

No process is started: a ``Run`` is filled in as the pool would fill it from the judge's stream.
"""

from __future__ import annotations

import pytest

from autograder.child import judge
from autograder.notebooks import Plan
from autograder.parent import engine
from autograder.parent.pool import Run
from autograder.wire.protocol import ChannelClosed, ChannelTimeout, CodecError
from autograder.wire.schema import CellResult, Done, Lost, SkipReason, TestResult

TESTS = ["test_a", "test_b"]


def _job() -> engine.Job:
    steps = [{"kind": "test", "grade_id": gid, "upto": i + 1, "source": "pass"} for i, gid in enumerate(TESTS)]
    learner = [{"index": 0, "source": "a = 1"}, {"index": 1, "source": "b = 2"}]
    return engine.Job("s/a", Plan(steps, learner, list(TESTS), [], {gid: 1.0 for gid in TESTS}))


def _passed(gid: str) -> TestResult:
    return TestResult(gid, True)


def _run(
    *,
    tests: dict | None = None,
    cells: dict | None = None,
    done: Done | None = None,
    learner_exit: dict | None = None,
    judge_exit: dict | None = None,
    grader_error: str = "",
) -> Run:
    return Run(
        "r1",
        None,  # type: ignore[arg-type] - no socket: nothing is read from it here
        tests=tests or {},
        cells=cells or {},
        judge_done=done,
        learner_exit=learner_exit or {"code": 0, "timed_out": False},
        judge_exit=judge_exit or {"code": 0, "timed_out": False},
        grader_error=grader_error,
    )


def _lost(reason: str, kind: str = "cell", where: int | str = 1, **exit: object) -> Run:
    done = Done((kind, where), "任何文字 (any text)", Lost(reason) if reason else None)
    return _run(tests={"test_a": _passed("test_a")}, done=done, learner_exit={"code": -9, **exit})


def _decide(runs: list[Run]) -> tuple[str, list[bool], engine.Job]:
    """Feed the runs of one job in order, as run_jobs does: (final status, rerun decisions, the job)."""
    job = _job()
    reruns = [engine._should_rerun(job, run) for run in runs]
    return engine.outcome(job, runs[-1], 900).status, reruns, job


CASES = {  # name: (runs of one job, status, rerun decisions)
    "clean": ([_run(tests={g: _passed(g) for g in TESTS}, done=Done())], "ok", [False]),
    "hung in a cell, then clean": (
        [_lost("hung"), _run(tests={g: _passed(g) for g in TESTS}, done=Done())],
        "timeout",
        [True, False],
    ),
    "exited in a test, then clean": (
        [_lost("exited", "test", "test_b"), _run(tests={"test_a": _passed("test_a")}, done=Done())],
        "crashed",
        [True, False],
    ),
    "garbled, three times": ([_lost("garbled")] * 3, "crashed", [True, True, False]),
    "over storage": ([_lost("exited", over_storage="600 MB"), _run(done=Done())], "crashed", [True, False]),
    "notebook timeout": ([_run(done=None, judge_exit={"code": -9, "timed_out": True})], "timeout", [False]),
    "cell timeout": ([_run(cells={0: CellResult(0, timeout=True)}, done=Done())], "timeout", [False]),
    "judge died": ([_run(done=None, judge_exit={"code": -11})], "crashed", [False]),
    "grader error": ([_run(done=Done(), grader_error="Traceback")], "crashed", [False]),
}


def _reword_every_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every note and message the engine and the judge write says something else (str.format ignores the
    values a reworded template no longer names)."""
    for name in dir(engine):
        if name.isupper() and isinstance(getattr(engine, name), str) and name != "UNKNOWN_MISTAKE":
            monkeypatch.setattr(engine, name, f"reworded {name}")
    monkeypatch.setattr(judge, "LOST_MESSAGES", {reason: f"reworded {reason}" for reason in Lost})


@pytest.mark.parametrize("name", CASES)
def test_engine_statuses_and_reruns_follow_fields(name):
    runs, status, reruns = CASES[name]
    assert _decide(runs)[:2] == (status, reruns)


@pytest.mark.parametrize("name", CASES)
def test_engine_statuses_stay_the_same_when_every_message_is_reworded(name, monkeypatch):
    runs, status, reruns = CASES[name]
    _reword_every_message(monkeypatch)
    assert _decide(runs)[:2] == (status, reruns)


def test_engine_skips_carry_their_reason_as_a_field():
    _status, _reruns, job = _decide([_lost("hung"), _lost("exited", "test", "test_b"), _run(done=Done())])
    assert job.skip_cells[1].reason is SkipReason.HUNG
    assert job.skip_tests["test_b"].reason is SkipReason.EXITED
    assert set(job.payload()["skip_tests"]) == {"test_b"} and job.payload()["skip_cells"] == [1]


def test_engine_a_judge_without_a_reason_counts_the_learner_as_exited():
    run = _lost("")
    assert engine.lost_reason(run) is Lost.EXITED and engine.skip_for(run).reason is SkipReason.EXITED


@pytest.mark.parametrize(
    ("raised", "reason"),
    [(ChannelTimeout(), Lost.HUNG), (ChannelClosed(), Lost.EXITED), (CodecError("bad"), Lost.GARBLED)],
)
def test_judge_reports_why_the_learner_was_lost_as_a_field(raised, reason, monkeypatch):
    class Broken:
        limits = None

        def exchange(self, *_args):
            raise raised

    monkeypatch.setattr(judge, "LOST_MESSAGES", {r: "reworded" for r in Lost})
    learner = judge.Learner(Broken(), timeout=1.0)
    with pytest.raises(judge.LearnerGone):
        learner.run_cell("x = 1")
    assert learner.lost_reason is reason and learner.lost == "reworded"


def test_judge_a_reply_to_another_request_is_garbled():
    class Wrong:
        limits = None

        def exchange(self, *_args):
            return {"id": 999}, []

    learner = judge.Learner(Wrong(), timeout=1.0)
    with pytest.raises(judge.LearnerGone):
        learner.run_cell("x = 1")
    assert learner.lost_reason is Lost.GARBLED


@pytest.mark.parametrize(
    ("source", "effects"),
    [
        ("gen = torch.Generator().manual_seed(0)", False),  # a generator made right there: the judge may drop it
        ("g = torch.Generator(device='cpu').manual_seed(1)\nplt.hist(torch.rand(3, generator=g))", False),
        ("torch.manual_seed(0)", True),
        ("g.manual_seed(0)", True),  # g may be a generator later cells use
        ("torch.random.default_generator.manual_seed(0)", True),
    ],
)
def test_plan_seeding_a_new_generator_is_no_global_effect_and_any_other_seeding_is(source, effects):
    from autograder.notebooks import cell_names

    assert cell_names(source).effects is effects


@pytest.mark.parametrize(
    ("source", "needs"),
    [
        ("def ref(values):\n    return [v * 2 for v in values]", set()),  # a parameter, a comprehension variable
        ("values = [1]\nprint(values)", {"print"}),  # bound before any read
        ("fig, ax = plt.subplots()\nax.plot(xs)", {"plt", "xs"}),
        ("print(values)\nvalues = 1", {"print", "values"}),  # read first: an earlier cell's value
        ("for ax in axes:\n    ax.plot()\nax = 1", {"axes", "ax"}),  # a loop may bind nothing
        ("def f():\n    return values\n\n\nf()\nvalues = 1", {"values"}),  # f reads the global before it is bound
        ("values = values + 1", {"values"}),
        ("def g():\n    global n\n    n = 1\n    return n", {"n"}),
        ("data[0] = 1\ndata = 2", {"data"}),
        ("@wrap\ndef fit():\n    return fit", {"wrap", "fit"}),  # a decorator could call it before it is bound
    ],
)
def test_plan_a_cell_needs_only_names_it_may_read_before_binding_them(source, needs):
    from autograder.notebooks import needed_names

    assert needed_names(source) == needs


def test_plan_drops_a_demo_whose_names_a_test_only_binds_for_itself_and_keeps_one_it_reads():
    from nbformat.v4 import new_code_cell, new_notebook

    from autograder.notebooks import make_plan

    def test_cell(source: str, gid: str):
        return new_code_cell(source, metadata={"nbgrader": {"grade": True, "grade_id": gid, "points": 1}})

    answer = new_code_cell("def f(x):\n    return x", metadata={"nbgrader": {"solution": True, "grade_id": "a"}})
    cells = [
        new_code_cell("values = [1, 2]\nplt.hist(values)"),  # a demo: the test's `values` is its own parameter
        new_code_cell("scale = 3"),  # read by the test
        answer,
        test_cell("def ref(values):\n    return values\nassert f(scale) == ref(scale)", "t"),
    ]
    source = new_notebook(cells=cells)
    kept = [step["source"] for step in make_plan(source, source).steps if step["kind"] == "setup"]
    assert kept == ["scale = 3"]


def test_plan_for_parses_a_source_once_per_text_and_gives_the_plan_make_plan_gives():
    from autograder.errors import AutograderError
    from autograder.notebooks import CheckTexts, _source_notebook, make_plan, parse_notebook, plan_for
    from tests import notebooks as nbs

    source = nbs.source_path("01_tensors").read_text(encoding="utf-8")
    submission = nbs.release_path("01_tensors").read_text(encoding="utf-8")
    texts = CheckTexts("mine.ipynb", submission, "source.ipynb", source)
    hits = _source_notebook.cache_info().hits
    first, second = plan_for(texts), plan_for(CheckTexts.from_dict(texts.to_dict()))
    assert _source_notebook.cache_info().hits > hits  # the second plan reused the first one's parse
    fresh = make_plan(parse_notebook(source), parse_notebook(submission))
    assert first.to_dict() == second.to_dict() == fresh.to_dict()
    with pytest.raises(AutograderError, match="broken.ipynb is not valid notebook JSON"):
        plan_for(CheckTexts("broken.ipynb", "{", "source.ipynb", source))
