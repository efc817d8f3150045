"""The judge: runs the instructor's cells and test cells in a process that never runs learner code.

The learner's process runs the submission (``autograder.child.learner``); the judge steps through the
instructor's notebook beside it. Before each test cell it has the learner run the submission's cells up
to that point, then binds every name the instructor's solution cells define: data (numbers, tensors,
models made of torch layers) as a rebuilt value, anything else as a :class:`Remote` that calls into the
learner's process. Every point is decided here, from values the judge itself checked.

A learner process that dies, hangs or breaks the protocol fails every test that still needed it
(:class:`LearnerGone` is a ``BaseException``: a test's ``except Exception`` cannot turn it into a pass).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from autograder.child.calls import LearnerError, Request, raised_by_learner
from autograder.child.codec import DEFAULT_LIMITS, CodecError, Handle, JudgeDecoder, MessageLimits, qualified
from autograder.child.learner import WALL_FACTOR, CellTimeout, Server, captured, deadline
from autograder.notebooks import cell_names
from autograder.wire.protocol import ChannelClosed, ChannelTimeout, recv, send
from autograder.wire.schema import CellResult, Done, Lost, Origin, Step, StepKind, TestResult
from course import remote

GRACE_S = 5.0  # how much longer than its own limit the judge waits for the learner to answer
OUTPUT_BUDGET = 2_000_000  # characters of learner cell output kept per notebook


class LearnerGone(BaseException):
    """The learner's process can no longer answer (it exited, crashed, hung or broke the protocol)."""


LOST_MESSAGES = {  # for people only: the engine never reads them
    Lost.HUNG: "学习者的进程在 {wait:g} 秒内没有响应（卡住了，无法停止），之后的测试都无法运行",
    Lost.EXITED: "学习者的进程已经结束（崩溃或退出），之后的测试都无法运行",
    Lost.GARBLED: "学习者的进程发来了无法读取的消息（{detail}），之后的测试都无法运行",
    Lost.OVERRAN: "测试单元超时时学习者的进程还在运行，之后的测试都无法运行",
}


# ---------------------------------------------------------------------------------------------------
# Channels: how requests reach the learner


class SocketChannel:
    """Requests over a stream socket to a learner process (``autograder.child.learner.Server.serve``)."""

    def __init__(self, sock: Any, limits: MessageLimits = DEFAULT_LIMITS) -> None:
        self.sock = sock
        self.limits = limits

    def exchange(self, header: dict[str, Any], buffers: list[Any], timeout: float | None) -> tuple[dict, list]:
        send(self.sock, header, buffers)
        due = time.monotonic() + timeout if timeout else None
        return recv(self.sock, deadline=due, limits=self.limits)

    def close(self) -> None:
        try:
            send(self.sock, {"op": "bye"})
        except OSError:
            pass


