"""JupyterLab in a real browser: a throw-away server over a copy of the course, Chromium, notebook helpers.

The tests drive Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``) through Playwright's
Python package; they never download a browser. Every server runs on a free loopback port with a random
token, rooted in a temporary copy of the course, with its Jupyter config, data, settings and workspaces
folders in that temporary folder, so neither the repository nor the user's ``~/.jupyter`` is touched.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import BrowserContext, Locator, Page, Playwright, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "browser"
CHROMIUM = Path(os.environ.get("COURSE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # containers often have a 64 MB /dev/shm, too small for Chromium
]

# Generous but bounded: the machines running CI are small and shared (2 cores).
SERVER_START_S = 90
UI_TIMEOUT_MS = 60_000  # page loads, dialogs, widgets
CELL_TIMEOUT_MS = 180_000  # one cell, kernel start (torch import) included
VALIDATE_TIMEOUT_MS = 300_000  # nbgrader runs the whole notebook in a fresh kernel
expect.set_options(timeout=UI_TIMEOUT_MS)


# ---------------------------------------------------------------------------------------------------
# The course copy and the server


def copy_course(dest: Path) -> Path:
    """Copy ``nbgrader_config.py``, ``source/`` and ``release/`` into ``dest``; return ``dest``."""
    skip = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "nbgrader_config.py", dest / "nbgrader_config.py")
    for folder in ("source", "release"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=skip)
    return dest


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class LabServer:
    """A running ``jupyter lab``; ``url(path)`` gives an authenticated address on it."""

    process: subprocess.Popen
    port: int
    token: str
    root_dir: Path
    log: Path
    home: Path = field(repr=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "/lab", **query: str) -> str:
        params = [("token", self.token), *query.items()]
        qs = "&".join(f"{k}={v}" if v else k for k, v in params)
        return f"{self.base}{path}{'&' if '?' in path else '?'}{qs}"

    def api(self, path: str, method: str = "GET") -> object:
        """Call the server's REST API (``/api/...``) with the token; the decoded JSON answer, or None."""
        request = urllib.request.Request(
            f"{self.base}{path}", method=method, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body = response.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """End every session and its kernel, so that the next test starts from fresh kernels.

        Listing while a kernel is still shutting down can answer 500, and one already gone answers 404: both
        are part of ending them, so the listing is tried again until nothing is left.
        """
        for attempt in range(10):
            try:
                for session in self.api("/api/sessions"):
                    self.api(f"/api/sessions/{session['id']}", method="DELETE")
                kernels = self.api("/api/kernels")
                for kernel in kernels:
                    self.api(f"/api/kernels/{kernel['id']}", method="DELETE")
                if not kernels:
                    return
            except urllib.error.HTTPError as err:
                if err.code not in (404, 500) or attempt == 9:
                    raise
            time.sleep(0.3)
        raise AssertionError(f"kernels still running after shutdown: {self.api('/api/kernels')}")

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:] if self.log.exists() else ""


# What `make lab` passes to JupyterLab besides its port and root (see the Makefile's `lab` target), and the
# settings override it installs so that Markdown files, the course home page first, open rendered.
HOME_PAGE = "README.md"
LAB_ARGS = ["--ip=127.0.0.1", f"--LabApp.default_url=/lab/tree/{HOME_PAGE}"]
LAB_OVERRIDES = {"@jupyterlab/docmanager-extension:plugin": {"defaultViewers": {"markdown": "Markdown Preview"}}}


def lab_command(*, port: int, token: str, root_dir: Path, app_settings_dir: Path) -> list[str]:
    """The ``jupyter lab`` command line of ``make lab``, on a given port and token, without a browser."""
    return [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        *LAB_ARGS,
        "--no-browser",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.app_settings_dir={app_settings_dir}",
        *(["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []),  # CI containers run as root
    ]


@contextmanager
def lab_server(course: Path, *, root_dir: Path, home: Path) -> Iterator[LabServer]:
    """Run JupyterLab in ``course`` (its cwd, so nbgrader finds ``nbgrader_config.py``) rooted at ``root_dir``.

    Jupyter's per-user folders live under ``home``. Stops the server afterwards: SIGTERM (it shuts its
    kernels down), then SIGKILL to its process group if it has not exited.
    """
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # the test suite's Agg backend would hide every figure in the notebooks
    for name, sub in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"),
        ("IPYTHONDIR", "ipython"),
    ]:
        env[name] = str(home / sub)
        (home / sub).mkdir(parents=True, exist_ok=True)
    env["PYTHONUNBUFFERED"] = "1"
    # Like `make lab`: the venv's scripts first on PATH (nbgrader's formgrader runs `alembic` from PATH).
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    app_settings = home / "app-settings"
    app_settings.mkdir(exist_ok=True)
    (app_settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES), encoding="utf-8")
    # The learner's own choice, made once: no "Would you like to get notified about official Jupyter news?"
    news = home / "lab-settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    news.parent.mkdir(parents=True, exist_ok=True)
    news.write_text(json.dumps({"fetchNews": "false", "checkForUpdates": False}), encoding="utf-8")
    port, token = free_port(), secrets.token_hex(16)
    log = home / "jupyter-lab.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            lab_command(port=port, token=token, root_dir=root_dir, app_settings_dir=app_settings),
            cwd=course,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = LabServer(process=process, port=port, token=token, root_dir=root_dir, log=log, home=home)
    try:
        _wait_until_up(server)
        yield server
    finally:
        _stop(process)


