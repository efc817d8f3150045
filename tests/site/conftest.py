"""The course site, built once per test session from ``release/`` (``make site``) and shared by its tests."""

from __future__ import annotations

import os

import pytest

from tests.notebooks import ROOT


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The site as ``make site`` builds it (in a temporary folder): demos executed with COURSE_DATA_DIR."""
    for module in ("sphinx", "myst_nb", "furo", "jieba", "mathjax"):
        pytest.importorskip(module, reason=f"{module} is not installed: pip install -e '.[site]'")
    if not os.environ.get("COURSE_DATA_DIR"):
        pytest.skip("COURSE_DATA_DIR is not set: the capstone's demos need the offline MNIST copy")
    from autograder.website import build

    return build(ROOT, tmp_path_factory.mktemp("site") / "_site", log=lambda _line: None)


@pytest.fixture
def shots(request):
    """Numbered screenshots under ``artifacts/browser/<test>/`` (tests/browser's helper)."""
    from tests.browser import lab

    return lab.Shots(request.node.name)