class LoopbackChannel:
    """Requests to a learner Server in this same process, through the same encoding (tests, mutants)."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.limits = DEFAULT_LIMITS

    def exchange(self, header: dict[str, Any], buffers: list[Any], timeout: float | None) -> tuple[dict, list]:
        import json

        from course import remote

        wire = json.loads(json.dumps(header, ensure_ascii=False, allow_nan=False))
        judging, remote.IN_JUDGE = remote.IN_JUDGE, False  # the learner's side, as in its own process
        try:
            reply, reply_buffers = self.server.handle(wire, [bytearray(memoryview(b).cast("B")) for b in buffers])
        finally:
            remote.IN_JUDGE = judging
        back = json.loads(json.dumps(reply, ensure_ascii=False, allow_nan=False))
        return back, [bytearray(memoryview(b).cast("B")) for b in reply_buffers]

    def close(self) -> None:
        pass


# ---------------------------------------------------------------------------------------------------
# The learner, seen from the judge


class Learner:
    """The judge's side of the channel: run a learner cell, call a learner object, read names."""

    def __init__(self, channel: Any, *, timeout: float | None = None) -> None:
        self.channel = channel
        self.timeout = timeout
        self.lost: str = ""  # why the learner can no longer answer, for people; '' while it can
        self.lost_reason: Lost | None = None  # the same, as a field
        self.output_kept = 0
        self._next_id = 0

    def _exchange(self, header: dict[str, Any], buffers: list[Any]) -> tuple[dict, list]:
        if self.lost:
            raise LearnerGone(self.lost)
        self._next_id += 1
        header = {**header, "id": self._next_id}
        wait = WALL_FACTOR * self.timeout + GRACE_S if self.timeout else None
        try:
            reply, reply_buffers = self.channel.exchange(header, buffers, wait)
        except ChannelTimeout:
            self._lose(Lost.HUNG, wait=wait)
        except (ChannelClosed, OSError):
            self._lose(Lost.EXITED)
        except (CodecError, ValueError, TypeError, OverflowError, MemoryError) as exc:
            self._lose(Lost.GARBLED, detail=str(exc)[:200])
        except CellTimeout:  # the judge's own cell ran out of time while waiting: the channel is out of step
            self._lose(Lost.OVERRAN)
            raise
        else:
            if not isinstance(reply, dict) or reply.get("id") != self._next_id:
                self._lose(Lost.GARBLED, detail="不属于这次请求 (reply to another request)")
            else:
                return reply, reply_buffers
        raise LearnerGone(self.lost)

    def _lose(self, reason: Lost, **values: Any) -> None:
        self.lost_reason = reason
        self.lost = LOST_MESSAGES[reason].format(**values)

    def run_cell(self, source: str) -> dict[str, Any]:
        """Run one of the submission's cells in the learner's process; its outputs and error as data.

        The outputs kept for the whole notebook are capped (``OUTPUT_BUDGET``): what a submission prints
        cannot fill the judge's memory or the graded notebook."""
        reply, _ = self._exchange({"op": "run", "source": source}, [])
        kept = {}
        for name in ("stdout", "stderr"):
            text = str(reply.get(name, ""))[:200_000]
            room = max(0, OUTPUT_BUDGET - self.output_kept)
            if len(text) > room:
                text = text[:room] + "\n[... output dropped: this notebook printed more than the grader keeps]\n"
            self.output_kept += min(len(text), room)
            kept[name] = text
        return {**kept, "timeout": bool(reply.get("timeout")), "error": _error_pair(reply.get("error"))}

    def call(self, op: str, target: list[Any], args: tuple = (), kwargs: dict | None = None, **extra: Any) -> Any:
        request = Request.make(op, target, args, kwargs, **extra)
        reply, buffers = self._exchange(request.header, request.buffers)
        value, warned, stdout = request.outcome(reply, buffers, self._remote, self.channel.limits)
        _rewarn(warned)
        if stdout:
            print(stdout, end="" if stdout.endswith("\n") else "\n")
        return value

    def names(self, names: list[str]) -> dict[str, tuple[str, Any]]:
        """For each name: ("data", value), ("remote", None) or ("missing", None)."""
        reply, buffers = self._exchange({"op": "names", "names": list(names)}, [])
        entries = reply.get("names", [])
        if not isinstance(entries, list):
            raise LearnerError("学习者的进程发来的变量列表格式不对 (names)")
        found: dict[str, tuple[str, Any]] = {}
        dec = JudgeDecoder(buffers, remote=self._remote, limits=self.channel.limits)  # one for all: names
        for entry in entries:  # share objects (an optimizer over a model's parameters)
            if not (isinstance(entry, list) and len(entry) == 3):
                raise LearnerError("学习者的进程发来的变量列表格式不对 (names)")
            name, kind, tree = entry
            if name not in names or kind not in ("data", "remote", "missing"):
                continue
            if kind != "data":
                found[name] = (kind, None)
                continue
            try:  # one name at a time: a value the judge refuses fails only the tests that use it
                found[name] = ("data", dec.decode(tree))
            except Exception as exc:  # noqa: BLE001 - a learner's value the judge cannot rebuild
                found[name] = ("data", Refused(name, str(exc)[:300]))
        return found

    def _remote(self, info: Handle) -> Remote:
        return remote_of(info.type)(self, ["handle", info.id], info)

    def close(self) -> None:
        if not self.lost:
            self.channel.close()


def _error_pair(value: Any) -> tuple[str, str] | None:
    if isinstance(value, list) and len(value) == 2:
        return (str(value[0])[:100], str(value[1])[:4000])
    return None


def _rewarn(warned: list[tuple[str, str]]) -> None:
    """Re-issue the learner's warnings here, so checks.call_learner sees them as in a kernel."""
    import builtins
    import warnings

    for name, message in warned:
        category = getattr(builtins, name, None)
        if not (isinstance(category, type) and issubclass(category, Warning)):
            category = UserWarning
        warnings.warn(message, category, stacklevel=3)


class RefusedValue(Exception):
    """A test used a learner's value the judge refused to rebuild (not data it accepts)."""


