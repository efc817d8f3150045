"""A real JupyterHub for the tests: deploy/hub/jupyterhub_config.py on free loopback ports, and ways to act in it.

The hub runs as ``make hub`` starts it (local accounts: one Unix account, a home per hub user, one shared
password), with its state and nbgrader's exchange in a temporary folder, and a token for the hub's
"course-admin" service so that the tests can start users' servers and act in them through the hub:

- students act through nbgrader's assignment-list REST API in their own server (what the Assignments tab calls)
  and the Jupyter contents API (what saving a notebook does);
- anyone runs shell commands in a terminal of their own server (a real bash over terminado's websocket),
  as an instructor types ``nbgrader collect 01_tensors`` into JupyterLab's terminal.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "hub" / "jupyterhub_config.py"
BIN = Path(sys.executable).parent
COURSE_ID = "pytorch-tensors-autograd"
HUB_START_S = 60
SERVER_START_S = 150  # JupyterLab for one user on a busy 2-core machine
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\r")


def proxy_command() -> str | None:
    """configurable-http-proxy from the venv (``make hub-proxy``) or PATH, or None."""
    return shutil.which("configurable-http-proxy", path=os.pathsep.join([str(BIN), os.environ.get("PATH", "")]))


def free_ports(count: int) -> list[int]:
    import socket

    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


class HubError(RuntimeError):
    """A hub or user-server request that failed; the message has the status and the answer's text."""


@dataclass
class CommandResult:
    """A shell command run in a user's terminal: its exit status and what it printed (stdout and stderr)."""

    status: int
    output: str


@dataclass
class Hub:
    """A running JupyterHub; ``api`` calls its REST API, ``user_api`` a user's server through the proxy."""

    process: subprocess.Popen
    port: int
    token: str
    password: str
    state: Path
    exchange: Path
    log: Path
    grader_port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def grader_url(self) -> str:
        """The grading service, as users' servers reach it (autograder.service)."""
        return f"http://127.0.0.1:{self.grader_port}/services/grader/"

    def user_token(self, user: str) -> str:
        """A new hub API token of ``user`` (with the user's own permissions, as their server's token)."""
        return self.api(f"/users/{user}/tokens", method="POST", data={"note": "tests"})["token"]

    def home(self, user: str) -> Path:
        return self.state / "home" / user

    def log_tail(self, chars: int = 6000) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")[-chars:] if self.log.exists() else ""

    def request(self, path: str, *, method: str = "GET", data: Any = None, form: dict | None = None) -> Any:
        """An HTTP request to the hub's address with the service token; the decoded JSON answer (or text)."""
        headers = {"Authorization": f"token {self.token}"}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        elif data is not None:
            body = json.dumps(data).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(f"{self.url}{path}", data=body, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=300) as response:
                text = response.read().decode("utf-8", errors="replace")
        except urllib.error.HTTPError as exc:
            raise HubError(f"{method} {path}: HTTP {exc.code}: {exc.read().decode(errors='replace')[:2000]}") from None
        try:
            return json.loads(text) if text else None
        except json.JSONDecodeError:
            return text

    def api(self, path: str, **kwargs: Any) -> Any:
        """The hub's REST API: ``api("/users/alice")`` is ``GET /hub/api/users/alice``."""
        return self.request(f"/hub/api{path}", **kwargs)

    def user_api(self, user: str, path: str, **kwargs: Any) -> Any:
        """A request to ``user``'s own server, through the hub's proxy: ``/user/<user><path>``."""
        return self.request(f"/user/{user}{path}", **kwargs)

    # ---- servers

    def start_server(self, user: str) -> None:
        """Start ``user``'s server (if it is not running) and wait until the hub says it is ready."""
        model = self.api(f"/users/{user}")
        if model.get("servers", {}).get("", {}).get("ready"):
            return
        with suppress(HubError):  # 400: already starting
            self.api(f"/users/{user}/server", method="POST")
        deadline = time.monotonic() + SERVER_START_S
        while time.monotonic() < deadline:
            server = self.api(f"/users/{user}").get("servers", {}).get("")
            if server and server.get("ready"):
                return
            if self.process.poll() is not None:
                raise HubError(f"the hub exited with {self.process.returncode}:\n{self.log_tail()}")
            time.sleep(0.5)
        raise HubError(f"{user}'s server did not start within {SERVER_START_S} s:\n{self.log_tail()}")

    # ---- nbgrader's assignment list, as the Assignments tab calls it

    def assignments(self, user: str) -> list[dict]:
        """What ``user``'s Assignments tab lists for the course (released, fetched, submitted)."""
        answer = self.user_api(user, f"/assignments?course_id={COURSE_ID}")
        if not answer["success"]:
            raise HubError(f"{user}'s assignment list failed: {answer['value']}")
        return answer["value"]

    def assignment_action(self, user: str, action: str, assignment: str) -> dict:
        """Press Fetch / Submit / Fetch Feedback in ``user``'s Assignments tab; nbgrader's JSON answer."""
        form = {"course_id": COURSE_ID, "assignment_id": assignment}
        return self.user_api(user, f"/assignments/{action}", method="POST", form=form)

    # ---- files, through the contents API

    def read_notebook(self, user: str, path: str) -> dict:
        return self.user_api(user, f"/api/contents/{urllib.parse.quote(path)}?content=1")["content"]

    def save_notebook(self, user: str, path: str, notebook: dict) -> None:
        body = {"type": "notebook", "format": "json", "content": notebook}
        self.user_api(user, f"/api/contents/{urllib.parse.quote(path)}", method="PUT", data=body)

    def read_file(self, user: str, path: str) -> str:
        """A file from ``user``'s server as the browser gets it (``/user/<user>/files/<path>``)."""
        return self.user_api(user, f"/files/{urllib.parse.quote(path)}")

    # ---- a terminal in the user's own server

    def run(self, user: str, command: str, *, timeout: float = 300) -> CommandResult:
        """Run ``command`` in bash in a new terminal of ``user``'s server; its status and output (ANSI stripped)."""
        name = self.user_api(user, "/api/terminals", method="POST")["name"]
        try:
            # A thread of its own: the caller's thread may already run an event loop (Playwright's sync API does).
            with ThreadPoolExecutor(1) as pool:
                return pool.submit(asyncio.run, self._run_in_terminal(user, name, command, timeout)).result()
        finally:
            with suppress(HubError):
                self.user_api(user, f"/api/terminals/{name}", method="DELETE")

    async def _run_in_terminal(self, user: str, name: str, command: str, timeout: float) -> CommandResult:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        nonce = secrets.token_hex(6)
        start, done = f"__start_{nonce}__", f"__done_{nonce}__"
        request = HTTPRequest(
            f"ws://127.0.0.1:{self.port}/user/{user}/terminals/websocket/{name}",
            headers={"Authorization": f"token {self.token}"},
        )
        socket = await websocket_connect(request)
        try:
            await socket.write_message(json.dumps(["set_size", 50, 200, 800, 1600]))
            # No echo and no prompt, so that the output is the command's own; the markers are typed split in
            # two ("__done_" "x__") so that only bash's output of them matches.
            half = len(start) // 2
            setup = f"stty -echo; PS1=''; PS2=''; PROMPT_COMMAND=''; echo '{start[:half]}''{start[half:]}'\r"
            await socket.write_message(json.dumps(["stdin", setup]))
            line = f"{command}\r echo \"{done[:half]}\"'{done[half:]}' $?\r"
            output, sent = "", False
            deadline = time.monotonic() + timeout
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise HubError(
                        f"`{command}` in {user}'s terminal did not finish in {timeout:.0f} s:\n{output[-3000:]}"
                    )
                message = await asyncio.wait_for(socket.read_message(), remaining)
                if message is None:
                    raise HubError(f"{user}'s terminal closed during `{command}`:\n{output[-3000:]}")
                kind, *payload = json.loads(message)
                if kind != "stdout":
                    continue
                output += ANSI.sub("", payload[0])
                if not sent and start in output:
                    output, sent = output.split(start, 1)[1], True
                    await socket.write_message(json.dumps(["stdin", line]))
                found = re.search(rf"{done} (\d+)", output) if sent else None
                if found:
                    return CommandResult(int(found.group(1)), output[: found.start()].strip("\n"))
        finally:
            socket.close()