def _wait_until_up(server: LabServer) -> None:
    deadline = time.monotonic() + SERVER_START_S
    status = f"{server.base}/api/status?token={server.token}"
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"jupyter lab exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(status, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"jupyter lab did not answer within {SERVER_START_S} s:\n{server.log_tail()}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # the server's own session: leftovers, if any
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def new_notebook(sources: list[str]) -> dict:
    """A minimal notebook (nbformat 4) with one code cell per source, on the ``python3`` kernel."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    return nb


# ---------------------------------------------------------------------------------------------------
# The browser


def chromium_context(playwright: Playwright, user_data_dir: Path) -> BrowserContext:
    """Headless Debian Chromium with a fresh profile; never a downloaded browser."""
    if not CHROMIUM.is_file():
        raise RuntimeError(f"{CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)")
    context = playwright.chromium.launch_persistent_context(
        str(user_data_dir),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport={"width": 1440, "height": 960},
        locale="zh-CN",
    )
    context.set_default_timeout(UI_TIMEOUT_MS)
    context.set_default_navigation_timeout(UI_TIMEOUT_MS)
    return context


class Shots:
    """Numbered screenshots of the page under ``artifacts/browser/<test>/``, for a person to look at."""

    def __init__(self, name: str) -> None:
        self.folder = ARTIFACTS / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.count = 0

    def __call__(self, page: Page, step: str) -> Path:
        self.count += 1
        path = self.folder / f"{self.count:02d}-{step}.png"
        page.screenshot(path=str(path))
        return path


# ---------------------------------------------------------------------------------------------------
# A notebook in JupyterLab


class Notebook:
    """The notebook open in the main area of a JupyterLab page, driven as a learner would."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")

    @classmethod
    def open(cls, page: Page, server: LabServer, path: str) -> Notebook:
        """Open ``path`` (relative to the server root) in a fresh workspace; wait for all cells and an idle kernel."""
        cells = len(json.loads((server.root_dir / path).read_text(encoding="utf-8"))["cells"])
        page.goto(server.url(f"/lab/tree/{path}", reset=""))
        notebook = cls(page)
        expect(notebook.panel.locator(".jp-Notebook .jp-Cell")).to_have_count(cells)
        notebook.wait_idle()
        return notebook

    def cell(self, index: int) -> Locator:
        return self.panel.locator(".jp-Notebook .jp-Cell").nth(index)

    def wait_idle(self, timeout: float = CELL_TIMEOUT_MS) -> None:
        """Wait until the kernel is started and idle: the status bar's "Python 3 (ipykernel) | Idle" and the
        toolbar's execution indicator (which says idle before the kernel has even started, so not alone)."""
        status = self.page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\|\s*Idle\s*$"))
        expect(status).to_be_visible(timeout=timeout)
        indicator = self.panel.locator(".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator")
        expect(indicator).to_have_attribute("data-status", "idle", timeout=timeout)

    def set_source(self, index: int, text: str) -> None:
        """Replace the source of cell ``index`` by typing into its editor."""
        cell = self.cell(index)
        cell.scroll_into_view_if_needed()
        editor = cell.locator(".jp-InputArea-editor .cm-content")
        editor.click()
        self.page.keyboard.press("ControlOrMeta+a")
        self.page.keyboard.press("Delete")
        self.page.keyboard.insert_text(text)
        expect(editor).to_have_text(re.compile(re.escape(text.strip().splitlines()[-1].strip())))
        self.page.keyboard.press("Escape")  # back to command mode

    def run(self, index: int, *, expect_error: str | None = None, timeout: float = CELL_TIMEOUT_MS) -> str:
        """Run cell ``index`` (select it, Ctrl+Enter), wait for it to finish; return its output text.

        Raises ``AssertionError`` when the cell shows error output (a traceback or stderr) that is not
        expected, or when ``expect_error`` is given and no error output contains it.
        """
        cell = self.cell(index)
        cell.scroll_into_view_if_needed()
        prompt = cell.locator(".jp-InputArea-prompt")
        # The prompt goes "[*]:" while the cell runs, then "[n]:". A stored or earlier count may be the same
        # n, so watch the prompt for the "*" with a MutationObserver (fast cells flip it within milliseconds).
        handle = prompt.element_handle()
        handle.evaluate(
            """el => {
                el.__courseSawBusy = false;
                el.__courseObserver?.disconnect();
                el.__courseObserver = new MutationObserver(() => {
                    if (el.textContent.includes("*")) el.__courseSawBusy = true;
                });
                el.__courseObserver.observe(el, {subtree: true, childList: true, characterData: true});
            }"""
        )
        prompt.click()
        self.page.keyboard.press("ControlOrMeta+Enter")
        try:
            self.page.wait_for_function(
                "el => el.__courseSawBusy && /\\[\\d+\\]/.test(el.textContent)",
                arg=handle,
                polling=100,
                timeout=timeout,
            )
        except PlaywrightTimeoutError:
            raise AssertionError(
                f"cell {index} did not finish within {timeout / 1000:.0f} s (prompt {prompt.inner_text()!r})"
            ) from None
        finally:
            handle.evaluate("el => el.__courseObserver?.disconnect()")
        self.wait_idle(timeout)
        outputs = cell.locator(".jp-OutputArea-output")
        text = "\n".join(outputs.all_inner_texts())
        errors = "\n".join(
            cell.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').all_inner_texts()
        )
        if expect_error is None and errors.strip():
            raise AssertionError(f"unexpected error output in cell {index}:\n{errors.strip()[-2000:]}")
        if expect_error is not None and expect_error not in errors:
            raise AssertionError(f"cell {index}: expected an error containing {expect_error!r}, got:\n{text[-2000:]}")
        return text

    def show_output(self, index: int) -> None:
        """Scroll the end of cell ``index``'s output into view (for a screenshot a person can read)."""
        self.cell(index).locator(".jp-OutputArea-output").last.evaluate("el => el.scrollIntoView({block: 'end'})")
