"""Grading on a Dask cluster: the same engine on every worker; results come back to the one client that writes.

``grade --cluster ADDRESS`` connects to a Dask scheduler (``local:N`` starts N local worker processes). Each
submission becomes one Dask task carrying its plan as JSON: the instructor's cells, the submission's cells
and the points. A worker runs it through its own sandboxed engine (a learner zygote and a judge zygote,
started once per worker process and kept for its life), reruns included, and returns the outcome as JSON.
Workers need the course package, the data and bubblewrap, never the submissions or the output folder.

A worker that dies mid-notebook (killed, lost from the network) makes the scheduler run the task again on
another worker; after ``ALLOWED_FAILURES`` such deaths the task fails with KilledWorker and the submission
ends as ``crashed``. Only the client writes the journal, CSVs, feedback pages and gradebook, once per
result, so a record is never lost or doubled and ``--resume`` works as without a cluster.
"""

from __future__ import annotations

import atexit
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from autograder.errors import AutograderError
from autograder.notebooks import Plan
from autograder.parent import engine
from autograder.parent.pool import RunLimits
from autograder.wire.schema import Status, Verdict

ALLOWED_FAILURES = 2  # worker deaths a task may cause before it counts as crashed (local clusters)

_POOLS = engine.PoolCache()  # this worker process's engines, kept until it exits
_POOL_LOCK = threading.Lock()  # a worker with several threads runs one submission at a time per engine
atexit.register(_POOLS.close)


def grade_on_worker(payload: dict[str, Any]) -> dict[str, Any]:
    """Runs on a Dask worker: one submission through the worker's engine; its outcome as JSON."""
    limits = RunLimits(**payload["limits"])
    job = engine.Job(key=payload["key"], plan=Plan.from_dict(payload["plan"]))
    with _POOL_LOCK:
        pool = _POOLS.get(payload["mode"], limits, tuple(payload["hidden"]))
        return engine.run_one(pool, job).to_json()


def warm_worker(settings: dict[str, Any]) -> None:
    """Runs on a Dask worker: start its engine now, while the client still prepares the first submissions."""
    with _POOL_LOCK:
        _POOLS.get(settings["mode"], RunLimits(**settings["limits"]), tuple(settings["hidden"]))


def connect(address: str):  # -> (distributed.Client, LocalCluster | None)
    """A client for the scheduler at ``address``, or a new local cluster for ``local:N``."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise AutograderError("--cluster needs Dask: pip install 'distributed' (or .[cluster])") from None
    if address.startswith("local:"):
        try:
            workers = int(address.removeprefix("local:"))
        except ValueError:
            raise AutograderError(f"--cluster {address!r}: use local:N with N worker processes, e.g. local:2") from None
        if workers < 1:
            raise AutograderError("--cluster local:N needs N >= 1")
        dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES})
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=50,
        )
        return Client(cluster), cluster
    try:
        return Client(address, timeout="30s"), None
    except (OSError, TimeoutError, ValueError) as exc:
        raise AutograderError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def run_jobs(
    address: str,
    jobs: Iterable[engine.Job],
    *,
    mode: str,
    limits: RunLimits,
    hidden: list[Path],
    on_done: Callable[[engine.Job, engine.Outcome], None],
) -> None:
    """Every job as a task on the cluster; ``on_done`` runs here, in the client, as each result arrives.

    The workers start their engines first; jobs are then taken from ``jobs`` (prepared by the caller as it
    goes) only while fewer than two per worker are in flight, so preparing the next submissions overlaps
    those running, as in a local run.
    """
    from distributed import as_completed

    upcoming = iter(jobs)
    first = next(upcoming, None)
    if first is None:
        return
    settings = {"mode": mode, "limits": vars(limits), "hidden": [str(h) for h in hidden]}
    client, cluster = connect(address)
    try:
        workers = list(client.scheduler_info()["workers"])
        # held until the end: Dask drops a task whose future nobody holds
        _warming = [client.submit(warm_worker, settings, workers=[w], pure=False) for w in workers]
        in_flight = as_completed()
        by_future: dict[Any, engine.Job] = {}

        def fill(job: engine.Job | None) -> None:
            window = 2 * max(1, len(client.scheduler_info()["workers"]))  # workers may join while we grade
            while job is not None:
                payload = {"key": job.key, "plan": job.plan.to_dict(), **settings}
                future = client.submit(grade_on_worker, payload, key=f"grade-{job.key}-{id(job)}", pure=False)
                by_future[future] = job
                in_flight.add(future)
                if len(by_future) >= window:
                    return
                job = next(upcoming, None)

        fill(first)
        for future in in_flight:
            job = by_future.pop(future)
            try:
                result = engine.Outcome.from_json(future.result())
            except Exception as exc:  # noqa: BLE001 - KilledWorker, or a worker that could not start
                result = _crashed(job, exc)
            on_done(job, result)  # saved before the next submission is prepared (the window keeps workers busy)
            fill(next(upcoming, None))
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _crashed(job: engine.Job, exc: BaseException) -> engine.Outcome:
    name = type(exc).__name__
    if name == "KilledWorker":
        note = f"这个提交让评分节点 (worker) 崩溃了 {ALLOWED_FAILURES + 1} 次，没有得分"
    else:
        note = f"评分节点出错：{name}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"
    maximum = job.plan.points
    questions = [
        Verdict(gid, 0.0, maximum.get(gid, 0.0), Status.FAILED, note, engine.UNKNOWN_MISTAKE) for gid in job.plan.tests
    ]
    return engine.Outcome(questions, {}, Status.CRASHED, note)
