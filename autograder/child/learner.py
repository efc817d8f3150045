"""The learner side: runs the submission's own cells and answers the judge's calls, nothing else.

It never sees a test cell: the judge sends it the submission's non-test cells one at a time and then
calls the functions those cells defined. Whatever learner code does to this process (rebinding names,
patching torch, entering modes, tracing) stays here: only data goes back (see ``autograder.child.calls``).

Requests (``op``): ``run`` (one cell), ``call`` (a learner object, or a ``course`` scenario, on arguments),
``getattr``, ``names`` (which answer names exist and their values as data) and ``bye``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import torch

from autograder.child import integrity
from autograder.child.calls import Incoming
from autograder.child.codec import CodecError, LearnerEncoder
from autograder.wire.protocol import DEFAULT_LIMITS, ChannelClosed, recv, send
from course import cellflags, hooks, settings, writes

OUTPUT_CAP = 100_000  # characters kept per stream per cell or call


class CellTimeout(BaseException):
    """Raised by SIGALRM in a cell or call that ran past its time (`except Exception` cannot swallow it)."""


class CappedWriter(io.TextIOBase):
    """A text stream that keeps the first OUTPUT_CAP characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.dropped = 0

    def write(self, text: str) -> int:
        text = str(text)
        room = OUTPUT_CAP - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def isatty(self) -> bool:
        return False

    def value(self) -> str:
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters of output dropped by the grader]\n"
        return text