@contextmanager
def running_hub(
    tmp: Path, *, instructors: list[str], students: list[str], grader: dict[str, str] | None = None
) -> Iterator[Hub]:
    """Start deploy/hub/jupyterhub_config.py with its state under ``tmp``; stop the hub and every server after.
    ``grader``: the grading service's settings (COURSE_GRADER_*)."""
    port, hub_port, api_port, grader_port = free_ports(4)
    state, token, password = tmp / "state", secrets.token_hex(32), secrets.token_urlsafe(12)
    state.mkdir(parents=True)
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # the test suite's Agg backend would hide the notebooks' figures
    env.update(
        COURSE_HUB_STATE=str(state),
        COURSE_HUB_EXCHANGE=str(tmp / "exchange"),
        COURSE_HUB_PORT=str(port),
        COURSE_HUB_HUB_PORT=str(hub_port),
        COURSE_HUB_PROXY_API_PORT=str(api_port),
        COURSE_HUB_GRADER_PORT=str(grader_port),
        COURSE_HUB_INSTRUCTORS=",".join(instructors),
        COURSE_HUB_STUDENTS=",".join(students),
        COURSE_HUB_ACCOUNTS="local",
        COURSE_HUB_API_TOKEN=token,
        COURSE_HUB_PASSWORD=password,
        PATH=os.pathsep.join([str(BIN), env.get("PATH", "")]),
        PYTHONUNBUFFERED="1",
    )
    env.update(grader or {})
    log = tmp / "jupyterhub.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [str(BIN / "jupyterhub"), "-f", str(CONFIG)],
            cwd=state,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    hub = Hub(process, port, token, password, state, tmp / "exchange", log, grader_port)
    try:
        _wait_until_up(hub)
        yield hub
    finally:
        _stop(process)
        _kill_leftovers(f"COURSE_HUB_EXCHANGE={hub.exchange}")


def _wait_until_up(hub: Hub) -> None:
    deadline = time.monotonic() + HUB_START_S
    while time.monotonic() < deadline:
        if hub.process.poll() is not None:
            raise HubError(f"jupyterhub exited with {hub.process.returncode}:\n{hub.log_tail()}")
        with suppress(HubError, urllib.error.URLError, ConnectionError, TimeoutError):
            hub.api("/")  # answered through the proxy: both are up
            return
        time.sleep(0.25)
    raise HubError(f"jupyterhub did not answer within {HUB_START_S} s:\n{hub.log_tail()}")


def _stop(process: subprocess.Popen) -> None:
    """SIGTERM (the hub stops every user's server and its proxy), then SIGKILL to whatever is left of its group."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
        process.wait(timeout=10)


def _kill_leftovers(marker: str) -> None:
    """SIGKILL any process still carrying this hub's unique exchange path in its environment: users' servers
    and kernels that a stopped hub left behind (none, when the hub stopped them as it should)."""
    needle = marker.encode() + b"\0"
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        with suppress(OSError):
            if needle in (proc / "environ").read_bytes():
                os.kill(int(proc.name), signal.SIGKILL)
