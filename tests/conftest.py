import os

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")
# `check` on the command line keeps a warm engine in the background; tests start their own engines
# (tests/test_server.py starts and stops the background one in a folder of its own).
os.environ.setdefault("AUTOGRADER_NO_SERVER", "1")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI (.ci/run installs bubblewrap, Chromium and the data) a skipped test is a failure, except
    the GPU checks: CI has no GPU."""
    outcome = yield
    report = outcome.get_result()
    if os.environ.get("CI") and report.skipped and "CUDA" not in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, where everything the tests need is installed: {report.longrepr}"


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
