"""The service's HTTP API (tornado), behind the hub's proxy at /services/<name>/.

    POST api/check  {"assignment": "01_tensors", "path": "01_tensors/01_tensors.ipynb"}  (path optional)
         200 {"result": <check --json>, "next_at": ISO or null}
         400/404/413 the path or notebook; 401 no valid token; 403 not allowed (another user, no access scope);
         429 over a limit {"error", "retry_at"} with Retry-After; 503 busy; 422 not a course notebook
    GET  api/log[?student=&assignment=]  the request log: an instructor's all, a student's own
    GET  api/limits  the instructor's limits

Every request needs a hub API token (``Authorization: token ...``): the student's own server has one
(``$JUPYTERHUB_API_TOKEN``) with the scope ``access:services!service=<name>``. Cookies are not accepted, so
no page elsewhere can make a student's browser ask.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
import traceback
from dataclasses import asdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from jupyterhub.services.auth import HubAuth, HubAuthenticated, UserNotAllowed
from tornado import web
from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop

from autograder import course_folder as course_mod
from autograder.errors import AutograderError
from autograder.parent.pool import RunLimits
from autograder.service import config as config_mod
from autograder.service.files import Refused, read_in_home
from autograder.service.grading import Busy, Grader, Submission
from autograder.service.limits import RateLimiter
from autograder.service.requests import Entry, RequestLog

MAX_BODY = 10_000


class Service:
    """What the handlers share: settings, limiter, log, grader."""

    def __init__(self, cfg: config_mod.ServiceConfig, grader: Grader) -> None:
        self.cfg = cfg
        self.grader = grader
        self.log = RequestLog(cfg.state / "requests.jsonl")
        self.limiter = RateLimiter(cfg.limits)
        for entry in self.log.read():
            if entry.get("outcome") in ("graded", "error"):
                when = datetime.fromisoformat(entry["time"])
                answered = when + timedelta(seconds=entry.get("seconds") or 0)
                self.limiter.remember(entry["student"], entry["assignment"], when, answered)
        self.assignments = set(course_mod.assignments(cfg.course))
        self.busy: set[str] = set()  # students with a request in flight: one at a time each

    @property
    def wait_s(self) -> float:
        """How long a request may take at most: a queue's worth of notebooks, plus one, on ``workers``."""
        cfg = self.cfg
        return cfg.notebook_timeout * (1 + cfg.queue / cfg.workers) + 60


class Handler(HubAuthenticated, web.RequestHandler):
    hub_auth_class = HubAuth

    @property
    def service(self) -> Service:
        return self.settings["service"]

    def get_current_user(self):  # tokens only (see the module's docstring)
        return None

    def fail(self, status: int, message: str, **extra: Any) -> None:
        self.set_status(status)
        self.finish({"error": message, **extra})

    async def who(self) -> str | None:
        """The hub user behind the request's token; None after answering 401 or 403."""
        if not self.request.headers.get("Authorization", "").lower().startswith(("token ", "bearer ")):
            self.fail(401, "no hub token: send 'Authorization: token $JUPYTERHUB_API_TOKEN'")
            return None
        model = await self.hub_auth.get_user(self, sync=False)
        if not model:
            self.fail(401, "the hub does not accept this token")
            return None
        try:
            model = self.check_hub_user(model)
        except UserNotAllowed:
            self.fail(403, f"{model.get('kind', 'user')} {model.get('name')} may not use the grading service")
            return None
        if model.get("kind") != "user":
            self.fail(403, "only hub users may ask for a check")
            return None
        return model["name"]

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish({"error": self._reason})


