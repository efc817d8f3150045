import os

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


# Tests that share a session-scoped set-up run in one pytest-xdist worker (`pytest -n 2`): the hub's tests
# share one hub, the site's tests one build, and the honest copies feed test_notebooks and test_progress.
_SHARED_SETUP_GROUPS = {"hub": "hub", "site": "site", "test_notebooks.py": "honest", "test_progress.py": "honest"}


def pytest_collection_modifyitems(items):
    """Under pytest-xdist's ``--dist loadgroup``, keep each file's tests in one worker (their module and class
    set-ups run once) and each group of files that shares a session set-up together."""
    for item in items:
        path = item.path.relative_to(item.config.rootpath / "tests")
        key = path.parts[0] if len(path.parts) > 1 else path.name
        item.add_marker(pytest.mark.xdist_group(_SHARED_SETUP_GROUPS.get(key, str(path))))
