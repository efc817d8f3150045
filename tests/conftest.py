import os
import re
import sys

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
# `check` on the command line keeps a warm engine in the background; tests start their own engines
# (tests/test_server.py starts and stops the background one in a folder of its own).
os.environ.setdefault("AUTOGRADER_NO_SERVER", "1")
# One intra-op thread per process: `make test` runs three workers (and their kernels, graders and hubs) on two
# cores, where torch's default of a thread per core has the threads of different processes wait for each other.
# Measured at stop 53 on 03's pairwise_sq_dist tests beside a busy machine: 38 s of CPU instead of 60, 70 s of
# wall instead of 87. Children (kernels, the grader's engine, the hub's servers) inherit the variable; a
# graded learner runs on one thread anyway (autograder/parent/sandbox.py).
os.environ.setdefault("OMP_NUM_THREADS", "1")
if "torch" in sys.modules:  # a plugin imported torch before this file: its thread pool already exists
    sys.modules["torch"].set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Each phase's report on the item (``item.report_call``: browser fixtures screenshot a failed test).
    In CI (.ci/run installs bubblewrap, Chromium, PostgreSQL, the hub's proxy and the data) a skipped test is
    a failure, except the GPU checks: CI has no GPU."""
    report = yield
    if os.environ.get("CI") and report.skipped and "CUDA" not in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where everything the tests need is installed: {report.longrepr}"
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def playwright():
    """One Playwright for the whole session (a second sync_playwright in one process refuses to start),
    driving Debian's Chromium only."""
    from tests.browser import lab

    if not lab.CHROMIUM.is_file():
        pytest.skip(f"{lab.CHROMIUM} not found: `apt-get install -y chromium` (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def honest_course(tmp_path_factory):
    """Every assignment as a learner who gets everything right hands it in: <id>/<id>.ipynb."""
    import nbformat

    from tests import notebooks as nbs

    folder = tmp_path_factory.mktemp("honest")
    for assignment in nbs.assignments():
        (folder / assignment).mkdir()
        nbformat.write(nbs.honest_submission(assignment), folder / assignment / f"{assignment}.ipynb")
    return folder


@pytest.fixture(scope="session")
def honest_progress(honest_course):
    """`autograder progress` over the honest copies: one check of every assignment, through the engine."""
    from autograder.progress import progress
    from tests import notebooks as nbs

    return progress(honest_course, course_root=nbs.ROOT)


# How `pytest -n 3` (pytest-xdist, `make test`) shares the tests between its workers: one work unit per test
# file, so that a file's module and class set-ups run once; files that share a session set-up form one unit
# (the hub's tests share one hub, the site's tests one build, test_notebooks and test_progress the honest
# copies); test_mutants.py, the largest file, and test_hints.py are one unit per notebook, "notebook:<id>": they
# share that notebook's solution cells, run once (`tests.notebooks.solution_namespace`; the capstone trains).
_PER_NOTEBOOK_FILES = ("test_mutants.py", "test_hints.py")
_SHARED_SETUP_UNITS = {"hub": "hub", "site": "site", "test_notebooks.py": "honest", "test_progress.py": "honest"}


def work_unit(nodeid: str) -> str:
    """The work unit of a test id such as ``tests/test_mutants.py::test_x[01_tensors:test_y:name]``."""
    path, _, rest = nodeid.partition("::")
    parts = path.split("/")[1:]  # below tests/
    key = parts[0] if len(parts) > 1 else parts[-1]
    notebook = re.match(r"[^\[]*\[(\d\d_[a-z_]+)", rest)
    if key in _PER_NOTEBOOK_FILES and notebook:
        return f"notebook:{notebook.group(1)}"
    return _SHARED_SETUP_UNITS.get(key, path)


# Seconds a unit takes in a full run (three workers on two cores; the "work units" summary at the end of a run
# prints them: round and update when a unit changes much). The dearest units go first, so that no long unit starts last and runs
# alone: xdist's own order (most tests first) started the report's class, the site and the cluster tests last.
# A unit not listed counts 0.8 s per test.
_UNIT_SECONDS = {  # stop 65's full run on this machine, idle (three workers on two cores; 1867 s in all)
    "notebook:10_lenet_mnist": 1310,
    "notebook:03_broadcasting": 810,
    "tests/browser/test_report_page.py": 510,
    "notebook:05_autograd": 435,
    "notebook:08_clipping": 360,
    "honest": 280,
    "hub": 245,
    "site": 180,
    "tests/test_grade.py": 160,
    "notebook:01_tensors": 140,
    "notebook:02_shapes": 140,
    "notebook:04_devices": 135,
    "notebook:07_item": 130,
    "tests/browser/test_student_flow.py": 100,
    "tests/test_cluster.py": 90,
    "tests/test_perimeter.py": 60,
    "notebook:06_no_grad": 50,
    "notebook:09_debugging": 50,
}


def unit_cost(unit: str, tests: int) -> float:
    """The expected seconds of a work unit of ``tests`` tests (for ordering only)."""
    return _UNIT_SECONDS.get(unit, 0.8 * tests)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's scope scheduling with :func:`work_unit` as the scope; a free worker takes the dearest unit
    left (longest first, which keeps the workers' finishing times close)."""
    from xdist.scheduler import LoadScopeScheduling

    class WorkUnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node) -> None:
            dearest = max(self.workqueue, key=lambda unit: unit_cost(unit, len(self.workqueue[unit])))
            self.workqueue.move_to_end(dearest, last=False)
            super()._assign_work_unit(node)

    return WorkUnitScheduling(config, log)


_unit_seconds: dict[str, float] = {}


def pytest_runtest_logreport(report):
    """Sums each work unit's seconds (set-up, call and tear-down) for the summary below."""
    unit = work_unit(report.nodeid)
    _unit_seconds[unit] = _unit_seconds.get(unit, 0.0) + report.duration


def pytest_terminal_summary(terminalreporter, config):
    """With ``-n``: the dearest work units of this run, to keep ``_UNIT_SECONDS`` true."""
    if not getattr(config.option, "numprocesses", None) or not _unit_seconds:
        return
    terminalreporter.write_sep("=", "work units by seconds (tests/conftest.py _UNIT_SECONDS)")
    for unit, seconds in sorted(_unit_seconds.items(), key=lambda item: -item[1])[:15]:
        terminalreporter.write_line(f"{seconds:8.1f}s  {unit}")


@pytest.fixture(autouse=True)
def _main_module_has_a_spec():
    """multiprocessing's spawn (Dask's local cluster) reads ``sys.modules["__main__"].__spec__``. A pytest-xdist
    worker's __main__ (execnet's ``-c`` script) and the stand-in an in-process IPython shell leaves behind have
    none; ``None`` is what a plain ``python -c`` main has, and spawn accepts it. Checked before every test,
    since any earlier test may have replaced __main__. Not undone after the test: an IPython shell clears its
    main module's namespace itself, so an undo could find nothing to delete."""
    main = sys.modules["__main__"]
    if not hasattr(main, "__spec__"):
        main.__spec__ = None
