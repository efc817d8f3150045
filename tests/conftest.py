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
