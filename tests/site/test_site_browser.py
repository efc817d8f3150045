"""The built site in Debian's Chromium: home, a lesson, an exercise and the capstone show their Chinese
text, figures and rendered math, and their links lead somewhere. Screenshots in ``artifacts/browser/``."""

from __future__ import annotations

import functools
import http.server
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from urllib.parse import urljoin, urlparse

import pytest

pytest.importorskip("playwright", reason="playwright is not installed: pip install -e '.[test]'")

from playwright.sync_api import expect  # noqa: E402

from autograder.setup_cell import site_config  # noqa: E402
from tests import notebooks as nbs  # noqa: E402
from tests.browser import lab  # noqa: E402

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CONFIG = site_config(nbs.ROOT)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # the test reports what matters
        pass


@pytest.fixture(scope="module")
def site_url(built_site) -> Iterator[str]:
    """The built site served over HTTP on loopback, as GitHub Pages would serve it."""
    handler = functools.partial(_Quiet, directory=str(built_site.out))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser(playwright, tmp_path_factory):
    context = lab.chromium_context(playwright, tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def page(browser, site_url):
    page = browser.new_page()
    failures: list[str] = []
    page.on("requestfailed", lambda r: failures.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and failures.append(f"{r.url}: HTTP {r.status}"))
    page.on("request", lambda r: not r.url.startswith((site_url, "data:")) and failures.append(f"off-site {r.url}"))
    page.failures = failures
    yield page
    page.close()


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code


def check_links(page, site_url: str) -> list[str]:
    """Every link of the page: on-site ones answer 200 (anchors aside); returns the off-site ones."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    outside = []
    for href in hrefs:
        if not href.startswith(site_url):
            outside.append(href)
            continue
        target = urljoin(href, urlparse(href).path)
        assert _status(target) == 200, f"{page.url}: broken link {href}"
    return outside


def wait_for_math(page) -> None:
    """MathJax (from the site itself) has typeset at least one formula."""
    expect(page.locator("mjx-container").first).to_be_visible(timeout=lab.UI_TIMEOUT_MS)


def wait_for_a_figure(page) -> None:
    """A figure (a demo's matplotlib output) is shown, decoded from the site's own image file."""
    figure = page.locator(".cell_output img").first
    figure.scroll_into_view_if_needed()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 100", arg=figure.element_handle(), timeout=lab.UI_TIMEOUT_MS
    )


def test_the_home_page_shows_the_course_in_chinese_with_every_lesson_in_the_navigation(page, site_url, shots):
    page.goto(site_url)
    expect(page.locator("h1").first).to_contain_text("张量")
    expect(page.locator("article")).to_contain_text("作业顺序")
    nav = page.locator(".sidebar-tree a.reference")
    labels = nav.all_inner_texts()
    assert len(labels) == len(nbs.assignments()) and labels[0].startswith("01") and labels[-1].startswith("10"), labels
    check_links(page, site_url)
    shots(page, "home")
    assert not page.failures, page.failures


def test_a_lesson_page_shows_figures_math_and_offers_its_notebook(page, site_url, shots):
    page.goto(urljoin(site_url, "01_tensors/01_tensors.html"))
    expect(page.locator("h1")).to_contain_text("张量")
    wait_for_math(page)
    wait_for_a_figure(page)
    download = page.locator("a.course-download")
    assert _status(download.evaluate("a => a.href")) == 200
    colab = page.locator("a.course-colab").get_attribute("href")
    repo = CONFIG.repository.removeprefix("https://github.com/")
    assert (
        colab
        == f"https://colab.research.google.com/github/{repo}/blob/{CONFIG.branch}/release/01_tensors/01_tensors.ipynb"
    )
    outside = check_links(page, site_url)
    assert colab in outside
    page.locator(".cell_output img").first.scroll_into_view_if_needed()
    shots(page, "lesson-figure")
    page.locator("mjx-container").first.scroll_into_view_if_needed()
    shots(page, "lesson-math")
    assert not page.failures, page.failures


def test_an_exercise_shows_its_statement_and_empty_answer_cell_without_a_traceback(page, site_url, shots):
    page.goto(urljoin(site_url, "02_shapes/02_shapes.html"))
    stub = page.locator(".cell").filter(has_text="raise NotImplementedError()").first
    expect(stub).to_be_visible()
    assert stub.locator(".cell_output").count() == 0
    expect(page.locator("article")).not_to_contain_text("Traceback")
    expect(page.locator("article")).not_to_contain_text("NotImplementedError:")
    stub.scroll_into_view_if_needed()
    shots(page, "exercise")
    check_links(page, site_url)
    assert not page.failures, page.failures


def test_the_capstone_page_shows_its_figures_and_the_search_finds_chinese_words(page, site_url, shots):
    page.goto(urljoin(site_url, "10_lenet_mnist/10_lenet_mnist.html"))
    expect(page.locator("h1")).to_contain_text("LeNet")
    wait_for_a_figure(page)
    shots(page, "capstone-figure")
    check_links(page, site_url)
    page.goto(urljoin(site_url, "search.html?q=裁剪"))
    results = page.locator("#search-results li a")
    expect(results.first).to_be_visible(timeout=lab.UI_TIMEOUT_MS)
    assert any("08" in text for text in results.all_inner_texts())
    shots(page, "search")
    assert not page.failures, page.failures