class Refused:
    """The judge's stand-in for a learner's value it refused: any use fails, naming the value and why."""

    __slots__ = ("_name", "_why")

    def __init__(self, name: str, why: str) -> None:
        self._name, self._why = name, why

    @property
    def message(self) -> str:
        return f"学习者的变量 {self._name} 无法交给评分器 (not data)：{self._why}"

    def _fail(self, *_args: Any, **_kwargs: Any) -> Any:
        raise RefusedValue(self.message)

    __call__ = __getattr__ = __getitem__ = __iter__ = __len__ = __bool__ = __float__ = __int__ = __index__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __matmul__ = __neg__ = _fail
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __contains__ = _fail  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<学习者的变量 {self._name}：评分器拒收 (refused)：{self._why}>"


class Remote:
    """The judge's stand-in for a learner object that is not data: calls and attribute reads go there."""

    __slots__ = ("_learner", "_target", "_info")

    def __init__(self, learner: Learner, target: list[Any], info: Handle | None = None) -> None:
        self._learner = learner
        self._target = target
        self._info = info

    @property
    def __learner_target__(self) -> list[Any]:
        return self._target

    @property
    def __learner_type__(self) -> str:
        """The name of the learner object's class (``course.remote.type_name``)."""
        return self._info.type if self._info is not None else "function"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._learner.call("call", self._target, args, kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return self._learner.call("getattr", self._target, name=name)

    def __learner_run__(self, scenario: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
        return self._learner.call("call", ["fixture", qualified(scenario)], args, kwargs)

    def _method(self, name: str, *args: Any) -> Any:
        return self._learner.call("getattr", self._target, name=name)(*args)

    def __iter__(self) -> Iterator[Any]:
        iterator = self._method("__iter__")
        while True:
            try:
                yield iterator._method("__next__") if isinstance(iterator, Remote) else next(iterator)
            except StopIteration:
                return

    def __len__(self) -> int:
        value = self._method("__len__")
        if type(value) is not int:
            raise TypeError("__len__ 应返回 int")
        return value

    def __getitem__(self, key: Any) -> Any:
        return self._method("__getitem__", key)

    def __repr__(self) -> str:
        if self._info is not None:
            return f"<学习者的 {self._info.type}: {self._info.repr}>"
        return f"<学习者的 {self._target[1]}>"


# ---------------------------------------------------------------------------------------------------
# Running the instructor's notebook against the learner


@dataclass
class Report:
    """Everything the judge tells the grader about one submission."""

    tests: dict[str, TestResult] = field(default_factory=dict)
    cells: dict[int, CellResult] = field(default_factory=dict)  # learner cell index -> outputs
    lost_at: tuple[str, int | str] | None = None  # ("cell", index) or ("test", grade_id): where the learner went
    lost: str = ""  # why, for people
    lost_reason: Lost | None = None  # why, as a field

    def done(self) -> Done:
        """The judge's last message to the parent."""
        return Done(self.lost_at, self.lost, self.lost_reason)


def run_plan(
    plan: dict[str, Any],
    learner: Learner,
    *,
    cell_timeout: float | None = None,
    on_result: Callable[[TestResult | CellResult], None] | None = None,
    namespace: dict[str, Any] | None = None,
) -> Report:
    """Step through ``plan`` (see ``autograder.notebooks.Plan.to_json``) against ``learner``; each result
    goes to ``on_result`` as it is decided. The instructor's cells run in ``namespace`` (a fresh module
    namespace when None; tests pass the one an earlier plan left). A plan that breaks the schema raises
    ValueError."""
    remote.IN_JUDGE = True
    report = Report()
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    steps = [Step.from_dict(step) for step in plan["steps"]]
    learner_cells = plan["learner"]
    skip_cells, skip_tests = set(plan.get("skip_cells", [])), dict(plan.get("skip_tests", {}))
    done = 0
    answer_names: list[str] = []

    def sync(upto: int) -> None:
        nonlocal done
        while done < upto and not learner.lost:
            cell = learner_cells[done]
            done += 1
            if cell["index"] in skip_cells:
                continue
            try:
                result = learner.run_cell(cell["source"])
            except LearnerGone:
                report.lost_at, report.lost = ("cell", cell["index"]), learner.lost
                report.lost_reason = learner.lost_reason
                return
            outputs = CellResult(cell["index"], **result)
            report.cells[cell["index"]] = outputs
            if on_result is not None:
                on_result(outputs)

    for step in steps:
        if step.kind is StepKind.ANSWER:
            answer_names.extend(n for n in step.names if n not in answer_names)
            continue
        if step.kind is StepKind.SETUP:
            if step.learner and not learner.lost:  # it uses the learner's answers: bind them first
                sync(step.next_upto)
                try:
                    _bind(namespace, learner, answer_names)
                except (Exception, LearnerGone):  # noqa: BLE001 - whatever the learner sent, the setup goes on
                    pass
            with captured(), deadline(cell_timeout):
                try:
                    exec(compile(step.source, "<instructor cell>", "exec"), namespace)
                except (Exception, CellTimeout, LearnerGone):  # noqa: BLE001 - setup errors fail no test
                    pass
            continue
        gid = step.grade_id
        if gid in skip_tests:
            result = TestResult(gid, False, ("Crashed", str(skip_tests[gid])), origin=Origin.CRASHED)
        else:
            sync(step.upto)
            result = _run_test(step, namespace, learner, answer_names, cell_timeout)
            if learner.lost and report.lost_at is None:
                report.lost_at, report.lost = ("test", gid), learner.lost
                report.lost_reason = learner.lost_reason
        report.tests[gid] = result
        if on_result is not None:
            on_result(result)
    learner.close()
    return report


def _bind(namespace: dict[str, Any], learner: Learner, names: list[str]) -> None:
    for name, (kind, value) in learner.names(names).items():
        if kind == "data":
            namespace[name] = value
        elif kind == "remote":
            namespace[name] = Remote(learner, ["name", name])
        else:
            namespace.pop(name, None)


def _run_test(
    step: Step, namespace: dict[str, Any], learner: Learner, names: list[str], timeout: float | None
) -> TestResult:
    gid = step.grade_id
    if learner.lost:
        return TestResult(gid, False, ("LearnerGone", learner.lost), lost=learner.lost, origin=Origin.GONE)
    error: tuple[str, str] | None = None
    origin: Origin | None = None
    mistake = ""
    timed_out = False
    with captured() as (out, _err):
        try:
            with deadline(timeout):
                if names:
                    _bind(namespace, learner, names)
                exec(compile(step.source, f"<test {gid}>", "exec"), namespace)
        except CellTimeout:
            timed_out = True
            error, origin = ("CellTimeout", f"这个测试单元运行超过 {timeout:g} 秒，被停止"), Origin.TIMEOUT
        except LearnerGone as exc:
            error, origin = ("LearnerGone", str(exc)), Origin.GONE
        except Exception as exc:  # noqa: BLE001 - a failed test
            error, origin = (type(exc).__name__, str(exc)[:4000]), _origin(exc)
            mistake = _mistake(exc, origin)
    refused = [v for n in cell_names(step.source).used if isinstance(v := namespace.get(n), Refused)]
    if refused and not learner.lost:  # a test that uses a refused value never passes, and says which value
        error, origin, mistake = ("RefusedValue", refused[0].message), Origin.TEST, ""
    if learner.lost and error is None:  # belt and braces: a test the learner could not finish never passes
        error, origin = ("LearnerGone", learner.lost), Origin.GONE
    return TestResult(gid, error is None, error, out.value(), timed_out, learner.lost, origin, mistake)


def _mistake(exc: Exception, origin: Origin) -> str:
    """The catalogue id a check's failure carries (an attribute the check set in this process), or ''."""
    from course import mistakes
    from course.checks import CheckError

    if origin != Origin.CHECK or not isinstance(exc, CheckError):
        return ""
    return mistakes.checked(getattr(exc, "mistake", ""))


def _origin(exc: Exception) -> Origin:
    """Who wrote a failed test's error, from what it is (never from its name): the learner's code (an
    exception rebuilt from the learner's process), a check (course.checks.CheckError, or a test cell's
    own ``assert``), or the test code's own error (a name the learner never defined, ...)."""
    from course.checks import CheckError

    if raised_by_learner(exc):
        return Origin.LEARNER
    if isinstance(exc, (CheckError, AssertionError)):
        return Origin.CHECK
    return Origin.TEST


_REMOTE_CLASSES: dict[str, type[Remote]] = {}


def remote_of(type_name: str) -> type[Remote]:
    """A :class:`Remote` class named as the learner object's class (``NamedAdamW``), so that a message built from
    ``type(x).__name__`` names what the learner made, not the stand-in; no learner code in it, only its name."""
    name = type_name if type_name.isidentifier() and len(type_name) <= 64 else "Remote"
    if name not in _REMOTE_CLASSES:
        _REMOTE_CLASSES[name] = type(name, (Remote,), {"__slots__": (), "__module__": "learner", "__qualname__": name})
    return _REMOTE_CLASSES[name]