class CheckHandler(Handler):
    async def post(self) -> None:
        user = await self.who()
        if user is None:
            return
        service = self.service
        try:
            body = json.loads(self.request.body[:MAX_BODY] or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict) or not isinstance(body.get("assignment"), str):
            return self.fail(400, 'send JSON {"assignment": "01_tensors", "path": "01_tensors/01_tensors.ipynb"}')
        assignment = body["assignment"]
        if body.get("user") not in (None, user):
            return self.fail(403, f"you are {user}: you can only check your own notebooks")
        if assignment not in service.assignments:
            return self.fail(404, f"unknown assignment {assignment!r}; known: {', '.join(sorted(service.assignments))}")
        path = body.get("path") or f"{assignment}/{assignment}.ipynb"
        if not isinstance(path, str):
            return self.fail(400, "path must be a string")
        now = datetime.now(UTC)
        try:
            notebook = read_in_home(service.cfg.home(user), path, service.cfg.limits.max_bytes)
        except Refused as exc:
            self._record(user, assignment, now, "refused", reason=exc.message)
            return self.fail(exc.status, exc.message)
        if user in service.busy:
            return self.fail(429, "your previous check is still running; its answer comes first")
        decision = service.limiter.admit(user, assignment, now)
        if not decision.allowed:
            retry = _whole_second(decision.retry_at)
            if retry is not None:
                self.set_header("Retry-After", str(max(1, int((retry - now).total_seconds() + 0.999))))
            when = f"; next check allowed at {retry.isoformat()}" if retry else "; no more checks"
            self._record(user, assignment, now, "refused", reason=decision.reason)
            return self.fail(429, decision.reason + when, retry_at=retry.isoformat() if retry else None)
        try:
            future = service.grader.submit(Submission(user, assignment, path, notebook))
        except Busy:
            service.limiter.forget(user, assignment, now)
            self._record(user, assignment, now, "busy")
            self.set_header("Retry-After", "30")
            return self.fail(503, "the grading service is busy (every worker and the queue are full): try in a minute")
        service.busy.add(user)
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(future), service.wait_s)
        except AutograderError as exc:  # the notebook is not a course notebook / cannot be read
            self._record(user, assignment, now, "error", reason=str(exc), seconds=time.monotonic() - started)
            return self.fail(422, str(exc))
        except Exception as exc:  # ours, not the student's: the traceback goes to the hub's log
            traceback.print_exception(exc)
            self._record(user, assignment, now, "error", reason=f"{type(exc).__name__}: {exc}")
            return self.fail(500, "the grading service failed on this request; the instructor can see it in the log")
        finally:
            service.busy.discard(user)
            service.limiter.answered(user, assignment, datetime.now(UTC))
        seconds = time.monotonic() - started
        self._record(
            user,
            assignment,
            now,
            "graded",
            score=result["score"],
            max_score=result["max_score"],
            status=result["status"],
            seconds=seconds,
        )
        following = service.limiter.admit(user, assignment, dry_run=True)
        nxt = _whole_second(following.retry_at).isoformat() if following.retry_at else None
        self.finish({"result": result, "next_at": nxt, "limit": following.reason})

    def _record(self, user: str, assignment: str, now: datetime, outcome: str, **fields: Any) -> None:
        if fields.get("seconds") is not None:
            fields["seconds"] = round(fields["seconds"], 3)
        self.service.log.append(Entry(user, assignment, now.isoformat(), outcome, **fields))


def _whole_second(moment: datetime | None) -> datetime | None:
    """``moment`` rounded up to a whole second (a client that waits until then is let in)."""
    if moment is None or not moment.microsecond:
        return moment
    return moment.replace(microsecond=0) + timedelta(seconds=1)


class LogHandler(Handler):
    async def get(self) -> None:
        user = await self.who()
        if user is None:
            return
        student = self.get_argument("student", None)
        if user not in self.service.cfg.instructors:
            if student not in (None, user):
                return self.fail(403, "only an instructor can read other students' requests")
            student = user
        entries = self.service.log.read(student=student, assignment=self.get_argument("assignment", None))
        self.finish({"entries": entries})


class LimitsHandler(Handler):
    async def get(self) -> None:
        if await self.who() is None:
            return
        limits = asdict(self.service.cfg.limits)
        limits["deadlines"] = {k: v.isoformat() for k, v in self.service.cfg.limits.deadlines.items()}
        self.finish(limits)


def make_app(service: Service, prefix: str) -> web.Application:
    prefix = prefix.rstrip("/") + "/"
    return web.Application(
        [
            (prefix + "api/check", CheckHandler),
            (prefix + "api/log", LogHandler),
            (prefix + "api/limits", LimitsHandler),
        ],
        service=service,
    )


def main() -> None:
    """Run as the hub starts it (JUPYTERHUB_SERVICE_URL, _PREFIX, _API_TOKEN set by the hub)."""
    from urllib.parse import urlparse

    try:
        cfg = config_mod.from_env()
    except AutograderError as exc:
        raise SystemExit(f"grading service: {exc}") from None
    limits = RunLimits(cell_timeout=cfg.cell_timeout, notebook_timeout=cfg.notebook_timeout, memory=cfg.memory)
    homes_root = Path(cfg.homes.split("{username}")[0] or "/home")
    hidden = [homes_root, cfg.state]
    grader = Grader(
        cfg.course, workers=cfg.workers, queue_size=cfg.queue, limits=limits, hidden=hidden, scratch=cfg.state / "tmp"
    )
    service = Service(cfg, grader)  # answers at once (the hub waits for that); the engines start meanwhile
    url = urlparse(os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:8002"))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/grader/")
    server = HTTPServer(make_app(service, prefix), max_body_size=MAX_BODY * 10)
    server.listen(url.port or 80, url.hostname or "127.0.0.1")
    print(f"grading service on {url.geturl()}{prefix}: {cfg.workers} workers, course {cfg.course}", flush=True)
    loop = IOLoop.current()
    signal.signal(signal.SIGTERM, lambda *_: loop.add_callback_from_signal(loop.stop))
    try:
        loop.start()
    finally:
        grader.close()
