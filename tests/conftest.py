import os
import re
import sys

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
# `check` on the command line keeps a warm engine in the background; tests start their own engines
# (tests/test_server.py starts and stops the background one in a folder of its own).
os.environ.setdefault("AUTOGRADER_NO_SERVER", "1")


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


# How `pytest -n 2` (pytest-xdist, `make test`) shares the tests between its workers: one work unit per test
# file, so that a file's module and class set-ups run once; files that share a session set-up form one unit
# (the hub's tests share one hub, the site's tests one build, test_notebooks and test_progress the honest
# copies); test_mutants.py, the largest file, is one unit per notebook (its caches are per notebook).
_SHARED_SETUP_UNITS = {"hub": "hub", "site": "site", "test_notebooks.py": "honest", "test_progress.py": "honest"}


def work_unit(nodeid: str) -> str:
    """The work unit of a test id such as ``tests/test_mutants.py::test_x[01_tensors:test_y:name]``."""
    path, _, rest = nodeid.partition("::")
    parts = path.split("/")[1:]  # below tests/
    key = parts[0] if len(parts) > 1 else parts[-1]
    notebook = re.match(r"[^\[]*\[(\d\d_[a-z_]+)", rest)
    if key == "test_mutants.py" and notebook:
        return f"{key}:{notebook.group(1)}"
    return _SHARED_SETUP_UNITS.get(key, path)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's scope scheduling with :func:`work_unit` as the scope (units go to whichever worker is free)."""
    from xdist.scheduler import LoadScopeScheduling

    class WorkUnitScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return WorkUnitScheduling(config, log)


@pytest.fixture(autouse=True)
def _main_module_has_a_spec(monkeypatch):
    """multiprocessing's spawn (Dask's local cluster) reads ``sys.modules["__main__"].__spec__``. A pytest-xdist
    worker's __main__ (execnet's ``-c`` script) and the stand-in an in-process IPython shell leaves behind have
    none; ``None`` is what a plain ``python -c`` main has, and spawn accepts it. Checked before every test,
    since any earlier test may have replaced __main__."""
    main = sys.modules["__main__"]
    if not hasattr(main, "__spec__"):
        monkeypatch.setattr(main, "__spec__", None, raising=False)