WALL_FACTOR = 3  # a cell that sleeps instead of computing is stopped after this many times its limit


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise CellTimeout in this (main) thread after ``seconds`` of this process's own CPU time, or after
    ``WALL_FACTOR * seconds`` of wall time (a sleeping cell); None: no limit.

    CPU time, not wall time: another submission hogging the machine cannot make this one's cells time out.
    """
    if not seconds:
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise CellTimeout()

    previous = {sig: signal.signal(sig, on_alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, float(seconds))
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * float(seconds))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in previous.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def captured() -> Iterator[tuple[CappedWriter, CappedWriter]]:
    out, err = CappedWriter(), CappedWriter()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        yield out, err
    finally:
        sys.stdout, sys.stderr = saved


def exec_cell(namespace: dict[str, Any]) -> Callable[[str], BaseException | None]:
    """A cell runner without IPython (tests, loopback): ``exec`` in ``namespace``; returns the error."""

    def run(source: str) -> BaseException | None:
        try:
            exec(compile(source, "<cell>", "exec"), namespace)
        except Exception as exc:  # noqa: BLE001 - a learner's error is a result, not a crash
            return exc
        return None

    return run


class Server:
    """Answers one judge: ``handle(header, buffers)`` -> reply; ``serve(sock)`` loops until ``bye``."""

    def __init__(
        self,
        namespace: dict[str, Any],
        run_source: Callable[[str], BaseException | None],
        *,
        timeout: float | None = None,
        guard: bool = False,
    ) -> None:
        self.namespace = namespace
        self.run_source = run_source
        self.timeout = timeout
        self.handles: list[Any] = []
        # the grader's code as it is now, before any learner cell: checked around every course scenario. Off where
        # the judge shares this process (tests): its own module state would read as changed
        self.baseline = integrity.Baseline() if guard else None
        # True while the last request was a scenario call checked after it: of the learner's code, only what the
        # encoding of that reply and the decoding of the next request's arguments call can have run since (the
        # same reach as code inside a call, which the check after it sees), so the next scenario call needs no
        # check before it. A notebook makes hundreds of scenario calls in a row; a check costs about 1.5 ms.
        self._checked_since = False

    # -- the loop

    def serve(self, sock: Any) -> None:
        while True:
            try:
                header, buffers = recv(sock)
            except (ChannelClosed, CodecError, OSError):
                return
            if header.get("op") == "bye":
                return
            reply, reply_buffers = self.handle(header, buffers)
            try:
                send(sock, reply, reply_buffers)
            except OSError:
                return

    def handle(self, header: dict[str, Any], buffers: list[bytearray]) -> tuple[dict[str, Any], list[Any]]:
        """The reply to one request; one the judge would refuse for its size becomes an error reply here, so
        the channel stays open and the test that asked reports the size."""
        reply, reply_buffers = self._answer(header, buffers)
        size = _nbytes(reply_buffers)
        if size > DEFAULT_LIMITS.max_bytes:
            limit = DEFAULT_LIMITS.max_bytes // 2**20
            message = f"返回值（连同被改动的参数）有 {size // 2**20} MiB，超过评分器能接收的 {limit} MiB"
            return {"id": header.get("id"), "error": ["ReplyError", message], "updates": [], "storages": []}, []
        return reply, reply_buffers

    def _answer(self, header: dict[str, Any], buffers: list[bytearray]) -> tuple[dict[str, Any], list[Any]]:
        op = header.get("op")
        checked, self._checked_since = self._checked_since, False  # any request may run the learner's code
        base = {"id": header.get("id")}
        if op == "run":
            return {**base, **self._run(str(header.get("source", "")))}, []
        if op == "names":
            reply, reply_buffers = self._names(header.get("names", []))
            return {**base, **reply}, reply_buffers
        if op in ("call", "getattr"):
            reply, reply_buffers = self._call(header, buffers, checked=checked)
            return {**base, **reply}, reply_buffers
        return {**base, "error": ["ProtocolError", f"unknown op {op!r}"], "updates": [], "storages": []}, []

    # -- operations

    def _run(self, source: str) -> dict[str, Any]:
        cellflags.note_cell(source, self.namespace)  # its top-level flags, computed again where a GPU is played
        timed_out = False
        error: BaseException | None = None
        with captured() as (out, err):
            try:
                with deadline(self.timeout):
                    error = self.run_source(source)
            except CellTimeout:
                timed_out = True
        if isinstance(error, CellTimeout):  # IPython's run_cell reports what it caught, BaseExceptions too
            timed_out, error = True, None
        result: dict[str, Any] = {"stdout": out.value(), "stderr": err.value(), "timeout": timed_out, "error": None}
        if timed_out:
            result["error"] = ["CellTimeout", f"这个单元运行超过时限（{self.timeout:g} 秒 CPU 时间），被停止"]
        elif error is not None:
            result["error"] = [type(error).__name__, str(error)[:2000]]
        return result

    def resolve(self, target: Any) -> Any:
        if not isinstance(target, list) or len(target) != 2:
            raise CodecError("bad target")
        kind, key = target
        if kind == "name":
            if key not in self.namespace:
                raise NameError(f"name {key!r} is not defined")
            return self.namespace[key]
        if kind == "handle":
            if not isinstance(key, int) or not 0 <= key < len(self.handles):
                raise CodecError("bad handle")
            return self.handles[key]
        if kind == "fixture":
            module_name, _, qualname = str(key).partition(":")
            obj: Any = importlib.import_module(module_name)
            for part in qualname.split("."):
                obj = getattr(obj, part)
            return obj
        raise CodecError(f"bad target kind {kind!r}")

    def _call(
        self, header: dict[str, Any], buffers: list[bytearray], *, checked: bool = False
    ) -> tuple[dict[str, Any], list[Any]]:
        try:
            incoming = Incoming.read(header, buffers, self.resolve)
        except Exception as exc:  # noqa: BLE001 - a NameError for a missing answer, or a bad request
            return {"error": [type(exc).__name__, str(exc)[:2000]], "updates": [], "storages": []}, []
        value, error = None, None
        scenario = self.baseline is not None and _is_fixture(header.get("target"))
        # a cell (or a call outside a scenario) changed it: put back, and this call fails
        tampered = [self.baseline.change()] if scenario and not checked else []
        with captured() as (out, _err), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            before, hooks_before = settings.snapshot(), hooks.snapshot((incoming.args, incoming.kwargs))
            given = [t for t in incoming.objects.values() if isinstance(t, torch.Tensor)]
            watch = None if writes.has_module(list(incoming.objects.values())) else writes.watched(given)
            try:
                with deadline(self.timeout):
                    target = self.resolve(header.get("target"))
                    hooks_before += hooks.snapshot(target) if header.get("op") != "getattr" else []
                    if header.get("op") == "getattr":
                        value = getattr(target, str(header.get("name")))
                    else:
                        with watch or contextlib.nullcontext():
                            value = target(*incoming.args, **incoming.kwargs)
            except CellTimeout:
                error = CellTimeout(f"调用运行超过时限（{self.timeout:g} 秒 CPU 时间），被停止")
            except Exception as exc:  # noqa: BLE001 - the learner's exception goes back as data
                error = exc
            writes.mark_written(watch)  # a write through .data: the reply's "written" names it too
            changed = settings.restore_changed(before)  # at once: the next call runs as the first did
            on_callers = hooks.left_on_callers(hooks_before)  # hooks or methods left on its modules, taken off
            if on_callers and not changed:
                changed = [on_callers]
            if scenario:
                tampered.append(self.baseline.change())  # the call changed it (and did not put it back)
                self._checked_since = True
            changed = [t for t in tampered if t is not None][:1] or changed
        warned = [[type(w.message).__name__, str(w.message)[:2000]] for w in caught[:20]]
        extra = {"setting": list(changed[0])} if changed else {}
        return incoming.reply(self.handles, value=value, error=error, warnings=warned, stdout=out.value(), **extra)

    def _names(self, names: Any) -> tuple[dict[str, Any], list[Any]]:
        enc = LearnerEncoder(handles=self.handles)
        found: list[list[Any]] = []
        for name in names if isinstance(names, list) else []:
            if not isinstance(name, str) or name not in self.namespace:
                found.append([name, "missing", None])
                continue
            mark = enc.checkpoint()
            try:
                tree = enc.encode(self.namespace[name])
                if _nbytes(enc.buffers[mark[0] :]) > DEFAULT_LIMITS.max_bytes:
                    raise CodecError("too large to send")  # a handle: its calls answer for their own size
            except Exception:  # noqa: BLE001 - not data (or a learner __repr__ raised): called by name
                enc.rollback(mark)
                tree = {"$handle": {}}
            if isinstance(tree, dict) and "$handle" in tree:
                found.append([name, "remote", None])
            else:
                found.append([name, "data", tree])
        return {"names": found}, enc.buffers


def _is_fixture(target: Any) -> bool:
    """Whether a call's target is a ``course`` scenario (``["fixture", "course.x:name"]``), not a learner object."""
    return isinstance(target, list) and len(target) == 2 and target[0] == "fixture"


def _nbytes(buffers: list[Any]) -> int:
    return sum(memoryview(b).nbytes for b in buffers)
